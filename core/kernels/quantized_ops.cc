// Kernels on quantized tensors that carry their float range as two scalar inputs beside them:
// QuantizedMaxPool and QuantizedAvgPool (NHWC windows; the range passes through),
// QuantizedRelu and QuantizedRelu6 (clamped at the levels of 0.0 and 6.0 in the input's range),
// the products QuantizedMatMul, QuantizedConv2D and QuantizedMul (quint8 x quint8 -> qint32,
// the exact integer sums of (a - level of 0.0 in a's range) * (b - level of 0.0 in b's range)),
// RequantizationRange and Requantize (qint32 -> quint8 / qint8 in a new range) and
// QuantizedConcat (quint8 and qint32, requantized into a common range). QuantizedReshape is
// Reshape's kernel (reshape_op.cc). Float steps are rounded as TensorFlow's kernels round them,
// found by experiment against TF 2.21; the file is compiled with -ffp-contract=off.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/kernels/array_copy.h"
#include "core/kernels/broadcast.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/quantization_util.h"
#include "core/kernels/window_util.h"

namespace sg {
namespace {

// The level of float `x` in the range [min, max] of T (TensorFlow's FloatToQuantized): the
// range's width in float, the rest in double, each product rounded half away from zero.
template <typename T>
double FloatToLevelUnclamped(float x, float min, float max) {
  const double steps = std::ldexp(1.0, 8 * sizeof(T));
  const double adjust = steps / (steps - 1.0);
  const double scale = steps / (static_cast<double>(max - min) * adjust);
  return std::round(x * scale) - std::round(min * scale) + kQuantLowest<T>;
}

template <typename T>
int64_t FloatToLevel(float x, float min, float max) {
  const double q = FloatToLevelUnclamped<T>(x, min, max);
  if (std::isnan(q)) return static_cast<int64_t>(kQuantLowest<T>);  // an empty range
  return static_cast<int64_t>(std::min(std::max(q, kQuantLowest<T>), kQuantHighest<T>));
}

// The level of 0.0 in a quint8 range, outside [0, 255] when the range does not hold 0.0, as a
// 32-bit integer: the products are summed modulo 2^32 (in uint32_t, where wrapping is defined),
// as TensorFlow's int32 accumulators wrap. A range so far from 0.0 that the level leaves int32
// is pinned at int32's bounds (TensorFlow's result is then meaningless as well).
uint32_t ZeroLevel(float min, float max) {
  double q = FloatToLevelUnclamped<uint8_t>(0.0f, min, max);
  if (!(q >= -2147483648.0)) q = -2147483648.0;  // also NaN
  if (q > 2147483647.0) q = 2147483647.0;
  return static_cast<uint32_t>(static_cast<int32_t>(q));
}

absl::Status ScalarRange(OpKernelContext* ctx, int first) {
  for (int i = first; i <= first + 1; ++i) {
    if (ctx->input(i).NumElements() != 1) {
      return NodeError(ctx, "input ", i, " (a float range bound) must hold one value, got shape ",
                       ctx->input(i).shape().DebugString());
    }
  }
  return absl::OkStatus();
}

void PassRange(OpKernelContext* ctx, int first) {
  for (int i = 0; i < 2; ++i) {
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1 + i, TensorShape(), &out));
    out->data<float>()[0] = ctx->input(first + i).data<float>()[0];
  }
}

// ---- pooling -------------------------------------------------------------------------------

