// Array ops: reshaping, slicing, joining, gathering and padding tensors, with TensorFlow's
// OpDefs and shape functions. Kernels live in core/kernels/*_op.cc.
#include <algorithm>
#include <set>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"
#include "core/kernels/strided_slice_spec.h"

namespace sg {
namespace {

using Shape = PartialTensorShape;

// The values of constant input i as int64s; false when the value is not known.
bool ConstInts(InferenceContext* c, int i, std::vector<int64_t>* out) {
  const Tensor* t = c->input_tensor(i);
  if (t == nullptr) return false;
  out->clear();
  for (int64_t k = 0; k < t->NumElements(); ++k) {
    switch (t->dtype()) {
      case DT_INT32: out->push_back(t->data<int32_t>()[k]); break;
      case DT_INT64: out->push_back(t->data<int64_t>()[k]); break;
      case DT_INT16: out->push_back(t->data<int16_t>()[k]); break;
      case DT_INT8: out->push_back(t->data<int8_t>()[k]); break;
      case DT_UINT8: out->push_back(t->data<uint8_t>()[k]); break;
      default: return false;
    }
  }
  return true;
}

bool ConstScalar(InferenceContext* c, int i, int64_t* v) {
  std::vector<int64_t> vals;
  if (!ConstInts(c, i, &vals) || vals.size() != 1) return false;
  *v = vals[0];
  return true;
}

Shape UnknownOfRank(int rank) { return Shape(std::vector<int64_t>(rank, -1)); }

std::vector<int64_t> Dims(const Shape& s) {
  return std::vector<int64_t>(s.dim_sizes().begin(), s.dim_sizes().end());
}

// Merges two known-or-unknown dims; false when both known and different.
bool MergeDim(int64_t a, int64_t b, int64_t* out) {
  if (a < 0) {
    *out = b;
  } else if (b < 0 || a == b) {
    *out = a;
  } else {
    return false;
  }
  return true;
}

absl::Status ReshapeShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  Shape target = c->InputAsShape(1);
  if (target.unknown_rank()) {
    c->set_output(0, target);
    return absl::OkStatus();
  }
  std::vector<int64_t> dims = Dims(target);
  const Tensor* t = c->input_tensor(1);
  int unknown = -1, unknown_count = 0;
  int64_t product = 1;
  bool product_known = true;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      if (t != nullptr) {
        if (dims[i] != -1) return c->Error("size ", i, " must be non-negative, not ", dims[i]);
        unknown = static_cast<int>(i);
        ++unknown_count;
      } else {
        product_known = false;
      }
    } else if (product > 0 && dims[i] > 0 && product > kMaxTensorElements / dims[i]) {
      return c->Error("requested shape has more than 2^62 elements");
    } else {
      product *= dims[i];
    }
  }
  if (unknown_count > 1) return c->Error("only one input size may be -1, not both");
  const int64_t n = in.num_elements();
  if (t != nullptr && n >= 0 && product_known) {
    if (unknown >= 0) {
      if (product > 0) {
        if (n % product != 0) {
          return c->Error("Input to reshape is a tensor with ", n,
                          " values, but the requested shape requires a multiple of ", product);
        }
        dims[unknown] = n / product;
      }
    } else if (product != n) {
      return c->Error("Input to reshape is a tensor with ", n,
                      " values, but the requested shape has ", product);
    }
  }
  c->set_output(0, Shape(dims));
  return absl::OkStatus();
}

absl::Status ShapeShape(InferenceContext* c) {
  for (int i = 0; i < c->num_outputs(); ++i) {
    const Shape& in = c->input(i);
    c->set_output(i, Shape({in.unknown_rank() ? -1 : static_cast<int64_t>(in.dims())}));
  }
  return absl::OkStatus();
}

absl::Status SqueezeShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  if (in.unknown_rank()) return shape_fns::Unknown(c);
  std::vector<int64_t> squeeze;
  SG_RETURN_IF_ERROR(c->GetAttr("squeeze_dims", &squeeze));
  std::set<int> which;
  for (int64_t d : squeeze) {
    if (d < -in.dims() || d >= in.dims()) {
      return c->Error("Tried to squeeze dim index ", d, " for tensor with ", in.dims(),
                      " dimensions.");
    }
    which.insert(static_cast<int>(d < 0 ? d + in.dims() : d));
  }
  std::vector<int64_t> out;
  for (int d = 0; d < in.dims(); ++d) {
    const int64_t size = in.dim_size(d);
    if (which.empty()) {
      if (size == 1) continue;
      if (size < 0) return shape_fns::Unknown(c);  // may or may not be squeezed
    } else if (which.count(d)) {
      if (size != 1 && size >= 0) {
        return c->Error("Can not squeeze dim[", d, "], expected a dimension of 1, got ", size);
      }
      continue;
    }
    out.push_back(size);
  }
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status ExpandDimsShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  int64_t dim;
  if (in.unknown_rank() || !ConstScalar(c, 1, &dim)) return shape_fns::Unknown(c);
  const int rank = in.dims();
  if (dim < -1 - rank || dim > rank) {
    return c->Error("Tried to expand dim index ", dim, " for tensor with ", rank,
                    " dimensions.");
  }
  if (dim < 0) dim += rank + 1;
  std::vector<int64_t> out = Dims(in);
  out.insert(out.begin() + dim, 1);
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

