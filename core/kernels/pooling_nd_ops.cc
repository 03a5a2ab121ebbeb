// Channels-last pooling beyond pooling_ops.cc: MaxPoolV2 (window and strides as tensors),
// MaxPoolWithArgmax (flat argmax indices), MaxPool3D and AvgPool3D. Windows are clipped to the
// input (padding never wins a max and is not counted in an average), as TensorFlow's. Work is
// split across the pool by output row.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"
#include "core/kernels/window_util.h"

namespace sg {
namespace {

// A pooling window over [N, spatial..., C]; the spatial arrays have three entries, a 2-D pool's
// dims being entries 1 and 2 (entry 0 has size 1).
struct PoolNd {
  int64_t n = 0, c = 0;
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1};
  int64_t out[3] = {1, 1, 1}, pad[3] = {0, 0, 0};

  TensorShape OutputShape(int nd) const {
    TensorShape shape({n});
    for (int e = 3 - nd; e < 3; ++e) shape.AddDim(out[e]);
    shape.AddDim(c);
    return shape;
  }
};

// Checks ksize and strides (nd + 2 entries, NDHWC order) as TensorFlow's CPU kernels do and
// fills the geometry for `input`.
absl::Status MakePoolNd(OpKernelContext* ctx, int nd, const TensorShape& input,
                        const std::vector<int64_t>& ksize, const std::vector<int64_t>& strides,
                        Padding padding, PoolNd* g) {
  const size_t dims = nd + 2;
  if (ksize.size() != dims || strides.size() != dims) {
    return NodeError(ctx, "Sliding window ksize and strides fields must specify ", dims,
                     " dimensions");
  }
  if (ksize[0] != 1 || strides[0] != 1) {
    return errors::Unimplemented("Pooling is not yet supported on the batch dimension. (node '",
                                 ctx->op_kernel().name(), "')");
  }
  if (ksize[dims - 1] != 1 || strides[dims - 1] != 1) {
    return errors::Unimplemented("Pooling over the depth dimension is not supported. (node '",
                                 ctx->op_kernel().name(), "')");
  }
  if (input.dims() != nd + 2) {
    return NodeError(ctx, "input must be ", nd + 2, "-dimensional, got ", input.DebugString());
  }
  *g = PoolNd();
  g->n = input.dim_size(0);
  g->c = input.dim_size(nd + 1);
  for (int i = 0; i < nd; ++i) {
    const int e = 3 - nd + i;
    g->in[e] = input.dim_size(i + 1);
    g->k[e] = ksize[i + 1];
    g->s[e] = strides[i + 1];
    if (g->k[e] <= 0) return NodeError(ctx, "Sliding window ksize must be positive");
    absl::Status s = WindowedOutputSize(g->in[e], g->k[e], 1, g->s[e], padding, 0, 0,
                                        &g->out[e], &g->pad[e]);
    if (!s.ok()) return NodeError(ctx, s.message());
  }
  return absl::OkStatus();
}

// Runs body(out_index, lo, hi) for every output position (out_index counts positions, batch
// included), lo/hi being the window clipped to the input per spatial entry.
template <typename Body>
void ForEachWindow(OpKernelContext* ctx, const PoolNd& g, Body body) {
  auto rows = [&](Eigen::Index begin, Eigen::Index end) {
    for (Eigen::Index row = begin; row < end; ++row) {
      const int64_t o1 = row % g.out[1];
      const int64_t o0 = (row / g.out[1]) % g.out[0];
      int64_t lo[3], hi[3];
      // The window [start, start + k) clipped to the input; k may be near 2^63.
      auto clip = [&g, &lo, &hi](int e, int64_t o) {
        const int64_t start = o * g.s[e] - g.pad[e];
        lo[e] = std::max<int64_t>(start, 0);
        hi[e] = g.k[e] >= g.in[e] - start ? g.in[e] : start + g.k[e];
      };
      clip(0, o0);
      clip(1, o1);
      for (int64_t o2 = 0; o2 < g.out[2]; ++o2) {
        clip(2, o2);
        body(row * g.out[2] + o2, lo, hi);
      }
    }
  };
  const double cost = static_cast<double>(g.out[2]) * std::min<double>(
      static_cast<double>(g.in[0]) * g.in[1] * g.in[2],
      static_cast<double>(g.k[0]) * g.k[1] * g.k[2]) * static_cast<double>(g.c);
  ParallelFor(ctx->eigen_cpu_device(), g.n * g.out[0] * g.out[1],
                                      Eigen::TensorOpCost(cost, cost, cost), rows);
}

// The input batch of output position `pos`.
inline int64_t BatchOf(const PoolNd& g, int64_t pos) {
  return pos / (g.out[0] * g.out[1] * g.out[2]);
}

template <typename T>
void MaxPoolNd(OpKernelContext* ctx, const PoolNd& g, const Tensor& input, Tensor* out) {
  const T* in = input.data<T>();
  T* o = out->data<T>();
  ForEachWindow(ctx, g, [&](int64_t pos, const int64_t* lo, const int64_t* hi) {
    const int64_t n = BatchOf(g, pos);
    T* dst = o + pos * g.c;
    std::fill(dst, dst + g.c, Eigen::NumTraits<T>::lowest());
    for (int64_t i0 = lo[0]; i0 < hi[0]; ++i0) {
      for (int64_t i1 = lo[1]; i1 < hi[1]; ++i1) {
        for (int64_t i2 = lo[2]; i2 < hi[2]; ++i2) {
          const T* x = in + (((n * g.in[0] + i0) * g.in[1] + i1) * g.in[2] + i2) * g.c;
          for (int64_t c = 0; c < g.c; ++c) {
            if (x[c] > dst[c]) dst[c] = x[c];
          }
        }
      }
    }
  });
}

using MaxPoolTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, uint8_t, int16_t,
                              int8_t, uint16_t>;

class MaxPoolV2Op final : public OpKernel {
 public:
  explicit MaxPoolV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string p, format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &p));
    OP_REQUIRES_OK(ctx, ParsePadding(p, &padding_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    OP_REQUIRES(ctx, format == "NHWC",
                errors::InvalidArgument("MaxPoolV2 supports only NHWC on the CPU, got ", format,
                                        " (node '", ctx->def().name(), "')"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    std::vector<int64_t> ksize, strides;
    for (int i = 1; i <= 2; ++i) {
      const Tensor& t = ctx->input(i);
      OP_REQUIRES(ctx, t.dims() == 1,
                  NodeError(ctx, i == 1 ? "ksize" : "strides", " must be a vector, got shape ",
                            t.shape().DebugString()));
      const auto v = IntValues(t);
      (i == 1 ? ksize : strides).assign(v.begin(), v.end());
    }
    PoolNd g;
    OP_REQUIRES_OK(ctx, MakePoolNd(ctx, 2, input.shape(), ksize, strides, padding_, &g));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, g.OutputShape(2), &out));
    if (out->NumElements() == 0) return;
    const bool ok = DispatchTypes(MaxPoolTypes(), input.dtype(), [&](auto tag) {
      MaxPoolNd<decltype(tag)>(ctx, g, input, out);
    });
    OP_REQUIRES(ctx, ok, errors::Unimplemented("MaxPoolV2 of ", DataTypeString(input.dtype()),
                                               " is not supported"));
  }

 private:
  Padding padding_ = Padding::kValid;
};
REGISTER_KERNEL_BUILDER(Name("MaxPoolV2")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(MaxPoolTypes()))
                            .HostMemory("ksize")
                            .HostMemory("strides"),
                        MaxPoolV2Op);