class QuantizedPoolOp : public OpKernel {
 public:
  explicit QuantizedPoolOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string p;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksize", &ksize_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &strides_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &p));
    OP_REQUIRES_OK(ctx, ParsePadding(p, &padding_));
    OP_REQUIRES(ctx, padding_ != Padding::kExplicit,
                KernelError(*this, "padding must be SAME or VALID"));
    OP_REQUIRES(ctx, ksize_.size() == 4 && strides_.size() == 4,
                KernelError(*this, "Sliding window ksize and strides fields must specify 4 ",
                            "dimensions"));
    OP_REQUIRES(ctx, ksize_[0] == 1 && strides_[0] == 1,
                errors::Unimplemented(type_string(), " (node '", name(), "'): Pooling is not ",
                                      "yet supported on the batch dimension."));
    OP_REQUIRES(ctx, ksize_[3] == 1 && strides_[3] == 1,
                errors::Unimplemented(type_string(), " (node '", name(), "'): Pooling over the ",
                                      "depth dimension is not supported."));
    OP_REQUIRES(ctx, ksize_[1] > 0 && ksize_[2] > 0 && strides_[1] > 0 && strides_[2] > 0,
                KernelError(*this, "Sliding window ksize and strides must be positive"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES_OK(ctx, ScalarRange(ctx, 1));
    OP_REQUIRES(ctx, in.dims() == 4,
                KernelError(*this, "input must be 4-dimensional, got ", in.shape().DebugString()));
    const int64_t n = in.dim_size(0), h = in.dim_size(1), w = in.dim_size(2), c = in.dim_size(3);
    int64_t oh, ow, pad_top, pad_left;
    absl::Status s = WindowedOutputSize(h, ksize_[1], 1, strides_[1], padding_, 0, 0, &oh,
                                        &pad_top);
    if (s.ok()) s = WindowedOutputSize(w, ksize_[2], 1, strides_[2], padding_, 0, 0, &ow,
                                       &pad_left);
    OP_REQUIRES(ctx, s.ok(), KernelError(*this, s.message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({n, oh, ow, c}), &out));
    PassRange(ctx, 1);
    if (!ctx->status().ok() || out->NumElements() == 0) return;
    const bool ok = DispatchQuantized(in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* x = in.data<T>();
      T* y = out->data<T>();
      std::vector<int64_t> acc(c);
      for (int64_t b = 0; b < n; ++b) {
        for (int64_t i = 0; i < oh; ++i) {
          const int64_t hs = i * strides_[1] - pad_top;
          const int64_t h0 = std::max<int64_t>(hs, 0), h1 = std::min(hs + ksize_[1], h);
          for (int64_t j = 0; j < ow; ++j) {
            const int64_t ws = j * strides_[2] - pad_left;
            const int64_t w0 = std::max<int64_t>(ws, 0), w1 = std::min(ws + ksize_[2], w);
            std::fill(acc.begin(), acc.end(), max_ ? static_cast<int64_t>(kQuantLowest<T>) : 0);
            for (int64_t r = h0; r < h1; ++r) {
              for (int64_t q = w0; q < w1; ++q) {
                const T* px = x + ((b * h + r) * w + q) * c;
                for (int64_t k = 0; k < c; ++k) {
                  acc[k] = max_ ? std::max<int64_t>(acc[k], px[k]) : acc[k] + px[k];
                }
              }
            }
            T* py = y + ((b * oh + i) * ow + j) * c;
            // The average truncates toward zero, as TensorFlow's integer division does.
            const int64_t count = std::max<int64_t>(1, (h1 - h0) * (w1 - w0));
            for (int64_t k = 0; k < c; ++k) {
              py[k] = static_cast<T>(max_ ? acc[k] : acc[k] / count);
            }
          }
        }
      }
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }

 protected:
  bool max_ = true;

 private:
  std::vector<int64_t> ksize_, strides_;
  Padding padding_ = Padding::kValid;
};

class QuantizedMaxPoolOp final : public QuantizedPoolOp {
 public:
  using QuantizedPoolOp::QuantizedPoolOp;
};

class QuantizedAvgPoolOp final : public QuantizedPoolOp {
 public:
  explicit QuantizedAvgPoolOp(OpKernelConstruction* ctx) : QuantizedPoolOp(ctx) {
    max_ = false;
  }
};

// ---- activations ---------------------------------------------------------------------------

// QuantizedRelu (cap false) and QuantizedRelu6 (cap true): out = clamp(x, level(0), level(6)) in
// the input's type and range, which pass through. TensorFlow's CPU kernels have out_type equal
// to Tinput (quint8 and qint32).
class QuantizedReluOp final : public OpKernel {
 public:
  explicit QuantizedReluOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    cap_ = type_string() == "QuantizedRelu6";
    OP_REQUIRES(ctx, input_type(0) == output_type(0),
                KernelError(*this, "out_type must equal Tinput"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES_OK(ctx, ScalarRange(ctx, 1));
    const float min = ctx->input(1).data<float>()[0], max = ctx->input(2).data<float>()[0];
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    PassRange(ctx, 1);
    if (!ctx->status().ok()) return;
    const bool ok = DispatchQuantized(in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const int64_t zero = FloatToLevel<T>(0.0f, min, max);
      const int64_t six = cap_ ? FloatToLevel<T>(6.0f, min, max) : kQuantHighest<T>;
      const T* x = in.data<T>();
      T* y = out->data<T>();
      for (int64_t i = 0; i < in.NumElements(); ++i) {
        y[i] = static_cast<T>(std::min<int64_t>(std::max<int64_t>(x[i], zero), six));
      }
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, in.dtype()));
  }

 private:
  bool cap_ = false;
};

// ---- products ------------------------------------------------------------------------------

// The qint32 range of a product of quint8 levels: one output level is worth the product of the
// inputs' level widths (each (max - min) / 255 in float).
void ProductRange(OpKernelContext* ctx, float min_a, float max_a, float min_b, float max_b) {
  const float a_level = (max_a - min_a) / 255.0f;
  const float b_level = (max_b - min_b) / 255.0f;
  const float c_level = a_level * b_level;
  const float bounds[2] = {c_level * -2147483648.0f, c_level * 2147483647.0f};
  for (int i = 0; i < 2; ++i) {
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1 + i, TensorShape(), &out));
    out->data<float>()[0] = bounds[i];
  }
}