// Concatenation of inputs [first, first+n) along the axis held by input `axis_input`.
absl::Status ConcatShapeImpl(InferenceContext* c, int first, int n, int axis_input) {
  int rank = -1;
  for (int i = first; i < first + n; ++i) {
    if (!c->input(i).unknown_rank()) {
      if (rank >= 0 && c->input(i).dims() != rank) {
        return c->Error("ConcatOp : Ranks of all input tensors should match: shape[0] = ",
                        c->input(first).DebugString(), " vs. shape[", i - first,
                        "] = ", c->input(i).DebugString());
      }
      rank = c->input(i).dims();
    }
  }
  int64_t axis;
  if (!ConstScalar(c, axis_input, &axis)) {
    c->set_output(0, rank >= 0 ? UnknownOfRank(rank) : Shape());
    return absl::OkStatus();
  }
  if (rank < 0) return shape_fns::Unknown(c);
  if (rank == 0) return c->Error("Can't concatenate scalars (use tf.stack instead)");
  if (axis < -rank || axis >= rank) {
    return c->Error("ConcatOp : Expected concatenating dimensions in the range [", -rank, ", ",
                    rank, "), but got ", axis);
  }
  if (axis < 0) axis += rank;
  std::vector<int64_t> out(rank, -1);
  int64_t total = 0;
  for (int i = first; i < first + n; ++i) {
    const Shape& s = c->input(i);
    if (s.unknown_rank()) {
      total = -1;
      continue;
    }
    for (int d = 0; d < rank; ++d) {
      if (d == axis) continue;
      if (!MergeDim(out[d], s.dim_size(d), &out[d])) {
        return c->Error("ConcatOp : Dimensions of inputs should match: shape[0] = ",
                        c->input(first).DebugString(), " vs. shape[", i - first,
                        "] = ", s.DebugString());
      }
    }
    if (total >= 0) total = s.dim_size(axis) < 0 ? -1 : total + s.dim_size(axis);
  }
  out[axis] = total;
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status ConcatV2Shape(InferenceContext* c) {
  return ConcatShapeImpl(c, 0, c->num_inputs() - 1, c->num_inputs() - 1);
}
absl::Status ConcatShape(InferenceContext* c) {
  return ConcatShapeImpl(c, 1, c->num_inputs() - 1, 0);
}

absl::Status PackShape(InferenceContext* c) {
  Shape merged;
  for (int i = 0; i < c->num_inputs(); ++i) {
    auto m = merged.Merge(c->input(i));
    if (!m.ok()) {
      return c->Error("Shapes of all inputs must match: values[0].shape = ",
                      c->input(0).DebugString(), " != values[", i,
                      "].shape = ", c->input(i).DebugString());
    }
    merged = *m;
  }
  if (merged.unknown_rank()) return shape_fns::Unknown(c);
  int64_t axis;
  SG_RETURN_IF_ERROR(c->GetAttr("axis", &axis));
  const int rank = merged.dims() + 1;
  if (axis < -rank || axis >= rank) {
    return c->Error("Invalid axis: ", axis, "; must be in [", -rank, ",", rank, ")");
  }
  if (axis < 0) axis += rank;
  std::vector<int64_t> out = Dims(merged);
  out.insert(out.begin() + axis, c->num_inputs());
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status UnpackShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  if (in.unknown_rank()) return shape_fns::Unknown(c);
  int64_t axis;
  SG_RETURN_IF_ERROR(c->GetAttr("axis", &axis));
  const int rank = in.dims();
  if (axis < -rank || axis >= rank) {
    return c->Error("Invalid axis: ", axis, "; must be in [", -rank, ",", rank, ")");
  }
  if (axis < 0) axis += rank;
  const int64_t d = in.dim_size(axis);
  if (d >= 0 && d != c->num_outputs()) {
    return c->Error("Dimension must be ", c->num_outputs(), " but is ", d);
  }
  std::vector<int64_t> out = Dims(in);
  out.erase(out.begin() + axis);
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, Shape(out));
  return absl::OkStatus();
}

// Outputs of Split/SplitV along the axis held by input `axis_input` of input `value_input`.
absl::Status SplitShapeImpl(InferenceContext* c, int value_input, int axis_input,
                            const std::vector<int64_t>* sizes) {
  const Shape& in = c->input(value_input);
  const int n = c->num_outputs();
  int64_t axis;
  if (in.unknown_rank() || !ConstScalar(c, axis_input, &axis)) {
    for (int i = 0; i < n; ++i) {
      c->set_output(i, in.unknown_rank() ? Shape() : UnknownOfRank(in.dims()));
    }
    return absl::OkStatus();
  }
  const int rank = in.dims();
  if (axis < -rank || axis >= rank) {
    return c->Error("-input rank(-", rank, ") <= split_dim < input rank (", rank,
                    "), but got ", axis);
  }
  if (axis < 0) axis += rank;
  const int64_t d = in.dim_size(axis);
  for (int i = 0; i < n; ++i) {
    std::vector<int64_t> out = Dims(in);
    if (sizes == nullptr) {
      if (d >= 0 && d % n != 0) {
        return c->Error("Number of ways to split should evenly divide the split dimension, but ",
                        "got split_dim ", axis, " (size = ", d, ") and num_split ", n);
      }
      out[axis] = d < 0 ? -1 : d / n;
    } else {
      out[axis] = (*sizes)[i];
    }
    c->set_output(i, Shape(out));
  }
  return absl::OkStatus();
}

absl::Status SplitShape(InferenceContext* c) { return SplitShapeImpl(c, 1, 0, nullptr); }

absl::Status SplitVShape(InferenceContext* c) {
  std::vector<int64_t> sizes;
  const Shape& in = c->input(0);
  if (!ConstInts(c, 1, &sizes)) {
    for (int i = 0; i < c->num_outputs(); ++i) {
      c->set_output(i, in.unknown_rank() ? Shape() : UnknownOfRank(in.dims()));
    }
    return absl::OkStatus();
  }
  if (static_cast<int>(sizes.size()) != c->num_outputs()) {
    return c->Error("Length of size_splits should be equal to num_split, but got ",
                    sizes.size(), " and ", c->num_outputs());
  }
  int64_t axis;
  int unknown = -1;
  int64_t sum = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      if (unknown >= 0) return c->Error("Only one dimensions can have a value of -1.");
      unknown = static_cast<int>(i);
    } else {
      sum += sizes[i];
    }
  }
  if (unknown >= 0 && !in.unknown_rank() && ConstScalar(c, 2, &axis) && axis >= -in.dims() &&
      axis < in.dims()) {
    const int64_t d = in.dim_size(axis < 0 ? axis + in.dims() : axis);
    sizes[unknown] = d < 0 ? -1 : d - sum;
  }
  return SplitShapeImpl(c, 0, 2, &sizes);
}

absl::Status SliceShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  std::vector<int64_t> begin, size;
  if (!ConstInts(c, 1, &begin) || !ConstInts(c, 2, &size)) {
    Shape s = c->InputAsShape(2);
    c->set_output(0, in.unknown_rank() ? (s.unknown_rank() ? Shape() : UnknownOfRank(s.dims()))
                                       : UnknownOfRank(in.dims()));
    return absl::OkStatus();
  }
  if (begin.size() != size.size()) {
    return c->Error("Expected begin and size arguments to be 1-D tensors of size ", begin.size(),
                    ", but got shapes ", begin.size(), " and ", size.size(), " instead.");
  }
  if (in.unknown_rank()) {
    std::vector<int64_t> out(size.size());
    for (size_t i = 0; i < size.size(); ++i) out[i] = size[i] < 0 ? -1 : size[i];
    c->set_output(0, Shape(out));
    return absl::OkStatus();
  }
  if (static_cast<int>(begin.size()) != in.dims()) {
    return c->Error("Expected begin and size arguments to be 1-D tensors of size ", in.dims(),
                    ", but got shapes [", begin.size(), "] and [", size.size(), "] instead.");
  }
  std::vector<int64_t> out(in.dims());
  for (int d = 0; d < in.dims(); ++d) {
    const int64_t dim = in.dim_size(d);
    if (size[d] == -1) {
      out[d] = dim < 0 ? -1 : dim - begin[d];
    } else {
      out[d] = size[d];
    }
    if (dim >= 0 && (begin[d] < 0 || size[d] < -1 || begin[d] > dim ||
                     (size[d] >= 0 && begin[d] + size[d] > dim))) {
      return c->Error("Expected size[", d, "] in [0, ", dim - begin[d], "], but got ", size[d]);
    }
  }
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status StridedSliceShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  std::vector<int64_t> begin, end, strides;
  if (in.unknown_rank() || !ConstInts(c, 1, &begin) || !ConstInts(c, 2, &end) ||
      !ConstInts(c, 3, &strides)) {
    return shape_fns::Unknown(c);
  }
  StridedSliceMasks m;
  SG_RETURN_IF_ERROR(c->GetAttr("begin_mask", &m.begin));
  SG_RETURN_IF_ERROR(c->GetAttr("end_mask", &m.end));
  SG_RETURN_IF_ERROR(c->GetAttr("ellipsis_mask", &m.ellipsis));
  SG_RETURN_IF_ERROR(c->GetAttr("new_axis_mask", &m.new_axis));
  SG_RETURN_IF_ERROR(c->GetAttr("shrink_axis_mask", &m.shrink_axis));
  StridedSlicePlan plan;
  absl::Status s = PlanStridedSlice(in.dim_sizes(), begin, end, strides, m, &plan);
  if (!s.ok()) return c->Error(s.message());
  c->set_output(0, Shape(absl::Span<const int64_t>(plan.final_shape)));
  return absl::OkStatus();
}