// Pooling with the window in attrs (MaxPool3D, AvgPool3D, MaxPoolWithArgmax).
class PoolAttrsOp : public OpKernel {
 public:
  PoolAttrsOp(OpKernelConstruction* ctx, int nd) : OpKernel(ctx), nd_(nd) {
    std::string p;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksize", &ksize_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &strides_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &p));
    OP_REQUIRES_OK(ctx, ParsePadding(p, &padding_));
    if (ctx->HasAttr("data_format")) {
      std::string format;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
      OP_REQUIRES(ctx, format.back() == 'C',
                  errors::InvalidArgument(ctx->def().op(), " supports only channels-last data "
                                          "on the CPU, got ", format, " (node '",
                                          ctx->def().name(), "')"));
    }
  }

 protected:
  // The geometry for input 0 and the allocated output 0.
  bool Prepare(OpKernelContext* ctx, PoolNd* g, Tensor** out) {
    const Tensor& input = ctx->input(0);
    absl::Status s = MakePoolNd(ctx, nd_, input.shape(), ksize_, strides_, padding_, g);
    if (s.ok()) s = ctx->allocate_output(0, g->OutputShape(nd_), out);
    if (!s.ok()) {
      ctx->SetStatus(s);
      return false;
    }
    return true;
  }

 private:
  const int nd_;
  std::vector<int64_t> ksize_, strides_;
  Padding padding_ = Padding::kValid;
};

class MaxPool3DOp final : public PoolAttrsOp {
 public:
  explicit MaxPool3DOp(OpKernelConstruction* ctx) : PoolAttrsOp(ctx, 3) {}

  void Compute(OpKernelContext* ctx) override {
    PoolNd g;
    Tensor* out;
    if (!Prepare(ctx, &g, &out) || out->NumElements() == 0) return;
    const Tensor& input = ctx->input(0);
    DispatchTypes(TypeList<float, half, bfloat16>(), input.dtype(),
                  [&](auto tag) { MaxPoolNd<decltype(tag)>(ctx, g, input, out); });
  }
};
REGISTER_KERNEL_BUILDER(
    Name("MaxPool3D").Device(DEVICE_CPU).TypeConstraint("T", {DT_FLOAT, DT_HALF, DT_BFLOAT16}),
    MaxPool3DOp);

