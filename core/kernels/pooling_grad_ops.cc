// Gradients of the pooling ops, as TensorFlow's CPU kernels (channels-last layouts only, as
// theirs: NCHW / NCDHW is INVALID_ARGUMENT):
//   MaxPoolGrad, MaxPoolGradV2   d(input): each window's gradient goes to the first maximum of
//                                orig_input in the window (row-major), recomputed from orig_input;
//   MaxPoolGradGrad(V2)          d(output): each window takes grad at the first element of
//                                orig_input equal to orig_output;
//   MaxPoolGradWithArgmax        d(input) scattered by MaxPoolWithArgmax's flat indices;
//   AvgPoolGrad, AvgPool3DGrad   d(input): each window's gradient spread evenly over it;
//   MaxPool3DGrad                d(input): each window's gradient goes to every element within
//                                1e-5 of orig_output (all of the tied maxima);
//   MaxPool3DGradGrad            as MaxPoolGradGrad in 3-D.
// The windows of AvgPoolGrad, AvgPool3DGrad and MaxPool3DGrad are TensorFlow's "broadcast" windows
// (GetBroadcastSize in its ops_util), which are the clipped window except when the window is
// larger than the input. Sums run in T in TensorFlow's order, so the results match bit for bit
// where TensorFlow's do not depend on threading.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"
#include "core/kernels/window_util.h"

namespace sg {
namespace {

// The geometry of a channels-last pool with nd (2 or 3) spatial dims. The spatial arrays have
// three entries; a 2-D pool uses entries 1 and 2 (entry 0 has size 1).
struct PoolDims {
  int nd = 2;
  int64_t n = 0, c = 0;
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1};
  int64_t out[3] = {1, 1, 1}, pad[3] = {0, 0, 0};

  int64_t InImage() const { return in[0] * in[1] * in[2] * c; }
  int64_t OutImage() const { return out[0] * out[1] * out[2] * c; }
  TensorShape OutputShape() const {
    TensorShape shape({n});
    for (int e = 3 - nd; e < 3; ++e) shape.AddDim(out[e]);
    shape.AddDim(c);
    return shape;
  }
};

absl::Status Unimplemented(OpKernelContext* ctx, const std::string& msg) {
  return errors::Unimplemented(msg, " (node '", ctx->op_kernel().name(), "', op ",
                               ctx->op_kernel().type_string(), ")");
}

// Checks ksize and strides (nd + 2 entries, channels last) as TensorFlow's CPU kernels do.
absl::Status CheckWindow(OpKernelContext* ctx, int nd, const std::vector<int64_t>& ksize,
                         const std::vector<int64_t>& strides) {
  const size_t dims = nd + 2;
  if (ksize.size() != dims) {
    return NodeError(ctx, "Sliding window ksize field must specify ", dims, " dimensions");
  }
  if (strides.size() != dims) {
    return NodeError(ctx, "Sliding window strides field must specify ", dims, " dimensions");
  }
  if (ksize[0] != 1 || strides[0] != 1) {
    return Unimplemented(ctx, "Pooling is not yet supported on the batch dimension.");
  }
  if (ksize[dims - 1] != 1 || strides[dims - 1] != 1) {
    return Unimplemented(ctx, "Pooling is not yet supported on the depth dimension.");
  }
  return absl::OkStatus();
}

// The geometry of a pool over `input` (nd + 2 dims), after CheckWindow. `explicit_pads` holds
// 2 * (nd + 2) values for Padding::kExplicit.
absl::Status MakePoolDims(OpKernelContext* ctx, int nd, const TensorShape& input,
                          const std::vector<int64_t>& ksize, const std::vector<int64_t>& strides,
                          Padding padding, const std::vector<int64_t>& explicit_pads,
                          PoolDims* g) {
  SG_RETURN_IF_ERROR(CheckWindow(ctx, nd, ksize, strides));
  if (input.dims() != nd + 2) {
    return NodeError(ctx, "tensor_in must be ", nd + 2, "-dimensional, got ",
                     input.DebugString());
  }
  *g = PoolDims();
  g->nd = nd;
  g->n = input.dim_size(0);
  g->c = input.dim_size(nd + 1);
  for (int i = 0; i < nd; ++i) {
    const int e = 3 - nd + i;
    g->in[e] = input.dim_size(i + 1);
    g->k[e] = ksize[i + 1];
    g->s[e] = strides[i + 1];
    const bool ex = padding == Padding::kExplicit;
    absl::Status s = WindowedOutputSize(g->in[e], g->k[e], 1, g->s[e], padding,
                                        ex ? explicit_pads[2 * (i + 1)] : 0,
                                        ex ? explicit_pads[2 * (i + 1) + 1] : 0, &g->out[e],
                                        &g->pad[e]);
    if (!s.ok()) return NodeError(ctx, s.message());
  }
  return absl::OkStatus();
}

// The window of output `o` along entry e, clipped to the input: [*lo, *hi).
inline void ClipWindow(const PoolDims& g, int e, int64_t o, int64_t* lo, int64_t* hi) {
  const int64_t start = o * g.s[e] - g.pad[e];
  *lo = std::max<int64_t>(start, 0);
  *hi = g.k[e] >= g.in[e] - start ? g.in[e] : start + g.k[e];
}

// TensorFlow's GetBroadcastSize: the input range [*index, *index + *size) that output `o`
// spreads to along entry e. INVALID_ARGUMENT when o * stride is beyond the input.
absl::Status BroadcastWindow(OpKernelContext* ctx, const PoolDims& g, int e, int64_t o,
                             int64_t* index, int64_t* size) {
  if (o * g.s[e] > g.in[e]) {
    return NodeError(ctx, "index * stride must be less than or equal to input size");
  }
  *index = o * g.s[e];
  *size = g.k[e];
  if (*index < g.pad[e]) {
    *size = g.k[e] + *index - g.pad[e];
    *index = 0;
  } else {
    *index -= g.pad[e];
  }
  if (*index + g.k[e] > g.in[e]) *size = std::min(g.in[e] - *index, g.k[e]);
  return absl::OkStatus();
}

absl::Status ExpectShape(OpKernelContext* ctx, const char* what, const TensorShape& want,
                         const TensorShape& got) {
  if (want == got) return absl::OkStatus();
  return NodeError(ctx, "Expected ", what, " shape to be ", want.DebugString(), ", but got ",
                   got.DebugString());
}

// Reads attrs shared by the pooling gradients; `format_ok` is the one data_format the CPU
// kernels take.
struct PoolAttrs {
  std::vector<int64_t> ksize, strides, explicit_pads;
  Padding padding = Padding::kValid;