absl::Status TransposeShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  std::vector<int64_t> perm;
  if (!ConstInts(c, 1, &perm)) {
    Shape p = c->input(1);
    if (!in.unknown_rank()) {
      c->set_output(0, UnknownOfRank(in.dims()));
    } else if (!p.unknown_rank() && p.dims() == 1 && p.dim_size(0) >= 0) {
      c->set_output(0, UnknownOfRank(static_cast<int>(p.dim_size(0))));
    } else {
      c->set_output(0, Shape());
    }
    return absl::OkStatus();
  }
  const int rank = static_cast<int>(perm.size());
  if (!in.unknown_rank() && in.dims() != rank) {
    return c->Error("transpose expects a vector of size ", in.dims(),
                    ". But input(1) is a vector of size ", rank);
  }
  std::vector<int64_t> out(rank, -1);
  std::vector<bool> seen(rank, false);
  for (int i = 0; i < rank; ++i) {
    int64_t p = perm[i];
    if (p < 0) p += rank;
    if (p < 0 || p >= rank || seen[p]) {
      return c->Error(perm[i], " is not a valid permutation index for rank ", rank);
    }
    seen[p] = true;
    if (!in.unknown_rank()) out[i] = in.dim_size(p);
  }
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

// Output shape given as the value of input `i` (Fill, BroadcastTo).
absl::Status ShapeFromInput(InferenceContext* c, int i) {
  Shape s = c->InputAsShape(i);
  if (!s.unknown_rank()) {
    for (int64_t d : s.dim_sizes()) {
      if (d < -1 || (d == -1 && c->input_tensor(i) != nullptr)) {
        return c->Error("dimensions must be non-negative, got ", d);
      }
    }
  }
  c->set_output(0, s);
  return absl::OkStatus();
}

absl::Status TileShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  std::vector<int64_t> mult;
  if (!ConstInts(c, 1, &mult)) {
    c->set_output(0, in.unknown_rank() ? Shape() : UnknownOfRank(in.dims()));
    return absl::OkStatus();
  }
  if (!in.unknown_rank() && static_cast<int>(mult.size()) != in.dims()) {
    return c->Error("Expected multiples argument to be a vector of length ", in.dims(),
                    " but got length ", mult.size());
  }
  std::vector<int64_t> out(mult.size(), -1);
  for (size_t d = 0; d < mult.size(); ++d) {
    if (mult[d] < 0) return c->Error("Expected multiples[", d, "] >= 0, but got ", mult[d]);
    if (!in.unknown_rank() && in.dim_size(d) >= 0) out[d] = in.dim_size(d) * mult[d];
  }
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status GatherV2Shape(InferenceContext* c) {
  const Shape& params = c->input(0);
  const Shape& indices = c->input(1);
  int64_t batch_dims = 0;
  c->GetAttr("batch_dims", &batch_dims).IgnoreError();
  int64_t axis;
  if (params.unknown_rank() || indices.unknown_rank() || !ConstScalar(c, 2, &axis)) {
    return shape_fns::Unknown(c);
  }
  const int rank = params.dims();
  if (rank < 1) return c->Error("params must be at least 1 dimensional");
  if (axis < -rank || axis >= rank) {
    return c->Error("Expected axis in the range [", -rank, ", ", rank, "), but got ", axis);
  }
  if (axis < 0) axis += rank;
  if (batch_dims != 0) return shape_fns::Unknown(c);
  std::vector<int64_t> out(params.dim_sizes().begin(), params.dim_sizes().begin() + axis);
  for (int64_t d : indices.dim_sizes()) out.push_back(d);
  for (int d = static_cast<int>(axis) + 1; d < rank; ++d) out.push_back(params.dim_size(d));
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status GatherShape(InferenceContext* c) {
  const Shape& params = c->input(0);
  const Shape& indices = c->input(1);
  if (params.unknown_rank() || indices.unknown_rank()) return shape_fns::Unknown(c);
  if (params.dims() < 1) return c->Error("params must be at least 1 dimensional");
  std::vector<int64_t> out = Dims(indices);
  for (int d = 1; d < params.dims(); ++d) out.push_back(params.dim_size(d));
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status OneHotShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  int64_t axis;
  SG_RETURN_IF_ERROR(c->GetAttr("axis", &axis));
  if (axis < -1) return c->Error("axis must be >= -1");
  if (in.unknown_rank()) return shape_fns::Unknown(c);
  if (axis > in.dims()) return c->Error("Expected axis to be -1 or between [0, ", in.dims(), ")");
  int64_t depth = -1;
  if (ConstScalar(c, 1, &depth) && depth < 0) {
    return c->Error("depth must be non-negative, got: ", depth);
  }
  std::vector<int64_t> out = Dims(in);
  out.insert(axis < 0 ? out.end() : out.begin() + axis, depth);
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status PadShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  const Tensor* p = c->input_tensor(1);
  std::vector<int64_t> pads;
  if (p == nullptr || !ConstInts(c, 1, &pads)) {
    const Shape& ps = c->input(1);
    if (!in.unknown_rank()) {
      c->set_output(0, UnknownOfRank(in.dims()));
    } else if (!ps.unknown_rank() && ps.dims() == 2 && ps.dim_size(0) >= 0) {
      c->set_output(0, UnknownOfRank(static_cast<int>(ps.dim_size(0))));
    } else {
      c->set_output(0, Shape());
    }
    return absl::OkStatus();
  }
  if (p->dims() != 2 || p->dim_size(1) != 2 ||
      (!in.unknown_rank() && p->dim_size(0) != in.dims())) {
    return c->Error("paddings must be a matrix with 2 columns and one row per input dim: ",
                    p->shape().DebugString());
  }
  const int rank = static_cast<int>(p->dim_size(0));
  std::vector<int64_t> out(rank, -1);
  for (int d = 0; d < rank; ++d) {
    if (pads[2 * d] < 0 || pads[2 * d + 1] < 0) {
      return c->Error("Paddings must be non-negative: ", pads[2 * d], " ", pads[2 * d + 1]);
    }
    if (!in.unknown_rank() && in.dim_size(d) >= 0) {
      out[d] = in.dim_size(d) + pads[2 * d] + pads[2 * d + 1];
    }
  }
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status BroadcastToShape(InferenceContext* c) {
  Shape target = c->InputAsShape(1);
  const Shape& in = c->input(0);
  if (!target.unknown_rank() && !in.unknown_rank()) {
    if (in.dims() > target.dims()) {
      return c->Error("Rank of input (", in.dims(), ") must be no greater than rank of output "
                      "shape (", target.dims(), ").");
    }
    const int off = target.dims() - in.dims();
    for (int d = 0; d < in.dims(); ++d) {
      const int64_t a = in.dim_size(d), b = target.dim_size(d + off);
      if (a >= 0 && b >= 0 && a != 1 && a != b) {
        return c->Error("Unable to broadcast tensor of shape ", in.DebugString(),
                        " to tensor of shape ", target.DebugString());
      }
    }
  }
  c->set_output(0, target);
  return absl::OkStatus();
}

absl::Status WhereShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  c->set_output(0, Shape({-1, in.unknown_rank() ? -1 : static_cast<int64_t>(in.dims())}));
  return absl::OkStatus();
}

absl::Status UniqueShape(InferenceContext* c) {
  PartialTensorShape in;
  SG_RETURN_IF_ERROR(c->WithRank(0, 1, &in));
  c->set_output(0, Shape({-1}));
  c->set_output(1, in);
  return absl::OkStatus();
}

absl::Status ReverseV2Shape(InferenceContext* c) { return shape_fns::Unchanged(c); }

// ---- space, depth and batch ----------------------------------------------------------------

// Where H, W and C sit in the 4-D input of SpaceToDepth / DepthToSpace; false for
// NCHW_VECT_C, whose shapes sg does not work out.
bool SpatialLayout(InferenceContext* c, int* h, int* w, int* ch) {
  std::string format = "NHWC";
  c->GetAttr("data_format", &format).IgnoreError();
  if (format == "NHWC") {
    *h = 1, *w = 2, *ch = 3;
  } else if (format == "NCHW") {
    *ch = 1, *h = 2, *w = 3;
  } else {
    return false;
  }
  return true;
}

// SpaceToDepth (to_depth) and DepthToSpace.
absl::Status DepthSpaceShape(InferenceContext* c, bool to_depth) {
  int h, w, ch;
  if (!SpatialLayout(c, &h, &w, &ch)) return shape_fns::Unknown(c);
  Shape in;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &in));
  int64_t bs;
  SG_RETURN_IF_ERROR(c->GetAttr("block_size", &bs));
  if (bs < 2 || bs > (int64_t{1} << 31)) return c->Error("block_size ", bs, " is out of range");
  std::vector<int64_t> out = Dims(in);
  auto divide = [&](int d, int64_t by) -> absl::Status {
    if (out[d] < 0) return absl::OkStatus();
    if (out[d] % by != 0) {
      return c->Error("Dimension size must be evenly divisible by ", by, " but is ", out[d]);
    }
    out[d] /= by;
    return absl::OkStatus();
  };
  auto multiply = [&](int d, int64_t by) -> absl::Status {
    if (out[d] > 0 && by > kMaxTensorElements / out[d]) {
      return c->Error("dimension ", d, " times ", by, " is too large");
    }
    if (out[d] >= 0) out[d] *= by;
    return absl::OkStatus();
  };
  if (to_depth) {
    SG_RETURN_IF_ERROR(divide(h, bs));
    SG_RETURN_IF_ERROR(divide(w, bs));
    SG_RETURN_IF_ERROR(multiply(ch, bs * bs));
  } else {
    SG_RETURN_IF_ERROR(divide(ch, bs * bs));
    SG_RETURN_IF_ERROR(multiply(h, bs));
    SG_RETURN_IF_ERROR(multiply(w, bs));
  }
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

