// Quantization ops: fake quantization (FakeQuantWithMinMax{Args,Vars,VarsPerChannel}), the
// float <-> quantized conversions (QuantizeV2, Dequantize) and the ops that compute on quantized
// tensors with their float ranges beside them (Requantize, Quantized*), with TensorFlow's OpDefs
// and shape functions. Kernels live in core/kernels/{fake_quant_ops,quantize_ops,
// quantized_ops,quantized_add_ops}.cc.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"
#include "core/kernels/window_util.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

#define SG_QUANTIZED_TYPES "{qint8, quint8, qint32, qint16, quint16}"

// Checks that each input in [first, last] is a scalar (a float range bound).
absl::Status ScalarInputs(InferenceContext* c, int first, int last) {
  Shape unused;
  for (int i = first; i <= last; ++i) SG_RETURN_IF_ERROR(c->WithRank(i, 0, &unused));
  return absl::OkStatus();
}

// Outputs 1 and 2 (the float range of output 0) are scalars.
void ScalarRangeOutputs(InferenceContext* c) {
  c->set_output(1, Shape(std::vector<int64_t>{}));
  c->set_output(2, Shape(std::vector<int64_t>{}));
}

REGISTER_OP("FakeQuantWithMinMaxArgs")
    .Attr("min: float = -6.0")
    .Attr("max: float = 6.0")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .Input("inputs: float")
    .Output("outputs: float")
    .SetShapeFn(shape_fns::Unchanged);

// The gradient of FakeQuantWithMinMaxArgs: gradients where inputs lie in the nudged range.
REGISTER_OP("FakeQuantWithMinMaxArgsGradient")
    .Attr("min: float = -6.0")
    .Attr("max: float = 6.0")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .Input("gradients: float")
    .Input("inputs: float")
    .Output("backprops: float")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("FakeQuantWithMinMaxVars")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("outputs: float")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ScalarInputs(c, 1, 2));
      c->set_output(0, c->input(0));
      return absl::OkStatus();
    });

// The gradients of FakeQuantWithMinMaxVars wrt its input, min and max (scalars).
REGISTER_OP("FakeQuantWithMinMaxVarsGradient")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .Input("gradients: float")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("backprops_wrt_input: float")
    .Output("backprop_wrt_min: float")
    .Output("backprop_wrt_max: float")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ScalarInputs(c, 2, 3));
      c->set_output(0, c->input(1));
      ScalarRangeOutputs(c);
      return absl::OkStatus();
    });

// The gradients of FakeQuantWithMinMaxVarsPerChannel: input (rank 1 to 4), min and max [depth].
REGISTER_OP("FakeQuantWithMinMaxVarsPerChannelGradient")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .Input("gradients: float")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("backprops_wrt_input: float")
    .Output("backprop_wrt_min: float")
    .Output("backprop_wrt_max: float")
    .SetShapeFn([](InferenceContext* c) {
      Shape in, min, max;
      SG_RETURN_IF_ERROR(c->WithRankAtLeast(1, 1, &in));
      if (!in.unknown_rank() && in.dims() > 4) {
        return c->Error("Shape must be at most rank 4 but is rank ", in.dims());
      }
      SG_RETURN_IF_ERROR(c->WithRank(2, 1, &min));
      SG_RETURN_IF_ERROR(c->WithRank(3, 1, &max));
      const int64_t depth = in.unknown_rank() ? -1 : in.dim_size(in.dims() - 1);
      c->set_output(0, in);
      c->set_output(1, Shape(std::vector<int64_t>{depth}));
      c->set_output(2, Shape(std::vector<int64_t>{depth}));
      return absl::OkStatus();
    });