// Reads the four scalar ranges starting at input `first`: min_a, max_a, min_b, max_b.
absl::Status ProductInputs(OpKernelContext* ctx, int first, float r[4]) {
  SG_RETURN_IF_ERROR(ScalarRange(ctx, first));
  SG_RETURN_IF_ERROR(ScalarRange(ctx, first + 2));
  for (int i = 0; i < 4; ++i) r[i] = ctx->input(first + i).data<float>()[0];
  return absl::OkStatus();
}

class QuantizedMatMulOp final : public OpKernel {
 public:
  explicit QuantizedMatMulOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("transpose_a", &transpose_a_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("transpose_b", &transpose_b_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& a = ctx->input(0);
    const Tensor& b = ctx->input(1);
    float r[4];
    OP_REQUIRES_OK(ctx, ProductInputs(ctx, 2, r));
    OP_REQUIRES(ctx, a.dims() == 2 && b.dims() == 2,
                KernelError(*this, "a and b must be matrices, got ", a.shape().DebugString(),
                            " and ", b.shape().DebugString()));
    const int64_t m = a.dim_size(transpose_a_ ? 1 : 0), k = a.dim_size(transpose_a_ ? 0 : 1);
    const int64_t kb = b.dim_size(transpose_b_ ? 1 : 0), n = b.dim_size(transpose_b_ ? 0 : 1);
    OP_REQUIRES(ctx, k == kb,
                KernelError(*this, "Matrix size-incompatible: In[0]: ", a.shape().DebugString(),
                            ", In[1]: ", b.shape().DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({m, n}), &out));
    ProductRange(ctx, r[0], r[1], r[2], r[3]);
    if (!ctx->status().ok()) return;
    const uint32_t za = ZeroLevel(r[0], r[1]);
    const uint32_t zb = ZeroLevel(r[2], r[3]);
    const uint8_t* pa = a.data<uint8_t>();
    const uint8_t* pb = b.data<uint8_t>();
    int32_t* pc = out->data<int32_t>();
    const int64_t lda = a.dim_size(1), ldb = b.dim_size(1);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        uint32_t sum = 0;
        for (int64_t l = 0; l < k; ++l) {
          const uint32_t av = transpose_a_ ? pa[l * lda + i] : pa[i * lda + l];
          const uint32_t bv = transpose_b_ ? pb[j * ldb + l] : pb[l * ldb + j];
          sum += (av - za) * (bv - zb);
        }
        pc[i * n + j] = static_cast<int32_t>(sum);
      }
    }
  }

 private:
  bool transpose_a_ = false, transpose_b_ = false;
};

