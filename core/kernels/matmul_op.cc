// MatMul, BatchMatMul and BatchMatMulV2. Large products go through Eigen's tensor contraction on
// the intra-op pool (the multithreaded blocked GEMM TensorFlow itself uses); batches of small
// matrices run one matrix per task with a single-threaded Eigen product; a product of one to four
// rows (a batch-1 dense layer) is split by columns over the pool when b is large. Half and
// bfloat16 are computed in float, int16 in int32. Complex products always take the
// single-threaded product (a batch still spreads over the pool): the threaded contraction is the
// costliest template here to compile, and real models rarely multiply large complex matrices.
#include "core/kernels/matmul_op.h"

#include <algorithm>

#include "core/framework/openmp_team.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

#ifdef SG_HAVE_DNNL
#include <omp.h>

#include "dnnl.h"
#endif

namespace sg {
namespace {

using Device = Eigen::ThreadPoolDevice;

// Products with fewer multiply-adds than this run on one thread.
constexpr int64_t kSmallProduct = 64 * 64 * 64;

// A product of at most this many rows (a batch-1 dense layer, an RNN step) is a matrix-vector
// product bound by reading b; with more than one intra-op thread it is split by columns of b
// (SplitColumns) once b has at least kSplitColumnsMinB elements. Measured on 2 cores, batch 1,
// 2 intra-op threads (bench/infer_bench, medians of 6 processes): the autoencoder's 784x256
// products went from 40-42 to 26-30 us; the LSTM's 156x512 steps, split too at a 64K limit, went
// from 430-490 to 586 us: between steps the pool thread falls asleep, and waking it (a futex
// call and a context switch per step, 12 and 4 per run) costs more than half a 320 KB product
// saves. Hence 128K elements (512 KB of float), above the LSTM's and below the autoencoder's.
constexpr int64_t kFewRows = 4;
constexpr int64_t kSplitColumnsMinB = 128 * 1024;

// Runs product(j0, j1) over [0, n) in chunks of columns on the caller's thread and up to
// d.numThreads() - 1 pool threads (ParallelForChunks: the caller never waits for a thread to
// wake). Chunks of whole cache lines of c, about four per participant for balance.
template <typename Product>
void SplitColumns(const Device& d, int64_t n, const Product& product) {
  const int helpers = d.numThreads() - 1;
  const int64_t chunk = std::max<int64_t>(16, (n / (4 * (helpers + 1)) + 15) / 16 * 16);
  ParallelForChunks(d, n, chunk, helpers, product);
}

template <typename T>
constexpr bool kIsComplex =
    std::is_same<T, complex64>::value || std::is_same<T, complex128>::value;

// Columns [j0, j1) of c = op(a) * op(b) with Eigen's single-threaded product (the same kernel
// whichever columns, so a split product equals the whole one).
template <typename T>
void ProductColumns(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n, bool ta,
                    bool tb, int64_t j0, int64_t j1) {
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Stride = Eigen::OuterStride<>;
  const int64_t w = j1 - j0;
  Eigen::Map<const Mat> A(a, ta ? k : m, ta ? m : k);
  Eigen::Map<Mat, 0, Stride> C(c + j0, m, w, Stride(n));
  if (!tb) {
    // b is [k, n]: the block is k rows of w columns, n apart.
    Eigen::Map<const Mat, 0, Stride> B(b + j0, k, w, Stride(n));
    if (ta) {
      C.noalias() = A.transpose() * B;
    } else {
      C.noalias() = A * B;
    }
  } else {
    // b is [n, k]: the block is rows j0..j1 of it.
    Eigen::Map<const Mat> B(b + j0 * k, w, k);
    if (ta) {
      C.noalias() = A.transpose() * B.transpose();
    } else {
      C.noalias() = A * B.transpose();
    }
  }
}

// c[m,n] = op(a) * op(b), where a is [m,k] ([k,m] when ta) and b is [k,n] ([n,k] when tb),
// all row-major. `threaded` picks the contraction on the pool (real types only); `may_split`
// lets a product of few rows use the pool (false on a pool task already: one matrix of a batch).
template <typename T>
void MatMulOne(const Device& d, bool threaded, bool may_split, const T* a, const T* b, T* c,
               int64_t m,
               int64_t k, int64_t n, bool ta, bool tb) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    std::fill(c, c + m * n, T(0));
    return;
  }
  // Few rows on more than one thread: see kFewRows.
  if constexpr (!kIsComplex<T>) {
    if (may_split && m <= kFewRows && d.numThreads() > 1 && k * n >= kSplitColumnsMinB) {
      SplitColumns(d, n, [&](int64_t j0, int64_t j1) {
        ProductColumns(a, b, c, m, k, n, ta, tb, j0, j1);
      });
      return;
    }
  }
#ifdef SG_HAVE_DNNL
  // oneDNN's sgemm picks AVX-512 code at run time and measured about 25% faster than Eigen's
  // product here (bench/core_bench.cc), and 2-2.5x faster at 8x784x256. It runs on OpenMP
  // threads: as many as the intra-op pool has, or one for small products. omp_set_num_threads
  // only affects the calling thread. A product of one to four rows (a batch-1 dense layer, an
  // RNN step) stays on Eigen's product below (split over the pool above): as fast or faster there
  // (1x784x256: 18-22 us against 21-47), and it spares a small model the 67 ms that sgemm
  // spends JIT-compiling its kernels on a process's first call (issue 15's first-run cost).
  if constexpr (std::is_same_v<T, float>) {
    if (m > kFewRows || threaded) {
      // With another kernel call already splitting its work (steps side by side), on this thread.
      const ParallelSection section;
      const bool team = threaded && section.alone() && d.numThreads() > 1;
      omp_set_num_threads(team ? d.numThreads() : 1);
      dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, 1.0f, a, ta ? m : k, b, tb ? k : n,
                 0.0f, c, n);
      if (team) NoteOpenMpTeamUsed();
      return;
    }
  }