  absl::Status Read(OpKernelConstruction* ctx, const std::string& format_ok,
                    const std::string& kernel_name, bool window_attrs) {
    std::string format, p;
    SG_RETURN_IF_ERROR(ctx->GetAttr("data_format", &format));
    if (format != format_ok) {
      return errors::InvalidArgument("Default ", kernel_name, " only supports ", format_ok,
                                     " on device type CPU (node '", ctx->def().name(), "')");
    }
    if (window_attrs) {
      SG_RETURN_IF_ERROR(ctx->GetAttr("ksize", &ksize));
      SG_RETURN_IF_ERROR(ctx->GetAttr("strides", &strides));
    }
    SG_RETURN_IF_ERROR(ctx->GetAttr("padding", &p));
    SG_RETURN_IF_ERROR(ParsePadding(p, &padding));
    if (padding == Padding::kExplicit) {
      SG_RETURN_IF_ERROR(ctx->GetAttr("explicit_paddings", &explicit_pads));
      if (explicit_pads.size() != 8) {
        return errors::InvalidArgument("explicit_paddings attribute must contain 8 values, got ",
                                       explicit_pads.size(), " (node '", ctx->def().name(), "')");
      }
      for (int64_t v : explicit_pads) {
        if (v < 0) {
          return errors::InvalidArgument("All explicit padding values must be nonnegative (node '",
                                         ctx->def().name(), "')");
        }
      }
      if (explicit_pads[0] != 0 || explicit_pads[1] != 0 || explicit_pads[6] != 0 ||
          explicit_pads[7] != 0) {
        return errors::InvalidArgument(
            "Nonzero explicit padding in the batch or depth dimensions is not supported (node '",
            ctx->def().name(), "')");
      }
    }
    return absl::OkStatus();
  }
};

// ksize and strides of the V2 ops: inputs 3 and 4, int32 vectors.
absl::Status WindowFromInputs(OpKernelContext* ctx, std::vector<int64_t>* ksize,
                              std::vector<int64_t>* strides) {
  for (int i = 3; i <= 4; ++i) {
    const Tensor& t = ctx->input(i);
    if (t.dims() != 1) {
      return NodeError(ctx, i == 3 ? "ksize" : "strides", " must be a vector, got shape ",
                       t.shape().DebugString());
    }
    const auto v = IntValues(t);
    (i == 3 ? ksize : strides)->assign(v.begin(), v.end());
  }
  return absl::OkStatus();
}

using MaxPoolGradTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, uint8_t,
                                  int16_t, int8_t, uint16_t, uint32_t, uint64_t>;

// ---- MaxPoolGrad, MaxPoolGradV2 ------------------------------------------------------------

class MaxPoolGradOp final : public OpKernel {
 public:
  explicit MaxPoolGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    v2_ = ctx->num_inputs() == 5;
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx, "NHWC", "MaxPoolingGradOp", !v2_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& out = ctx->input(1);
    const Tensor& grad = ctx->input(2);
    OP_REQUIRES(ctx, in.dims() == 4, NodeError(ctx, "tensor_in must be 4-dimensional"));
    OP_REQUIRES(ctx, out.dims() == 4, NodeError(ctx, "tensor_out must be 4-dimensional"));
    OP_REQUIRES(ctx, grad.dims() == 4, NodeError(ctx, "out_backprop must be 4-dimensional"));
    std::vector<int64_t> ksize = attrs_.ksize, strides = attrs_.strides;
    if (v2_) OP_REQUIRES_OK(ctx, WindowFromInputs(ctx, &ksize, &strides));
    PoolDims g;
    OP_REQUIRES_OK(ctx, MakePoolDims(ctx, 2, in.shape(), ksize, strides, attrs_.padding,
                                     attrs_.explicit_pads, &g));
    OP_REQUIRES_OK(ctx, ExpectShape(ctx, "orig_output", g.OutputShape(), out.shape()));
    OP_REQUIRES_OK(ctx, ExpectShape(ctx, "grad", g.OutputShape(), grad.shape()));
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &output));
    const bool ok = DispatchTypes(MaxPoolGradTypes(), in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* x = in.data<T>();
      const T* dy = grad.data<T>();
      T* dx = output->data<T>();
      const double cost = static_cast<double>(g.OutImage() * g.k[1] * g.k[2]);
      if (Tiles(g) && grad.NumElements() > 0) {
        ParallelFor(ctx->eigen_cpu_device(),
            g.n, Eigen::TensorOpCost(cost, cost, cost),
            [&](Eigen::Index begin, Eigen::Index end) { TiledGrad(g, x, dy, dx, begin, end); });
        return;
      }
      std::fill(dx, dx + output->NumElements(), T(0));
      if (grad.NumElements() == 0) return;
      auto images = [&](Eigen::Index begin, Eigen::Index end) {
        // Locals, not g's members: the int64 stores to arg could alias those, which would keep
        // the channel loops scalar.
        const int64_t nc = g.c, in_w = g.in[2];
        std::vector<T> best_buf(nc);
        std::vector<int64_t> arg_buf(nc);
        T* best = best_buf.data();
        int64_t* arg = arg_buf.data();
        for (Eigen::Index b = begin; b < end; ++b) {
          const T* xb = x + b * g.InImage();
          T* dxb = dx + b * g.InImage();
          int64_t pos = b * g.out[1] * g.out[2];
          for (int64_t oh = 0; oh < g.out[1]; ++oh) {
            int64_t h0, h1;
            ClipWindow(g, 1, oh, &h0, &h1);
            for (int64_t ow = 0; ow < g.out[2]; ++ow, ++pos) {
              int64_t w0, w1;
              ClipWindow(g, 2, ow, &w0, &w1);
              if (h0 >= h1 || w0 >= w1) continue;
              // The window's first element, then each later one that is strictly greater:
              // the first maximum in row-major order. Branch-free, so that the loops over
              // channels vectorize.
              const int64_t first = (h0 * in_w + w0) * nc;
              for (int64_t c = 0; c < nc; ++c) {
                best[c] = xb[first + c];
                arg[c] = first + c;
              }
              for (int64_t h = h0; h < h1; ++h) {
                for (int64_t w = h == h0 ? w0 + 1 : w0; w < w1; ++w) {
                  const int64_t base = (h * in_w + w) * nc;
                  for (int64_t c = 0; c < nc; ++c) {
                    const T v = xb[base + c];
                    const T cur = best[c];
                    const bool greater = cur < v;
                    best[c] = greater ? v : cur;
                    arg[c] = greater ? base + c : arg[c];
                  }
                }
              }
              const T* dyp = dy + pos * nc;
              for (int64_t c = 0; c < nc; ++c) dxb[arg[c]] += dyp[c];
            }
          }
        }
      };
      ParallelFor(ctx->eigen_cpu_device(), g.n, Eigen::TensorOpCost(cost, cost, cost), images);
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }

 private:
  // Whether the windows tile the input without overlap or padding (stride = window, as the
  // 2x2 stride-2 VALID pool of most CNNs): each input element then lies in one window at most,
  // and TiledGrad writes every element of dx once instead of zeroing dx and scattering into it.
  static bool Tiles(const PoolDims& g) {
    for (int e = 1; e < 3; ++e) {
      if (g.s[e] != g.k[e] || g.pad[e] != 0 || g.out[e] * g.k[e] > g.in[e]) return false;
    }
    return g.in[0] == 1 && g.c > 0;
  }

  // dx of images [begin, end) when Tiles(g): in each window, per channel, the index of its
  // first maximum in row-major order (the first element, then each later one strictly greater,
  // as the general loop picks it) receives dy and the window's other elements zero; rows and
  // columns past the last window are zero. The loops over channels are branch-free selects, so
  // that they vectorize.
  template <typename T>
  static void TiledGrad(const PoolDims& g, const T* x, const T* dy, T* dx, int64_t begin,
                        int64_t end) {
    const int64_t nc = g.c, in_h = g.in[1], in_w = g.in[2], kh = g.k[1], kw = g.k[2];
    const int64_t out_h = g.out[1], out_w = g.out[2];
    const int64_t row = in_w * nc;       // one input row
    const int64_t covered = out_w * kw;  // columns inside some window
    std::vector<T> best_buf(nc);
    std::vector<int32_t> arg_buf(nc);
    T* best = best_buf.data();
    int32_t* arg = arg_buf.data();
    for (int64_t b = begin; b < end; ++b) {
      const T* xb = x + b * g.InImage();
      T* dxb = dx + b * g.InImage();
      const T* dyb = dy + b * g.OutImage();
      for (int64_t oh = 0; oh < out_h; ++oh) {
        for (int64_t ow = 0; ow < out_w; ++ow) {
          const int64_t first = (oh * kh * in_w + ow * kw) * nc;
          for (int64_t c = 0; c < nc; ++c) {
            best[c] = xb[first + c];
            arg[c] = 0;
          }
          int32_t p = 0;
          for (int64_t i = 0; i < kh; ++i) {
            for (int64_t j = 0; j < kw; ++j, ++p) {
              if (p == 0) continue;
              const T* v = xb + first + i * row + j * nc;
              for (int64_t c = 0; c < nc; ++c) {
                const T cur = best[c];
                const bool greater = cur < v[c];
                best[c] = greater ? v[c] : cur;
                arg[c] = greater ? p : arg[c];
              }
            }
          }
          const T* dyp = dyb + (oh * out_w + ow) * nc;
          p = 0;
          for (int64_t i = 0; i < kh; ++i) {
            for (int64_t j = 0; j < kw; ++j, ++p) {
              T* d = dxb + first + i * row + j * nc;
              for (int64_t c = 0; c < nc; ++c) d[c] = arg[c] == p ? dyp[c] : T(0);
            }
          }
        }
        if (covered < in_w) {
          for (int64_t i = 0; i < kh; ++i) {
            T* tail = dxb + (oh * kh + i) * row + covered * nc;
            std::fill(tail, tail + (in_w - covered) * nc, T(0));
          }
        }
      }
      std::fill(dxb + out_h * kh * row, dxb + in_h * row, T(0));
    }
  }

  PoolAttrs attrs_;
  bool v2_ = false;
};