class QuantizedConv2DOp final : public OpKernel {
 public:
  explicit QuantizedConv2DOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::vector<int64_t> strides, dilations = {1, 1, 1, 1};
    std::string p;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &strides));
    if (ctx->HasAttr("dilations")) OP_REQUIRES_OK(ctx, ctx->GetAttr("dilations", &dilations));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &p));
    OP_REQUIRES_OK(ctx, ParsePadding(p, &padding_));
    OP_REQUIRES(ctx, padding_ != Padding::kExplicit,
                KernelError(*this, "padding must be SAME or VALID"));
    OP_REQUIRES(ctx, strides.size() == 4,
                KernelError(*this, "Sliding window strides field must specify 4 dimensions"));
    OP_REQUIRES(ctx, strides[1] == strides[2],
                KernelError(*this, "Current implementation only supports equal length strides ",
                            "in the row and column dimensions."));
    OP_REQUIRES(ctx, strides[0] == 1 && strides[3] == 1,
                KernelError(*this, "Current implementation does not yet support strides in the ",
                            "batch and depth dimensions."));
    OP_REQUIRES(ctx, strides[1] > 0, KernelError(*this, "strides must be positive"));
    OP_REQUIRES(ctx, dilations.size() == 4 && dilations[0] == 1 && dilations[1] == 1 &&
                         dilations[2] == 1 && dilations[3] == 1,
                KernelError(*this, "Current implementation only supports dilated rate as 1 in ",
                            "the row and column dimensions."));
    stride_ = strides[1];
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    float r[4];
    OP_REQUIRES_OK(ctx, ProductInputs(ctx, 2, r));
    OP_REQUIRES(ctx, in.dims() == 4,
                KernelError(*this, "input must be 4-dimensional", in.shape().DebugString()));
    OP_REQUIRES(ctx, filter.dims() == 4,
                KernelError(*this, "filter must be 4-dimensional: ",
                            filter.shape().DebugString()));
    const int64_t n = in.dim_size(0), h = in.dim_size(1), w = in.dim_size(2),
                  depth = in.dim_size(3);
    const int64_t kh = filter.dim_size(0), kw = filter.dim_size(1),
                  out_depth = filter.dim_size(3);
    OP_REQUIRES(ctx, filter.dim_size(2) == depth,
                KernelError(*this, "input and filter must have the same depth: ", depth, " vs ",
                            filter.dim_size(2)));
    for (const Tensor* t : {&in, &filter}) {
      for (int i = 0; i < 4; ++i) {
        OP_REQUIRES(ctx, t->dim_size(i) > 0,
                    KernelError(*this, "Invalid input: Shapes dimension cannot be 0."));
      }
    }
    int64_t oh, ow, pad_top, pad_left;
    absl::Status s = WindowedOutputSize(h, kh, 1, stride_, padding_, 0, 0, &oh, &pad_top);
    if (s.ok()) s = WindowedOutputSize(w, kw, 1, stride_, padding_, 0, 0, &ow, &pad_left);
    OP_REQUIRES(ctx, s.ok(), KernelError(*this, s.message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({n, oh, ow, out_depth}), &out));
    ProductRange(ctx, r[0], r[1], r[2], r[3]);
    if (!ctx->status().ok() || out->NumElements() == 0) return;
    const uint32_t zi = ZeroLevel(r[0], r[1]);
    const uint32_t zf = ZeroLevel(r[2], r[3]);
    const uint8_t* x = in.data<uint8_t>();
    const uint8_t* f = filter.data<uint8_t>();
    int32_t* y = out->data<int32_t>();
    // SAME padding reads as the input's level of 0.0 cut to 8 bits (TensorFlow's, found by
    // experiment): it adds nothing unless that level lies above 255.
    const int32_t zi_signed = static_cast<int32_t>(zi);
    const uint32_t pad_term =
        zi_signed >= 0 ? static_cast<uint32_t>(zi_signed & 0xFF) - zi : uint32_t{0};
    std::vector<uint32_t> acc(out_depth);
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t i = 0; i < oh; ++i) {
        for (int64_t j = 0; j < ow; ++j) {
          std::fill(acc.begin(), acc.end(), 0);
          for (int64_t fr = 0; fr < kh; ++fr) {
            const int64_t row = i * stride_ - pad_top + fr;
            for (int64_t fc = 0; fc < kw; ++fc) {
              const int64_t col = j * stride_ - pad_left + fc;
              const bool inside = row >= 0 && row < h && col >= 0 && col < w;
              if (!inside && pad_term == 0) continue;
              const uint8_t* px = inside ? x + ((b * h + row) * w + col) * depth : nullptr;
              const uint8_t* pf = f + (fr * kw + fc) * depth * out_depth;
              for (int64_t d = 0; d < depth; ++d) {
                const uint32_t xv = inside ? px[d] - zi : pad_term;
                for (int64_t o = 0; o < out_depth; ++o) {
                  acc[o] += xv * (pf[d * out_depth + o] - zf);
                }
              }
            }
          }
          int32_t* py = y + ((b * oh + i) * ow + j) * out_depth;
          for (int64_t o = 0; o < out_depth; ++o) py[o] = static_cast<int32_t>(acc[o]);
        }
      }
    }
  }

 private:
  int64_t stride_ = 1;
  Padding padding_ = Padding::kValid;
};