// SpaceToBatchND (to_batch) and BatchToSpaceND with the block shape `block` (empty when not
// known) and the paddings or crops in input `pads_input`.
absl::Status SpaceBatchShapeImpl(InferenceContext* c, bool to_batch,
                                 const std::vector<int64_t>* block, int pads_input) {
  const Shape& in = c->input(0);
  std::vector<int64_t> pads;
  const bool pads_known = ConstInts(c, pads_input, &pads);
  if (block == nullptr || in.unknown_rank()) {
    c->set_output(0, in.unknown_rank() ? Shape() : UnknownOfRank(in.dims()));
    return absl::OkStatus();
  }
  const int m = static_cast<int>(block->size());
  if (in.dims() < 1 + m) {
    return c->Error("input rank should be >= ", 1 + m, " instead of ", in.dims());
  }
  int64_t prod = 1;
  for (int64_t b : *block) {
    if (b < 1) return c->Error("block_shape must be positive");
    if (b > kMaxTensorElements / prod) return c->Error("block_shape is too large");
    prod *= b;
  }
  if (pads_known && static_cast<int>(pads.size()) != 2 * m) {
    return c->Error(to_batch ? "paddings" : "crops", " must have shape [", m, ", 2]");
  }
  std::vector<int64_t> out = Dims(in);
  if (to_batch) {
    if (out[0] > 0 && prod > kMaxTensorElements / out[0]) {
      return c->Error("output batch size is too large");
    }
    out[0] = out[0] < 0 ? -1 : out[0] * prod;
  } else if (out[0] >= 0) {
    if (out[0] % prod != 0) {
      return c->Error("batch size ", out[0], " is not divisible by the product of the block "
                      "shape, ", prod);
    }
    out[0] /= prod;
  }
  for (int i = 0; i < m; ++i) {
    int64_t& d = out[1 + i];
    if (!pads_known) {
      d = -1;
      continue;
    }
    const int64_t lo = pads[2 * i], hi = pads[2 * i + 1];
    if (lo < 0 || hi < 0) {
      return c->Error(to_batch ? "paddings" : "crops", " cannot be negative");
    }
    if (lo > kMaxTensorElements / 4 || hi > kMaxTensorElements / 4) {
      return c->Error(to_batch ? "paddings" : "crops", " are too large");
    }
    if (d < 0) continue;
    if (to_batch) {
      if ((d + lo + hi) % (*block)[i] != 0) {
        return c->Error("padded_shape[", i, "]=", d + lo + hi,
                        " is not divisible by block_shape[", i, "]=", (*block)[i]);
      }
      d = (d + lo + hi) / (*block)[i];
    } else {
      if (d > 0 && (*block)[i] > kMaxTensorElements / d) {
        return c->Error("dimension ", 1 + i, " times its block is too large");
      }
      if (d * (*block)[i] < lo + hi) {
        return c->Error("crops must be less than or equal to the cropped dimension's size: ",
                        lo, " + ", hi, " > ", d * (*block)[i]);
      }
      d = d * (*block)[i] - lo - hi;
    }
  }
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status SpaceBatchNDShape(InferenceContext* c, bool to_batch) {
  Shape block_shape;
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &block_shape));
  Shape pads_shape;
  SG_RETURN_IF_ERROR(c->WithRank(2, 2, &pads_shape));
  std::vector<int64_t> block;
  return SpaceBatchShapeImpl(c, to_batch, ConstInts(c, 1, &block) ? &block : nullptr, 2);
}

// SpaceToBatch and BatchToSpace: 4-D input, block_size on both spatial dims.
absl::Status SpaceBatchShape(InferenceContext* c, bool to_batch) {
  Shape in;
  SG_RETURN_IF_ERROR(c->WithRank(0, 4, &in));
  Shape pads_shape;
  SG_RETURN_IF_ERROR(c->WithRank(1, 2, &pads_shape));
  int64_t bs;
  SG_RETURN_IF_ERROR(c->GetAttr("block_size", &bs));
  std::vector<int64_t> block = {bs, bs};
  return SpaceBatchShapeImpl(c, to_batch, &block, 1);
}

