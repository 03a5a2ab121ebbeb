// TensorArrays: a per-step array of tensors in the step's ResourceMgr, found through a
// DT_RESOURCE handle (V3), a string vector [container, name] (the V2 ops) or a reference to one
// (the first ops, TensorArray ... TensorArrayClose, with TensorArrayPack and TensorArrayUnpack,
// which gather and scatter every index). The older ops run the V3 kernels; TensorArray and
// TensorArrayV2 have no flow output. Loop iterations run in parallel, so each TensorArray has
// its own mutex.
//
// Semantics follow TensorFlow's: each index is written once; a read of an index never written
// gives zeros when the element shape is fully known and INVALID_ARGUMENT otherwise; with
// clear_after_read an index can be read once; dynamic_size lets writes grow the array.
//
// Gradients (TensorArrayGrad, TensorArrayGradV2, TensorArrayGradV3, TensorArrayGradWithShape)
// find or make a second array per forward array and `source` string, in the container
// "_tensor_array_grads" under "<forward name>@<source>", as TensorFlow's do: same dtype and size,
// not resizeable, cleared after each read, and writes to one index add up (aggregate) instead of
// failing. Each index the forward array holds is marked written with its shape (shape_to_prepend
// in front, for WithShape), so reading it before any gradient arrives gives zeros. Making a
// gradient stops the forward array from growing.
#include <atomic>
#include <limits>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/resource_handle_util.h"

namespace sg {
namespace {

constexpr const char* kTensorArrayContainer = "_tensor_arrays";
constexpr const char* kTensorArrayGradContainer = "_tensor_array_grads";

using AggregateTypes = TypeList<float, double, half, bfloat16, int8_t, int16_t, int32_t, int64_t,
                                uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;

// a + b elementwise (same dtype and shape), for a gradient array's repeated writes.
absl::StatusOr<Tensor> AddTensors(const Tensor& a, const Tensor& b) {
  SG_ASSIGN_OR_RETURN(Tensor sum, Tensor::Allocate(a.dtype(), a.shape()));
  const bool ok = DispatchTypes(AggregateTypes(), a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* x = a.data<T>();
    const T* y = b.data<T>();
    T* z = sum.data<T>();
    for (int64_t i = 0; i < a.NumElements(); ++i) z[i] = static_cast<T>(x[i] + y[i]);
  });
  if (!ok) {
    return errors::Unimplemented("TensorArray gradients cannot add tensors of type ",
                                 DataTypeString(a.dtype()));
  }
  return sum;
}

// Copies `rows` rows (slices along dim 0) of `src` starting at `src_row` into `dst` at
// `dst_row`. Both tensors share the dtype and the row size `row_elems`.
void CopyRows(const Tensor& src, int64_t src_row, Tensor* dst, int64_t dst_row, int64_t rows,
              int64_t row_elems) {
  if (rows == 0 || row_elems == 0) return;
  if (DataTypeIsPod(src.dtype())) {
    const size_t row_bytes = row_elems * DataTypeSize(src.dtype());
    std::memcpy(static_cast<char*>(dst->raw_data()) + dst_row * row_bytes,
                static_cast<const char*>(src.raw_data()) + src_row * row_bytes,
                rows * row_bytes);
  } else if (src.dtype() == DT_STRING) {
    const tstring* from = src.data<tstring>() + src_row * row_elems;
    std::copy(from, from + rows * row_elems, dst->data<tstring>() + dst_row * row_elems);
  } else if (src.dtype() == DT_RESOURCE) {
    const ResourceHandle* from = src.data<ResourceHandle>() + src_row * row_elems;
    std::copy(from, from + rows * row_elems, dst->data<ResourceHandle>() + dst_row * row_elems);
  } else if (src.dtype() == DT_VARIANT) {
    const Variant* from = src.data<Variant>() + src_row * row_elems;
    std::copy(from, from + rows * row_elems, dst->data<Variant>() + dst_row * row_elems);
  }
}

absl::StatusOr<Tensor> Zeros(DataType dtype, const TensorShape& shape) {
  SG_ASSIGN_OR_RETURN(Tensor t, Tensor::Allocate(dtype, shape));
  if (DataTypeIsPod(dtype) && t.NumElements() > 0) std::memset(t.raw_data(), 0, t.TotalBytes());
  return t;
}

class TensorArray final : public ResourceBase {
 public:
  // `aggregate_writes`: a gradient array, whose repeated writes to an index add up.
  TensorArray(std::string name, DataType dtype, PartialTensorShape element_shape, int32_t size,
              bool dynamic_size, bool clear_after_read, bool identical_element_shapes,
              bool aggregate_writes = false)
      : name_(std::move(name)),
        dtype_(dtype),
        clear_after_read_(clear_after_read),
        identical_element_shapes_(identical_element_shapes),
        aggregate_writes_(aggregate_writes),
        dynamic_size_(dynamic_size),
        element_shape_(std::move(element_shape)),
        elements_(size) {}