#endif
  if constexpr (!kIsComplex<T>) {
    if (threaded) {
      using In = Eigen::TensorMap<Eigen::Tensor<const T, 2, Eigen::RowMajor, Eigen::DenseIndex>>;
      using Out = Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor, Eigen::DenseIndex>>;
      In ta_map(a, ta ? k : m, ta ? m : k), tb_map(b, tb ? n : k, tb ? k : n);
      Eigen::array<Eigen::IndexPair<Eigen::DenseIndex>, 1> dims{
          Eigen::IndexPair<Eigen::DenseIndex>(ta ? 0 : 1, tb ? 1 : 0)};
      Out(c, m, n).device(d) = ta_map.contract(tb_map, dims);
      return;
    }
  }
  ProductColumns(a, b, c, m, k, n, ta, tb, 0, n);
}

// The type a product of T is computed in: float for half and bfloat16 (Eigen's product of them,
// which TensorFlow's kernels run, accumulates in float too), int32 for int16 (the sums wrap
// around to the same int16 values as int16 arithmetic), T itself otherwise. One GEMM per compute
// type, none for the narrow types.
template <typename T>
using MatMulComputeType = std::conditional_t<
    std::is_same<T, half>::value || std::is_same<T, bfloat16>::value, float,
    std::conditional_t<std::is_same<T, int16_t>::value, int32_t, T>>;

// Converts a and b to the compute type, multiplies (fn), converts the product back.
template <typename T, typename Fn>
absl::Status WithComputeType(OpKernelContext* ctx, const Tensor& a, const Tensor& b, Tensor* out,
                             Fn fn) {
  using C = MatMulComputeType<T>;
  if constexpr (!std::is_same<C, T>::value) {
    constexpr DataType kC = DataTypeToEnum<C>::value;
    Tensor fa, fb, fo;
    SG_RETURN_IF_ERROR(ctx->allocate_temp(kC, a.shape(), &fa));
    SG_RETURN_IF_ERROR(ctx->allocate_temp(kC, b.shape(), &fb));
    SG_RETURN_IF_ERROR(ctx->allocate_temp(kC, out->shape(), &fo));
    const auto& d = ctx->eigen_cpu_device();
    if (a.NumElements() > 0) fa.flat<C>().device(d) = a.flat<T>().template cast<C>();
    if (b.NumElements() > 0) fb.flat<C>().device(d) = b.flat<T>().template cast<C>();
    fn(fa.data<C>(), fb.data<C>(), fo.data<C>());
    if (out->NumElements() > 0) out->flat<T>().device(d) = fo.flat<C>().template cast<T>();
  } else {
    fn(a.data<T>(), b.data<T>(), out->data<T>());
  }
  return absl::OkStatus();
}

using MatMulTypes =
    TypeList<float, double, half, bfloat16, int32_t, int64_t, complex64, complex128>;
// BatchMatMulV2 (and the products Einsum asks for) also take int16, as TensorFlow's kernel does.
using BatchedMatMulTypes =
    TypeList<float, double, half, bfloat16, int32_t, int64_t, int16_t, complex64, complex128>;

// `t` with each complex element conjugated (a new buffer), or `t` itself for a real dtype: the
// adjoint that BatchMatMul's adj_x / adj_y ask for is the conjugate transpose.
absl::Status Conjugated(OpKernelContext* ctx, const Tensor& t, Tensor* out) {
  auto conj = [&](auto tag) -> absl::Status {
    using C = decltype(tag);
    SG_RETURN_IF_ERROR(ctx->allocate_temp(t.dtype(), t.shape(), out));
    const C* p = t.data<C>();
    C* o = out->data<C>();
    for (int64_t i = 0; i < t.NumElements(); ++i) o[i] = std::conj(p[i]);
    return absl::OkStatus();
  };
  if (t.dtype() == DT_COMPLEX64) return conj(complex64{});
  if (t.dtype() == DT_COMPLEX128) return conj(complex128{});
  *out = t;
  return absl::OkStatus();
}

