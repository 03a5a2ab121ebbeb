// Bitcast (TensorFlow's array_ops): a tensor's bytes read as another numeric type.
#include <cstdint>
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

#define SG_BITCAST_TYPES                                                                   \
  "{bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, int8, " \
  "int16, complex64, complex128, qint8, quint8, qint16, quint16, qint32}"

absl::Status BitcastShape(InferenceContext* c) {
  const PartialTensorShape& in = c->input(0);
  if (in.unknown_rank()) {
    c->set_output(0, in);
    return absl::OkStatus();
  }
  const int64_t from = DataTypeSize(c->input_type(0));
  const int64_t to = DataTypeSize(c->output_type(0));
  if (from == 0 || to == 0) {
    return c->Error("Cannot bitcast types ", DataTypeString(c->input_type(0)), " to ",
                    DataTypeString(c->output_type(0)), " because one of the type sizes is zero.");
  }
  std::vector<int64_t> dims(in.dim_sizes().begin(), in.dim_sizes().end());
  if (from > to) {
    dims.push_back(from / to);
  } else if (from < to) {
    if (dims.empty()) return c->Error("Cannot bitcast from a scalar to a larger type");
    const int64_t last = dims.back();
    if (last >= 0 && last != to / from) {
      return c->Error("Cannot bitcast due to shape. ", last, " does not match ", to / from);
    }
    dims.pop_back();
  }
  c->set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

}  // namespace

// Same bytes, dtype `type`: a larger input element becomes a new innermost dim of
// sizeof(T) / sizeof(type) elements; a smaller one needs that many as its innermost dim, which
// goes.
REGISTER_OP("Bitcast")
    .Input("input: T")
    .Output("output: type")
    .Attr("T: " SG_BITCAST_TYPES)
    .Attr("type: " SG_BITCAST_TYPES)
    .SetShapeFn(BitcastShape);

#undef SG_BITCAST_TYPES

}  // namespace sg
