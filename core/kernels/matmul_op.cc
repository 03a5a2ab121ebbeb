// MatMul, BatchMatMul and BatchMatMulV2. Large products go through Eigen's tensor contraction on
// the intra-op pool (the multithreaded blocked GEMM TensorFlow itself uses); batches of small
// matrices run one matrix per task with a single-threaded Eigen product. Half and bfloat16 are
// computed in float, int16 in int32. Complex products always take the single-threaded product (a batch still spreads over
// the pool): the threaded contraction is the costliest template here to compile, and real
// models rarely multiply large complex matrices.
#include "core/kernels/matmul_op.h"

#include "core/kernels/cwise_ops_common.h"

#ifdef SG_HAVE_DNNL
#include <omp.h>

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "dnnl.hpp"
#endif

namespace sg {
namespace {

#ifdef SG_HAVE_DNNL
// Float products on oneDNN's matmul primitive, one per shape, transposition and thread count,
// made on first use and kept for the process. It picks AVX-512 code at run time and measured
// about 25% faster than Eigen's product here (bench/core_bench.cc). oneDNN's dnnl_sgemm, used
// before, JIT-compiles its whole kernel set on a process's first call (67 ms on this machine:
// the first step of every small model paid it); a primitive compiles only its own shape's
// kernel (0.2-0.4 ms). Returns false, touching nothing, when oneDNN offers no fast
// implementation for the case: the caller then multiplies with Eigen.
class MatMulPrimitives {
 public:
  static MatMulPrimitives& Get() {
    static MatMulPrimitives* p = new MatMulPrimitives;
    return *p;
  }

  // c[m,n] = op(a) * op(b) as MatMulOne below, on `threads` OpenMP threads.
  bool Run(int threads, const float* a, const float* b, float* c, int64_t m, int64_t k,
           int64_t n, bool ta, bool tb) {
    omp_set_num_threads(threads);  // this thread's team: oneDNN sizes its work by it
    const Key key{m, k, n, threads, ta, tb};
    std::shared_ptr<const Prim> prim;
    bool found = false;
    {
      absl::MutexLock lock(&mu_);
      auto it = prims_.find(key);
      if (it != prims_.end()) {
        prim = it->second;
        found = true;
      }
    }
    if (!found) {
      prim = Make(m, k, n, ta, tb);
      absl::MutexLock lock(&mu_);
      // Shapes that change every step (a growing batch) would grow the map without bound.
      if (prims_.size() >= kMaxPrims) prims_.clear();
      prims_.emplace(key, prim);
    }
    if (prim == nullptr) return false;
    // Each call brings its own scratchpad, so that calls may share a primitive.
    thread_local std::vector<uint8_t> scratch;
    if (scratch.size() < prim->scratch_md.get_size()) scratch.resize(prim->scratch_md.get_size());
    using dnnl::memory;
    try {
      dnnl::stream stream(Engine());
      prim->matmul.execute(
          stream, {{DNNL_ARG_SRC, memory(prim->a_md, Engine(), const_cast<float*>(a))},
                   {DNNL_ARG_WEIGHTS, memory(prim->b_md, Engine(), const_cast<float*>(b))},
                   {DNNL_ARG_DST, memory(prim->c_md, Engine(), c)},
                   {DNNL_ARG_SCRATCHPAD, memory(prim->scratch_md, Engine(), scratch.data())}});
      stream.wait();
    } catch (const dnnl::error&) {
      return false;  // c is written in full by the caller's Eigen product instead
    }
    return true;
  }

 private:
  static constexpr size_t kMaxPrims = 512;

  struct Key {
    int64_t m, k, n;
    int threads;
    bool ta, tb;
    bool operator==(const Key& o) const {
      return m == o.m && k == o.k && n == o.n && threads == o.threads && ta == o.ta && tb == o.tb;
    }
    template <typename H>
    friend H AbslHashValue(H h, const Key& key) {
      return H::combine(std::move(h), key.m, key.k, key.n, key.threads, key.ta, key.tb);
    }
  };
  struct Prim {
    dnnl::matmul matmul;
    dnnl::memory::desc a_md, b_md, c_md, scratch_md;
  };