// ---- MaxPoolGradGrad, MaxPoolGradGradV2, MaxPool3DGradGrad ----------------------------------

template <int kNd>
class MaxPoolGradGradOp final : public OpKernel {
 public:
  explicit MaxPoolGradGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    v2_ = ctx->num_inputs() == 5;
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx, kNd == 2 ? "NHWC" : "NDHWC",
                                    kNd == 2 ? "MaxPoolingGradGradOp" : "MaxPooling3dGradGradOp",
                                    !v2_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& out = ctx->input(1);
    const Tensor& grad = ctx->input(2);
    const int rank = kNd + 2;
    OP_REQUIRES(ctx, in.dims() == rank,
                NodeError(ctx, "tensor_in must be ", rank, "-dimensional"));
    OP_REQUIRES(ctx, out.dims() == rank,
                NodeError(ctx, "tensor_out must be ", rank, "-dimensional"));
    OP_REQUIRES(ctx, grad.dims() == rank,
                NodeError(ctx, "out_grad_backprop must be ", rank, "-dimensional"));
    std::vector<int64_t> ksize = attrs_.ksize, strides = attrs_.strides;
    if (v2_) OP_REQUIRES_OK(ctx, WindowFromInputs(ctx, &ksize, &strides));
    PoolDims g;
    OP_REQUIRES_OK(ctx, MakePoolDims(ctx, kNd, in.shape(), ksize, strides, attrs_.padding,
                                     attrs_.explicit_pads, &g));
    OP_REQUIRES_OK(ctx, ExpectShape(ctx, "orig_output", g.OutputShape(), out.shape()));
    OP_REQUIRES_OK(ctx, ExpectShape(ctx, "grad", in.shape(), grad.shape()));
    if (kNd == 3) {
      // TensorFlow's 3-D kernel refuses empty tensors.
      OP_REQUIRES(ctx, in.NumElements() > 0 && out.NumElements() > 0,
                  NodeError(ctx, "received empty tensor tensor_in or tensor_out: ",
                            in.shape().DebugString(), ", ", out.shape().DebugString()));
    }
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out.shape(), &output));
    const bool ok = DispatchTypes(MaxPoolGradTypes(), in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* x = in.data<T>();
      const T* y = out.data<T>();
      const T* dx = grad.data<T>();
      T* dy = output->data<T>();
      if (output->NumElements() == 0) return;
      auto images = [&](Eigen::Index begin, Eigen::Index end) {
        for (Eigen::Index b = begin; b < end; ++b) {
          const T* xb = x + b * g.InImage();
          const T* dxb = dx + b * g.InImage();
          int64_t pos = b * g.out[0] * g.out[1] * g.out[2];
          for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
            int64_t a0, a1;
            ClipWindow(g, 0, o0, &a0, &a1);
            for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
              int64_t b0, b1;
              ClipWindow(g, 1, o1, &b0, &b1);
              for (int64_t o2 = 0; o2 < g.out[2]; ++o2, ++pos) {
                int64_t c0, c1;
                ClipWindow(g, 2, o2, &c0, &c1);
                for (int64_t c = 0; c < g.c; ++c) {
                  const T want = y[pos * g.c + c];
                  T result = T(0);
                  bool found = false;
                  for (int64_t i0 = a0; i0 < a1 && !found; ++i0) {
                    for (int64_t i1 = b0; i1 < b1 && !found; ++i1) {
                      for (int64_t i2 = c0; i2 < c1 && !found; ++i2) {
                        const int64_t at = ((i0 * g.in[1] + i1) * g.in[2] + i2) * g.c + c;
                        if (xb[at] == want) {
                          result = dxb[at];
                          found = true;
                        }
                      }
                    }
                  }
                  dy[pos * g.c + c] = result;
                }
              }
            }
          }
        }
      };
      const double cost = static_cast<double>(g.OutImage() * g.k[0] * g.k[1] * g.k[2]);
      ParallelFor(ctx->eigen_cpu_device(), g.n, Eigen::TensorOpCost(cost, cost, cost), images);
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }

 private:
  PoolAttrs attrs_;
  bool v2_ = false;
};