// ---- sequences, rolls, shapes --------------------------------------------------------------

absl::Status ReverseSequenceShape(InferenceContext* c) {
  const Shape& in = c->input(0);
  Shape lens;
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &lens));
  int64_t seq_dim, batch_dim;
  SG_RETURN_IF_ERROR(c->GetAttr("seq_dim", &seq_dim));
  SG_RETURN_IF_ERROR(c->GetAttr("batch_dim", &batch_dim));
  if (in.unknown_rank()) return shape_fns::Unchanged(c);
  const int rank = in.dims();
  if (batch_dim < 0 || batch_dim >= rank) {
    return c->Error("batch_dim must be in [0, ", rank, "), got ", batch_dim);
  }
  if (seq_dim < 0 || seq_dim >= rank) {
    return c->Error("seq_dim must be in [0, ", rank, "), got ", seq_dim);
  }
  if (seq_dim == batch_dim) {
    return c->Error("seq_dim and batch_dim must not be the same: ", seq_dim);
  }
  int64_t merged;
  if (!MergeDim(in.dim_size(batch_dim), lens.dim_size(0), &merged)) {
    return c->Error("Length of seq_lengths != input.dims(", batch_dim, "), (",
                    lens.dim_size(0), " vs. ", in.dim_size(batch_dim), ")");
  }
  std::vector<int64_t> out = Dims(in);
  out[batch_dim] = merged;
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status RollShape(InferenceContext* c) {
  Shape in;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 1, &in));
  for (int i : {1, 2}) {
    const Shape& s = c->input(i);
    if (!s.unknown_rank() && s.dims() > 1) {
      return c->Error(i == 1 ? "shift" : "axis", " must be a scalar or a vector, got ",
                      s.DebugString());
    }
  }
  c->set_output(0, in);
  return absl::OkStatus();
}

absl::Status BroadcastArgsShape(InferenceContext* c) {
  Shape a, b;
  SG_RETURN_IF_ERROR(c->WithRank(0, 1, &a));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &b));
  const int64_t n = a.dim_size(0) < 0 || b.dim_size(0) < 0
                        ? -1
                        : std::max(a.dim_size(0), b.dim_size(0));
  c->set_output(0, Shape({n}));
  return absl::OkStatus();
}

absl::Status ConcatOffsetShape(InferenceContext* c) {
  Shape dim;
  SG_RETURN_IF_ERROR(c->WithRank(0, 0, &dim));
  for (int i = 1; i < c->num_inputs(); ++i) {
    Shape s;
    SG_RETURN_IF_ERROR(c->WithRank(i, 1, &s));
    c->set_output(i - 1, s);
  }
  return absl::OkStatus();
}

absl::Status EnsureShapeShape(InferenceContext* c) {
  PartialTensorShape want;
  SG_RETURN_IF_ERROR(c->GetAttr("shape", &want));
  auto merged = c->input(0).Merge(want);
  if (!merged.ok()) {
    return c->Error("Shape of tensor ", c->input(0).DebugString(),
                    " is not compatible with expected shape ", want.DebugString(), ".");
  }
  c->set_output(0, *merged);
  return absl::OkStatus();
}

absl::Status LinSpaceShape(InferenceContext* c) {
  Shape s;
  SG_RETURN_IF_ERROR(c->WithRank(0, 0, &s));
  SG_RETURN_IF_ERROR(c->WithRank(1, 0, &s));
  SG_RETURN_IF_ERROR(c->WithRank(2, 0, &s));
  int64_t num = -1;
  if (ConstScalar(c, 2, &num) && num <= 0) return c->Error("Requires num > 0: ", num);
  c->set_output(0, Shape({num}));
  return absl::OkStatus();
}

// UniqueV2 / UniqueWithCountsV2: the axis (input 1) holds no or one value.
absl::Status UniqueAxisShape(InferenceContext* c) {
  const Shape& x = c->input(0);
  const Shape& axis_shape = c->input(1);
  if (!axis_shape.unknown_rank() && axis_shape.dims() != 1) {
    return c->Error("axis expects a 1D vector.");
  }
  std::vector<int64_t> axis;
  Shape y, idx({-1});
  if (ConstInts(c, 1, &axis)) {
    if (axis.size() > 1) {
      return c->Error("axis does not support input tensors larger than 1 elements.");
    }
    if (axis.empty()) {
      Shape v;
      SG_RETURN_IF_ERROR(c->WithRank(0, 1, &v));
      y = Shape({-1});
      idx = v;
    } else if (!x.unknown_rank()) {
      int64_t a = axis[0];
      if (a < -x.dims() || a >= x.dims()) {
        return c->Error("axis expects to be in the range [", -x.dims(), ", ", x.dims(), ")");
      }
      if (a < 0) a += x.dims();
      std::vector<int64_t> dims = Dims(x);
      idx = Shape({dims[a]});
      dims[a] = -1;
      y = Shape(dims);
    }
  } else if (!x.unknown_rank()) {
    y = UnknownOfRank(x.dims());
  }
  c->set_output(0, y);
  c->set_output(1, idx);
  if (c->num_outputs() > 2) c->set_output(2, Shape({-1}));
  return absl::OkStatus();
}


// ---- diagonals -----------------------------------------------------------------------------

// The band k (input `k_input`, a constant): lower and upper; false when not known.
bool ConstBand(InferenceContext* c, int k_input, int64_t* lower, int64_t* upper) {
  std::vector<int64_t> k;
  if (!ConstInts(c, k_input, &k) || k.empty() || k.size() > 2) return false;
  *lower = k[0];
  *upper = k.back();
  return true;
}

// MatrixDiag (v1: the main diagonal) and MatrixDiagV2/V3.
absl::Status MatrixDiagShape(InferenceContext* c) {
  const Shape& diag = c->input(0);
  if (c->num_inputs() == 1) {
    Shape d;
    SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 1, &d));
    if (d.unknown_rank()) return shape_fns::Unknown(c);
    std::vector<int64_t> out = Dims(d);
    out.push_back(out.back());
    c->set_output(0, Shape(out));
    return absl::OkStatus();
  }
  int64_t lower, upper, rows, cols;
  if (diag.unknown_rank() || !ConstBand(c, 1, &lower, &upper) || !ConstScalar(c, 2, &rows) ||
      !ConstScalar(c, 3, &cols)) {
    return shape_fns::Unknown(c);
  }
  if (lower > upper) return c->Error("lower_diag_index must not be larger than upper_diag_index");
  const bool single = lower == upper;
  if (diag.dims() < (single ? 1 : 2)) {
    return c->Error("diagonal must be at least ", single ? 1 : 2, "-dim, received shape: ",
                    diag.DebugString());
  }
  std::vector<int64_t> out = Dims(diag);
  const int64_t len = out.back();
  out.resize(out.size() - (single ? 1 : 2));
  if (len >= 0) {
    const int64_t min_rows = len - std::min<int64_t>(upper, 0);
    const int64_t min_cols = len + std::max<int64_t>(lower, 0);
    if (rows == -1 && cols == -1) {
      rows = cols = std::max(min_rows, min_cols);
    } else if (rows == -1) {
      rows = min_rows;
    } else if (cols == -1) {
      cols = min_cols;
    }
  } else {
    rows = rows < 0 ? -1 : rows;
    cols = cols < 0 ? -1 : cols;
  }
  out.push_back(rows);
  out.push_back(cols);
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