class MatMulOp final : public OpKernel {
 public:
  explicit MatMulOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("transpose_a", &transpose_a_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("transpose_b", &transpose_b_));
    const_b_ = OneDnnConv::ConstFilterAttr(ctx);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& a = ctx->input(0);
    const Tensor& b = ctx->input(1);
    OP_REQUIRES(ctx, a.dims() == 2, KernelError(*this, "In[0] is not a matrix: ",
                                                a.shape().DebugString()));
    OP_REQUIRES(ctx, b.dims() == 2, KernelError(*this, "In[1] is not a matrix: ",
                                                b.shape().DebugString()));
    const int64_t m = a.dim_size(transpose_a_ ? 1 : 0), k = a.dim_size(transpose_a_ ? 0 : 1);
    const int64_t kb = b.dim_size(transpose_b_ ? 1 : 0), n = b.dim_size(transpose_b_ ? 0 : 1);
    OP_REQUIRES(ctx, k == kb,
                KernelError(*this, "Matrix size-incompatible: In[0]: ", a.shape().DebugString(),
                            ", In[1]: ", b.shape().DebugString()));
    bool ok = DispatchTypes(MatMulTypes(), a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({m, n}), &out));
      if constexpr (std::is_same_v<T, float>) {
        if (const_b_ && ConstMatMulFloat(ctx, &product_, a.data<float>(), b,
                                         out->data<float>(), m, k, n, transpose_a_, transpose_b_,
                                         nullptr)) {
          return;
        }
      }
      OP_REQUIRES_OK(ctx, WithComputeType<T>(ctx, a, b, out, [&](auto* pa, auto* pb, auto* pc) {
                       const bool threaded = m * n * k >= kSmallProduct;
                       MatMulOne(ctx->eigen_cpu_device(), threaded, true, pa, pb, pc, m, k, n,
                                 transpose_a_, transpose_b_);
                     }));
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, a.dtype()));
  }

 private:
  bool transpose_a_ = false, transpose_b_ = false;
  bool const_b_ = false;   // b is a Const node's tensor (ConstMatMulFloat)
  PanelProduct product_;  // b packed, for ConstMatMulFloat
};

// BatchMatMul (batch dims equal) and BatchMatMulV2 (batch dims broadcast).
template <bool kBroadcast>
class BatchMatMulOp final : public OpKernel {
 public:
  explicit BatchMatMulOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("adj_x", &adj_x_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("adj_y", &adj_y_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    OP_REQUIRES(ctx, x.dims() >= 2 && y.dims() >= 2,
                KernelError(*this, "In[0] and In[1] must have rank >= 2, got ",
                            x.shape().DebugString(), " and ", y.shape().DebugString()));
    const int rx = x.dims(), ry = y.dims();
    const int64_t m = x.dim_size(adj_x_ ? rx - 1 : rx - 2);
    const int64_t k = x.dim_size(adj_x_ ? rx - 2 : rx - 1);
    const int64_t ky = y.dim_size(adj_y_ ? ry - 1 : ry - 2);
    const int64_t n = y.dim_size(adj_y_ ? ry - 2 : ry - 1);
    OP_REQUIRES(ctx, k == ky,
                KernelError(*this, "Matrix size-incompatible: In[0]: ", x.shape().DebugString(),
                            ", In[1]: ", y.shape().DebugString()));
    TensorShape xb(x.shape().dim_sizes().subspan(0, rx - 2));
    TensorShape yb(y.shape().dim_sizes().subspan(0, ry - 2));
    TensorShape batch;
    if (kBroadcast) {
      BCast bc(xb, yb);
      OP_REQUIRES(ctx, bc.valid(),
                  KernelError(*this, "In[0] and In[1] must have compatible batch dimensions: ",
                              x.shape().DebugString(), " vs. ", y.shape().DebugString()));
      batch = bc.output_shape();
    } else {
      OP_REQUIRES(ctx, xb == yb,
                  KernelError(*this, "In[0] and In[1] must have the same batch dimensions: ",
                              x.shape().DebugString(), " vs. ", y.shape().DebugString()));
      batch = xb;
    }
    std::vector<int64_t> x_index, y_index;
    BroadcastBatchIndex(xb, yb, batch, &x_index, &y_index);
    TensorShape out_shape = batch;
    out_shape.AddDim(m);
    out_shape.AddDim(n);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    Tensor xa = x, ya = y;
    if (adj_x_) OP_REQUIRES_OK(ctx, Conjugated(ctx, x, &xa));
    if (adj_y_) OP_REQUIRES_OK(ctx, Conjugated(ctx, y, &ya));
    absl::Status s = BatchedMatMul(ctx, xa, ya, x_index, y_index, m, k, n, adj_x_, adj_y_, out);
    if (absl::IsUnimplemented(s)) s = UnsupportedType(*this, x.dtype());
    OP_REQUIRES_OK(ctx, s);
  }

 private:
  bool adj_x_ = false, adj_y_ = false;
};

REGISTER_KERNEL_BUILDER(Name("MatMul").Device(DEVICE_CPU), MatMulOp);
REGISTER_KERNEL_BUILDER(Name("BatchMatMul").Device(DEVICE_CPU), BatchMatMulOp<false>);
REGISTER_KERNEL_BUILDER(Name("BatchMatMulV2").Device(DEVICE_CPU), BatchMatMulOp<true>);

}  // namespace