  std::string DebugString() const override { return absl::StrCat("TensorArray ", name_); }
  DataType dtype() const { return dtype_; }

  // Writes values[i] at indices[i], in order; stops at the first error.
  absl::Status Write(absl::Span<const int32_t> indices, absl::Span<const Tensor> values) {
    absl::MutexLock lock(&mu_);
    SG_RETURN_IF_ERROR(CheckOpen());
    for (size_t i = 0; i < indices.size(); ++i) {
      SG_RETURN_IF_ERROR(LockedWrite(indices[i], values[i]));
    }
    return absl::OkStatus();
  }

  // Reads indices[i] into (*values)[i]. INVALID_ARGUMENT for a bad index, an index cleared by an
  // earlier read, or an unwritten index whose shape is not fully known.
  absl::Status Read(absl::Span<const int32_t> indices, std::vector<Tensor>* values) {
    absl::MutexLock lock(&mu_);
    SG_RETURN_IF_ERROR(CheckOpen());
    values->clear();
    for (int32_t index : indices) {
      Tensor t;
      SG_RETURN_IF_ERROR(LockedRead(index, &t));
      values->push_back(std::move(t));
    }
    return absl::OkStatus();
  }

  // Reads every element, for TensorArrayConcatV3: all must have been written.
  absl::Status ReadAll(std::vector<Tensor>* values) {
    absl::MutexLock lock(&mu_);
    SG_RETURN_IF_ERROR(CheckOpen());
    values->clear();
    for (size_t i = 0; i < elements_.size(); ++i) {
      if (!elements_[i].written) {
        return errors::InvalidArgument("TensorArray ", name_, ": Could not read from index ", i,
                                       " because it has not yet been written to.");
      }
      Tensor t;
      SG_RETURN_IF_ERROR(LockedRead(static_cast<int32_t>(i), &t));
      values->push_back(std::move(t));
    }
    return absl::OkStatus();
  }

  absl::Status Size(int32_t* size) {
    absl::MutexLock lock(&mu_);
    SG_RETURN_IF_ERROR(CheckOpen());
    *size = static_cast<int32_t>(elements_.size());
    return absl::OkStatus();
  }

  PartialTensorShape element_shape() {
    absl::MutexLock lock(&mu_);
    return element_shape_;
  }

  bool dynamic_size() {
    absl::MutexLock lock(&mu_);
    return dynamic_size_;
  }
  bool identical_element_shapes() const { return identical_element_shapes_; }

  // Once a gradient array exists, writes may no longer grow this one (as TensorFlow).
  void DisableDynamicSize() {
    absl::MutexLock lock(&mu_);
    dynamic_size_ = false;
  }

  // For a new gradient array of `fwd`: marks every index `fwd` holds as written with only a
  // shape (prefix + that element's shape), which reads as zeros.
  absl::Status CopyShapesFrom(TensorArray* fwd, const TensorShape& prefix) {
    absl::MutexLock lock(&mu_);
    absl::MutexLock fwd_lock(&fwd->mu_);
    SG_RETURN_IF_ERROR(CheckOpen());
    SG_RETURN_IF_ERROR(fwd->CheckOpen());
    if (elements_.size() != fwd->elements_.size()) {
      return errors::InvalidArgument("TensorArray sizes do not match during CopyShapesFrom: ",
                                     elements_.size(), " vs. ", fwd->elements_.size());
    }
    for (size_t i = 0; i < elements_.size(); ++i) {
      if (!fwd->elements_[i].written) continue;
      TensorShape shape = prefix;
      for (int64_t d : fwd->elements_[i].shape.dim_sizes()) shape.AddDim(d);
      elements_[i].shape = shape;
      elements_[i].written = true;
      elements_[i].shape_only = true;
    }
    return absl::OkStatus();
  }

  void Close() {
    absl::MutexLock lock(&mu_);
    closed_ = true;
    elements_.clear();
  }

  const std::string& name() const { return name_; }

  // The first ops' handle: a string vector [container, name] that TensorArray hands out by
  // reference. Set once, before the reference is.
  Tensor* ref_handle(absl::Mutex** mu) {
    *mu = &handle_mu_;
    return &ref_handle_;
  }
  void set_ref_handle(Tensor t) {
    absl::MutexLock lock(&handle_mu_);
    ref_handle_ = std::move(t);
  }

 private:
  struct Element {
    Tensor tensor;
    TensorShape shape;        // of the written value
    bool written = false;
    bool shape_only = false;  // written by CopyShapesFrom: reads as zeros of `shape`
    bool read = false;
    bool cleared = false;
  };

