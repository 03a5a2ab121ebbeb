// TensorFlow v1 control flow: Switch, Merge, Enter, Exit, NextIteration, LoopCond (and the Ref
// forms). The executor gives these ops their frame and deadness semantics.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

absl::Status SwitchShape(InferenceContext* c) {
  c->set_output(0, c->input(0));
  c->set_output(1, c->input(0));
  return absl::OkStatus();
}

absl::Status MergeShape(InferenceContext* c) {
  // The output has the shape every input agrees on.
  PartialTensorShape out = c->input(0);
  for (int i = 1; i < c->num_inputs(); ++i) {
    const PartialTensorShape& s = c->input(i);
    if (out.unknown_rank() || s.unknown_rank() || out.dims() != s.dims()) {
      out = PartialTensorShape();
      break;
    }
    std::vector<int64_t> dims;
    for (int d = 0; d < out.dims(); ++d) {
      dims.push_back(out.dim_size(d) == s.dim_size(d) ? out.dim_size(d) : -1);
    }
    out = PartialTensorShape(dims);
  }
  c->set_output(0, out);
  c->set_output(1, PartialTensorShape::Scalar());
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Switch")
    .Input("data: T")
    .Input("pred: bool")
    .Output("output_false: T")
    .Output("output_true: T")
    .Attr("T: type")
    .SetShapeFn(SwitchShape);
REGISTER_OP("RefSwitch")
    .Input("data: Ref(T)")
    .Input("pred: bool")
    .Output("output_false: Ref(T)")
    .Output("output_true: Ref(T)")
    .Attr("T: type")
    .SetAllowsUninitializedInput()
    .SetShapeFn(SwitchShape);
REGISTER_OP("Merge")
    .Input("inputs: N * T")
    .Output("output: T")
    .Output("value_index: int32")
    .Attr("T: type")
    .Attr("N: int >= 1")
    .SetShapeFn(MergeShape);
REGISTER_OP("RefMerge")
    .Input("inputs: Ref(N * T)")
    .Output("output: Ref(T)")
    .Output("value_index: int32")
    .Attr("T: type")
    .Attr("N: int >= 1")
    .SetShapeFn(MergeShape);
// Forwards the ref inputs[index].
REGISTER_OP("RefSelect")
    .Input("index: int32")
    .Input("inputs: Ref(N * T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .Attr("N: int >= 1")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape index;
      SG_RETURN_IF_ERROR(c->WithRank(0, 0, &index));
      PartialTensorShape out = c->input(1);
      for (int i = 2; i < c->num_inputs(); ++i) {
        if (!(c->input(i) == out)) out = PartialTensorShape();
      }
      c->set_output(0, out);
      return absl::OkStatus();
    });
REGISTER_OP("Enter")
    .Input("data: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("frame_name: string")
    .Attr("is_constant: bool = false")
    .Attr("parallel_iterations: int = 10")
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("RefEnter")
    .Input("data: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .Attr("frame_name: string")
    .Attr("is_constant: bool = false")
    .Attr("parallel_iterations: int = 10")
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("Exit").Input("data: T").Output("output: T").Attr("T: type").SetShapeFn(
    shape_fns::Unchanged);
REGISTER_OP("RefExit")
    .Input("data: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("NextIteration")
    .Input("data: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("RefNextIteration")
    .Input("data: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("LoopCond").Input("input: bool").Output("output: bool").SetShapeFn(
    shape_fns::Unchanged);
REGISTER_OP("ControlTrigger").SetShapeFn(shape_fns::Unknown);

}  // namespace sg
