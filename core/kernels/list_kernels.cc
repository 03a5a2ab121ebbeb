// Kernels of the TensorList ops (core/ops/list_ops.cc), with TensorFlow's semantics: element
// dtypes must match the op's element_dtype, element shapes are merged from the list, the op's
// element_shape input and the elements that are set, and an element that was reserved but never
// set reads as zeros when its shape is fully known (an error otherwise).
//
// Where sg departs from TensorFlow 2.21, on inputs TensorFlow mishandles:
// - TensorListSetItem with resize_if_index_out_of_bounds and a negative index, and
//   TensorListScatterIntoExistingList with a negative index, are INVALID_ARGUMENT (TensorFlow
//   crashes); so are negative leading_dims of TensorListConcatV2.
// - TensorListScatterIntoExistingList grows the list with unset elements (TensorFlow fills the
//   gap with empty float tensors of shape [0], which then break TensorListStack).
// - TensorListConcat(V2) merges the shapes of the set elements even when the list's element
//   shape is fully defined (TensorFlow skips that and then fails to concat such a list with V1).
//
// Lists are values: see tensor_list.h for when a kernel updates one in place.
#include <algorithm>
#include <cstring>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/tensor_list.h"

namespace sg {
namespace {

// ---- Reading inputs ----------------------------------------------------------------------------

// The list held by scalar variant input `i`.
absl::Status GetInputList(OpKernelContext* ctx, int i, const TensorList** list) {
  const Tensor& t = ctx->input(i);
  if (t.dtype() != DT_VARIANT || t.dims() != 0) {
    return NodeError(ctx, "Input list must be a scalar variant, saw a ", DataTypeString(t.dtype()),
                     " tensor of shape ", t.shape().DebugString());
  }
  const Variant& v = t.data<Variant>()[0];
  *list = v.get<TensorList>();
  if (*list == nullptr) {
    return NodeError(ctx, "Input handle is not a list. Saw: '", v.DebugString(), "'");
  }
  return absl::OkStatus();
}

absl::Status CheckElementDtype(OpKernelContext* ctx, DataType op_dtype, const TensorList& list) {
  if (op_dtype != list.element_dtype) {
    return NodeError(ctx, "Invalid data types; op elements ", DataTypeString(op_dtype),
                     " but list elements ", DataTypeString(list.element_dtype));
  }
  return absl::OkStatus();
}

// A shape given as a tensor: an int32/int64 vector with -1 for unknown dims, or the scalar -1
// for an unknown rank (TensorFlow's TensorShapeFromTensor).
absl::Status ShapeFromTensor(OpKernelContext* ctx, const Tensor& t, PartialTensorShape* out) {
  if (t.dtype() != DT_INT32 && t.dtype() != DT_INT64) {
    return NodeError(ctx, "Expected an int32 or int64 shape tensor, got ",
                     DataTypeString(t.dtype()));
  }
  auto value = [&](int64_t k) {
    return t.dtype() == DT_INT32 ? int64_t{t.data<int32_t>()[k]} : t.data<int64_t>()[k];
  };
  if (t.dims() == 0) {
    if (value(0) != -1) {
      return NodeError(ctx, "The only valid scalar shape tensor is the fully unknown shape "
                            "specified as -1, got ", value(0));
    }
    *out = PartialTensorShape();
    return absl::OkStatus();
  }
  if (t.dims() != 1) {
    return NodeError(ctx, "Shape must be at most rank 1 but is rank ", t.dims());
  }
  if (t.NumElements() > kMaxTensorRank) {
    return NodeError(ctx, "element_shape has ", t.NumElements(), " dims, more than ",
                     kMaxTensorRank);
  }
  std::vector<int64_t> dims(t.NumElements());
  for (int64_t k = 0; k < t.NumElements(); ++k) {
    dims[k] = value(k);
    if (dims[k] < -1) return NodeError(ctx, "Dimension ", dims[k], " must be >= -1");
  }
  *out = PartialTensorShape(dims);
  return absl::OkStatus();
}

// `a` merged with `b`, or INVALID_ARGUMENT naming both (`what` says where they came from).
absl::Status MergeShapes(OpKernelContext* ctx, const PartialTensorShape& a,
                         const PartialTensorShape& b, absl::string_view what,
                         PartialTensorShape* out) {
  absl::StatusOr<PartialTensorShape> m = a.Merge(b);
  if (!m.ok()) {
    return NodeError(ctx, "Incompatible shapes during merge (", what, "): ", a.DebugString(),
                     " vs. ", b.DebugString());
  }
  *out = *std::move(m);
  return absl::OkStatus();
}

// The element shape input `i` says, merged with the list's.
absl::Status ElementShapeFromInput(OpKernelContext* ctx, const TensorList& list, int i,
                                   PartialTensorShape* out) {
  PartialTensorShape given;
  SG_RETURN_IF_ERROR(ShapeFromTensor(ctx, ctx->input(i), &given));
  return MergeShapes(ctx, given, list.element_shape, "element_shape input and list", out);
}

// The int32 scalar of input `i` (a one-element vector is accepted too, as TensorFlow does).
absl::Status ScalarInt32(OpKernelContext* ctx, int i, absl::string_view name, int32_t* out) {
  const Tensor& t = ctx->input(i);
  if (t.NumElements() != 1 || t.dims() > 1) {
    return NodeError(ctx, name, " must be a scalar, got shape ", t.shape().DebugString());
  }
  *out = t.data<int32_t>()[0];
  return absl::OkStatus();
}

// `shape` without its first dim.
TensorShape DropFirstDim(const TensorShape& shape) {
  return TensorShape(shape.dim_sizes().subspan(1));
}

// ---- Making outputs ----------------------------------------------------------------------------

// Sets output `i` to a new scalar variant holding `list`.
absl::Status SetListOutput(OpKernelContext* ctx, int i, TensorList list) {
  Tensor* out;
  SG_RETURN_IF_ERROR(ctx->allocate_output(i, TensorShape(), &out));
  out->data<Variant>()[0] = Variant(std::move(list));
  return absl::OkStatus();
}

// The list output `out` holds, for the caller to update: the list of input `in` itself when the
// kernel holds the only reference to that tensor and to its list (so nothing else can see the
// update), else a new copy of `list` (its elements share their buffers with `list`'s).
absl::StatusOr<TensorList*> ForwardOrCopyList(OpKernelContext* ctx, int in, int out,
                                              const TensorList& list) {
  if (Tensor* t = ctx->input_if_unique(in)) {
    if (TensorList* own = t->data<Variant>()[0].GetMutableIfUnique<TensorList>()) {
      ctx->set_output(out, *t);
      return own;
    }
  }
  Tensor* o;
  SG_RETURN_IF_ERROR(ctx->allocate_output(out, TensorShape(), &o));
  Variant& v = o->data<Variant>()[0];
  v = Variant(TensorList(list));
  return v.GetMutableIfUnique<TensorList>();
}

// Copies `n` elements of `src` from element `src_offset` into `dst` at element `dst_offset`.
void CopyElements(const Tensor& src, int64_t src_offset, Tensor* dst, int64_t dst_offset,
                  int64_t n) {
  if (n == 0) return;
  const int64_t shape[] = {n}, stride[] = {1};
  CopyStrided(nullptr, src.dtype(), shape, src.raw_data(), src_offset, stride, dst->raw_data(),
              dst_offset, stride);
}

// Rows [begin, end) of `t` (rank >= 1) as a tensor of their own: shape [end - begin] + t's
// inner dims, or just t's inner dims when `drop_dim`.
absl::StatusOr<Tensor> CopyRows(OpKernelContext* ctx, const Tensor& t, int64_t begin, int64_t end,
                                bool drop_dim) {
  TensorShape shape = DropFirstDim(t.shape());
  if (!drop_dim) shape.InsertDim(0, end - begin);
  Tensor out;
  SG_RETURN_IF_ERROR(ctx->allocate_temp(t.dtype(), shape, &out));
  const int64_t row = DropFirstDim(t.shape()).num_elements();
  CopyElements(t, begin * row, &out, 0, (end - begin) * row);
  return out;
}

// Zeroes elements [offset, offset + n) of a freshly allocated `t`. Other element types already
// hold their default: "" for strings, an empty Variant for variants (TensorFlow's holds the int
// 0; either reads as "not a list").
void ZeroElements(Tensor* t, int64_t offset, int64_t n) {
  if (n == 0 || !DataTypeIsPod(t->dtype())) return;
  const size_t size = DataTypeSize(t->dtype());
  std::memset(static_cast<char*>(t->raw_data()) + offset * size, 0, n * size);
}

// Writes element `item` (or zeros when it was never set) as row `row` of `out`, whose rows have
// `element_shape`.
absl::Status WriteRow(OpKernelContext* ctx, const Tensor& item, int64_t index,
                      const TensorShape& element_shape, int64_t row, Tensor* out) {
  const int64_t n = element_shape.num_elements();
  if (item.dtype() == DT_INVALID) {
    ZeroElements(out, row * n, n);
    return absl::OkStatus();
  }
  if (item.shape() != element_shape) {
    return NodeError(ctx, "list element ", index, " has shape ", item.shape().DebugString(),
                     " but the elements read have shape ", element_shape.DebugString());
  }
  CopyElements(item, 0, out, row * n, n);
  return absl::OkStatus();
}

// Allocates output `i` of [n] + element_shape.
absl::Status AllocateStacked(OpKernelContext* ctx, int i, int64_t n,
                             const TensorShape& element_shape, Tensor** out) {
  std::vector<int64_t> dims = {n};
  for (int64_t d : element_shape.dim_sizes()) dims.push_back(d);
  absl::StatusOr<TensorShape> shape = TensorShape::Build(dims);
  if (!shape.ok()) return NodeError(ctx, shape.status().message());
  return ctx->allocate_output(i, *shape, out);
}

// ---- Kernels -----------------------------------------------------------------------------------

class ListOpKernel : public OpKernel {
 public:
  explicit ListOpKernel(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if (ctx->HasAttr("element_dtype")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("element_dtype", &element_dtype_));
    }
  }