// min and max are vectors as long as the input's last dimension.
REGISTER_OP("FakeQuantWithMinMaxVarsPerChannel")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("outputs: float")
    .SetShapeFn([](InferenceContext* c) {
      Shape in, min, max;
      SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 1, &in));
      SG_RETURN_IF_ERROR(c->WithRank(1, 1, &min));
      SG_RETURN_IF_ERROR(c->WithRank(2, 1, &max));
      int64_t depth = in.unknown_rank() ? -1 : in.dim_size(in.dims() - 1);
      for (const Shape* s : {&min, &max}) {
        const int64_t d = s->unknown_rank() ? -1 : s->dim_size(0);
        if (depth >= 0 && d >= 0 && d != depth) {
          return c->Error("Dimensions must be equal, but are ", depth, " and ", d);
        }
      }
      c->set_output(0, in);
      return absl::OkStatus();
    });

// min_range and max_range: scalars without an axis, else vectors as long as the input's `axis`
// dimension; the output ranges have their shape.
absl::Status PerAxisRanges(InferenceContext* c, bool range_outputs) {
  int axis = -1;
  SG_RETURN_IF_ERROR(c->GetAttr("axis", &axis));
  const Shape& in = c->input(0);
  if (axis < 0) {
    SG_RETURN_IF_ERROR(ScalarInputs(c, 1, 2));
    if (range_outputs) ScalarRangeOutputs(c);
  } else {
    if (!in.unknown_rank() && axis >= in.dims()) {
      return c->Error("axis ", axis, " is out of range for input of rank ", in.dims());
    }
    int64_t depth = in.unknown_rank() ? -1 : in.dim_size(axis);
    for (int i = 1; i <= 2; ++i) {
      Shape r;
      SG_RETURN_IF_ERROR(c->WithRank(i, 1, &r));
      const int64_t d = r.unknown_rank() ? -1 : r.dim_size(0);
      if (depth >= 0 && d >= 0 && d != depth) {
        return c->Error("Dimensions must be equal, but are ", depth, " and ", d);
      }
      if (depth < 0) depth = d;
    }
    if (range_outputs) {
      c->set_output(1, Shape(std::vector<int64_t>{depth}));
      c->set_output(2, Shape(std::vector<int64_t>{depth}));
    }
  }
  c->set_output(0, in);
  return absl::OkStatus();
}

REGISTER_OP("QuantizeV2")
    .Input("input: float")
    .Input("min_range: float")
    .Input("max_range: float")
    .Output("output: T")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("T: " SG_QUANTIZED_TYPES)
    .Attr("mode: {'MIN_COMBINED', 'MIN_FIRST', 'SCALED'} = 'MIN_COMBINED'")
    .Attr("round_mode: {'HALF_AWAY_FROM_ZERO', 'HALF_TO_EVEN'} = 'HALF_AWAY_FROM_ZERO'")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .Attr("ensure_minimum_range: float = 0.01")
    .SetShapeFn([](InferenceContext* c) { return PerAxisRanges(c, true); });

REGISTER_OP("Dequantize")
    .Input("input: T")
    .Input("min_range: float")
    .Input("max_range: float")
    .Output("output: dtype")
    .Attr("T: " SG_QUANTIZED_TYPES)
    .Attr("mode: {'MIN_COMBINED', 'MIN_FIRST', 'SCALED'} = 'MIN_COMBINED'")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .Attr("dtype: {bfloat16, float} = DT_FLOAT")
    .SetShapeFn([](InferenceContext* c) { return PerAxisRanges(c, false); });

// [batch, out_rows, out_cols, depth] of an NHWC pooling window; scalar ranges.
absl::Status QuantizedPoolShape(InferenceContext* c) {
  Shape in;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &in));
  SG_RETURN_IF_ERROR(ScalarInputs(c, 1, 2));
  std::vector<int64_t> ksize, strides;
  std::string padding_s;
  SG_RETURN_IF_ERROR(c->GetAttr("ksize", &ksize));
  SG_RETURN_IF_ERROR(c->GetAttr("strides", &strides));
  SG_RETURN_IF_ERROR(c->GetAttr("padding", &padding_s));
  if (ksize.size() != 4 || strides.size() != 4) {
    return c->Error("ksize and strides must have 4 elements");
  }
  Padding padding;
  SG_RETURN_IF_ERROR(ParsePadding(padding_s, &padding));
  std::vector<int64_t> out = {-1, -1, -1, -1};
  if (!in.unknown_rank()) {
    out[0] = in.dim_size(0);
    out[3] = in.dim_size(3);
    for (int d = 1; d <= 2; ++d) {
      int64_t unused;
      absl::Status s = WindowedOutputSize(in.dim_size(d), ksize[d], 1, strides[d], padding, 0, 0,
                                          &out[d], &unused);
      if (!s.ok()) return c->Error(s.message());
    }
  }
  c->set_output(0, Shape(out));
  ScalarRangeOutputs(c);
  return absl::OkStatus();
}