// z = fn(x, y) as TensorFlow's QuantizedAdd and QuantizedMul broadcast: a one-element operand
// is a scalar; otherwise the operand with fewer elements is repeated over the other's flat
// elements (numpy's result when the smaller one's shape is a suffix of the larger's; for [2, 1]
// against [2, 3] TensorFlow still repeats [a, b] as a, b, a, b, a, b). When both operands
// broadcast, TensorFlow reads past the smaller one: sg fails instead.
template <typename Fn>
absl::Status TiledBinary(const OpKernel& k, const Tensor& x, const Tensor& y, Tensor* out,
                         Fn fn) {
  const int64_t nx = x.NumElements(), ny = y.NumElements(), nz = out->NumElements();
  const uint8_t* px = x.data<uint8_t>();
  const uint8_t* py = y.data<uint8_t>();
  int32_t* pz = out->data<int32_t>();
  if (nz == 0) return absl::OkStatus();
  if (nx == 1) {
    for (int64_t i = 0; i < nz; ++i) pz[i] = fn(px[0], py[i]);
  } else if (ny == 1) {
    for (int64_t i = 0; i < nz; ++i) pz[i] = fn(px[i], py[0]);
  } else if (nx >= ny && nz == nx && nx % ny == 0) {
    for (int64_t i = 0; i < nz; ++i) pz[i] = fn(px[i], py[i % ny]);
  } else if (ny > nx && nz == ny && ny % nx == 0) {
    for (int64_t i = 0; i < nz; ++i) pz[i] = fn(px[i % nx], py[i]);
  } else {
    return KernelError(k, "broadcasting both operands (", x.shape().DebugString(), " and ",
                       y.shape().DebugString(), ") is not supported");
  }
  return absl::OkStatus();
}

class QuantizedMulOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    float r[4];
    OP_REQUIRES_OK(ctx, ProductInputs(ctx, 2, r));
    BCast bcast(x.shape(), y.shape());
    OP_REQUIRES(ctx, bcast.valid(),
                KernelError(*this, "Incompatible shapes: ", x.shape().DebugString(), " vs. ",
                            y.shape().DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, bcast.output_shape(), &out));
    ProductRange(ctx, r[0], r[1], r[2], r[3]);
    if (!ctx->status().ok()) return;
    const uint32_t zx = ZeroLevel(r[0], r[1]);
    const uint32_t zy = ZeroLevel(r[2], r[3]);
    auto mul = [zx, zy](uint8_t a, uint8_t b) {
      return static_cast<int32_t>((uint32_t{a} - zx) * (uint32_t{b} - zy));
    };
    OP_REQUIRES_OK(ctx, TiledBinary(*this, x, y, out, mul));
  }
};

// ---- requantization ------------------------------------------------------------------------

// The float value of qint32 level q in [min, max], as Dequantize's MIN_FIRST computes it.
float Qint32ToFloat(int32_t q, float min, float max) {
  if (min == max) return min;
  const double steps = 4294967296.0;
  const double adjust = steps / (steps - 1.0);
  const float s = static_cast<float>(static_cast<double>(max - min) * adjust / steps);
  const float min_rounded = std::round(min / s) * s;
  const float offset = min_rounded - -2147483648.0f * s;
  return static_cast<float>(q) * s + offset;
}

// A double to int64 as a C++ cast truncates, saturated instead of undefined out of range.
int64_t TruncToInt64(double v) {
  if (!(v > -9.2e18)) return v != v ? 0 : std::numeric_limits<int64_t>::min();
  if (v > 9.2e18) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(v);
}

// qint32 levels in [in_min, in_max] -> quint8 levels in [out_min, out_max], in 16-bit fixed
// point as TensorFlow's kernel computes it (found by experiment): a scale, the input range's
// centre and the output's minimum each become a multiple of 2^-16, the product's upper 32 bits
// are kept, and the sum is rounded half up and clamped.
void RequantizeToQuint8(const int32_t* in, int64_t n, float in_min, float in_max, float out_min,
                        float out_max, uint8_t* out) {
  constexpr int kShift = 16;
  const float in_range = in_max - in_min;
  const float out_range = out_max - out_min;
  const float recip_out_range = out_range == 0.0f ? 0.0f : static_cast<float>(255.0 / out_range);
  const float in_centre = static_cast<float>((in_min + in_max) / 2.0);
  const int64_t scale_fp =
      out_range == 0.0f ? 0 : TruncToInt64(255.0 * (1 << kShift) * in_range / out_range);
  // In float, as TensorFlow computes it (a double product moves a few outputs by one).
  const float in_offset = in_centre * recip_out_range * static_cast<float>(1 << kShift);
  const int64_t in_offset_fp = TruncToInt64(in_offset);
  const int64_t out_offset_fp =
      out_range == 0.0f ? 0 : TruncToInt64((1 << kShift) * (out_min * 255.0) / out_range);
  const int64_t rounding = int64_t{1} << (kShift - 1);
  for (int64_t i = 0; i < n; ++i) {
    // The product wraps as TensorFlow's int64 arithmetic does (only for absurd range ratios).
    const int64_t product = static_cast<int64_t>(static_cast<uint64_t>(int64_t{in[i]}) *
                                                 static_cast<uint64_t>(scale_fp));
    // 128 bits: the saturated offsets of absurd ranges must not overflow.
    const __int128 value = static_cast<__int128>(product >> 32) + in_offset_fp;
    const __int128 q = (value - out_offset_fp + rounding) >> kShift;
    out[i] = static_cast<uint8_t>(q < 0 ? 0 : q > 255 ? 255 : static_cast<int>(q));
  }
}

