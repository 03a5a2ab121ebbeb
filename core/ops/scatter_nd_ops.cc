// N-dimensional gathers and scatters (TensorFlow's array_ops): GatherNd, ScatterNd and
// TensorScatter{Update,Add,Sub,Min,Max}.
//
// indices has shape outer + [depth]: each of its prod(outer) rows is the index of a slice
// params[i_0, ..., i_{depth-1}, ...] (shape params.shape[depth:]). bad_indices_policy: "" or
// "DEFAULT" or "ERROR" make an index out of range INVALID_ARGUMENT; "IGNORE" gathers zeros for it
// and skips it in a scatter.
#include <vector>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

// Whether dims [a0, a0 + n) of `a` and [b0, b0 + n) of `b` can agree (known ranks).
bool DimsCompatible(const Shape& a, int a0, const Shape& b, int b0, int n) {
  for (int i = 0; i < n; ++i) {
    const int64_t x = a.dim_size(a0 + i), y = b.dim_size(b0 + i);
    if (x >= 0 && y >= 0 && x != y) return false;
  }
  return true;
}

// outer + params.shape[depth:].
absl::Status GatherNdShape(InferenceContext* c) {
  const Shape& params = c->input(0);
  Shape indices;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(1, 1, &indices));
  if (indices.unknown_rank() || params.unknown_rank()) {
    c->set_output(0, Shape());
    return absl::OkStatus();
  }
  const int64_t depth = indices.dim_size(indices.dims() - 1);
  if (depth < 0) {
    c->set_output(0, Shape());
    return absl::OkStatus();
  }
  if (depth > params.dims()) {
    return c->Error("indices.shape[-1] must be <= params.rank, but saw indices shape: ",
                    indices.DebugString(), " and params shape: ", params.DebugString());
  }
  std::vector<int64_t> dims;
  for (int i = 0; i + 1 < indices.dims(); ++i) dims.push_back(indices.dim_size(i));
  for (int i = static_cast<int>(depth); i < params.dims(); ++i) dims.push_back(params.dim_size(i));
  c->set_output(0, Shape(dims));
  return absl::OkStatus();
}

// The output is `out`; updates must be indices.shape[:-1] + out[depth:].
absl::Status ScatterNdShapeHelper(InferenceContext* c, const Shape& indices, const Shape& updates,
                                  const Shape& out) {
  if (!indices.unknown_rank() && !updates.unknown_rank() && !out.unknown_rank() &&
      indices.dim_size(indices.dims() - 1) >= 0) {
    const int outer = indices.dims() - 1;
    const int64_t depth = indices.dim_size(outer);
    if (updates.dims() < outer || !DimsCompatible(indices, 0, updates, 0, outer)) {
      return c->Error("Dimensions [0,", outer, ") of indices[shape=", indices.DebugString(),
                      "] must match dimensions [0,", outer, ") of updates[shape=",
                      updates.DebugString(), "]");
    }
    if (depth > out.dims() || out.dims() - depth != updates.dims() - outer ||
        !DimsCompatible(out, static_cast<int>(depth), updates, outer,
                        static_cast<int>(out.dims() - depth))) {
      return c->Error("Dimensions [", depth, ",", out.dims(), ") of input[shape=",
                      out.DebugString(), "] must match dimensions [", outer, ",", updates.dims(),
                      ") of updates[shape=", updates.DebugString(), "]");
    }
    const int64_t out_n = out.num_elements();
    const int64_t indices_n = indices.num_elements();
    const int64_t updates_n = updates.num_elements();
    if (out_n == 0 && (indices_n > 0 || updates_n > 0)) {
      return c->Error("Indices and updates specified for empty input");
    }
  }
  c->set_output(0, out);
  return absl::OkStatus();
}

// ScatterNd: the output's shape is the value of input 2.
absl::Status ScatterNdShape(InferenceContext* c) {
  Shape indices, updates, shape;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 1, &indices));
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(1, 1, &updates));
  SG_RETURN_IF_ERROR(c->WithRank(2, 1, &shape));
  Shape out;
  if (const Tensor* t = c->input_tensor(2); t != nullptr && t->dims() == 1) {
    std::vector<int64_t> dims;
    for (int64_t i = 0; i < t->NumElements(); ++i) {
      const int64_t d = t->dtype() == DT_INT64   ? t->data<int64_t>()[i]
                        : t->dtype() == DT_INT32 ? t->data<int32_t>()[i]
                                                 : t->data<int16_t>()[i];
      if (d < -1) return c->Error("Dimension ", i, " of shape must be >= 0, got ", d);
      dims.push_back(d);
    }
    out = Shape(dims);
  } else if (!shape.unknown_rank() && shape.dim_size(0) >= 0) {
    out = Shape(std::vector<int64_t>(shape.dim_size(0), -1));
  }
  return ScatterNdShapeHelper(c, indices, updates, out);
}