  absl::Status CheckOpen() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (closed_) return errors::InvalidArgument("TensorArray ", name_, " has already been closed.");
    return absl::OkStatus();
  }

  absl::Status LockedWrite(int32_t index, const Tensor& value) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const int64_t size = static_cast<int64_t>(elements_.size());
    if (index < 0) {
      return errors::InvalidArgument("TensorArray ", name_, ": Tried to write to index ", index,
                                     " but array size is: ", size);
    }
    if (index >= size) {
      if (!dynamic_size_) {
        return errors::InvalidArgument("TensorArray ", name_, ": Tried to write to index ",
                                       index, " but array is not resizeable and size is: ", size);
      }
      elements_.resize(static_cast<size_t>(index) + 1);
    }
    if (value.dtype() != dtype_) {
      return errors::InvalidArgument("TensorArray ", name_, ": Could not write to TensorArray "
                                     "index ", index, " because the value dtype is ",
                                     DataTypeString(value.dtype()),
                                     ", but TensorArray dtype is ", DataTypeString(dtype_), ".");
    }
    if (!element_shape_.IsCompatibleWith(value.shape())) {
      return errors::InvalidArgument(
          "TensorArray ", name_, ": Could not write to TensorArray index ", index,
          " because the value shape is ", value.shape().DebugString(),
          " which is incompatible with the TensorArray's inferred element shape: ",
          element_shape_.DebugString(), " (consider setting infer_shape=False).");
    }
    if (identical_element_shapes_ && !element_shape_.IsFullyDefined()) {
      element_shape_ = PartialTensorShape(value.shape());
    }
    Element& e = elements_[index];
    if (e.read) {
      return errors::InvalidArgument("TensorArray ", name_, ": Could not write to TensorArray "
                                     "index ", index, " because it has already been read.");
    }
    if (e.written && !aggregate_writes_) {
      return errors::InvalidArgument("TensorArray ", name_, ": Could not write to TensorArray "
                                     "index ", index, " because it has already been written to.");
    }
    if (e.written) {
      if (value.shape() != e.shape) {
        return errors::InvalidArgument(
            "TensorArray ", name_, ": Could not aggregate to TensorArray index ", index,
            " because the existing shape is ", e.shape.DebugString(),
            " but the new input shape is ", value.shape().DebugString(), ".");
      }
      if (e.shape_only || e.tensor.NumElements() == 0) {
        e.tensor = value;
      } else {
        SG_ASSIGN_OR_RETURN(e.tensor, AddTensors(e.tensor, value));
      }
      e.shape_only = false;
      return absl::OkStatus();
    }
    // Tensors are immutable once produced, so the element may share the value's buffer.
    e.tensor = value;
    e.shape = value.shape();
    e.written = true;
    return absl::OkStatus();
  }

  absl::Status LockedRead(int32_t index, Tensor* value) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const int64_t size = static_cast<int64_t>(elements_.size());
    if (index < 0 || index >= size) {
      return errors::InvalidArgument("TensorArray ", name_, ": Tried to read from index ", index,
                                     " but array size is: ", size);
    }
    Element& e = elements_[index];
    if (e.cleared) {
      return errors::InvalidArgument(
          "TensorArray ", name_, ": Could not read index ", index,
          " twice because it was cleared after a previous read (perhaps try setting "
          "clear_after_read = false?).");
    }
    if (e.written && e.shape_only) {
      SG_ASSIGN_OR_RETURN(*value, Zeros(dtype_, e.shape));
    } else if (e.written) {
      *value = e.tensor;
    } else {
      TensorShape shape;
      if (!element_shape_.AsTensorShape(&shape)) {
        return errors::InvalidArgument(
            "TensorArray ", name_, ": Could not read from TensorArray index ", index,
            ".  Furthermore, the element shape is not fully defined: ",
            element_shape_.DebugString(),
            ".  It is possible you are working with a resizeable TensorArray and "
            "stop_gradients is not allowing the gradients to be written.  If you set the full "
            "element_shape property on the forward TensorArray, the proper all-zeros tensor "
            "will be returned instead of incurring this error.");
      }
      SG_ASSIGN_OR_RETURN(*value, Zeros(dtype_, shape));
    }
    e.read = true;
    if (clear_after_read_) {
      e.tensor = Tensor();
      e.cleared = true;
    }
    return absl::OkStatus();
  }

  const std::string name_;
  const DataType dtype_;
  const bool clear_after_read_;
  const bool identical_element_shapes_;
  const bool aggregate_writes_;
  absl::Mutex mu_;
  bool dynamic_size_ ABSL_GUARDED_BY(mu_);
  PartialTensorShape element_shape_ ABSL_GUARDED_BY(mu_);
  std::vector<Element> elements_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  absl::Mutex handle_mu_;
  Tensor ref_handle_ ABSL_GUARDED_BY(handle_mu_);
};