// Through float, as TensorFlow's generic path: each level's float value, then its qint8 level.
void RequantizeToQint8(const int32_t* in, int64_t n, float in_min, float in_max, float out_min,
                       float out_max, int8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    out[i] = static_cast<int8_t>(
        FloatToLevel<int8_t>(Qint32ToFloat(in[i], in_min, in_max), out_min, out_max));
  }
}

// The float range the values of a qint32 tensor cover, widened down to 0.0 (TensorFlow's
// RequantizationRange: the minimum is at most 0.0, the maximum is left as found).
void UsedRange(const Tensor& in, float min, float max, float* used_min, float* used_max) {
  int32_t lo = std::numeric_limits<int32_t>::max(), hi = std::numeric_limits<int32_t>::min();
  const int32_t* q = in.data<int32_t>();
  for (int64_t i = 0; i < in.NumElements(); ++i) {
    lo = std::min(lo, q[i]);
    hi = std::max(hi, q[i]);
  }
  *used_min = std::min(0.0f, Qint32ToFloat(lo, min, max));
  *used_max = Qint32ToFloat(hi, min, max);
}

absl::Status SetScalar(OpKernelContext* ctx, int i, float v) {
  Tensor* out;
  SG_RETURN_IF_ERROR(ctx->allocate_output(i, TensorShape(), &out));
  out->data<float>()[0] = v;
  return absl::OkStatus();
}

class RequantizationRangeOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, ScalarRange(ctx, 1));
    float used_min, used_max;
    UsedRange(ctx->input(0), ctx->input(1).data<float>()[0], ctx->input(2).data<float>()[0],
              &used_min, &used_max);
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 0, used_min));
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 1, used_max));
  }
};

class RequantizeOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES_OK(ctx, ScalarRange(ctx, 1));
    OP_REQUIRES_OK(ctx, ScalarRange(ctx, 3));
    const float in_min = ctx->input(1).data<float>()[0];
    const float in_max = ctx->input(2).data<float>()[0];
    const float out_min = ctx->input(3).data<float>()[0];
    const float out_max = ctx->input(4).data<float>()[0];
    OP_REQUIRES(ctx, out_min <= 0.0f,
                KernelError(*this, "requested_output_min must be <= 0, but got ", out_min));
    OP_REQUIRES(ctx, out_max >= out_min,
                KernelError(*this, "requested_output_max must be >= requested_output_min, but ",
                            "got ", out_max, " and ", out_min));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    if (out->dtype() == DT_QUINT8) {
      RequantizeToQuint8(in.data<int32_t>(), in.NumElements(), in_min, in_max, out_min, out_max,
                         out->data<uint8_t>());
    } else {
      RequantizeToQint8(in.data<int32_t>(), in.NumElements(), in_min, in_max, out_min, out_max,
                        out->data<int8_t>());
    }
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 1, out_min));
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 2, out_max));
  }
};

// ---- concatenation -------------------------------------------------------------------------

// The float value of quint8 level q in [min, max], as Dequantize's MIN_FIRST computes it.
float Quint8ToFloat(uint8_t q, float min, float max) {
  if (min == max) return min;
  const double steps = 256.0;
  const double adjust = steps / (steps - 1.0);
  const float s = static_cast<float>(static_cast<double>(max - min) * adjust / steps);
  const float min_rounded = std::round(min / s) * s;
  return static_cast<float>(q) * s + min_rounded;
}

// The quint8 level of float x in [min, max] computed in float, as QuantizeV2's MIN_FIRST (the
// scale from the float range width in double, each product rounded to float).
uint8_t FloatToQuint8InFloat(float x, float min, float max) {
  const double steps = 256.0;
  const double adjust = steps / (steps - 1.0);
  const float s = static_cast<float>(steps / (static_cast<double>(max - min) * adjust));
  const float v = std::round(x * s) - std::round(min * s);
  if (!(v >= 0.0f)) return 0;  // also NaN (an empty range)
  return v > 255.0f ? 255 : static_cast<uint8_t>(v);
}