REGISTER_OP("QuantizedAvgPool")
    .Input("input: T")
    .Input("min_input: float")
    .Input("max_input: float")
    .Output("output: T")
    .Output("min_output: float")
    .Output("max_output: float")
    .Attr("T: " SG_QUANTIZED_TYPES)
    .Attr("ksize: list(int)")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn(QuantizedPoolShape);

REGISTER_OP("QuantizedMaxPool")
    .Input("input: T")
    .Input("min_input: float")
    .Input("max_input: float")
    .Output("output: T")
    .Output("min_output: float")
    .Output("max_output: float")
    .Attr("T: " SG_QUANTIZED_TYPES)
    .Attr("ksize: list(int)")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn(QuantizedPoolShape);

// Element-wise with scalar ranges: output 0 has input 0's shape.
absl::Status QuantizedUnaryShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(ScalarInputs(c, 1, 2));
  c->set_output(0, c->input(0));
  ScalarRangeOutputs(c);
  return absl::OkStatus();
}

REGISTER_OP("QuantizedRelu")
    .Input("features: Tinput")
    .Input("min_features: float")
    .Input("max_features: float")
    .Output("activations: out_type")
    .Output("min_activations: float")
    .Output("max_activations: float")
    .Attr("Tinput: " SG_QUANTIZED_TYPES)
    .Attr("out_type: " SG_QUANTIZED_TYPES " = DT_QUINT8")
    .SetShapeFn(QuantizedUnaryShape);

REGISTER_OP("QuantizedRelu6")
    .Input("features: Tinput")
    .Input("min_features: float")
    .Input("max_features: float")
    .Output("activations: out_type")
    .Output("min_activations: float")
    .Output("max_activations: float")
    .Attr("Tinput: " SG_QUANTIZED_TYPES)
    .Attr("out_type: " SG_QUANTIZED_TYPES " = DT_QUINT8")
    .SetShapeFn(QuantizedUnaryShape);

// A binary quantized op: output 0 from `base` on inputs 0 and 1, scalar ranges in 2..5 and out.
template <absl::Status (*base)(InferenceContext*)>
absl::Status QuantizedBinaryShape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(base(c));
  SG_RETURN_IF_ERROR(ScalarInputs(c, 2, 5));
  ScalarRangeOutputs(c);
  return absl::OkStatus();
}

REGISTER_OP("QuantizedMatMul")
    .Input("a: T1")
    .Input("b: T2")
    .Input("min_a: float")
    .Input("max_a: float")
    .Input("min_b: float")
    .Input("max_b: float")
    .Output("out: Toutput")
    .Output("min_out: float")
    .Output("max_out: float")
    .Attr("T1: " SG_QUANTIZED_TYPES)
    .Attr("T2: " SG_QUANTIZED_TYPES)
    .Attr("Toutput: " SG_QUANTIZED_TYPES " = DT_QINT32")
    .Attr("transpose_a: bool = false")
    .Attr("transpose_b: bool = false")
    .Attr("Tactivation: " SG_QUANTIZED_TYPES " = DT_QUINT8")
    .SetShapeFn(QuantizedBinaryShape<shape_fns::MatMul>);