 protected:
  DataType element_dtype_ = DT_INVALID;
};

class EmptyTensorListOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& max_t = ctx->input(1);
    OP_REQUIRES(ctx, max_t.dims() == 0,
                NodeError(ctx, "max_num_elements expected to be a scalar but got shape: ",
                          max_t.shape().DebugString()));
    TensorList list;
    list.element_dtype = element_dtype_;
    // TensorFlow accepts any value; below -1 every push then fails as "full".
    list.max_num_elements = max_t.data<int32_t>()[0];
    OP_REQUIRES_OK(ctx, ShapeFromTensor(ctx, ctx->input(0), &list.element_shape));
    OP_REQUIRES_OK(ctx, SetListOutput(ctx, 0, std::move(list)));
  }
};
REGISTER_KERNEL_BUILDER(Name("EmptyTensorList").Device(DEVICE_CPU), EmptyTensorListOp);

class TensorListReserveOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& n_t = ctx->input(1);
    OP_REQUIRES(ctx, n_t.dims() == 0,
                NodeError(ctx, "TensorListReserve expects num_elements to be a scalar, got ",
                          n_t.shape().DebugString()));
    const int32_t n = n_t.data<int32_t>()[0];
    OP_REQUIRES(ctx, n >= 0,
                NodeError(ctx, "The num_elements to reserve must be a non negative number, but "
                               "got ", n));
    TensorList list;
    list.element_dtype = element_dtype_;
    OP_REQUIRES_OK(ctx, ShapeFromTensor(ctx, ctx->input(0), &list.element_shape));
    list.tensors.resize(n);
    OP_REQUIRES_OK(ctx, SetListOutput(ctx, 0, std::move(list)));
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListReserve").Device(DEVICE_CPU), TensorListReserveOp);

class TensorListFromTensorOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& t = ctx->input(0);
    OP_REQUIRES(ctx, t.dims() >= 1,
                NodeError(ctx, "Tensor must be at least a vector, but saw shape: ",
                          t.shape().DebugString()));
    TensorList list;
    list.element_dtype = t.dtype();
    OP_REQUIRES_OK(ctx, ShapeFromTensor(ctx, ctx->input(1), &list.element_shape));
    const TensorShape element_shape = DropFirstDim(t.shape());
    OP_REQUIRES(ctx, list.element_shape.IsCompatibleWith(element_shape),
                NodeError(ctx, "Specified a list with shape ", list.element_shape.DebugString(),
                          " from a tensor with shape ", element_shape.DebugString()));
    list.tensors.reserve(t.dim_size(0));
    for (int64_t i = 0; i < t.dim_size(0); ++i) {
      absl::StatusOr<Tensor> item = CopyRows(ctx, t, i, i + 1, /*drop_dim=*/true);
      OP_REQUIRES_OK(ctx, item.status());
      list.tensors.push_back(*std::move(item));
    }
    OP_REQUIRES_OK(ctx, SetListOutput(ctx, 0, std::move(list)));
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListFromTensor").Device(DEVICE_CPU), TensorListFromTensorOp);

class TensorListStackOp final : public ListOpKernel {
 public:
  explicit TensorListStackOp(OpKernelConstruction* ctx) : ListOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_elements", &num_elements_));
  }
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    OP_REQUIRES_OK(ctx, CheckElementDtype(ctx, element_dtype_, *list));
    const int64_t n = static_cast<int64_t>(list->tensors.size());
    OP_REQUIRES(ctx, num_elements_ == -1 || n == num_elements_,
                NodeError(ctx, "Operation expected a list with ", num_elements_,
                          " elements but got a list with ", n, " elements."));
    PartialTensorShape partial;
    OP_REQUIRES_OK(ctx, ElementShapeFromInput(ctx, *list, 1, &partial));
    OP_REQUIRES(ctx, partial.IsFullyDefined() || n > 0,
                NodeError(ctx, "Tried to stack elements of an empty list with "
                               "non-fully-defined element_shape: ", partial.DebugString()));
    for (const Tensor& t : list->tensors) {
      if (t.dtype() != DT_INVALID) {
        OP_REQUIRES_OK(ctx, MergeShapes(ctx, partial, t.shape(), "list elements", &partial));
      }
    }
    TensorShape element_shape;
    OP_REQUIRES(ctx, partial.AsTensorShape(&element_shape),
                NodeError(ctx, "Tried to stack list which only contains uninitialized tensors "
                               "and has a non-fully-defined element_shape: ",
                          partial.DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, AllocateStacked(ctx, 0, n, element_shape, &out));
    for (int64_t i = 0; i < n; ++i) {
      OP_REQUIRES_OK(ctx, WriteRow(ctx, list->tensors[i], i, element_shape, i, out));
    }
  }

 private:
  int64_t num_elements_ = -1;
};
REGISTER_KERNEL_BUILDER(Name("TensorListStack").Device(DEVICE_CPU), TensorListStackOp);

class TensorListGetItemOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    OP_REQUIRES_OK(ctx, CheckElementDtype(ctx, element_dtype_, *list));
    int32_t index;
    OP_REQUIRES_OK(ctx, ScalarInt32(ctx, 1, "index", &index));
    const int64_t n = static_cast<int64_t>(list->tensors.size());
    OP_REQUIRES(ctx, index >= 0 && index < n,
                NodeError(ctx, "Trying to access element ", index, " in a list with ", n,
                          " elements."));
    const Tensor& item = list->tensors[index];
    if (item.dtype() != DT_INVALID) {
      ctx->set_output(0, item);
      return;
    }
    // Never set: zeros of the element shape, completed from the elements that are set.
    PartialTensorShape partial;
    OP_REQUIRES_OK(ctx, ElementShapeFromInput(ctx, *list, 2, &partial));
    const bool infer = !partial.IsFullyDefined();
    for (const Tensor& t : list->tensors) {
      if (infer && t.dtype() != DT_INVALID) {
        OP_REQUIRES_OK(ctx, MergeShapes(ctx, partial, t.shape(), "list elements", &partial));
      }
    }
    TensorShape element_shape;
    OP_REQUIRES(ctx, partial.AsTensorShape(&element_shape),
                NodeError(ctx, "Trying to read an uninitialized tensor but element_shape is not "
                               "fully defined: ", partial.DebugString(),
                          " and no list element is set."));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, element_shape, &out));
    ZeroElements(out, 0, out->NumElements());
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListGetItem").Device(DEVICE_CPU), TensorListGetItemOp);

class TensorListSetItemOp final : public ListOpKernel {
 public:
  explicit TensorListSetItemOp(OpKernelConstruction* ctx) : ListOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("resize_if_index_out_of_bounds", &resize_));
  }
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    OP_REQUIRES_OK(ctx, CheckElementDtype(ctx, element_dtype_, *list));
    int32_t index;
    OP_REQUIRES_OK(ctx, ScalarInt32(ctx, 1, "index", &index));
    const int64_t n = static_cast<int64_t>(list->tensors.size());
    OP_REQUIRES(ctx, index >= 0 && (resize_ || index < n),
                NodeError(ctx, "Trying to modify element ", index, " in a list with ", n,
                          " elements."));
    const Tensor& item = ctx->input(2);
    OP_REQUIRES(ctx, list->element_shape.IsCompatibleWith(item.shape()),
                NodeError(ctx, "Tried to set a tensor with incompatible shape at a list index. "
                               "Item element shape: ", item.shape().DebugString(),
                          " list shape: ", list->element_shape.DebugString()));
    absl::StatusOr<TensorList*> out = ForwardOrCopyList(ctx, 0, 0, *list);
    OP_REQUIRES_OK(ctx, out.status());
    if (index >= n) (*out)->tensors.resize(index + 1);
    (*out)->tensors[index] = item;
  }

 private:
  bool resize_ = false;
};
REGISTER_KERNEL_BUILDER(Name("TensorListSetItem").Device(DEVICE_CPU), TensorListSetItemOp);

class TensorListPushBackOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    const Tensor& item = ctx->input(1);
    OP_REQUIRES(ctx, list->element_shape.IsCompatibleWith(item.shape()),
                NodeError(ctx, "Tried to append a tensor with incompatible shape to a list. Op "
                               "element shape: ", item.shape().DebugString(),
                          " list shape: ", list->element_shape.DebugString()));
    OP_REQUIRES_OK(ctx, CheckElementDtype(ctx, element_dtype_, *list));
    const int64_t n = static_cast<int64_t>(list->tensors.size());
    OP_REQUIRES(ctx, list->max_num_elements == -1 || n < list->max_num_elements,
                NodeError(ctx, "Tried to push item into a full list list size: ", n,
                          " max_num_elements: ", list->max_num_elements));
    absl::StatusOr<TensorList*> out = ForwardOrCopyList(ctx, 0, 0, *list);
    OP_REQUIRES_OK(ctx, out.status());
    (*out)->tensors.push_back(item);
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListPushBack").Device(DEVICE_CPU), TensorListPushBackOp);

class TensorListPushBackBatchOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& handles = ctx->input(0);
    const Tensor& t = ctx->input(1);
    OP_REQUIRES(ctx, t.dims() >= 1,
                NodeError(ctx, "Expected tensor to be at least a vector, but saw shape: ",
                          t.shape().DebugString()));
    OP_REQUIRES(ctx, handles.dtype() == DT_VARIANT && handles.dims() == 1,
                NodeError(ctx, "Expected input_handles to be a vector, but saw shape: ",
                          handles.shape().DebugString()));
    const int64_t batch = handles.dim_size(0);
    OP_REQUIRES(ctx, t.dim_size(0) == batch,
                NodeError(ctx, "Expected tensor.shape[0] == input_handles.size, but saw ",
                          t.dim_size(0), " vs. ", batch));
    const TensorShape element_shape = DropFirstDim(t.shape());
    const Variant* in = handles.data<Variant>();
    for (int64_t b = 0; b < batch; ++b) {
      const TensorList* list = in[b].get<TensorList>();
      OP_REQUIRES(ctx, list != nullptr,
                  NodeError(ctx, "Input handle at index ", b, " is not a list. Saw: '",
                            in[b].DebugString(), "'"));
      OP_REQUIRES(ctx, list->element_shape.IsCompatibleWith(element_shape),
                  NodeError(ctx, "Tried to append a tensor with incompatible shape to a list at "
                                 "index ", b, ". Op element shape: ",
                            element_shape.DebugString(),
                            " list shape: ", list->element_shape.DebugString()));
      OP_REQUIRES(ctx, element_dtype_ == list->element_dtype,
                  NodeError(ctx, "Invalid data type at index ", b, "; op elements ",
                            DataTypeString(element_dtype_), " but list elements ",
                            DataTypeString(list->element_dtype)));
    }
    // The handles tensor is reused when nothing else holds it; each list in it is then updated
    // in place when nothing else holds that list either.
    const bool reuse = handles.RefCountIsOne();
    Tensor out_t = handles;
    if (!reuse) {
      OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_VARIANT, handles.shape(), &out_t));
      std::copy(in, in + batch, out_t.data<Variant>());
    }
    Variant* out = out_t.data<Variant>();
    for (int64_t b = 0; b < batch; ++b) {
      absl::StatusOr<Tensor> item = CopyRows(ctx, t, b, b + 1, /*drop_dim=*/true);
      OP_REQUIRES_OK(ctx, item.status());
      TensorList* own = out[b].GetMutableIfUnique<TensorList>();
      if (own == nullptr) {
        out[b] = Variant(TensorList(*out[b].get<TensorList>()));
        own = out[b].GetMutableIfUnique<TensorList>();
      }
      own->tensors.push_back(*std::move(item));
    }
    ctx->set_output(0, out_t);
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListPushBackBatch").Device(DEVICE_CPU),
                        TensorListPushBackBatchOp);

class TensorListPopBackOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    OP_REQUIRES_OK(ctx, CheckElementDtype(ctx, element_dtype_, *list));
    OP_REQUIRES(ctx, !list->tensors.empty(),
                NodeError(ctx, "Trying to pop from an empty list."));
    const Tensor& last = list->tensors.back();
    if (last.dtype() != DT_INVALID) {
      ctx->set_output(1, last);
    } else {
      PartialTensorShape partial;
      OP_REQUIRES_OK(ctx, ElementShapeFromInput(ctx, *list, 1, &partial));
      TensorShape element_shape;
      OP_REQUIRES(ctx, partial.AsTensorShape(&element_shape),
                  NodeError(ctx, "Trying to read an uninitialized tensor but element_shape is "
                                 "not fully defined: ", partial.DebugString()));
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(1, element_shape, &out));
      ZeroElements(out, 0, out->NumElements());
    }
    absl::StatusOr<TensorList*> out = ForwardOrCopyList(ctx, 0, 0, *list);
    OP_REQUIRES_OK(ctx, out.status());
    (*out)->tensors.pop_back();
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListPopBack").Device(DEVICE_CPU), TensorListPopBackOp);

class TensorListLengthOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    ctx->set_output(0, Tensor::Scalar<int32_t>(static_cast<int32_t>(list->tensors.size())));
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListLength").Device(DEVICE_CPU), TensorListLengthOp);

class TensorListElementShapeOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    const PartialTensorShape& s = list->element_shape;
    // An unknown rank is the scalar -1; otherwise the dims, -1 where unknown.
    const TensorShape shape = s.unknown_rank() ? TensorShape() : TensorShape({s.dims()});
    const int n = s.unknown_rank() ? 1 : s.dims();
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    for (int i = 0; i < n; ++i) {
      const int64_t d = s.unknown_rank() ? -1 : s.dim_size(i);
      if (out->dtype() == DT_INT32) {
        out->data<int32_t>()[i] = static_cast<int32_t>(d);
      } else {
        out->data<int64_t>()[i] = d;
      }
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListElementShape").Device(DEVICE_CPU),
                        TensorListElementShapeOp);

class TensorListResizeOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    int32_t size;
    OP_REQUIRES_OK(ctx, ScalarInt32(ctx, 1, "size", &size));
    OP_REQUIRES(ctx, size >= 0,
                NodeError(ctx, "TensorListResize expects size to be non-negative. Got: ", size));
    absl::StatusOr<TensorList*> out = ForwardOrCopyList(ctx, 0, 0, *list);
    OP_REQUIRES_OK(ctx, out.status());
    (*out)->tensors.resize(size);
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListResize").Device(DEVICE_CPU), TensorListResizeOp);

class TensorListGatherOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    OP_REQUIRES_OK(ctx, CheckElementDtype(ctx, element_dtype_, *list));
    // Any shape of indices is read flat, as TensorFlow does.
    const Tensor& indices = ctx->input(1);
    const int32_t* idx = indices.data<int32_t>();
    const int64_t count = indices.NumElements();
    const int64_t n = static_cast<int64_t>(list->tensors.size());
    PartialTensorShape partial;
    OP_REQUIRES_OK(ctx, ElementShapeFromInput(ctx, *list, 2, &partial));
    OP_REQUIRES(ctx, partial.IsFullyDefined() || count > 0,
                NodeError(ctx, "Tried to gather 0-elements from a list with non-fully-defined "
                               "shape: ", partial.DebugString()));
    for (int64_t k = 0; k < count; ++k) {
      OP_REQUIRES(ctx, idx[k] >= 0 && idx[k] < n,
                  NodeError(ctx, "Trying to gather element ", idx[k], " in a list with ", n,
                            " elements."));
      const Tensor& t = list->tensors[idx[k]];
      if (t.dtype() != DT_INVALID) {
        OP_REQUIRES_OK(ctx, MergeShapes(ctx, partial, t.shape(), "list elements", &partial));
      }
    }
    TensorShape element_shape;
    OP_REQUIRES(ctx, partial.AsTensorShape(&element_shape),
                NodeError(ctx, "Tried to gather uninitialized tensors from a list with "
                               "non-fully-defined element_shape: ", partial.DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, AllocateStacked(ctx, 0, count, element_shape, &out));
    for (int64_t k = 0; k < count; ++k) {
      OP_REQUIRES_OK(ctx, WriteRow(ctx, list->tensors[idx[k]], idx[k], element_shape, k, out));
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListGather").Device(DEVICE_CPU), TensorListGatherOp);

// Writes row k of `t` into element indices[k] of `list` (later rows win over earlier ones with
// the same index); the list must already be long enough.
absl::Status ScatterRows(OpKernelContext* ctx, const Tensor& t, const Tensor& indices,
                         TensorList* list) {
  const int32_t* idx = indices.data<int32_t>();
  for (int64_t k = 0; k < indices.NumElements(); ++k) {
    SG_ASSIGN_OR_RETURN(Tensor item, CopyRows(ctx, t, k, k + 1, /*drop_dim=*/true));
    list->tensors[idx[k]] = std::move(item);
  }
  return absl::OkStatus();
}

// Checks that `t` has a row per index and every index is >= 0 (and < `limit` unless it is
// -1); returns the largest index, -1 when there are none.
absl::StatusOr<int64_t> CheckScatter(OpKernelContext* ctx, const Tensor& t,
                                     const Tensor& indices, int64_t limit) {
  if (t.dims() < 1) {
    return NodeError(ctx, "Tensor must be at least a vector, but saw shape: ",
                     t.shape().DebugString());
  }
  if (indices.NumElements() != t.dim_size(0)) {
    return NodeError(ctx, "Expected len(indices) == tensor.shape[0], but saw: ",
                     indices.NumElements(), " vs. ", t.dim_size(0));
  }
  int64_t highest = -1;
  const int32_t* idx = indices.data<int32_t>();
  for (int64_t k = 0; k < indices.NumElements(); ++k) {
    if (idx[k] < 0) {
      return NodeError(ctx, "Indices in TensorListScatter must all be non-negative, got ",
                       idx[k]);
    }
    if (limit != -1 && idx[k] >= limit) {
      return NodeError(ctx, "TensorListScatter: Trying to scatter at index ", idx[k],
                       " in list with size ", limit);
    }
    highest = std::max<int64_t>(highest, idx[k]);
  }
  return highest;
}

// TensorListScatter, and TensorListScatterV2 (with num_elements).
class TensorListScatterOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& t = ctx->input(0);
    const Tensor& indices = ctx->input(1);
    int32_t num_elements = -1;
    if (ctx->num_inputs() > 3) {
      OP_REQUIRES_OK(ctx, ScalarInt32(ctx, 3, "num_elements", &num_elements));
      OP_REQUIRES(ctx, num_elements >= -1,
                  NodeError(ctx, "TensorListScatter expects num_elements >= -1, found: ",
                            num_elements));
    }
    absl::StatusOr<int64_t> highest = CheckScatter(ctx, t, indices, num_elements);
    OP_REQUIRES_OK(ctx, highest.status());
    TensorList list;
    list.element_dtype = t.dtype();
    OP_REQUIRES_OK(ctx, ShapeFromTensor(ctx, ctx->input(2), &list.element_shape));
    const TensorShape element_shape = DropFirstDim(t.shape());
    OP_REQUIRES(ctx, list.element_shape.IsCompatibleWith(element_shape),
                NodeError(ctx, "Specified a list with shape ", list.element_shape.DebugString(),
                          " from a tensor with shape ", element_shape.DebugString()));
    list.tensors.resize(std::max<int64_t>(*highest + 1, num_elements));
    OP_REQUIRES_OK(ctx, ScatterRows(ctx, t, indices, &list));
    OP_REQUIRES_OK(ctx, SetListOutput(ctx, 0, std::move(list)));
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListScatter").Device(DEVICE_CPU), TensorListScatterOp);
REGISTER_KERNEL_BUILDER(Name("TensorListScatterV2").Device(DEVICE_CPU), TensorListScatterOp);

class TensorListScatterIntoExistingListOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    OP_REQUIRES_OK(ctx, CheckElementDtype(ctx, element_dtype_, *list));
    const Tensor& t = ctx->input(1);
    const Tensor& indices = ctx->input(2);
    absl::StatusOr<int64_t> highest = CheckScatter(ctx, t, indices, -1);
    OP_REQUIRES_OK(ctx, highest.status());
    const TensorShape element_shape = DropFirstDim(t.shape());
    OP_REQUIRES(ctx, list->element_shape.IsCompatibleWith(element_shape),
                NodeError(ctx, "Tried to scatter elements of shape ", element_shape.DebugString(),
                          " into a list with element shape ",
                          list->element_shape.DebugString()));
    absl::StatusOr<TensorList*> out = ForwardOrCopyList(ctx, 0, 0, *list);
    OP_REQUIRES_OK(ctx, out.status());
    if (*highest + 1 > static_cast<int64_t>((*out)->tensors.size())) {
      (*out)->tensors.resize(*highest + 1);
    }
    OP_REQUIRES_OK(ctx, ScatterRows(ctx, t, indices, *out));
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListScatterIntoExistingList").Device(DEVICE_CPU),
                        TensorListScatterIntoExistingListOp);

// TensorListConcat (element_shape attr) and TensorListConcatV2 (element_shape and leading_dims
// inputs): the elements joined along their first dim, and each element's length.
class TensorListConcatOp final : public ListOpKernel {
 public:
  explicit TensorListConcatOp(OpKernelConstruction* ctx) : ListOpKernel(ctx) {
    if (ctx->HasAttr("element_shape")) {
      PartialTensorShape s;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("element_shape", &s));
      OP_REQUIRES(ctx, s.unknown_rank() || s.dims() >= 1,
                  errors::InvalidArgument("Concat requires elements to be at least vectors, but "
                                          "element_shape is a scalar (node '",
                                          ctx->def().name(), "')"));
      // V1 uses only the dims after the first; the first is taken from the elements.
      if (!s.unknown_rank()) attr_rest_ = PartialTensorShape(s.dim_sizes().subspan(1));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    OP_REQUIRES_OK(ctx, CheckElementDtype(ctx, element_dtype_, *list));
    const bool v2 = ctx->num_inputs() > 1;
    PartialTensorShape rest = attr_rest_;  // the element shape after the first dim
    int64_t first_dim = -1;                // the first dim, when the element shape gives it
    const Tensor* leading = nullptr;
    if (v2) {
      PartialTensorShape s;
      OP_REQUIRES_OK(ctx, ElementShapeFromInput(ctx, *list, 1, &s));
      OP_REQUIRES(ctx, s.unknown_rank() || s.dims() >= 1,
                  NodeError(ctx, "Concat requires elements to be at least vectors, found "
                                 "scalars instead."));
      if (!s.unknown_rank()) {
        first_dim = s.dim_size(0);
        rest = PartialTensorShape(s.dim_sizes().subspan(1));
      }
      leading = &ctx->input(2);
      OP_REQUIRES(ctx, leading->dims() == 1,
                  NodeError(ctx, "leading_dims must be a vector, got shape ",
                            leading->shape().DebugString()));
    }
    const int64_t n = static_cast<int64_t>(list->tensors.size());
    OP_REQUIRES(ctx, n > 0 || rest.IsFullyDefined(),
                NodeError(ctx, "All except the first dimension must be fully defined when "
                               "concating an empty tensor list. element_shape: ",
                          rest.DebugString()));
    // Without a given first dim, unset elements take the first dim the set ones share.
    int64_t common_first = -1;
    bool first_differs = false;
    for (int64_t i = 0; i < n; ++i) {
      const Tensor& t = list->tensors[i];
      if (t.dtype() == DT_INVALID) continue;
      OP_REQUIRES(ctx, t.dims() >= 1,
                  NodeError(ctx, "Concat saw a scalar shape at index ", i,
                            " but requires at least vectors."));
      OP_REQUIRES_OK(ctx, MergeShapes(ctx, rest, DropFirstDim(t.shape()),
                                      "list elements after their first dim", &rest));
      OP_REQUIRES(ctx, first_dim == -1 || first_dim == t.dim_size(0),
                  NodeError(ctx, "First entry of element_shape input does not match the first "
                                 "dim of list element at index: ", i, " Expected: ", first_dim,
                            " Actual: ", t.dim_size(0)));
      if (common_first == -1) {
        common_first = t.dim_size(0);
      } else if (common_first != t.dim_size(0)) {
        first_differs = true;
      }
    }
    if (first_dim == -1 && !first_differs) first_dim = common_first;
    TensorShape rest_shape;
    OP_REQUIRES(ctx, rest.AsTensorShape(&rest_shape),
                NodeError(ctx, "Trying to concat list with only uninitialized tensors but "
                               "element_shape_except_first_dim is not fully defined: ",
                          rest.DebugString()));
    Tensor* lengths;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({n}), &lengths));
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) {
      const Tensor& t = list->tensors[i];
      int64_t dim;
      if (t.dtype() != DT_INVALID) {
        dim = t.dim_size(0);
      } else if ((!v2 || i >= leading->NumElements()) && first_dim != -1) {
        dim = first_dim;
      } else {
        OP_REQUIRES(ctx, v2,
                    NodeError(ctx, "Concating lists with uninitialized tensors is not supported "
                                   "in this version of TensorListConcat (element ", i,
                              " is unset and the set elements do not agree on a first dim); "
                              "TensorListConcatV2 takes leading_dims for them."));
        OP_REQUIRES(ctx, i < leading->NumElements(),
                    NodeError(ctx, "List contains uninitialized tensor at index ", i,
                              " but leading_dims has only ", leading->NumElements(),
                              " elements."));
        dim = leading->data<int64_t>()[i];
        OP_REQUIRES(ctx, dim >= 0,
                    NodeError(ctx, "leading_dims[", i, "] is ", dim, " (must be >= 0)"));
      }
      lengths->data<int64_t>()[i] = dim;
      total += dim;
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, AllocateStacked(ctx, 0, total, rest_shape, &out));
    const int64_t row = rest_shape.num_elements();
    int64_t offset = 0;  // in elements
    for (int64_t i = 0; i < n; ++i) {
      const Tensor& t = list->tensors[i];
      const int64_t count = lengths->data<int64_t>()[i] * row;
      if (t.dtype() == DT_INVALID) {
        ZeroElements(out, offset, count);
      } else {
        CopyElements(t, 0, out, offset, count);
      }
      offset += count;
    }
  }

 private:
  PartialTensorShape attr_rest_;
};
REGISTER_KERNEL_BUILDER(Name("TensorListConcat").Device(DEVICE_CPU), TensorListConcatOp);
REGISTER_KERNEL_BUILDER(Name("TensorListConcatV2").Device(DEVICE_CPU), TensorListConcatOp);

class TensorListConcatListsOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& a = ctx->input(0);
    const Tensor& b = ctx->input(1);
    OP_REQUIRES(ctx, a.shape() == b.shape(),
                NodeError(ctx, "Incompatible input TensorList tensor shapes: ",
                          a.shape().DebugString(), " vs. ", b.shape().DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, a.shape(), &out));
    for (int64_t i = 0; i < a.NumElements(); ++i) {
      const TensorList* la = a.data<Variant>()[i].get<TensorList>();
      const TensorList* lb = b.data<Variant>()[i].get<TensorList>();
      OP_REQUIRES(ctx, la != nullptr && lb != nullptr,
                  NodeError(ctx, "input_a[", i, "] or input_b[", i, "] is not a list. Saw: '",
                            a.data<Variant>()[i].DebugString(), "' and '",
                            b.data<Variant>()[i].DebugString(), "'"));
      OP_REQUIRES(ctx, la->element_dtype == element_dtype_,
                  NodeError(ctx, "input_a[", i, "].dtype != element_dtype.  Saw: ",
                            DataTypeString(la->element_dtype), " vs. ",
                            DataTypeString(element_dtype_)));
      OP_REQUIRES(ctx, lb->element_dtype == element_dtype_,
                  NodeError(ctx, "input_b[", i, "].dtype != element_dtype.  Saw: ",
                            DataTypeString(lb->element_dtype), " vs. ",
                            DataTypeString(element_dtype_)));
      OP_REQUIRES(ctx, la->element_shape == lb->element_shape,
                  NodeError(ctx, "input_a and input_b TensorList element shapes are not "
                                 "identical at index ", i, ".  Saw ",
                            la->element_shape.DebugString(), " vs. ",
                            lb->element_shape.DebugString()));
      TensorList joined = *la;
      joined.tensors.insert(joined.tensors.end(), lb->tensors.begin(), lb->tensors.end());
      out->data<Variant>()[i] = Variant(std::move(joined));
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListConcatLists").Device(DEVICE_CPU),
                        TensorListConcatListsOp);