absl::Status LookupTensorArray(OpKernelContext* ctx, std::shared_ptr<TensorArray>* ta) {
  if (ctx->step_resources() == nullptr) {
    return errors::Internal("node '", ctx->op_kernel().name(), "': no step resources");
  }
  std::string container, name;
  SG_RETURN_IF_ERROR(ResourceNameFromInput(ctx, 0, "TensorArray", &container, &name));
  return ctx->step_resources()->Lookup<TensorArray>(container, name, ta);
}

// The int32 vector input `i`.
absl::Status Int32Vector(OpKernelContext* ctx, int i, const char* what,
                         absl::Span<const int32_t>* out) {
  const Tensor& t = ctx->input(i);
  if (t.dims() != 1) {
    return errors::InvalidArgument("Expected ", what, " to be a vector, but received shape: ",
                                   t.shape().DebugString());
  }
  *out = absl::Span<const int32_t>(t.data<int32_t>(), t.NumElements());
  return absl::OkStatus();
}

absl::Status Int32Scalar(OpKernelContext* ctx, int i, const char* what, int32_t* out) {
  const Tensor& t = ctx->input(i);
  if (t.dims() != 0) {
    return errors::InvalidArgument(what, " must be a scalar, but had shape: ",
                                   t.shape().DebugString());
  }
  *out = t.scalar<int32_t>()();
  return absl::OkStatus();
}

absl::Status CheckReadDtype(const TensorArray& ta, DataType requested) {
  if (ta.dtype() != requested) {
    return errors::InvalidArgument("TensorArray dtype is ", DataTypeString(ta.dtype()),
                                   " but Op requested dtype ", DataTypeString(requested), ".");
  }
  return absl::OkStatus();
}

TensorShape WithLeadingDim(int64_t n, const TensorShape& inner) {
  TensorShape s = inner;
  s.InsertDim(0, n);
  return s;
}

class TensorArrayOp final : public OpKernel {
 public:
  explicit TensorArrayOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_shape", &element_shape_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dynamic_size", &dynamic_size_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("clear_after_read", &clear_after_read_));
    // Only V3 has it.
    identical_element_shapes_ = false;
    if (ctx->HasAttr("identical_element_shapes")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("identical_element_shapes", &identical_element_shapes_));
    }
    OP_REQUIRES_OK(ctx, ctx->GetAttr("tensor_array_name", &base_name_));
    if (base_name_.empty()) base_name_ = name();
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    int32_t size;
    OP_REQUIRES_OK(ctx, Int32Scalar(ctx, 0, "TensorArray size", &size));
    OP_REQUIRES(ctx, size >= 0,
                errors::InvalidArgument("Size should be >= 0, got ", size, " (node '", name(),
                                        "')"));
    OP_REQUIRES(ctx, ctx->step_resources() != nullptr,
                errors::Internal("node '", name(), "': no step resources"));
    // A node inside a loop runs once per iteration: every run makes its own array.
    static std::atomic<int64_t> counter{0};
    std::string unique = absl::StrCat(base_name_, "_", counter.fetch_add(1));
    auto ta = std::make_shared<TensorArray>(unique, dtype_, element_shape_, size, dynamic_size_,
                                            clear_after_read_, identical_element_shapes_);
    OP_REQUIRES_OK(ctx, ctx->step_resources()->Create(kTensorArrayContainer, unique, ta));
    if (output_type(0) != DT_RESOURCE) {  // the older ops: a string handle, no flow
      Tensor handle(DT_STRING, TensorShape({2}));
      handle.data<tstring>()[0] = kTensorArrayContainer;
      handle.data<tstring>()[1] = unique;
      if (!IsRefType(output_type(0))) {
        ctx->set_output(0, handle);
        return;
      }
      ta->set_ref_handle(std::move(handle));
      absl::Mutex* mu;
      Tensor* ref = ta->ref_handle(&mu);
      ctx->set_output_ref(0, mu, ref);
      return;
    }
    ResourceHandle h;
    if (ctx->device() != nullptr) h.device = ctx->device()->name();
    h.container = kTensorArrayContainer;
    h.name = unique;
    h.type_name = "TensorArray";
    OP_REQUIRES_OK(ctx, SetResourceHandleOutput(ctx, 0, std::move(h)));
    ctx->set_output(1, Tensor::Scalar<float>(0.0f));
  }

 private:
  DataType dtype_;
  PartialTensorShape element_shape_;
  bool dynamic_size_, clear_after_read_, identical_element_shapes_;
  std::string base_name_;
};
REGISTER_KERNEL_BUILDER(Name("TensorArrayV3").Device(DEVICE_CPU), TensorArrayOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayV2").Device(DEVICE_CPU), TensorArrayOp);
REGISTER_KERNEL_BUILDER(Name("TensorArray").Device(DEVICE_CPU), TensorArrayOp);

class TensorArrayWriteOp final : public OpKernel {
 public:
  explicit TensorArrayWriteOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<TensorArray> ta;
    OP_REQUIRES_OK(ctx, LookupTensorArray(ctx, &ta));
    int32_t index;
    OP_REQUIRES_OK(ctx, Int32Scalar(ctx, 1, "TensorArray index", &index));
    const Tensor& value = ctx->input(2);
    OP_REQUIRES_OK(ctx, ta->Write({index}, {value}));
    ctx->set_output(0, ctx->input(3));
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorArrayWriteV3").Device(DEVICE_CPU), TensorArrayWriteOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayWriteV2").Device(DEVICE_CPU), TensorArrayWriteOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayWrite").Device(DEVICE_CPU), TensorArrayWriteOp);

class TensorArrayReadOp final : public OpKernel {
 public:
  explicit TensorArrayReadOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<TensorArray> ta;
    OP_REQUIRES_OK(ctx, LookupTensorArray(ctx, &ta));
    OP_REQUIRES_OK(ctx, CheckReadDtype(*ta, dtype_));
    int32_t index;
    OP_REQUIRES_OK(ctx, Int32Scalar(ctx, 1, "TensorArray index", &index));
    std::vector<Tensor> values;
    OP_REQUIRES_OK(ctx, ta->Read({index}, &values));
    ctx->set_output(0, values[0]);
  }

 private:
  DataType dtype_;
};
REGISTER_KERNEL_BUILDER(Name("TensorArrayReadV3").Device(DEVICE_CPU), TensorArrayReadOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayReadV2").Device(DEVICE_CPU), TensorArrayReadOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayRead").Device(DEVICE_CPU), TensorArrayReadOp);