REGISTER_OP("QuantizedMul")
    .Input("x: T1")
    .Input("y: T2")
    .Input("min_x: float")
    .Input("max_x: float")
    .Input("min_y: float")
    .Input("max_y: float")
    .Output("z: Toutput")
    .Output("min_z: float")
    .Output("max_z: float")
    .Attr("T1: " SG_QUANTIZED_TYPES)
    .Attr("T2: " SG_QUANTIZED_TYPES)
    .Attr("Toutput: " SG_QUANTIZED_TYPES " = DT_QINT32")
    .SetShapeFn(QuantizedBinaryShape<shape_fns::BroadcastBinary>);

REGISTER_OP("QuantizedAdd")
    .Input("x: T1")
    .Input("y: T2")
    .Input("min_x: float")
    .Input("max_x: float")
    .Input("min_y: float")
    .Input("max_y: float")
    .Output("z: Toutput")
    .Output("min_z: float")
    .Output("max_z: float")
    .Attr("T1: " SG_QUANTIZED_TYPES)
    .Attr("T2: " SG_QUANTIZED_TYPES)
    .Attr("Toutput: " SG_QUANTIZED_TYPES " = DT_QINT32")
    .SetShapeFn(QuantizedBinaryShape<shape_fns::BroadcastBinary>);

// BiasAdd's shape rule (NHWC): input of rank >= 2, a 1-D bias as long as its last dimension.
absl::Status QuantizedBiasAddShape(InferenceContext* c) {
  Shape value, bias;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 2, &value));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &bias));
  if (!value.unknown_rank()) {
    const int64_t channels = value.dim_size(value.dims() - 1);
    if (channels >= 0 && bias.dim_size(0) >= 0 && channels != bias.dim_size(0)) {
      return c->Error("Must provide as many biases as the last dimension of the input tensor: ",
                      bias.DebugString(), " vs. ", value.DebugString());
    }
  }
  c->set_output(0, value);
  SG_RETURN_IF_ERROR(ScalarInputs(c, 2, 5));
  ScalarRangeOutputs(c);
  return absl::OkStatus();
}

REGISTER_OP("QuantizedBiasAdd")
    .Input("input: T1")
    .Input("bias: T2")
    .Input("min_input: float")
    .Input("max_input: float")
    .Input("min_bias: float")
    .Input("max_bias: float")
    .Output("output: out_type")
    .Output("min_out: float")
    .Output("max_out: float")
    .Attr("T1: " SG_QUANTIZED_TYPES)
    .Attr("T2: " SG_QUANTIZED_TYPES)
    .Attr("out_type: " SG_QUANTIZED_TYPES)
    .SetShapeFn(QuantizedBiasAddShape);

// NHWC input, [rows, cols, in_depth, out_depth] filter, one stride for rows and columns.
absl::Status QuantizedConv2DShape(InferenceContext* c) {
  Shape in, filter;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &in));
  SG_RETURN_IF_ERROR(c->WithRank(1, 4, &filter));
  SG_RETURN_IF_ERROR(ScalarInputs(c, 2, 5));
  std::vector<int64_t> strides;
  std::string padding_s;
  SG_RETURN_IF_ERROR(c->GetAttr("strides", &strides));
  SG_RETURN_IF_ERROR(c->GetAttr("padding", &padding_s));
  if (strides.size() != 4) return c->Error("strides must have 4 elements");
  Padding padding;
  SG_RETURN_IF_ERROR(ParsePadding(padding_s, &padding));
  std::vector<int64_t> out = {-1, -1, -1, -1};
  if (!filter.unknown_rank()) out[3] = filter.dim_size(3);
  if (!in.unknown_rank()) {
    out[0] = in.dim_size(0);
    if (!filter.unknown_rank()) {
      const int64_t d = in.dim_size(3), fd = filter.dim_size(2);
      if (d >= 0 && fd >= 0 && d != fd) {
        return c->Error("input and filter must have the same depth: ", d, " vs ", fd);
      }
      for (int i = 1; i <= 2; ++i) {
        if (filter.dim_size(i - 1) < 0) continue;
        int64_t unused;
        absl::Status s = WindowedOutputSize(in.dim_size(i), filter.dim_size(i - 1), 1,
                                            strides[i], padding, 0, 0, &out[i], &unused);
        if (!s.ok()) return c->Error(s.message());
      }
    }
  }
  c->set_output(0, Shape(out));
  ScalarRangeOutputs(c);
  return absl::OkStatus();
}