class AvgPool3DOp final : public PoolAttrsOp {
 public:
  explicit AvgPool3DOp(OpKernelConstruction* ctx) : PoolAttrsOp(ctx, 3) {}

  void Compute(OpKernelContext* ctx) override {
    PoolNd g;
    Tensor* out;
    if (!Prepare(ctx, &g, &out) || out->NumElements() == 0) return;
    const Tensor& input = ctx->input(0);
    DispatchTypes(FloatTypesWithBf16(), input.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
      const T* in = input.data<T>();
      T* o = out->data<T>();
      ForEachWindow(ctx, g, [&](int64_t pos, const int64_t* lo, const int64_t* hi) {
        const int64_t n = BatchOf(g, pos);
        thread_local std::vector<A> acc;
        acc.assign(g.c, A(0));
        for (int64_t i0 = lo[0]; i0 < hi[0]; ++i0) {
          for (int64_t i1 = lo[1]; i1 < hi[1]; ++i1) {
            for (int64_t i2 = lo[2]; i2 < hi[2]; ++i2) {
              const T* x = in + (((n * g.in[0] + i0) * g.in[1] + i1) * g.in[2] + i2) * g.c;
              for (int64_t c = 0; c < g.c; ++c) acc[c] += static_cast<A>(x[c]);
            }
          }
        }
        int64_t count = 1;
        for (int e = 0; e < 3; ++e) count *= std::max<int64_t>(0, hi[e] - lo[e]);
        T* dst = o + pos * g.c;
        for (int64_t c = 0; c < g.c; ++c) dst[c] = static_cast<T>(acc[c] / static_cast<A>(count));
      });
    });
  }
};
REGISTER_KERNEL_BUILDER(Name("AvgPool3D")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(FloatTypesWithBf16())),
                        AvgPool3DOp);

using ArgmaxTypes = TypeList<float, double, half, bfloat16, int8_t, int16_t, int32_t, int64_t,
                             uint8_t, uint16_t, uint32_t, uint64_t>;

// MaxPoolWithArgmax: each window's first element, then any strictly greater one (so a leading
// NaN stays, as in TensorFlow); the argmax is the flat index ((b * H + h) * W + w) * C + c, the
// batch term only with include_batch_in_index.
class MaxPoolWithArgmaxOp final : public PoolAttrsOp {
 public:
  explicit MaxPoolWithArgmaxOp(OpKernelConstruction* ctx) : PoolAttrsOp(ctx, 2) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("include_batch_in_index", &include_batch_));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->input(0).NumElements() > 0,
                NodeError(ctx, "tensor_in must not be empty"));
    PoolNd g;
    Tensor* out;
    if (!Prepare(ctx, &g, &out)) return;
    Tensor* argmax;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, out->shape(), &argmax));
    if (out->NumElements() == 0) return;
    const Tensor& input = ctx->input(0);
    DispatchTypes(ArgmaxTypes(), input.dtype(), [&](auto tag) {
      if (argmax->dtype() == DT_INT32) {
        Run<decltype(tag), int32_t>(ctx, g, input, out, argmax);
      } else {
        Run<decltype(tag), int64_t>(ctx, g, input, out, argmax);
      }
    });
  }

 private:
  template <typename T, typename I>
  void Run(OpKernelContext* ctx, const PoolNd& g, const Tensor& input, Tensor* out,
           Tensor* argmax) const {
    const T* in = input.data<T>();
    T* o = out->data<T>();
    I* am = argmax->data<I>();
    ForEachWindow(ctx, g, [&](int64_t pos, const int64_t* lo, const int64_t* hi) {
      const int64_t n = BatchOf(g, pos);
      T* dst = o + pos * g.c;
      I* idx = am + pos * g.c;
      bool first = true;
      for (int64_t i1 = lo[1]; i1 < hi[1]; ++i1) {
        for (int64_t i2 = lo[2]; i2 < hi[2]; ++i2) {
          const int64_t at = ((n * g.in[1] + i1) * g.in[2] + i2) * g.c;
          const int64_t base = include_batch_ ? at : at - n * g.in[1] * g.in[2] * g.c;
          const T* x = in + at;
          for (int64_t c = 0; c < g.c; ++c) {
            if (first || x[c] > dst[c]) {
              dst[c] = x[c];
              idx[c] = static_cast<I>(base + c);
            }
          }
          first = false;
        }
      }
      if (first) {  // an empty window (no input element): TensorFlow's initial values
        std::fill(dst, dst + g.c, Eigen::NumTraits<T>::lowest());
        std::fill(idx, idx + g.c, I(-1));
      }
    });
  }

  bool include_batch_ = false;
};
REGISTER_KERNEL_BUILDER(Name("MaxPoolWithArgmax")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(ArgmaxTypes())),
                        MaxPoolWithArgmaxOp);

}  // namespace
}  // namespace sg
