// String ops (TensorFlow's string_ops): StringJoin, RegexFullMatch, StaticRegexFullMatch.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

// Scalars broadcast; every non-scalar input must have one shape, which the output takes.
absl::Status StringJoinShape(InferenceContext* c) {
  // The first non-scalar input's shape, merged with the others'.
  int first = -1;
  PartialTensorShape out;
  for (int i = 0; i < c->num_inputs(); ++i) {
    const PartialTensorShape& in = c->input(i);
    if (in.dims() == 0) continue;
    if (in.unknown_rank()) {
      c->set_output(0, PartialTensorShape());
      return absl::OkStatus();
    }
    if (first < 0) {
      first = i;
      out = in;
      continue;
    }
    auto merged = out.Merge(in);
    if (!merged.ok()) {
      return c->Error("inputs must be scalars or have one shape; got ", out.DebugString(),
                      " and ", in.DebugString());
    }
    out = *merged;
  }
  c->set_output(0, first < 0 ? PartialTensorShape::Scalar() : out);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("StringJoin")
    .Input("inputs: N * string")
    .Attr("N: int >= 0")
    .Attr("separator: string = ''")
    .Output("output: string")
    .SetShapeFn(StringJoinShape);

// Whether each string matches the RE2 pattern in full (the Saver uses it to spot "s3://").
REGISTER_OP("RegexFullMatch")
    .Input("input: string")
    .Input("pattern: string")
    .Output("output: bool")
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      PartialTensorShape unused;
      if (!c->WithRank(1, 0, &unused).ok()) return c->Error("pattern must be a scalar");
      return shape_fns::Unchanged(c);
    });

REGISTER_OP("StaticRegexFullMatch")
    .Input("input: string")
    .Output("output: bool")
    .Attr("pattern: string")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace sg
