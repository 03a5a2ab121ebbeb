// Additions of quantized tensors, each with its float range as two scalar inputs, into a qint32
// sum in a wider range, and the step that brings such a sum back to eight bits:
//   QuantizedAdd                quint8 x + quint8 y -> qint32, numpy broadcasting as far as
//                               TensorFlow's kernel takes it (below);
//   QuantizedBiasAdd            quint8 or qint8 input + 1-D bias over its last dimension -> qint32;
//   QuantizeDownAndShrinkRange  qint32 -> quint8 in the float range the values actually use.
// Each float and integer step is TensorFlow's x86 (non-NEON) one, from its
// quantized_add_op.cc, quantized_bias_add_op.cc, quantize_down_and_shrink_range.cc and
// quantization_utils.h; the file is compiled with -ffp-contract=off.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/kernels/broadcast.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/quantization_util.h"

namespace sg {
namespace {

// Checks that the range-bound inputs `first`.. `first + names.size() - 1` are scalars, with
// TensorFlow's message.
absl::Status ScalarBounds(const OpKernel& k, OpKernelContext* ctx, int first,
                          std::initializer_list<const char*> names) {
  int i = first;
  for (const char* name : names) {
    const Tensor& t = ctx->input(i++);
    if (t.dims() != 0) {
      return KernelError(k, "`", name, "` must be rank 0 but is rank ", t.dims());
    }
  }
  return absl::OkStatus();
}

float Scalar(OpKernelContext* ctx, int i) { return ctx->input(i).data<float>()[0]; }

absl::Status SetScalar(OpKernelContext* ctx, int i, float v) {
  Tensor* out;
  SG_RETURN_IF_ERROR(ctx->allocate_output(i, TensorShape(), &out));
  out->data<float>()[0] = v;
  return absl::OkStatus();
}

// int32 sums wrap, as TensorFlow's (unchecked) int32 additions do on x86.
int32_t WrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

// ---- QuantizedAdd --------------------------------------------------------------------------

using Quint8Table = std::array<int32_t, 256>;

// Each quint8 level of [min, max] in the qint32 output range [out_min, out_max], as
// TensorFlow's x86 QuantizedAdd moves a full operand: the output levels of input levels 0 and
// 1 (through float, unclamped) give an offset and a step, and level v becomes
// offset + v * step, clamped to int32.
Quint8Table LinearLevels(float min, float max, float out_min, float out_max) {
  const int64_t l0 = FloatToLevelUnclampedTF<int32_t>(LevelToFloatTF<uint8_t>(0, min, max),
                                                      out_min, out_max);
  const int64_t l1 = FloatToLevelUnclampedTF<int32_t>(LevelToFloatTF<uint8_t>(1, min, max),
                                                      out_min, out_max);
  // The step is kept in int32, as TensorFlow keeps it.
  const int32_t step = static_cast<int32_t>(static_cast<uint64_t>(l1 - l0));
  Quint8Table t;
  for (int v = 0; v < 256; ++v) {
    int64_t q = l0 + int64_t{v} * step;
    q = std::max<int64_t>(q, std::numeric_limits<int32_t>::min());
    q = std::min<int64_t>(q, std::numeric_limits<int32_t>::max());
    t[v] = static_cast<int32_t>(q);
  }
  return t;
}

// Level v of [min, max] in the output range through float, clamped (TensorFlow's
// RequantizeInNewRange, which QuantizedAdd applies to a one-element operand).
int32_t RequantizeLevel(uint8_t v, float min, float max, float out_min, float out_max) {
  return FloatToLevelTF<int32_t>(LevelToFloatTF<uint8_t>(v, min, max), out_min, out_max);
}

// z = x + y (quint8 in their ranges) in qint32 levels of [-r, r], r = 2^14 times the largest
// magnitude of the four bounds. TensorFlow's kernel folds the broadcast as BCast does and
// handles one or two folded dimensions:
//   one  - a one-element operand (x first) is added to every element of the other, or the
//          operands (of equal size) element by element;
//   two  - the operand with fewer elements (y on a tie) is repeated over the other's flat
//          elements: numpy's result when it is a suffix of the other, and for [2, 3] + [2, 1]
//          TensorFlow's own (a, b, a, b, a, b). When neither operand has the output's size
//          TensorFlow leaves part of its output unwritten; sg fails (UNIMPLEMENTED) instead.
//   more - UNIMPLEMENTED, as TensorFlow.
class QuantizedAddOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    OP_REQUIRES_OK(ctx, ScalarBounds(*this, ctx, 2, {"min_x", "max_x", "min_y", "max_y"}));
    const float min_x = Scalar(ctx, 2), max_x = Scalar(ctx, 3);
    const float min_y = Scalar(ctx, 4), max_y = Scalar(ctx, 5);
    BCast bcast(x.shape(), y.shape());
    OP_REQUIRES(ctx, bcast.valid(),
                KernelError(*this, "Incompatible shapes: ", x.shape().DebugString(), " vs. ",
                            y.shape().DebugString()));
    Tensor* z;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, bcast.output_shape(), &z));
    OP_REQUIRES(ctx, max_x > min_x, KernelError(*this, "max_x must be larger than min_x."));
    OP_REQUIRES(ctx, max_y > min_y, KernelError(*this, "max_y must be larger than min_y."));

    const float smallest_min = std::min(min_x, min_y);
    const float largest_max = std::max(max_x, max_y);
    const float biggest = std::max(std::fabs(smallest_min), std::fabs(largest_max));
    const float max_z = biggest * static_cast<float>(1 << 14);
    const float min_z = -max_z;

    const int64_t nx = x.NumElements(), ny = y.NumElements(), nz = z->NumElements();
    const uint8_t* px = x.data<uint8_t>();
    const uint8_t* py = y.data<uint8_t>();
    int32_t* pz = z->data<int32_t>();
    const int ndims = std::max<int>(1, static_cast<int>(bcast.dims().size()));
    if (ndims == 1) {
      if (nx == 1 || ny == 1) {
        // One operand is a scalar (x when both are).
        const bool x_scalar = nx == 1;
        const uint8_t s = x_scalar ? px[0] : py[0];
        const int32_t s_level = x_scalar ? RequantizeLevel(s, min_x, max_x, min_z, max_z)
                                         : RequantizeLevel(s, min_y, max_y, min_z, max_z);
        const Quint8Table full = x_scalar ? LinearLevels(min_y, max_y, min_z, max_z)
                                          : LinearLevels(min_x, max_x, min_z, max_z);
        const uint8_t* pf = x_scalar ? py : px;
        const int64_t n = x_scalar ? ny : nx;
        for (int64_t i = 0; i < n; ++i) pz[i] = WrapAdd(full[pf[i]], s_level);
      } else {
        const Quint8Table tx = LinearLevels(min_x, max_x, min_z, max_z);
        const Quint8Table ty = LinearLevels(min_y, max_y, min_z, max_z);
        for (int64_t i = 0; i < nx; ++i) pz[i] = WrapAdd(tx[px[i]], ty[py[i]]);
      }
    } else if (ndims == 2) {
      const bool x_vector = nx < ny;
      const int64_t nv = x_vector ? nx : ny, nt = x_vector ? ny : nx;
      OP_REQUIRES(ctx, nv > 0, KernelError(*this, "Must have some elements to add"));
      OP_REQUIRES(ctx, nt == nz,
                  errors::Unimplemented(type_string(), " (node '", name(), "'): Broadcast ",
                                        "between ", x.shape().DebugString(), " and ",
                                        y.shape().DebugString(),
                                        " is not supported (neither operand has the ",
                                        "output's size)."));
      const Quint8Table tx = LinearLevels(min_x, max_x, min_z, max_z);
      const Quint8Table ty = LinearLevels(min_y, max_y, min_z, max_z);
      const uint8_t* pv = x_vector ? px : py;
      const uint8_t* pt = x_vector ? py : px;
      const Quint8Table& tv = x_vector ? tx : ty;
      const Quint8Table& tt = x_vector ? ty : tx;
      for (int64_t i = 0; i < nt; ++i) pz[i] = WrapAdd(tv[pv[i % nv]], tt[pt[i]]);
    } else {
      ctx->CtxFailure(errors::Unimplemented(type_string(), " (node '", name(),
                                            "'): Broadcast between ", x.shape().DebugString(),
                                            " and ", y.shape().DebugString(),
                                            " is not supported yet."));
      return;
    }
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 1, min_z));
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 2, max_z));
  }
};