  static const dnnl::engine& Engine() {
    static const dnnl::engine* engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);
    return *engine;
  }

  // nullptr when oneDNN has only its slow reference code for the case, or rejects it.
  static std::shared_ptr<const Prim> Make(int64_t m, int64_t k, int64_t n, bool ta, bool tb) {
    using dnnl::memory;
    const auto f32 = memory::data_type::f32;
    try {
      auto p = std::make_shared<Prim>();
      // Row-major operands; a transposed one is read through its strides.
      p->a_md = memory::desc({m, k}, f32, ta ? memory::dims{1, m} : memory::dims{k, 1});
      p->b_md = memory::desc({k, n}, f32, tb ? memory::dims{1, k} : memory::dims{n, 1});
      p->c_md = memory::desc({m, n}, f32, memory::dims{n, 1});
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(p->a_md, p->b_md, p->c_md), attr,
                                            Engine());
      if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0) return nullptr;
      p->scratch_md = pd.scratchpad_desc();
      p->matmul = dnnl::matmul(pd);
      return p;
    } catch (const dnnl::error&) {
      return nullptr;
    }
  }

  absl::Mutex mu_;
  absl::flat_hash_map<Key, std::shared_ptr<const Prim>> prims_ ABSL_GUARDED_BY(mu_);
};
#endif  // SG_HAVE_DNNL

using Device = Eigen::ThreadPoolDevice;

// Products with fewer multiply-adds than this run on one thread.
constexpr int64_t kSmallProduct = 64 * 64 * 64;

template <typename T>
constexpr bool kIsComplex =
    std::is_same<T, complex64>::value || std::is_same<T, complex128>::value;

// c[m,n] = op(a) * op(b), where a is [m,k] ([k,m] when ta) and b is [k,n] ([n,k] when tb),
// all row-major. `threaded` picks the contraction on the pool (real types only).

template <typename T>
void MatMulOne(const Device& d, bool threaded, const T* a, const T* b, T* c, int64_t m,
               int64_t k, int64_t n, bool ta, bool tb) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    std::fill(c, c + m * n, T(0));
    return;
  }
#ifdef SG_HAVE_DNNL
  // On OpenMP threads: as many as the intra-op pool has, or one for small products.
  if constexpr (std::is_same_v<T, float>) {
    if (MatMulPrimitives::Get().Run(threaded ? d.numThreads() : 1, a, b, c, m, k, n, ta, tb)) {
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
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const Mat> A(a, ta ? k : m, ta ? m : k), B(b, tb ? n : k, tb ? k : n);
  Eigen::Map<Mat> C(c, m, n);
  if (!ta && !tb) {
    C.noalias() = A * B;
  } else if (ta && !tb) {
    C.noalias() = A.transpose() * B;
  } else if (!ta && tb) {
    C.noalias() = A * B.transpose();
  } else {
    C.noalias() = A.transpose() * B.transpose();
  }
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
      OP_REQUIRES_OK(ctx, WithComputeType<T>(ctx, a, b, out, [&](auto* pa, auto* pb, auto* pc) {
                       const bool threaded = m * n * k >= kSmallProduct;
                       MatMulOne(ctx->eigen_cpu_device(), threaded, pa, pb, pc, m, k, n,
                                 transpose_a_, transpose_b_);
                     }));
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, a.dtype()));
  }

 private:
  bool transpose_a_ = false, transpose_b_ = false;
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
          MatMulOne(d, true, pa + a_index[i] * as, pb + b_index[i] * bs, pc + i * cs, m, k, n,
                    adj_a, adj_b);
        }
        return;
      }
      d.parallelFor(nb,
                    Eigen::TensorOpCost(sizeof(C) * (as + bs), sizeof(C) * cs, 2.0 * m * n * k),
                    [&](Eigen::Index begin, Eigen::Index end) {
                      for (Eigen::Index i = begin; i < end; ++i) {
                        MatMulOne(d, false, pa + a_index[i] * as, pb + b_index[i] * bs,
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