REGISTER_OP("QuantizedConv2D")
    .Input("input: Tinput")
    .Input("filter: Tfilter")
    .Input("min_input: float")
    .Input("max_input: float")
    .Input("min_filter: float")
    .Input("max_filter: float")
    .Output("output: out_type")
    .Output("min_output: float")
    .Output("max_output: float")
    .Attr("Tinput: " SG_QUANTIZED_TYPES)
    .Attr("Tfilter: " SG_QUANTIZED_TYPES)
    .Attr("out_type: " SG_QUANTIZED_TYPES " = DT_QINT32")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn(QuantizedConv2DShape);

REGISTER_OP("RequantizationRange")
    .Input("input: Tinput")
    .Input("input_min: float")
    .Input("input_max: float")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("Tinput: " SG_QUANTIZED_TYPES)
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ScalarInputs(c, 1, 2));
      c->set_output(0, Shape(std::vector<int64_t>{}));
      c->set_output(1, Shape(std::vector<int64_t>{}));
      return absl::OkStatus();
    });

REGISTER_OP("Requantize")
    .Input("input: Tinput")
    .Input("input_min: float")
    .Input("input_max: float")
    .Input("requested_output_min: float")
    .Input("requested_output_max: float")
    .Output("output: out_type")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("Tinput: " SG_QUANTIZED_TYPES)
    .Attr("out_type: " SG_QUANTIZED_TYPES)
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ScalarInputs(c, 1, 4));
      c->set_output(0, c->input(0));
      ScalarRangeOutputs(c);
      return absl::OkStatus();
    });

REGISTER_OP("QuantizeDownAndShrinkRange")
    .Input("input: Tinput")
    .Input("input_min: float")
    .Input("input_max: float")
    .Output("output: out_type")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("Tinput: " SG_QUANTIZED_TYPES)
    .Attr("out_type: " SG_QUANTIZED_TYPES)
    .SetShapeFn(QuantizedUnaryShape);

// Concat's shape rules on `values`; N scalar mins and maxes.
REGISTER_OP("QuantizedConcat")
    .Input("concat_dim: int32")
    .Input("values: N * T")
    .Input("input_mins: N * float")
    .Input("input_maxes: N * float")
    .Output("output: T")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("N: int >= 2")
    .Attr("T: type")
    .SetShapeFn([](InferenceContext* c) {
      const int n = (c->num_inputs() - 1) / 3;
      SG_RETURN_IF_ERROR(ScalarInputs(c, 1 + n, 3 * n));
      ScalarRangeOutputs(c);
      const Tensor* dim_t = c->input_tensor(0);
      int rank = -1;
      for (int i = 0; i < n; ++i) {
        const Shape& s = c->input(1 + i);
        if (s.unknown_rank()) continue;
        if (rank >= 0 && s.dims() != rank) {
          return c->Error("Shape must be rank ", rank, " but is rank ", s.dims());
        }
        rank = s.dims();
      }
      if (dim_t == nullptr || rank < 0) {
        c->set_output(0, rank < 0 ? Shape() : Shape(std::vector<int64_t>(rank, -1)));
        return absl::OkStatus();
      }
      const int64_t axis = dim_t->data<int32_t>()[0];
      if (axis < 0 || axis >= rank) {
        return c->Error("Concat dim is out of range: ", axis, " vs. ", rank);
      }
      std::vector<int64_t> dims(rank, -1);
      int64_t total = 0;
      for (int i = 0; i < n; ++i) {
        const Shape& s = c->input(1 + i);
        if (s.unknown_rank()) {
          total = -1;
          continue;
        }
        for (int d = 0; d < rank; ++d) {
          if (d == axis) continue;
          const int64_t v = s.dim_size(d);
          if (v < 0) continue;
          if (dims[d] >= 0 && dims[d] != v) {
            return c->Error("Dimension ", d, " in both shapes must be equal, but are ", dims[d],
                            " and ", v);
          }
          dims[d] = v;
        }
        if (total >= 0) total = s.dim_size(axis) < 0 ? -1 : total + s.dim_size(axis);
      }
      dims[axis] = total;
      c->set_output(0, Shape(dims));
      return absl::OkStatus();
    });