// Stacks `values` (all of one shape) into a new [n, ...] output 0.
absl::Status StackInto(OpKernelContext* ctx, const std::vector<Tensor>& values,
                       const std::string& ta_name) {
  const TensorShape& first = values[0].shape();
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i].shape() != first) {
      return errors::InvalidArgument("TensorArray ", ta_name,
                                     ": TensorArray has inconsistent shapes.  Index 0 has shape: ",
                                     first.DebugString(), " but index ", i, " has shape: ",
                                     values[i].shape().DebugString());
    }
  }
  Tensor* out;
  SG_RETURN_IF_ERROR(
      ctx->allocate_output(0, WithLeadingDim(static_cast<int64_t>(values.size()), first), &out));
  const int64_t row = first.num_elements();
  for (size_t i = 0; i < values.size(); ++i) CopyRows(values[i], 0, out, i, 1, row);
  return absl::OkStatus();
}

// Also TensorArrayPack: every index, in order (no indices input).
class TensorArrayGatherOp final : public OpKernel {
 public:
  explicit TensorArrayGatherOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), pack_(ctx->def().op() == "TensorArrayPack") {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_shape", &element_shape_));
  }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<TensorArray> ta;
    OP_REQUIRES_OK(ctx, LookupTensorArray(ctx, &ta));
    OP_REQUIRES_OK(ctx, CheckReadDtype(*ta, dtype_));
    absl::Span<const int32_t> indices;
    std::vector<int32_t> all;
    if (pack_) {
      int32_t size;
      OP_REQUIRES_OK(ctx, ta->Size(&size));
      all.resize(size);
      for (int32_t i = 0; i < size; ++i) all[i] = i;
      indices = all;
    } else {
      OP_REQUIRES_OK(ctx, Int32Vector(ctx, 1, "indices", &indices));
    }
    if (indices.empty()) {
      // Nothing to read the shape from: it must be known statically.
      auto merged = element_shape_.Merge(ta->element_shape());
      TensorShape shape;
      OP_REQUIRES(ctx, merged.ok() && merged->AsTensorShape(&shape),
                  errors::InvalidArgument(
                      "TensorArray ", ta->name(), ": TensorArray has size zero, but element "
                      "shape ", element_shape_.DebugString(),
                      " is not fully defined. Currently only static shapes are supported when "
                      "packing zero-size TensorArrays."));
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, WithLeadingDim(0, shape), &out));
      return;
    }
    std::vector<Tensor> values;
    OP_REQUIRES_OK(ctx, ta->Read(indices, &values));
    OP_REQUIRES_OK(ctx, StackInto(ctx, values, ta->name()));
  }

 private:
  const bool pack_;
  DataType dtype_;
  PartialTensorShape element_shape_;
};
REGISTER_KERNEL_BUILDER(Name("TensorArrayGatherV3").Device(DEVICE_CPU), TensorArrayGatherOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayGatherV2").Device(DEVICE_CPU), TensorArrayGatherOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayGather").Device(DEVICE_CPU), TensorArrayGatherOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayPack").Device(DEVICE_CPU), TensorArrayGatherOp);