// TensorScatter*: the output has the shape of `tensor`.
absl::Status TensorScatterShape(InferenceContext* c) {
  Shape indices, updates;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(1, 1, &indices));
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(2, 1, &updates));
  return ScatterNdShapeHelper(c, indices, updates, c->input(0));
}

// ScatterNd{Update,Add,...} on a ref: the output is the ref, of input 0's shape.
absl::Status ScatterNdRefShape(InferenceContext* c) {
  Shape indices, updates;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(1, 1, &indices));
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(2, 1, &updates));
  return ScatterNdShapeHelper(c, indices, updates, c->input(0));
}

// ResourceScatterNd*: no output; the variable's shape is not known here, so only ranks are checked.
absl::Status ResourceScatterNdShape(InferenceContext* c) {
  Shape handle, indices, updates;
  SG_RETURN_IF_ERROR(c->WithRank(0, 0, &handle));
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(1, 1, &indices));
  return c->WithRankAtLeast(2, 1, &updates);
}

constexpr const char kNumberTypes[] =
    "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
    "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}";

}  // namespace

// output[o] = params[indices[o]] for each outer position o of indices: a slice of params of
// shape params.shape[indices.shape[-1]:]. The output has shape indices.shape[:-1] + that.
REGISTER_OP("GatherNd")
    .Input("params: Tparams")
    .Input("indices: Tindices")
    .Output("output: Tparams")
    .Attr("Tparams: type")
    .Attr("Tindices: {int16, int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(GatherNdShape);

// A zero tensor of the given shape into which each slice of updates is added at its index
// (duplicates add; bool ORs, strings concatenate).
REGISTER_OP("ScatterNd")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Input("shape: Tindices")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int16, int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(ScatterNdShape);

// A copy of tensor with each slice of updates assigned (Update; the last duplicate wins), added,
// subtracted, or min/max-ed into it at its index.
REGISTER_OP("TensorScatterUpdate")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int16, int32, int64, uint16}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(TensorScatterShape);

REGISTER_OP("TensorScatterAdd")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(TensorScatterShape);

REGISTER_OP("TensorScatterSub")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(TensorScatterShape);

REGISTER_OP("TensorScatterMin")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(TensorScatterShape);

REGISTER_OP("TensorScatterMax")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(TensorScatterShape);

// The in-place forms, on a variable: each slice of updates is assigned (Update: the last
// duplicate wins), added, subtracted, or min/max-ed into the variable at its index. The ref forms
// output the ref; the resource forms have no output.
#define SG_REGISTER_SCATTER_ND_REF(name, t_attr, locking)                  \
  REGISTER_OP(name)                                                        \
      .Input("ref: Ref(T)")                                                \
      .Input("indices: Tindices")                                          \
      .Input("updates: T")                                                 \
      .Output("output_ref: Ref(T)")                                        \
      .Attr(t_attr)                                                        \
      .Attr("Tindices: {int32, int64}")                                    \
      .Attr(locking)                                                       \
      .Attr("bad_indices_policy: string = ''")                             \
      .SetShapeFn(ScatterNdRefShape)
SG_REGISTER_SCATTER_ND_REF("ScatterNdUpdate", "T: type", "use_locking: bool = true");
SG_REGISTER_SCATTER_ND_REF("ScatterNdAdd", kNumberTypes, "use_locking: bool = false");
SG_REGISTER_SCATTER_ND_REF("ScatterNdSub", kNumberTypes, "use_locking: bool = false");
SG_REGISTER_SCATTER_ND_REF("ScatterNdMin", kNumberTypes, "use_locking: bool = false");
SG_REGISTER_SCATTER_ND_REF("ScatterNdMax", kNumberTypes, "use_locking: bool = false");
#undef SG_REGISTER_SCATTER_ND_REF

#define SG_REGISTER_SCATTER_ND_RESOURCE(name)         \
  REGISTER_OP(name)                                   \
      .Input("ref: resource")                         \
      .Input("indices: Tindices")                     \
      .Input("updates: T")                            \
      .Attr("T: type")                                \
      .Attr("Tindices: {int32, int64}")               \
      .Attr("use_locking: bool = true")               \
      .Attr("bad_indices_policy: string = ''")        \
      .SetIsStateful()                                \
      .SetShapeFn(ResourceScatterNdShape)
SG_REGISTER_SCATTER_ND_RESOURCE("ResourceScatterNdUpdate");
SG_REGISTER_SCATTER_ND_RESOURCE("ResourceScatterNdAdd");
SG_REGISTER_SCATTER_ND_RESOURCE("ResourceScatterNdSub");
SG_REGISTER_SCATTER_ND_RESOURCE("ResourceScatterNdMin");
SG_REGISTER_SCATTER_ND_RESOURCE("ResourceScatterNdMax");
#undef SG_REGISTER_SCATTER_ND_RESOURCE

// A copy of input with each slice of updates added at its index (bool ORs).
REGISTER_OP("ScatterNdNonAliasingAdd")
    .Input("input: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
          "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, bool}")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(TensorScatterShape);

}  // namespace sg
