// Ragged ops (TensorFlow's ragged_conversion_ops): RaggedTensorToTensor.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"
#include "core/util/ragged_to_dense_util.h"

namespace sg {
namespace {

// Input `i` as a requested shape: a scalar -1 or an unknown value of rank 0 is an unknown shape;
// a vector's -1 entries are unknown dims.
absl::Status ShapeTreatingScalarAsUnknown(InferenceContext* c, int i, PartialTensorShape* out) {
  const Tensor* t = c->input_tensor(i);
  if (t == nullptr) {
    const PartialTensorShape& s = c->input(i);
    *out = (!s.unknown_rank() && s.dims() == 1 && s.dim_size(0) >= 0)
               ? PartialTensorShape(std::vector<int64_t>(s.dim_size(0), -1))
               : PartialTensorShape();
    return absl::OkStatus();
  }
  if (t->dims() > 1) return c->Error("Shape must be at most rank 1 but is rank ", t->dims());
  std::vector<int64_t> dims;
  for (int64_t k = 0; k < t->NumElements(); ++k) {
    dims.push_back(t->dtype() == DT_INT64 ? t->data<int64_t>()[k] : t->data<int32_t>()[k]);
    if (dims.back() < -1) return c->Error("Dimension ", dims.back(), " must be >= -1");
  }
  if (t->dims() == 0) {
    if (dims[0] != -1) {
      return c->Error("The only valid scalar shape tensor is the fully unknown shape specified "
                      "as -1.");
    }
    *out = PartialTensorShape();
    return absl::OkStatus();
  }
  *out = PartialTensorShape(dims);
  return absl::OkStatus();
}

absl::Status RaggedTensorToTensorShape(InferenceContext* c) {
  PartialTensorShape shape;
  SG_RETURN_IF_ERROR(ShapeTreatingScalarAsUnknown(c, 0, &shape));
  std::vector<std::string> names;
  SG_RETURN_IF_ERROR(c->GetAttr("row_partition_types", &names));
  std::vector<RowPartitionType> types;
  absl::Status s = ParseRowPartitionTypes(names, &types);
  if (!s.ok()) return c->Error(s.message());
  s = ValidateDefaultValueShape(c->input(2), c->input(1));
  if (!s.ok()) return c->Error(s.message());
  auto out = CombineRaggedTensorToTensorShapes(RaggedRank(types), shape, c->input(1));
  if (!out.ok()) return c->Error(out.status().message());
  c->set_output(0, *out);
  return absl::OkStatus();
}

}  // namespace

// A ragged tensor (flat `values` and its row partitions, outermost first) to a dense tensor of
// `shape` (-1 dims: the ragged tensor's bounding box), padded with default_value (broadcast to a
// value's shape) and truncated where `shape` is smaller.
REGISTER_OP("RaggedTensorToTensor")
    .Attr("T: type")
    .Attr("Tindex: {int64, int32}")
    .Attr("Tshape: {int64, int32}")
    .Attr("num_row_partition_tensors: int >= 1")
    .Attr("row_partition_types: list(string)")
    .Input("shape: Tshape")
    .Input("values: T")
    .Input("default_value: T")
    .Input("row_partition_tensors: num_row_partition_tensors * Tindex")
    .Output("result: T")
    .SetShapeFn(RaggedTensorToTensorShape);

}  // namespace sg