// ---- QuantizedBiasAdd ----------------------------------------------------------------------

// output = input + bias (bias repeated over the input's flat elements) in qint32 levels of
// [-r, r], r = 2^17 times the largest magnitude of the four bounds, through float as
// TensorFlow's QuantizedAddUsingEigen computes it; the level of 0.0 (from the double
// conversion) is added to each sum.
class QuantizedBiasAddOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& bias = ctx->input(1);
    OP_REQUIRES_OK(ctx, ScalarBounds(*this, ctx, 2,
                                     {"min_input", "max_input", "min_bias", "max_bias"}));
    const float min_in = Scalar(ctx, 2), max_in = Scalar(ctx, 3);
    const float min_bias = Scalar(ctx, 4), max_bias = Scalar(ctx, 5);
    OP_REQUIRES(ctx, input.dims() >= 2,
                KernelError(*this, "Input tensor must be at least 2D: ",
                            input.shape().DebugString()));
    OP_REQUIRES(ctx, bias.dims() == 1,
                KernelError(*this, "Biases must be 1D: ", bias.shape().DebugString()));
    OP_REQUIRES(ctx, bias.dim_size(0) == input.dim_size(input.dims() - 1),
                KernelError(*this, "Must provide as many biases as the last dimension of the ",
                            "input tensor: ", bias.shape().DebugString(), " vs. ",
                            input.shape().DebugString()));
    OP_REQUIRES(ctx, bias.NumElements() > 0, KernelError(*this, "Must provide at least 1 bias"));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &out));
    const float max_out =
        std::max(max_in, std::max(-min_in, std::max(max_bias, -min_bias))) *
        static_cast<float>(1 << 17);
    const float min_out = -max_out;
    const bool ok = DispatchQuantized(input.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (sizeof(T) == 1) {
        const int32_t zero = FloatToLevelTF<int32_t>(0.0f, min_out, max_out);
        const LevelToFloatEigen<T> in_to_float(min_in, max_in);
        const LevelToFloatEigen<T> bias_to_float(min_bias, max_bias);
        const FloatToLevelEigen<int32_t> to_out(min_out, max_out);
        const int64_t n = input.NumElements(), nb = bias.NumElements();
        std::vector<int32_t> bias_levels(nb);
        const T* pb = bias.data<T>();
        for (int64_t c = 0; c < nb; ++c) {
          bias_levels[c] = WrapAdd(to_out(bias_to_float(pb[c])), zero);
        }
        const T* px = input.data<T>();
        int32_t* pz = out->data<int32_t>();
        for (int64_t i = 0; i < n; ++i) {
          pz[i] = WrapAdd(to_out(in_to_float(px[i])), bias_levels[i % nb]);
        }
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, input.dtype()));
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 1, min_out));
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 2, max_out));
  }
};