void BroadcastBatchIndex(const TensorShape& a_batch, const TensorShape& b_batch,
                         const TensorShape& batch, std::vector<int64_t>* a_index,
                         std::vector<int64_t>* b_index) {
  const int64_t nb = batch.num_elements();
  const std::vector<int64_t> sa = BroadcastStrides(a_batch, batch);
  const std::vector<int64_t> sb = BroadcastStrides(b_batch, batch);
  a_index->assign(nb, 0);
  b_index->assign(nb, 0);
  for (int64_t i = 0; i < nb; ++i) {
    int64_t rem = i, oa = 0, ob = 0;
    for (int d = batch.dims() - 1; d >= 0; --d) {
      const int64_t idx = rem % batch.dim_size(d);
      rem /= batch.dim_size(d);
      oa += idx * sa[d];
      ob += idx * sb[d];
    }
    (*a_index)[i] = oa;
    (*b_index)[i] = ob;
  }
}

void MatMulFloat(OpKernelContext* ctx, const float* a, const float* b, float* c, int64_t m,
                 int64_t k, int64_t n, bool ta, bool tb) {
  MatMulOne(ctx->eigen_cpu_device(), m * n * k >= kSmallProduct, true, a, b, c, m, k, n, ta, tb);
}

bool ConstMatMulFloat(OpKernelContext* ctx, PanelProduct* product, const float* a,
                      const Tensor& b_tensor, float* c, int64_t m, int64_t k, int64_t n, bool ta,
                      bool tb, const OneDnnConv::Epilogue* epilogue) {
  if (ta || m <= kFewRows || m > PanelProduct::kMaxRows || k == 0 || n == 0) return false;
  const float* x[PanelProduct::kMaxRows];
  float* y[PanelProduct::kMaxRows];
  for (int64_t r = 0; r < m; ++r) {
    x[r] = a + r * k;
    y[r] = c + r * n;
  }
  return product->Run(ctx->eigen_cpu_device(), m * n * k >= kSmallProduct, x, m,
                      b_tensor.data<float>(), k, n, tb, y, epilogue, &b_tensor);
}

absl::Status BatchedMatMul(OpKernelContext* ctx, const Tensor& a, const Tensor& b,
                           absl::Span<const int64_t> a_index, absl::Span<const int64_t> b_index,
                           int64_t m, int64_t k, int64_t n, bool adj_a, bool adj_b, Tensor* c) {
  const int64_t nb = static_cast<int64_t>(a_index.size());
  absl::Status status;
  bool ok = DispatchTypes(BatchedMatMulTypes(), a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (c->NumElements() == 0) return;
    status = WithComputeType<T>(ctx, a, b, c, [&](auto* pa, auto* pb, auto* pc) {
      using C = std::remove_pointer_t<decltype(pc)>;
      const auto& d = ctx->eigen_cpu_device();
      const int64_t as = m * k, bs = k * n, cs = m * n;
      if (m * n * k >= kSmallProduct || nb == 1) {
        for (int64_t i = 0; i < nb; ++i) {
          MatMulOne(d, true, true, pa + a_index[i] * as, pb + b_index[i] * bs, pc + i * cs, m, k, n,
                    adj_a, adj_b);
        }
        return;
      }
      ParallelFor(d, nb,
                    Eigen::TensorOpCost(sizeof(C) * (as + bs), sizeof(C) * cs, 2.0 * m * n * k),
                    [&](Eigen::Index begin, Eigen::Index end) {
                      for (Eigen::Index i = begin; i < end; ++i) {
                        MatMulOne(d, false, false, pa + a_index[i] * as, pb + b_index[i] * bs,
                                  pc + i * cs, m, k, n, adj_a, adj_b);
                      }
                    });
    });
  });
  if (!ok) {
    return errors::Unimplemented("matrix products of dtype ", DataTypeString(a.dtype()),
                                 " are not supported");
  }
  return status;
}

}  // namespace sg