// A qint32 level of range [in_min, in_max] requantized into [out_min, out_max] through float, as
// TensorFlow's QuantizedConcat does it for 32-bit levels (its Eigen dequantize and quantize
// expressions): each scale computed in double from the float range width and stored as float,
// the range minimum snapped to a whole number of steps, every step after that in float, the
// level rounded half away from zero and clamped to [-2^31, 2147483520] (floats that convert back
// to int32).
class Qint32Requantizer {
 public:
  Qint32Requantizer(float in_min, float in_max, float out_min, float out_max) {
    const double steps_minus_one = 4294967296.0 - 1.0;
    const float lowest = -2147483648.0f;
    in_scale_ = static_cast<float>((in_max - in_min) / steps_minus_one);
    const float in_min_rounded =
        in_max == in_min ? in_min : std::round(in_min / in_scale_) * in_scale_;
    in_offset_ = in_min_rounded - lowest * in_scale_;
    out_scale_ =
        out_max == out_min ? 0.0f : static_cast<float>(steps_minus_one / (out_max - out_min));
    out_shift_ = std::round(out_min * out_scale_) - lowest;
  }
  int32_t operator()(int32_t q) const {
    const float f = in_offset_ + static_cast<float>(q) * in_scale_;
    float v = std::round(f * out_scale_) - out_shift_;
    v = std::min(std::max(v, -2147483648.0f), 2147483520.0f);
    return static_cast<int32_t>(v);
  }

 private:
  float in_scale_, in_offset_, out_scale_, out_shift_;
};

// QuantizedConcat of quint8 or qint32 tensors. quint8: the output range is the union of the
// inputs' ranges with its minimum widened down to 0.0 (TensorFlow's, found by experiment); an
// input with another range is requantized into it through float. qint32: the output range is
// symmetric, [-m, m] with m the largest magnitude of the inputs' bounds, as TensorFlow picks for
// signed levels; inputs with another range go through Qint32Requantizer.
class QuantizedConcatOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const int n = (ctx->num_inputs() - 1) / 3;
    const Tensor& dim_t = ctx->input(0);
    OP_REQUIRES(ctx, dim_t.dims() == 0,
                KernelError(*this, "Concat dim tensor should be a scalar integer, but got shape ",
                            dim_t.shape().DebugString()));
    const Tensor& first = ctx->input(1);
    const int rank = first.dims();
    int64_t axis = dim_t.data<int32_t>()[0];
    OP_REQUIRES(ctx, axis >= 0 && axis < rank,
                KernelError(*this, "Concat dim is out of range: ", axis, " vs. ", rank));
    float out_min = 0.0f, out_max = -std::numeric_limits<float>::infinity();
    int64_t total = 0;
    for (int i = 0; i < n; ++i) {
      const Tensor& t = ctx->input(1 + i);
      OP_REQUIRES(ctx, t.dims() == rank,
                  KernelError(*this, "Ranks of all input tensors should match: shape[0] = ",
                              first.shape().DebugString(), " vs. shape[", i,
                              "] = ", t.shape().DebugString()));
      for (int d = 0; d < rank; ++d) {
        OP_REQUIRES(ctx, d == axis || t.dim_size(d) == first.dim_size(d),
                    KernelError(*this, "Dimensions of inputs should match: shape[0] = ",
                                first.shape().DebugString(), " vs. shape[", i,
                                "] = ", t.shape().DebugString()));
      }
      total += t.dim_size(axis);
      for (int k = 0; k < 2; ++k) {
        const Tensor& r = ctx->input(1 + (1 + k) * n + i);
        OP_REQUIRES(ctx, r.NumElements() == 1,
                    KernelError(*this, "input_mins and input_maxes must be scalars, got shape ",
                                r.shape().DebugString()));
      }
      out_min = std::min(out_min, ctx->input(1 + n + i).data<float>()[0]);
      out_max = std::max(out_max, ctx->input(1 + 2 * n + i).data<float>()[0]);
    }
    const bool q32 = first.dtype() == DT_QINT32;
    if (q32) {
      float lo = std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::lowest();
      for (int i = 0; i < n; ++i) {
        lo = std::min(lo, ctx->input(1 + n + i).data<float>()[0]);
        hi = std::max(hi, ctx->input(1 + 2 * n + i).data<float>()[0]);
      }
      out_max = std::max(std::abs(lo), std::abs(hi));
      out_min = -out_max;
    }
    TensorShape shape = first.shape();
    shape.set_dim(axis, total);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 1, out_min));
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 2, out_max));
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= first.dim_size(d);
    for (int d = axis + 1; d < rank; ++d) inner *= first.dim_size(d);
    if (q32) {
      Copy<int32_t>(ctx, n, axis, outer, inner, total, out_min, out_max, out,
                    [&](float mn, float mx) {
                      return Qint32Requantizer(mn, mx, out_min, out_max);
                    });
    } else {
      Copy<uint8_t>(ctx, n, axis, outer, inner, total, out_min, out_max, out,
                    [&](float mn, float mx) {
                      return [mn, mx, out_min, out_max](uint8_t q) {
                        return FloatToQuint8InFloat(Quint8ToFloat(q, mn, mx), out_min, out_max);
                      };
                    });
    }
  }

 private:
  // Copies the inputs into *out along `axis`, each through make(min, max)'s converter unless its
  // range is the output's.
  template <typename T, typename Make>
  static void Copy(OpKernelContext* ctx, int n, int64_t axis, int64_t outer, int64_t inner,
                   int64_t total, float out_min, float out_max, Tensor* out, Make make) {
    T* y = out->data<T>();
    int64_t offset = 0;  // along the output's axis
    for (int i = 0; i < n; ++i) {
      const Tensor& t = ctx->input(1 + i);
      const float mn = ctx->input(1 + n + i).data<float>()[0];
      const float mx = ctx->input(1 + 2 * n + i).data<float>()[0];
      const bool same = mn == out_min && mx == out_max;
      const auto convert = make(mn, mx);
      const int64_t chunk = t.dim_size(axis) * inner;
      const T* x = t.data<T>();
      for (int64_t o = 0; o < outer; ++o) {
        T* dst = y + (o * total + offset) * inner;
        const T* src = x + o * chunk;
        for (int64_t j = 0; j < chunk; ++j) dst[j] = same ? src[j] : convert(src[j]);
      }
      offset += t.dim_size(axis);
    }
  }
};