// ---- MaxPoolGradWithArgmax -----------------------------------------------------------------

// output[argmax[i]] += grad[i], argmax flat in [N, H, W, C] with include_batch_in_index, else
// in [H, W, C] of i's image. An index outside the input is INVALID_ARGUMENT (TensorFlow's kernel
// aborts the process).
class MaxPoolGradWithArgmaxOp final : public OpKernel {
 public:
  explicit MaxPoolGradWithArgmaxOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string p;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksize", &ksize_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &strides_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &p));
    OP_REQUIRES_OK(ctx, ParsePadding(p, &padding_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("include_batch_in_index", &include_batch_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& grad = ctx->input(1);
    const Tensor& argmax = ctx->input(2);
    PoolDims g;
    OP_REQUIRES_OK(ctx, MakePoolDims(ctx, 2, in.shape(), ksize_, strides_, padding_, {}, &g));
    OP_REQUIRES_OK(ctx, ExpectShape(ctx, "grad", g.OutputShape(), grad.shape()));
    OP_REQUIRES_OK(ctx, ExpectShape(ctx, "argmax", g.OutputShape(), argmax.shape()));
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &output));
    const bool ok = DispatchTypes(MaxPoolGradTypes(), in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* dy = grad.data<T>();
      const int64_t* idx = argmax.data<int64_t>();
      T* dx = output->data<T>();
      const int64_t total = output->NumElements();
      std::fill(dx, dx + total, T(0));
      const int64_t out_image = g.OutImage(), in_image = g.InImage();
      for (int64_t i = 0; i < grad.NumElements(); ++i) {
        const int64_t at = idx[i] + (include_batch_ ? 0 : (i / out_image) * in_image);
        OP_REQUIRES(ctx, idx[i] >= 0 && at >= 0 && at < total,
                    NodeError(ctx, "Invalid output gradient index: argmax ", idx[i],
                              " at position ", i, " is outside the input of ", total,
                              " elements"));
        dx[at] += dy[i];
      }
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }

 private:
  std::vector<int64_t> ksize_, strides_;
  Padding padding_ = Padding::kValid;
  bool include_batch_ = false;
};

// ---- AvgPoolGrad, AvgPool3DGrad --------------------------------------------------------------

template <int kNd>
class AvgPoolGradOp final : public OpKernel {
 public:
  explicit AvgPoolGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx, kNd == 2 ? "NHWC" : "NDHWC",
                                    kNd == 2 ? "AvgPoolingGradOp" : "AvgPooling3dGradOp", true));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& shape_t = ctx->input(0);
    const Tensor& grad = ctx->input(1);
    const int rank = kNd + 2;
    OP_REQUIRES(ctx, shape_t.dims() == 1 && shape_t.NumElements() == rank,
                NodeError(ctx, "orig_input_shape must be 1-dimensional and ", rank,
                          " elements, got shape ", shape_t.shape().DebugString()));
    OP_REQUIRES(ctx, grad.dims() == rank,
                NodeError(ctx, "out_backprop must be ", rank, "-dimensional"));
    TensorShape in_shape;
    OP_REQUIRES_OK(ctx, ShapeFromIntVector(ctx, shape_t, &in_shape));
    PoolDims g;
    OP_REQUIRES_OK(ctx, MakePoolDims(ctx, kNd, in_shape, attrs_.ksize, attrs_.strides,
                                     attrs_.padding, {}, &g));
    // TensorFlow reads the window count from grad; the batch and depth must be the input's
    // (at most the input's batch in 2-D, as TensorFlow's bounds check).
    OP_REQUIRES(ctx, kNd == 2 ? grad.dim_size(0) <= g.n : grad.dim_size(0) == g.n,
                NodeError(ctx, "Expected first dimension of orig_input_shape and out_backprop "
                               "to match, got ", g.n, " and ", grad.dim_size(0)));
    OP_REQUIRES(ctx, grad.dim_size(rank - 1) == g.c,
                NodeError(ctx, "Expected last dimension of orig_input_shape and out_backprop "
                               "to match, got ", g.c, " and ", grad.dim_size(rank - 1)));
    int64_t gout[3] = {1, 1, 1};
    for (int i = 0; i < kNd; ++i) gout[3 - kNd + i] = grad.dim_size(i + 1);
    // The windows per spatial entry, checked before anything is written.
    std::vector<int64_t> index[3], size[3];
    for (int e = 0; e < 3; ++e) {
      index[e].resize(gout[e]);
      size[e].resize(gout[e]);
      for (int64_t o = 0; o < gout[e]; ++o) {
        OP_REQUIRES_OK(ctx, BroadcastWindow(ctx, g, e, o, &index[e][o], &size[e][o]));
      }
    }
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in_shape, &output));
    const bool ok = DispatchTypes(FloatTypesWithBf16(), grad.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* dy = grad.data<T>();
      T* dx = output->data<T>();
      std::fill(dx, dx + output->NumElements(), T(0));
      if (output->NumElements() == 0) return;
      const int64_t gimage = gout[0] * gout[1] * gout[2] * g.c;
      // One image's windows in TensorFlow's order: rows then cols in 2-D; in 3-D the last
      // spatial dim outermost (its loops run W, H, D).
      auto window = [&](int64_t b, int64_t o0, int64_t o1, int64_t o2) {
        const int64_t s0 = size[0][o0], s1 = size[1][o1], s2 = size[2][o2];
        if (s0 <= 0 || s1 <= 0 || s2 <= 0) return;
        // 2-D multiplies by T(1 / count) (double), 3-D by T(1.0f / count).
        const T coeff = kNd == 2 ? static_cast<T>(1.0 / static_cast<double>(s1 * s2))
                                 : static_cast<T>(1.0f / static_cast<float>(s0 * s1 * s2));
        const T* src = dy + b * gimage + ((o0 * gout[1] + o1) * gout[2] + o2) * g.c;
        T* dst = dx + b * g.InImage();
        for (int64_t i0 = index[0][o0]; i0 < index[0][o0] + s0; ++i0) {
          for (int64_t i1 = index[1][o1]; i1 < index[1][o1] + s1; ++i1) {
            for (int64_t i2 = index[2][o2]; i2 < index[2][o2] + s2; ++i2) {
              T* d = dst + ((i0 * g.in[1] + i1) * g.in[2] + i2) * g.c;
              for (int64_t c = 0; c < g.c; ++c) d[c] += src[c] * coeff;
            }
          }
        }
      };
      auto images = [&](Eigen::Index begin, Eigen::Index end) {
        for (Eigen::Index b = begin; b < end; ++b) {
          if (kNd == 2) {
            for (int64_t o1 = 0; o1 < gout[1]; ++o1) {
              for (int64_t o2 = 0; o2 < gout[2]; ++o2) window(b, 0, o1, o2);
            }
          } else {
            for (int64_t o2 = 0; o2 < gout[2]; ++o2) {
              for (int64_t o1 = 0; o1 < gout[1]; ++o1) {
                for (int64_t o0 = 0; o0 < gout[0]; ++o0) window(b, o0, o1, o2);
              }
            }
          }
        }
      };
      const double cost = static_cast<double>(gimage * g.k[0] * g.k[1] * g.k[2]);
      ParallelFor(ctx->eigen_cpu_device(), grad.dim_size(0),
                                          Eigen::TensorOpCost(cost, cost, cost), images);
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, grad.dtype()));
  }

 private:
  PoolAttrs attrs_;
};