// Also TensorArrayUnpack: value's rows to indices 0, 1, ... (no indices input).
class TensorArrayScatterOp final : public OpKernel {
 public:
  explicit TensorArrayScatterOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), unpack_(ctx->def().op() == "TensorArrayUnpack") {}

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<TensorArray> ta;
    OP_REQUIRES_OK(ctx, LookupTensorArray(ctx, &ta));
    const int value_input = unpack_ ? 1 : 2;
    const Tensor& value = ctx->input(value_input);
    OP_REQUIRES(ctx, value.dims() >= 1,
                errors::InvalidArgument("Expected value to be at least a vector, but received "
                                        "shape: ",
                                        value.shape().DebugString()));
    absl::Span<const int32_t> indices;
    std::vector<int32_t> all;
    if (unpack_) {
      OP_REQUIRES(ctx, value.dim_size(0) <= std::numeric_limits<int32_t>::max(),
                  errors::InvalidArgument("Too many rows to unpack: ", value.dim_size(0)));
      all.resize(value.dim_size(0));
      for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int32_t>(i);
      indices = all;
    } else {
      OP_REQUIRES_OK(ctx, Int32Vector(ctx, 1, "indices", &indices));
    }
    const int64_t n = static_cast<int64_t>(indices.size());
    OP_REQUIRES(ctx, value.dim_size(0) == n,
                errors::InvalidArgument("Expected len(indices) == values.shape[0], but saw: ", n,
                                        " vs. ", value.dim_size(0)));
    if (!ta->dynamic_size()) {
      int32_t size;
      OP_REQUIRES_OK(ctx, ta->Size(&size));
      for (int32_t i : indices) {
        OP_REQUIRES(ctx, i < size,
                    errors::InvalidArgument("TensorArray ", ta->name(),
                                            ": Max scatter index must be < array size (", i,
                                            " vs. ", size, ")"));
      }
    }
    TensorShape element = value.shape();
    element.RemoveDim(0);
    const int64_t row = element.num_elements();
    std::vector<Tensor> elements(n);
    for (int64_t i = 0; i < n; ++i) {
      auto t = Tensor::Allocate(value.dtype(), element);
      OP_REQUIRES_OK(ctx, t.status());
      elements[i] = *std::move(t);
      CopyRows(value, i, &elements[i], 0, 1, row);
    }
    OP_REQUIRES_OK(ctx, ta->Write(indices, elements));
    ctx->set_output(0, ctx->input(value_input + 1));
  }

 private:
  const bool unpack_;
};
REGISTER_KERNEL_BUILDER(Name("TensorArrayScatterV3").Device(DEVICE_CPU), TensorArrayScatterOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayScatterV2").Device(DEVICE_CPU), TensorArrayScatterOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayScatter").Device(DEVICE_CPU), TensorArrayScatterOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayUnpack").Device(DEVICE_CPU), TensorArrayScatterOp);

class TensorArrayConcatOp final : public OpKernel {
 public:
  explicit TensorArrayConcatOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_shape_except0", &element_shape_except0_));
  }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<TensorArray> ta;
    OP_REQUIRES_OK(ctx, LookupTensorArray(ctx, &ta));
    OP_REQUIRES_OK(ctx, CheckReadDtype(*ta, dtype_));
    std::vector<Tensor> values;
    OP_REQUIRES_OK(ctx, ta->ReadAll(&values));
    Tensor* lengths;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(
                            1, TensorShape({static_cast<int64_t>(values.size())}), &lengths));
    if (values.empty()) {
      TensorShape except0;
      OP_REQUIRES(ctx, element_shape_except0_.AsTensorShape(&except0),
                  errors::InvalidArgument(
                      "TensorArray ", ta->name(), ": TensorArray has size zero, but "
                      "element_shape_except0 ", element_shape_except0_.DebugString(),
                      " is not fully defined. Currently only static shapes are supported when "
                      "concatenating zero-size TensorArrays."));
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, WithLeadingDim(0, except0), &out));
      return;
    }
    TensorShape except0;
    int64_t total = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      const Tensor& v = values[i];
      OP_REQUIRES(ctx, v.dims() >= 1,
                  errors::InvalidArgument("TensorArray ", ta->name(),
                                          ": Concat saw a scalar shape at index ", i,
                                          " but requires at least vectors.  Did you mean to call "
                                          "stack instead?"));
      TensorShape rest = v.shape();
      rest.RemoveDim(0);
      if (i == 0) {
        except0 = rest;
      } else {
        OP_REQUIRES(ctx, rest == except0,
                    errors::InvalidArgument(
                        "TensorArray ", ta->name(), ": TensorArray has inconsistent shapes.  "
                        "Index 0 has (excepting dimension 0) shape: ", except0.DebugString(),
                        " but index ", i, " has (excepting dimension 0) shape: ",
                        rest.DebugString()));
      }
      lengths->data<int64_t>()[i] = v.dim_size(0);
      total += v.dim_size(0);
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, WithLeadingDim(total, except0), &out));
    const int64_t row = except0.num_elements();
    int64_t at = 0;
    for (const Tensor& v : values) {
      CopyRows(v, 0, out, at, v.dim_size(0), row);
      at += v.dim_size(0);
    }
  }

 private:
  DataType dtype_;
  PartialTensorShape element_shape_except0_;
};
REGISTER_KERNEL_BUILDER(Name("TensorArrayConcatV3").Device(DEVICE_CPU), TensorArrayConcatOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayConcatV2").Device(DEVICE_CPU), TensorArrayConcatOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayConcat").Device(DEVICE_CPU), TensorArrayConcatOp);