REGISTER_KERNEL_BUILDER(
    Name("QuantizedMaxPool").Device(DEVICE_CPU).TypeConstraint("T", {DT_QINT8, DT_QUINT8}),
    QuantizedMaxPoolOp);
REGISTER_KERNEL_BUILDER(
    Name("QuantizedAvgPool").Device(DEVICE_CPU).TypeConstraint("T", {DT_QINT8, DT_QUINT8}),
    QuantizedAvgPoolOp);
REGISTER_KERNEL_BUILDER(
    Name("RequantizationRange").Device(DEVICE_CPU).TypeConstraint("Tinput", {DT_QINT32}),
    RequantizationRangeOp);
REGISTER_KERNEL_BUILDER(Name("Requantize")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("Tinput", {DT_QINT32})
                            .TypeConstraint("out_type", {DT_QUINT8, DT_QINT8}),
                        RequantizeOp);
REGISTER_KERNEL_BUILDER(
    Name("QuantizedConcat").Device(DEVICE_CPU).TypeConstraint("T", {DT_QUINT8, DT_QINT32}),
    QuantizedConcatOp);
REGISTER_KERNEL_BUILDER(Name("QuantizedMatMul")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T1", {DT_QUINT8})
                            .TypeConstraint("T2", {DT_QUINT8})
                            .TypeConstraint("Toutput", {DT_QINT32}),
                        QuantizedMatMulOp);
REGISTER_KERNEL_BUILDER(Name("QuantizedConv2D")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("Tinput", {DT_QUINT8})
                            .TypeConstraint("Tfilter", {DT_QUINT8})
                            .TypeConstraint("out_type", {DT_QINT32}),
                        QuantizedConv2DOp);
REGISTER_KERNEL_BUILDER(Name("QuantizedMul")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T1", {DT_QUINT8})
                            .TypeConstraint("T2", {DT_QUINT8})
                            .TypeConstraint("Toutput", {DT_QINT32}),
                        QuantizedMulOp);
REGISTER_KERNEL_BUILDER(Name("QuantizedRelu")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("Tinput", {DT_QUINT8, DT_QINT32})
                            .TypeConstraint("out_type", {DT_QUINT8, DT_QINT32}),
                        QuantizedReluOp);
REGISTER_KERNEL_BUILDER(Name("QuantizedRelu6")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("Tinput", {DT_QUINT8, DT_QINT32})
                            .TypeConstraint("out_type", {DT_QUINT8, DT_QINT32}),
                        QuantizedReluOp);

}  // namespace
}  // namespace sg