// ---- MaxPool3DGrad ---------------------------------------------------------------------------

class MaxPool3DGradOp final : public OpKernel {
 public:
  explicit MaxPool3DGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx, "NDHWC", "MaxPooling3dGradOp", true));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& out = ctx->input(1);
    const Tensor& grad = ctx->input(2);
    OP_REQUIRES(ctx, in.dims() == 5, NodeError(ctx, "tensor_in must be 5-dimensional"));
    OP_REQUIRES(ctx, out.dims() == 5, NodeError(ctx, "tensor_out must be 5-dimensional"));
    OP_REQUIRES(ctx, grad.dims() == 5, NodeError(ctx, "out_backprop must be 5-dimensional"));
    OP_REQUIRES(ctx, in.dtype() == grad.dtype(),
                NodeError(ctx, "TInput and T must be the same type"));
    PoolDims g;
    OP_REQUIRES_OK(ctx, MakePoolDims(ctx, 3, in.shape(), attrs_.ksize, attrs_.strides,
                                     attrs_.padding, {}, &g));
    OP_REQUIRES_OK(ctx, ExpectShape(ctx, "orig_output", g.OutputShape(), out.shape()));
    OP_REQUIRES_OK(ctx, ExpectShape(ctx, "grad", g.OutputShape(), grad.shape()));
    std::vector<int64_t> index[3], size[3];
    for (int e = 0; e < 3; ++e) {
      index[e].resize(g.out[e]);
      size[e].resize(g.out[e]);
      for (int64_t o = 0; o < g.out[e]; ++o) {
        OP_REQUIRES_OK(ctx, BroadcastWindow(ctx, g, e, o, &index[e][o], &size[e][o]));
      }
    }
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &output));
    const bool ok = DispatchTypes(FloatTypesWithBf16(), in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      using C = ComputeType<T>;
      const T* x = in.data<T>();
      const T* y = out.data<T>();
      const T* dy = grad.data<T>();
      T* dx = output->data<T>();
      std::fill(dx, dx + output->NumElements(), T(0));
      if (output->NumElements() == 0) return;
      const C tol = static_cast<C>(static_cast<T>(1e-5));
      auto images = [&](Eigen::Index begin, Eigen::Index end) {
        for (Eigen::Index b = begin; b < end; ++b) {
          for (int64_t o2 = 0; o2 < g.out[2]; ++o2) {
            for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
              for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
                const int64_t pos = ((b * g.out[0] + o0) * g.out[1] + o1) * g.out[2] + o2;
                for (int64_t i0 = index[0][o0]; i0 < index[0][o0] + size[0][o0]; ++i0) {
                  for (int64_t i1 = index[1][o1]; i1 < index[1][o1] + size[1][o1]; ++i1) {
                    for (int64_t i2 = index[2][o2]; i2 < index[2][o2] + size[2][o2]; ++i2) {
                      const int64_t at =
                          b * g.InImage() + ((i0 * g.in[1] + i1) * g.in[2] + i2) * g.c;
                      for (int64_t c = 0; c < g.c; ++c) {
                        // |x - y| in T, as TensorFlow's Eigen expression.
                        const T diff = static_cast<T>(static_cast<C>(x[at + c]) -
                                                      static_cast<C>(y[pos * g.c + c]));
                        if (std::abs(static_cast<C>(diff)) < tol) dx[at + c] += dy[pos * g.c + c];
                      }
                    }
                  }
                }
              }
            }
          }
        }
      };
      const double cost = static_cast<double>(g.OutImage() * g.k[0] * g.k[1] * g.k[2]);
      ParallelFor(ctx->eigen_cpu_device(), g.n, Eigen::TensorOpCost(cost, cost, cost), images);
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }

 private:
  PoolAttrs attrs_;
};