class TensorArraySplitOp final : public OpKernel {
 public:
  explicit TensorArraySplitOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<TensorArray> ta;
    OP_REQUIRES_OK(ctx, LookupTensorArray(ctx, &ta));
    const Tensor& value = ctx->input(1);
    const Tensor& lengths = ctx->input(2);
    OP_REQUIRES(ctx, value.dims() >= 1,
                errors::InvalidArgument("Expected value to be at least a vector, but received "
                                        "shape: ",
                                        value.shape().DebugString()));
    OP_REQUIRES(ctx, lengths.dims() == 1,
                errors::InvalidArgument("Expected lengths to be a vector, received shape: ",
                                        lengths.shape().DebugString()));
    const int64_t n = lengths.NumElements();
    OP_REQUIRES(ctx, n <= std::numeric_limits<int32_t>::max(),
                errors::InvalidArgument("Too many elements to split: ", n));
    int64_t sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t len = lengths.data<int64_t>()[i];
      OP_REQUIRES(ctx, len >= 0,
                  errors::InvalidArgument("lengths[", i, "] = ", len, " is negative"));
      sum += len;
    }
    OP_REQUIRES(ctx, sum == value.dim_size(0),
                errors::InvalidArgument("Expected sum of lengths to be equal to values.shape[0], "
                                        "but sum of lengths is: ",
                                        sum, " and value's shape is: ",
                                        value.shape().DebugString()));
    TensorShape rest = value.shape();
    rest.RemoveDim(0);
    const int64_t row = rest.num_elements();
    std::vector<int32_t> indices(n);
    std::vector<Tensor> elements(n);
    int64_t at = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t len = lengths.data<int64_t>()[i];
      auto t = Tensor::Allocate(value.dtype(), WithLeadingDim(len, rest));
      OP_REQUIRES_OK(ctx, t.status());
      elements[i] = *std::move(t);
      CopyRows(value, at, &elements[i], 0, len, row);
      at += len;
      indices[i] = static_cast<int32_t>(i);
    }
    OP_REQUIRES_OK(ctx, ta->Write(indices, elements));
    ctx->set_output(0, ctx->input(3));
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorArraySplitV3").Device(DEVICE_CPU), TensorArraySplitOp);
REGISTER_KERNEL_BUILDER(Name("TensorArraySplitV2").Device(DEVICE_CPU), TensorArraySplitOp);
REGISTER_KERNEL_BUILDER(Name("TensorArraySplit").Device(DEVICE_CPU), TensorArraySplitOp);