// MatrixDiagPart (v1) and MatrixDiagPartV2/V3.
absl::Status MatrixDiagPartShape(InferenceContext* c) {
  Shape in;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 2, &in));
  int64_t lower = 0, upper = 0;
  if (in.unknown_rank() || (c->num_inputs() > 1 && !ConstBand(c, 1, &lower, &upper))) {
    return shape_fns::Unknown(c);
  }
  std::vector<int64_t> out = Dims(in);
  const int64_t rows = out[out.size() - 2], cols = out.back();
  out.resize(out.size() - 2);
  if (lower != upper) out.push_back(upper - lower + 1);
  out.push_back(rows < 0 || cols < 0
                    ? -1
                    : std::max<int64_t>(0, std::min(rows + std::min<int64_t>(upper, 0),
                                                    cols - std::max<int64_t>(lower, 0))));
  c->set_output(0, Shape(out));
  return absl::OkStatus();
}

absl::Status MatrixSetDiagShape(InferenceContext* c) {
  Shape in;
  SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 2, &in));
  c->set_output(0, in);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Reshape")
    .Input("tensor: T")
    .Input("shape: Tshape")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tshape: {int32, int64} = DT_INT32")
    .SetShapeFn(ReshapeShape);

// Reshape with the quantized tensor's float range passed through (quantization family).
REGISTER_OP("QuantizedReshape")
    .Input("tensor: T")
    .Input("shape: Tshape")
    .Input("input_min: float")
    .Input("input_max: float")
    .Output("output: T")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("T: type")
    .Attr("Tshape: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ReshapeShape(c));
      Shape unused;
      SG_RETURN_IF_ERROR(c->WithRank(2, 0, &unused));
      SG_RETURN_IF_ERROR(c->WithRank(3, 0, &unused));
      c->set_output(1, Shape(std::vector<int64_t>{}));
      c->set_output(2, Shape(std::vector<int64_t>{}));
      return absl::OkStatus();
    });

REGISTER_OP("Shape")
    .Input("input: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = DT_INT32")
    .SetShapeFn(ShapeShape);

REGISTER_OP("ShapeN")
    .Input("input: N * T")
    .Output("output: N * out_type")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = DT_INT32")
    .SetShapeFn(ShapeShape);

REGISTER_OP("Size")
    .Input("input: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = DT_INT32")
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("Rank")
    .Input("input: T")
    .Output("output: int32")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("Squeeze")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("squeeze_dims: list(int) >= 0 = []")
    .SetShapeFn(SqueezeShape);

REGISTER_OP("ExpandDims")
    .Input("input: T")
    .Input("dim: Tdim")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tdim: {int32, int64} = DT_INT32")
    .SetShapeFn(ExpandDimsShape);

REGISTER_OP("ConcatV2")
    .Input("values: N * T")
    .Input("axis: Tidx")
    .Output("output: T")
    .Attr("N: int >= 2")
    .Attr("T: type")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(ConcatV2Shape);

REGISTER_OP("Concat")
    .Input("concat_dim: int32")
    .Input("values: N * T")
    .Output("output: T")
    .Attr("N: int >= 2")
    .Attr("T: type")
    .SetShapeFn(ConcatShape);

REGISTER_OP("Pack")
    .Input("values: N * T")
    .Output("output: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .Attr("axis: int = 0")
    .SetShapeFn(PackShape);

REGISTER_OP("Unpack")
    .Input("value: T")
    .Output("output: num * T")
    .Attr("num: int >= 0")
    .Attr("T: type")
    .Attr("axis: int = 0")
    .SetShapeFn(UnpackShape);

REGISTER_OP("Split")
    .Input("split_dim: int32")
    .Input("value: T")
    .Output("output: num_split * T")
    .Attr("num_split: int >= 1")
    .Attr("T: type")
    .SetShapeFn(SplitShape);

REGISTER_OP("SplitV")
    .Input("value: T")
    .Input("size_splits: Tlen")
    .Input("split_dim: int32")
    .Output("output: num_split * T")
    .Attr("num_split: int >= 1")
    .Attr("T: type")
    .Attr("Tlen: {int8, int32, int64} = DT_INT64")
    .SetShapeFn(SplitVShape);

REGISTER_OP("Slice")
    .Input("input: T")
    .Input("begin: Index")
    .Input("size: Index")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Index: {int32, int64}")
    .SetShapeFn(SliceShape);

REGISTER_OP("StridedSlice")
    .Input("input: T")
    .Input("begin: Index")
    .Input("end: Index")
    .Input("strides: Index")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Index: {int16, int32, int64}")
    .Attr("begin_mask: int = 0")
    .Attr("end_mask: int = 0")
    .Attr("ellipsis_mask: int = 0")
    .Attr("new_axis_mask: int = 0")
    .Attr("shrink_axis_mask: int = 0")
    .SetShapeFn(StridedSliceShape);

// The gradient of StridedSlice: a tensor of `shape`, zero except where StridedSlice with the same
// begin, end, strides and masks reads, which holds dy (whose shape is the slice's).
REGISTER_OP("StridedSliceGrad")
    .Input("shape: Index")
    .Input("begin: Index")
    .Input("end: Index")
    .Input("strides: Index")
    .Input("dy: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Index: {int32, int64}")
    .Attr("begin_mask: int = 0")
    .Attr("end_mask: int = 0")
    .Attr("ellipsis_mask: int = 0")
    .Attr("new_axis_mask: int = 0")
    .Attr("shrink_axis_mask: int = 0")
    .SetShapeFn([](InferenceContext* c) { return ShapeFromInput(c, 0); });

// Writes value (broadcast to the slice's shape) into the part of its input that StridedSlice
// with the same begin, end, strides and masks would read: into a copy
// (TensorStridedSliceUpdate), a ref variable (StridedSliceAssign) or a resource variable.
#define SG_STRIDED_SLICE_WRITE_ATTRS           \
  Input("begin: Index")                        \
      .Input("end: Index")                     \
      .Input("strides: Index")                 \
      .Input("value: T")                       \
      .Attr("T: type")                         \
      .Attr("Index: {int32, int64}")           \
      .Attr("begin_mask: int = 0")             \
      .Attr("end_mask: int = 0")               \
      .Attr("ellipsis_mask: int = 0")          \
      .Attr("new_axis_mask: int = 0")          \
      .Attr("shrink_axis_mask: int = 0")
REGISTER_OP("TensorStridedSliceUpdate")
    .Input("input: T")
    .SG_STRIDED_SLICE_WRITE_ATTRS
    .Output("output: T")
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("StridedSliceAssign")
    .Input("ref: Ref(T)")
    .SG_STRIDED_SLICE_WRITE_ATTRS
    .Output("output_ref: Ref(T)")
    .SetShapeFn(shape_fns::Unchanged);
REGISTER_OP("ResourceStridedSliceAssign")
    .Input("ref: resource")
    .SG_STRIDED_SLICE_WRITE_ATTRS
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);
#undef SG_STRIDED_SLICE_WRITE_ATTRS