// ---- QuantizeDownAndShrinkRange ------------------------------------------------------------

// qint32 -> quint8 in the float range the input's levels cover (UsedQint32Range, as
// RequantizationRange computes it); the levels move by the fixed-point RequantizeToQuint8. The
// range outputs hold that used range.
class QuantizeDownAndShrinkRangeOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES_OK(ctx, ScalarBounds(*this, ctx, 1, {"input_min", "input_max"}));
    const float in_min = Scalar(ctx, 1), in_max = Scalar(ctx, 2);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    const int64_t n = in.NumElements();
    const int32_t* q = in.data<int32_t>();
    float used_min, used_max;
    UsedQint32Range(q, n, in_min, in_max, &used_min, &used_max);
    if (n > 0) RequantizeToQuint8(q, n, in_min, in_max, used_min, used_max, out->data<uint8_t>());
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 1, used_min));
    OP_REQUIRES_OK(ctx, SetScalar(ctx, 2, used_max));
  }
};

REGISTER_KERNEL_BUILDER(Name("QuantizedAdd")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T1", {DT_QUINT8})
                            .TypeConstraint("T2", {DT_QUINT8})
                            .TypeConstraint("Toutput", {DT_QINT32}),
                        QuantizedAddOp);
REGISTER_KERNEL_BUILDER(Name("QuantizedBiasAdd")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T1", {DT_QUINT8})
                            .TypeConstraint("T2", {DT_QUINT8})
                            .TypeConstraint("out_type", {DT_QINT32}),
                        QuantizedBiasAddOp);
REGISTER_KERNEL_BUILDER(Name("QuantizedBiasAdd")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T1", {DT_QINT8})
                            .TypeConstraint("T2", {DT_QINT8})
                            .TypeConstraint("out_type", {DT_QINT32}),
                        QuantizedBiasAddOp);
REGISTER_KERNEL_BUILDER(Name("QuantizeDownAndShrinkRange")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("Tinput", {DT_QINT32})
                            .TypeConstraint("out_type", {DT_QUINT8}),
                        QuantizeDownAndShrinkRangeOp);

}  // namespace
}  // namespace sg