class TensorArraySizeOp final : public OpKernel {
 public:
  explicit TensorArraySizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<TensorArray> ta;
    OP_REQUIRES_OK(ctx, LookupTensorArray(ctx, &ta));
    int32_t size;
    OP_REQUIRES_OK(ctx, ta->Size(&size));
    ctx->set_output(0, Tensor::Scalar<int32_t>(size));
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorArraySizeV3").Device(DEVICE_CPU), TensorArraySizeOp);
REGISTER_KERNEL_BUILDER(Name("TensorArraySizeV2").Device(DEVICE_CPU), TensorArraySizeOp);
REGISTER_KERNEL_BUILDER(Name("TensorArraySize").Device(DEVICE_CPU), TensorArraySizeOp);

// TensorArrayGrad (a ref handle out), TensorArrayGradV2 (a string handle), TensorArrayGradV3
// and TensorArrayGradWithShape (a resource handle and flow_in passed through as flow_out).
class TensorArrayGradOp final : public OpKernel {
 public:
  explicit TensorArrayGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("source", &source_));
    with_shape_ = ctx->def().op() == "TensorArrayGradWithShape";
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->step_resources() != nullptr,
                errors::Internal("node '", name(), "': no step resources"));
    std::string container, fwd_name;
    OP_REQUIRES_OK(ctx, ResourceNameFromInput(ctx, 0, "TensorArray", &container, &fwd_name));
    OP_REQUIRES(ctx, container == kTensorArrayContainer,
                errors::InvalidArgument("Input container should be '", kTensorArrayContainer,
                                        "',  but received '", container, "' (node '", name(),
                                        "')"));
    std::shared_ptr<TensorArray> fwd;
    OP_REQUIRES_OK(ctx, ctx->step_resources()->Lookup<TensorArray>(container, fwd_name, &fwd));
    TensorShape prefix;
    if (with_shape_) {
      const Tensor& t = ctx->input(2);
      OP_REQUIRES(ctx, t.dims() == 1,
                  errors::InvalidArgument("shape_to_prepend must be a vector, got shape ",
                                          t.shape().DebugString(), " (node '", name(), "')"));
      OP_REQUIRES_OK(ctx, ShapeFromIntVector(ctx, t, &prefix));
    }
    // Once gradients are being computed, the forward array may no longer grow.
    fwd->DisableDynamicSize();
    int32_t size;
    OP_REQUIRES_OK(ctx, fwd->Size(&size));
    PartialTensorShape element_shape = fwd->element_shape();
    if (with_shape_ && !element_shape.unknown_rank()) {
      std::vector<int64_t> dims(prefix.dim_sizes().begin(), prefix.dim_sizes().end());
      for (int64_t d : element_shape.dim_sizes()) dims.push_back(d);
      element_shape = PartialTensorShape(dims);
    }
    const std::string grad_name = absl::StrCat(fwd_name, "@", source_);
    std::shared_ptr<TensorArray> grad;
    OP_REQUIRES_OK(ctx, ctx->step_resources()->LookupOrCreate<TensorArray>(
                            kTensorArrayGradContainer, grad_name, &grad,
                            [&](std::shared_ptr<TensorArray>* out) {
                              *out = std::make_shared<TensorArray>(
                                  grad_name, fwd->dtype(), element_shape, size,
                                  /*dynamic_size=*/false, /*clear_after_read=*/true,
                                  fwd->identical_element_shapes(), /*aggregate_writes=*/true);
                              (*out)->set_ref_handle(StringHandle(grad_name));
                              return (*out)->CopyShapesFrom(fwd.get(), prefix);
                            }));
    if (output_type(0) == DT_RESOURCE) {
      ResourceHandle h;
      if (ctx->device() != nullptr) h.device = ctx->device()->name();
      h.container = kTensorArrayGradContainer;
      h.name = grad_name;
      h.type_name = "TensorArray";
      OP_REQUIRES_OK(ctx, SetResourceHandleOutput(ctx, 0, std::move(h)));
      ctx->set_output(1, ctx->input(1));
    } else if (IsRefType(output_type(0))) {
      absl::Mutex* mu;
      Tensor* ref = grad->ref_handle(&mu);
      ctx->set_output_ref(0, mu, ref);
    } else {
      ctx->set_output(0, StringHandle(grad_name));
    }
  }

 private:
  static Tensor StringHandle(const std::string& grad_name) {
    Tensor handle(DT_STRING, TensorShape({2}));
    handle.data<tstring>()[0] = kTensorArrayGradContainer;
    handle.data<tstring>()[1] = grad_name;
    return handle;
  }

  std::string source_;
  bool with_shape_ = false;
};
REGISTER_KERNEL_BUILDER(Name("TensorArrayGradV3").Device(DEVICE_CPU), TensorArrayGradOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayGradWithShape").Device(DEVICE_CPU), TensorArrayGradOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayGradV2").Device(DEVICE_CPU), TensorArrayGradOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayGrad").Device(DEVICE_CPU), TensorArrayGradOp);

class TensorArrayCloseOp final : public OpKernel {
 public:
  explicit TensorArrayCloseOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<TensorArray> ta;
    OP_REQUIRES_OK(ctx, LookupTensorArray(ctx, &ta));
    // Closing twice is allowed, as in TensorFlow.
    ta->Close();
  }
};
REGISTER_KERNEL_BUILDER(Name("TensorArrayCloseV3").Device(DEVICE_CPU), TensorArrayCloseOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayCloseV2").Device(DEVICE_CPU), TensorArrayCloseOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayClose").Device(DEVICE_CPU), TensorArrayCloseOp);

}  // namespace
}  // namespace sg