REGISTER_OP("Transpose")
    .Input("x: T")
    .Input("perm: Tperm")
    .Output("y: T")
    .Attr("T: type")
    .Attr("Tperm: {int32, int64} = DT_INT32")
    .SetShapeFn(TransposeShape);

// Transpose, then the complex conjugate of each element (other dtypes are only transposed).
REGISTER_OP("ConjugateTranspose")
    .Input("x: T")
    .Input("perm: Tperm")
    .Output("y: T")
    .Attr("T: type")
    .Attr("Tperm: {int32, int64} = DT_INT32")
    .SetShapeFn(TransposeShape);

REGISTER_OP("InvertPermutation")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape s;
      SG_RETURN_IF_ERROR(c->WithRank(0, 1, &s));
      c->set_output(0, s);
      return absl::OkStatus();
    });

REGISTER_OP("Fill")
    .Input("dims: index_type")
    .Input("value: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("index_type: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape v;
      SG_RETURN_IF_ERROR(c->WithRank(1, 0, &v));
      return ShapeFromInput(c, 0);
    });

REGISTER_OP("ZerosLike")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("OnesLike")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, "
          "uint64, complex64, complex128, bool}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Tile")
    .Input("input: T")
    .Input("multiples: Tmultiples")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tmultiples: {int32, int64} = DT_INT32")
    .SetShapeFn(TileShape);

// The gradient of Tile: input's dims divided by multiples, each element the sum of its tiles.
REGISTER_OP("TileGrad")
    .Input("input: T")
    .Input("multiples: int32")
    .Output("output: T")
    .Attr("T: type")
    .Deprecated(3, "TileGrad has been replaced with reduce_sum")
    .SetShapeFn([](InferenceContext* c) {
      const Shape& in = c->input(0);
      c->set_output(0, in.unknown_rank() ? Shape() : UnknownOfRank(in.dims()));
      return absl::OkStatus();
    });

REGISTER_OP("BroadcastTo")
    .Input("input: T")
    .Input("shape: Tidx")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(BroadcastToShape);

REGISTER_OP("GatherV2")
    .Input("params: Tparams")
    .Input("indices: Tindices")
    .Input("axis: Taxis")
    .Output("output: Tparams")
    .Attr("batch_dims: int = 0")
    .Attr("Tparams: type")
    .Attr("Tindices: {int16, int32, int64}")
    .Attr("Taxis: {int32, int64}")
    .SetShapeFn(GatherV2Shape);

REGISTER_OP("Gather")
    .Input("params: Tparams")
    .Input("indices: Tindices")
    .Output("output: Tparams")
    .Attr("validate_indices: bool = true")
    .Attr("Tparams: type")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(GatherShape);

REGISTER_OP("OneHot")
    .Input("indices: TI")
    .Input("depth: int32")
    .Input("on_value: T")
    .Input("off_value: T")
    .Output("output: T")
    .Attr("axis: int = -1")
    .Attr("T: type")
    .Attr("TI: {uint8, int8, int32, int64} = DT_INT64")
    .SetShapeFn(OneHotShape);

REGISTER_OP("Pad")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = DT_INT32")
    .SetShapeFn(PadShape);

REGISTER_OP("PadV2")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Input("constant_values: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = DT_INT32")
    .SetShapeFn(PadShape);

REGISTER_OP("MirrorPad")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = DT_INT32")
    .Attr("mode: {'REFLECT', 'SYMMETRIC'}")
    .SetShapeFn(PadShape);

// The gradient of MirrorPad: input's dims less the paddings, each element the sum of itself and
// the padded elements that mirror it.
REGISTER_OP("MirrorPadGrad")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = DT_INT32")
    .Attr("mode: {'REFLECT', 'SYMMETRIC'}")
    .SetShapeFn([](InferenceContext* c) {
      const Shape& in = c->input(0);
      std::vector<int64_t> pads;
      if (in.unknown_rank() || !ConstInts(c, 1, &pads) ||
          pads.size() != 2 * static_cast<size_t>(in.dims())) {
        c->set_output(0, in.unknown_rank() ? Shape() : UnknownOfRank(in.dims()));
        return absl::OkStatus();
      }
      std::vector<int64_t> out(in.dims(), -1);
      for (int d = 0; d < in.dims(); ++d) {
        if (in.dim_size(d) < 0) continue;
        out[d] = in.dim_size(d) - pads[2 * d] - pads[2 * d + 1];
        if (out[d] < 0) return c->Error("paddings exceed the size of input dim ", d);
      }
      c->set_output(0, Shape(out));
      return absl::OkStatus();
    });

REGISTER_OP("Reverse")
    .Input("tensor: T")
    .Input("dims: bool")
    .Output("output: T")
    .Attr("T: {uint8, int8, uint16, int16, uint32, int32, uint64, int64, bool, bfloat16, half, "
          "float, double, complex64, complex128, string}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ReverseV2")
    .Input("tensor: T")
    .Input("axis: Tidx")
    .Output("output: T")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .Attr("T: {uint8, int8, uint16, int16, int32, uint32, int64, uint64, bool, bfloat16, half, "
          "float, double, complex64, complex128, string}")
    .SetShapeFn(ReverseV2Shape);

REGISTER_OP("Where")
    .Input("input: T")
    .Output("index: int64")
    .Attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
          "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, bool} "
          "= DT_BOOL")
    .SetShapeFn(WhereShape);

REGISTER_OP("Unique")
    .Input("x: T")
    .Output("y: T")
    .Output("idx: out_idx")
    .Attr("T: type")
    .Attr("out_idx: {int32, int64} = DT_INT32")
    .SetShapeFn(UniqueShape);

REGISTER_OP("UniqueV2")
    .Input("x: T")
    .Input("axis: Taxis")
    .Output("y: T")
    .Output("idx: out_idx")
    .Attr("T: type")
    .Attr("Taxis: {int32, int64} = DT_INT64")
    .Attr("out_idx: {int32, int64} = DT_INT32")
    .SetShapeFn(UniqueAxisShape);

REGISTER_OP("UniqueWithCounts")
    .Input("x: T")
    .Output("y: T")
    .Output("idx: out_idx")
    .Output("count: out_idx")
    .Attr("T: type")
    .Attr("out_idx: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(UniqueShape(c));
      c->set_output(2, Shape({-1}));
      return absl::OkStatus();
    });

REGISTER_OP("UniqueWithCountsV2")
    .Input("x: T")
    .Input("axis: Taxis")
    .Output("y: T")
    .Output("idx: out_idx")
    .Output("count: out_idx")
    .Attr("T: type")
    .Attr("Taxis: {int32, int64} = DT_INT64")
    .Attr("out_idx: {int32, int64} = DT_INT32")
    .SetShapeFn(UniqueAxisShape);

REGISTER_OP("ListDiff")
    .Input("x: T")
    .Input("y: T")
    .Output("out: T")
    .Output("idx: out_idx")
    .Attr("T: type")
    .Attr("out_idx: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) {
      Shape v;
      SG_RETURN_IF_ERROR(c->WithRank(0, 1, &v));
      SG_RETURN_IF_ERROR(c->WithRank(1, 1, &v));
      c->set_output(0, Shape({-1}));
      c->set_output(1, Shape({-1}));
      return absl::OkStatus();
    });