class TensorListSplitOp final : public ListOpKernel {
 public:
  using ListOpKernel::ListOpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& t = ctx->input(0);
    OP_REQUIRES(ctx, t.dims() >= 1,
                NodeError(ctx, "Tensor must be at least a vector, but saw shape: ",
                          t.shape().DebugString()));
    TensorList list;
    list.element_dtype = t.dtype();
    OP_REQUIRES_OK(ctx, ShapeFromTensor(ctx, ctx->input(1), &list.element_shape));
    const PartialTensorShape& s = list.element_shape;
    OP_REQUIRES(ctx, s.unknown_rank() || s.dims() >= 1,
                NodeError(ctx, "TensorListSplit requires element_shape to be at least of rank "
                               "1, but saw: ", s.DebugString()));
    const PartialTensorShape rest =
        s.unknown_rank() ? PartialTensorShape() : PartialTensorShape(s.dim_sizes().subspan(1));
    OP_REQUIRES(ctx, rest.IsCompatibleWith(DropFirstDim(t.shape())),
                NodeError(ctx, "tensor shape ", t.shape().DebugString(),
                          " is not compatible with element_shape ", s.DebugString()));
    const Tensor& lengths = ctx->input(2);
    OP_REQUIRES(ctx, lengths.dims() == 1,
                NodeError(ctx, "Expected lengths to be a vector, received shape: ",
                          lengths.shape().DebugString()));
    const int64_t rows = t.dim_size(0);
    int64_t start = 0;
    list.tensors.reserve(lengths.NumElements());
    for (int64_t i = 0; i < lengths.NumElements(); ++i) {
      const int64_t length = lengths.data<int64_t>()[i];
      OP_REQUIRES(ctx, length >= 0, NodeError(ctx, "Invalid value in lengths: ", length));
      OP_REQUIRES(ctx, length <= rows - start,
                  NodeError(ctx, "Attempting to slice [", start, ", ", start + length,
                            "] from tensor with length ", rows));
      absl::StatusOr<Tensor> item = CopyRows(ctx, t, start, start + length, /*drop_dim=*/false);
      OP_REQUIRES_OK(ctx, item.status());
      list.tensors.push_back(*std::move(item));
      start += length;
    }
    OP_REQUIRES(ctx, start == rows,
                NodeError(ctx, "Unused values in tensor. Length of tensor: ", rows,
                          " Values used: ", start));
    OP_REQUIRES_OK(ctx, SetListOutput(ctx, 0, std::move(list)));
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorListSplit").Device(DEVICE_CPU), TensorListSplitOp);

}  // namespace
}  // namespace sg