REGISTER_KERNEL_BUILDER(Name("MaxPoolGrad").Device(DEVICE_CPU), MaxPoolGradOp);
REGISTER_KERNEL_BUILDER(Name("MaxPoolGradV2").Device(DEVICE_CPU), MaxPoolGradOp);
REGISTER_KERNEL_BUILDER(Name("MaxPoolGradGrad").Device(DEVICE_CPU), MaxPoolGradGradOp<2>);
REGISTER_KERNEL_BUILDER(Name("MaxPoolGradGradV2").Device(DEVICE_CPU), MaxPoolGradGradOp<2>);
REGISTER_KERNEL_BUILDER(Name("MaxPool3DGradGrad")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(FloatTypesWithBf16())),
                        MaxPoolGradGradOp<3>);
REGISTER_KERNEL_BUILDER(Name("MaxPoolGradWithArgmax")
                            .Device(DEVICE_CPU)
                            .TypeConstraint<int64_t>("Targmax"),
                        MaxPoolGradWithArgmaxOp);
REGISTER_KERNEL_BUILDER(Name("AvgPoolGrad").Device(DEVICE_CPU), AvgPoolGradOp<2>);
REGISTER_KERNEL_BUILDER(Name("AvgPool3DGrad").Device(DEVICE_CPU), AvgPoolGradOp<3>);
REGISTER_KERNEL_BUILDER(Name("MaxPool3DGrad").Device(DEVICE_CPU), MaxPool3DGradOp);

}  // namespace
}  // namespace sg