REGISTER_OP("SpaceToDepth")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("block_size: int >= 2")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'")
    .SetShapeFn([](InferenceContext* c) { return DepthSpaceShape(c, true); });

REGISTER_OP("DepthToSpace")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("block_size: int >= 2")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'")
    .SetShapeFn([](InferenceContext* c) { return DepthSpaceShape(c, false); });

REGISTER_OP("SpaceToBatchND")
    .Input("input: T")
    .Input("block_shape: Tblock_shape")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tblock_shape: {int32, int64} = DT_INT32")
    .Attr("Tpaddings: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) { return SpaceBatchNDShape(c, true); });

REGISTER_OP("BatchToSpaceND")
    .Input("input: T")
    .Input("block_shape: Tblock_shape")
    .Input("crops: Tcrops")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tblock_shape: {int32, int64} = DT_INT32")
    .Attr("Tcrops: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) { return SpaceBatchNDShape(c, false); });

REGISTER_OP("SpaceToBatch")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = DT_INT32")
    .Attr("block_size: int >= 2")
    .SetShapeFn([](InferenceContext* c) { return SpaceBatchShape(c, true); });

REGISTER_OP("BatchToSpace")
    .Input("input: T")
    .Input("crops: Tidx")
    .Output("output: T")
    .Attr("T: type")
    .Attr("block_size: int >= 2")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) { return SpaceBatchShape(c, false); });

REGISTER_OP("ReverseSequence")
    .Input("input: T")
    .Input("seq_lengths: Tlen")
    .Output("output: T")
    .Attr("seq_dim: int")
    .Attr("batch_dim: int = 0")
    .Attr("T: type")
    .Attr("Tlen: {int32, int64} = DT_INT64")
    .SetShapeFn(ReverseSequenceShape);

REGISTER_OP("Roll")
    .Input("input: T")
    .Input("shift: Tshift")
    .Input("axis: Taxis")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tshift: {int32, int64}")
    .Attr("Taxis: {int32, int64}")
    .SetShapeFn(RollShape);

REGISTER_OP("Bucketize")
    .Input("input: T")
    .Output("output: int32")
    .Attr("T: {int32, int64, float, double}")
    .Attr("boundaries: list(float)")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("LinSpace")
    .Input("start: T")
    .Input("stop: T")
    .Input("num: Tidx")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(LinSpaceShape);

REGISTER_OP("BroadcastArgs")
    .Input("s0: T")
    .Input("s1: T")
    .Output("r0: T")
    .Attr("T: {int32, int64} = DT_INT32")
    .SetShapeFn(BroadcastArgsShape);

REGISTER_OP("ConcatOffset")
    .Input("concat_dim: int32")
    .Input("shape: N * shape_type")
    .Output("offset: N * shape_type")
    .Attr("N: int >= 2")
    .Attr("shape_type: {int32, int64} = DT_INT32")
    .SetShapeFn(ConcatOffsetShape);

REGISTER_OP("Empty")
    .Input("shape: int32")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("init: bool = false")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      Shape v;
      SG_RETURN_IF_ERROR(c->WithRank(0, 1, &v));
      return ShapeFromInput(c, 0);
    });

REGISTER_OP("EnsureShape")
    .Input("input: T")
    .Output("output: T")
    .Attr("shape: shape")
    .Attr("T: type")
    .SetShapeFn(EnsureShapeShape);

REGISTER_OP("Diag")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .SetShapeFn([](InferenceContext* c) {
      Shape in;
      SG_RETURN_IF_ERROR(c->WithRankAtLeast(0, 1, &in));
      if (in.unknown_rank()) return shape_fns::Unknown(c);
      std::vector<int64_t> out = Dims(in);
      out.insert(out.end(), out.begin(), out.end());
      c->set_output(0, Shape(out));
      return absl::OkStatus();
    });

REGISTER_OP("DiagPart")
    .Input("input: T")
    .Output("diagonal: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .SetShapeFn([](InferenceContext* c) {
      const Shape& in = c->input(0);
      if (in.unknown_rank()) return shape_fns::Unknown(c);
      if (in.dims() % 2 != 0 || in.dims() == 0) {
        return c->Error("Input must have even and non-zero rank, input rank is ", in.dims());
      }
      const int k = in.dims() / 2;
      std::vector<int64_t> out(k);
      for (int d = 0; d < k; ++d) {
        if (!MergeDim(in.dim_size(d), in.dim_size(d + k), &out[d])) {
          return c->Error("Dimensions ", d, " and ", d + k, " of ", in.DebugString(),
                          " do not match");
        }
      }
      c->set_output(0, Shape(out));
      return absl::OkStatus();
    });

REGISTER_OP("MatrixDiag")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagShape);

REGISTER_OP("MatrixDiagV2")
    .Input("diagonal: T")
    .Input("k: int32")
    .Input("num_rows: int32")
    .Input("num_cols: int32")
    .Input("padding_value: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagShape);

REGISTER_OP("MatrixDiagV3")
    .Input("diagonal: T")
    .Input("k: int32")
    .Input("num_rows: int32")
    .Input("num_cols: int32")
    .Input("padding_value: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("align: {'LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT'} = 'RIGHT_LEFT'")
    .SetShapeFn(MatrixDiagShape);

REGISTER_OP("MatrixDiagPart")
    .Input("input: T")
    .Output("diagonal: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagPartShape);

REGISTER_OP("MatrixDiagPartV2")
    .Input("input: T")
    .Input("k: int32")
    .Input("padding_value: T")
    .Output("diagonal: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagPartShape);

REGISTER_OP("MatrixDiagPartV3")
    .Input("input: T")
    .Input("k: int32")
    .Input("padding_value: T")
    .Output("diagonal: T")
    .Attr("T: type")
    .Attr("align: {'LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT'} = 'RIGHT_LEFT'")
    .SetShapeFn(MatrixDiagPartShape);

REGISTER_OP("MatrixSetDiag")
    .Input("input: T")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(MatrixSetDiagShape);

REGISTER_OP("MatrixSetDiagV2")
    .Input("input: T")
    .Input("diagonal: T")
    .Input("k: int32")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(MatrixSetDiagShape);

REGISTER_OP("MatrixSetDiagV3")
    .Input("input: T")
    .Input("diagonal: T")
    .Input("k: int32")
    .Output("output: T")
    .Attr("T: type")
    .Attr("align: {'LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT'} = 'RIGHT_LEFT'")
    .SetShapeFn(MatrixSetDiagShape);

REGISTER_OP("BatchMatrixDiag")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: type")
    .Deprecated(14, "Use MatrixDiag")
    .SetShapeFn(MatrixDiagShape);

REGISTER_OP("BatchMatrixDiagPart")
    .Input("input: T")
    .Output("diagonal: T")
    .Attr("T: type")
    .Deprecated(14, "Use MatrixDiagPart")
    .SetShapeFn(MatrixDiagPartShape);

REGISTER_OP("BatchMatrixSetDiag")
    .Input("input: T")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: type")
    .Deprecated(14, "Use MatrixSetDiag")
    .SetShapeFn(MatrixSetDiagShape);

}  // namespace sg