// Output 0 has input 0's shape; input_min and input_max are scalars without an axis, else
// vectors as long as input's `axis` dimension.
absl::Status QuantizeAndDequantizeShape(InferenceContext* c) {
  int axis = -1;
  SG_RETURN_IF_ERROR(c->GetAttr("axis", &axis));
  Shape in;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, axis + 1, &in));
  for (int i = 1; i <= 2; ++i) {
    Shape r;
    SG_RETURN_IF_ERROR(c->WithRank(i, axis < 0 ? 0 : 1, &r));
    if (axis >= 0 && !in.unknown_rank() && !r.unknown_rank()) {
      const int64_t depth = in.dim_size(axis), d = r.dim_size(0);
      if (depth >= 0 && d >= 0 && depth != d) {
        return c->Error("Dimensions must be equal, but are ", depth, " and ", d);
      }
    }
  }
  c->set_output(0, in);
  return absl::OkStatus();
}

REGISTER_OP("QuantizeAndDequantizeV2")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Output("output: T")
    .Attr("signed_input: bool = true")
    .Attr("num_bits: int = 8")
    .Attr("range_given: bool = false")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("round_mode: {'HALF_TO_EVEN', 'HALF_UP'} = 'HALF_TO_EVEN'")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .SetShapeFn(QuantizeAndDequantizeShape);

REGISTER_OP("QuantizeAndDequantizeV3")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Input("num_bits: int32")
    .Output("output: T")
    .Attr("signed_input: bool = true")
    .Attr("range_given: bool = true")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .SetShapeFn([](InferenceContext* c) {
      Shape unused;
      SG_RETURN_IF_ERROR(c->WithRank(3, 0, &unused));
      return QuantizeAndDequantizeShape(c);
    });

REGISTER_OP("QuantizeAndDequantizeV4")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Output("output: T")
    .Attr("signed_input: bool = true")
    .Attr("num_bits: int = 8")
    .Attr("range_given: bool = false")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("round_mode: {'HALF_TO_EVEN', 'HALF_UP'} = 'HALF_TO_EVEN'")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .SetShapeFn(QuantizeAndDequantizeShape);

// The gradient of QuantizeAndDequantizeV4: gradients where input lies in [input_min, input_max]
// (per slice along `axis`), 0 elsewhere; zeros for the range.
REGISTER_OP("QuantizeAndDequantizeV4Grad")
    .Input("gradients: T")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Output("input_backprop: T")
    .Output("input_min_backprop: T")
    .Output("input_max_backprop: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("axis: int = -1")
    .SetShapeFn([](InferenceContext* c) {
      int axis = -1;
      SG_RETURN_IF_ERROR(c->GetAttr("axis", &axis));
      if (axis < -1) return c->Error("axis should be at least -1, got ", axis);
      if (!c->input(0).IsCompatibleWith(c->input(1))) {
        return c->Error("gradients ", c->input(0).DebugString(), " and input ",
                        c->input(1).DebugString(), " have different shapes");
      }
      PartialTensorShape in, range;
      SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, axis + 1, &in));
      SG_RETURN_IF_ERROR(c->WithRank(2, axis == -1 ? 0 : 1, &range));
      SG_RETURN_IF_ERROR(c->WithRank(3, axis == -1 ? 0 : 1, &range));
      PartialTensorShape known = in.unknown_rank() ? c->input(1) : in;
      c->set_output(0, known);
      c->set_output(1, range);
      c->set_output(2, range);
      return absl::OkStatus();
    });

}  // namespace
}  // namespace sg
