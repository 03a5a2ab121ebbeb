// Kernels for constants (Const, ImmutableConst), placeholders, identities, CheckNumerics, NoOp,
// _Arg and _Retval.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

class ConstOp final : public OpKernel {
 public:
  explicit ConstOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    set_expensive(false);
    OP_REQUIRES_OK(ctx, ctx->GetAttr("value", &value_));
    DataType dtype;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype));
    OP_REQUIRES(ctx, value_.dtype() == dtype,
                errors::InvalidArgument("node '", ctx->def().name(), "': value is ",
                                        DataTypeString(value_.dtype()), " but dtype is ",
                                        DataTypeString(dtype)));
  }
  void Compute(OpKernelContext* ctx) override { ctx->set_output(0, value_); }

 private:
  Tensor value_;
};
REGISTER_KERNEL_BUILDER(Name("Const").Device(DEVICE_CPU), ConstOp);

// A constant whose bytes are the start of the file `memory_region_name`, mapped into memory
// (copy on write, so no kernel can change the file) once, when the kernel is made.
class ImmutableConstOp final : public OpKernel {
 public:
  explicit ImmutableConstOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    set_expensive(false);
    DataType dtype;
    PartialTensorShape partial;
    std::string path;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shape", &partial));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("memory_region_name", &path));
    OP_REQUIRES(ctx, DataTypeIsPod(dtype),
                errors::InvalidArgument("node '", name(), "': ImmutableConst holds only plain "
                                        "numeric types, not ",
                                        DataTypeString(dtype)));
    TensorShape shape;
    OP_REQUIRES(ctx, partial.AsTensorShape(&shape),
                errors::InvalidArgument("node '", name(), "': shape ", partial.DebugString(),
                                        " is not fully defined"));
    const size_t bytes = DataTypeSize(dtype) * static_cast<size_t>(shape.num_elements());
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    OP_REQUIRES(ctx, fd >= 0,
                errors::NotFound("node '", name(), "': cannot open memory region '", path,
                                 "': ", std::strerror(errno)));
    struct stat st;
    const bool stat_ok = fstat(fd, &st) == 0;
    void* data = nullptr;
    if (stat_ok && bytes > 0 && static_cast<size_t>(st.st_size) >= bytes) {
      data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    }
    close(fd);
    OP_REQUIRES(ctx, stat_ok && static_cast<size_t>(st.st_size) >= bytes,
                errors::InvalidArgument("node '", name(), "': memory region '", path, "' has ",
                                        stat_ok ? st.st_size : 0, " bytes, less than the ",
                                        bytes, " of a ", DataTypeString(dtype), " tensor of shape ",
                                        shape.DebugString()));
    if (bytes == 0) {
      value_ = Tensor(dtype, shape);
      return;
    }
    OP_REQUIRES(ctx, data != MAP_FAILED,
                errors::Internal("node '", name(), "': cannot map memory region '", path, "': ",
                                 std::strerror(errno)));
    auto buffer = std::make_shared<TensorBuffer>(data, bytes,
                                                 [](void* p, size_t n) { munmap(p, n); });
    value_ = Tensor(dtype, shape, std::move(buffer));
  }
  void Compute(OpKernelContext* ctx) override { ctx->set_output(0, value_); }

 private:
  Tensor value_;
};
REGISTER_KERNEL_BUILDER(Name("ImmutableConst").Device(DEVICE_CPU), ImmutableConstOp);

// A Placeholder that runs was not fed.
class PlaceholderOp final : public OpKernel {
 public:
  explicit PlaceholderOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    ctx->GetAttr("dtype", &dtype_).IgnoreError();
  }
  void Compute(OpKernelContext* ctx) override {
    ctx->CtxFailure(errors::InvalidArgument(
        "You must feed a value for placeholder tensor '", name(), "' with dtype ",
        DataTypeString(dtype_)));
  }

 private:
  DataType dtype_ = DT_INVALID;
};
REGISTER_KERNEL_BUILDER(Name("Placeholder").Device(DEVICE_CPU), PlaceholderOp);
REGISTER_KERNEL_BUILDER(Name("PlaceholderV2").Device(DEVICE_CPU), PlaceholderOp);

class IdentityOp final : public OpKernel {
 public:
  explicit IdentityOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext* ctx) override {
    for (int i = 0; i < ctx->num_inputs(); ++i) {
      if (ctx->input_is_ref(i)) {
        ctx->forward_ref_input_to_ref_output(i, i);
      } else {
        ctx->set_output(i, ctx->input(i));
      }
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("Identity").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("RefIdentity").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("IdentityN").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("StopGradient").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("DebugGradientIdentity").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("DebugGradientRefIdentity").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("PreventGradient").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("PlaceholderWithDefault").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("_ArrayToList").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("_ListToArray").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("WrapDatasetVariant").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("UnwrapDatasetVariant").Device(DEVICE_CPU), IdentityOp);

// Snapshot copies, so later in-place updates of a variable do not show through.
class SnapshotOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override { ctx->set_output(0, ctx->input(0).DeepCopy()); }
};
REGISTER_KERNEL_BUILDER(Name("Snapshot").Device(DEVICE_CPU), SnapshotOp);

using CheckNumericsTypes = TypeList<float, double, half, bfloat16>;

// CheckNumerics and CheckNumericsV2: the input passes through when every element is finite;
// otherwise INVALID_ARGUMENT with the op's message and what was found (V2 tells +Inf from -Inf).
class CheckNumericsOp final : public OpKernel {
 public:
  explicit CheckNumericsOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), signed_inf_(type_string() == "CheckNumericsV2") {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("message", &message_));
  }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    bool nan = false, pos_inf = false, neg_inf = false;
    DispatchTypes(CheckNumericsTypes(), in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* p = in.data<T>();
      for (int64_t i = 0; i < in.NumElements(); ++i) {
        const double v = static_cast<double>(p[i]);
        if (std::isnan(v)) {
          nan = true;
        } else if (std::isinf(v)) {
          (v > 0 ? pos_inf : neg_inf) = true;
        }
      }
    });
    if (nan || pos_inf || neg_inf) {
      std::vector<std::string> found;
      if (signed_inf_) {
        if (pos_inf) found.push_back("+Inf");
        if (neg_inf) found.push_back("-Inf");
      } else if (pos_inf || neg_inf) {
        found.push_back("Inf");
      }
      if (nan) found.push_back("NaN");
      ctx->CtxFailure(errors::InvalidArgument(message_, " : Tensor had ",
                                              absl::StrJoin(found, " and "),
                                              " values (node '", name(), "')"));
      return;
    }
    ctx->set_output(0, in);
  }

 private:
  const bool signed_inf_;
  std::string message_;
};
REGISTER_KERNEL_BUILDER(Name("CheckNumerics")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(CheckNumericsTypes())),
                        CheckNumericsOp);
REGISTER_KERNEL_BUILDER(Name("CheckNumericsV2")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(CheckNumericsTypes())),
                        CheckNumericsOp);

class NoOp final : public OpKernel {
 public:
  explicit NoOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }
  void Compute(OpKernelContext*) override {}
};
REGISTER_KERNEL_BUILDER(Name("NoOp").Device(DEVICE_CPU), NoOp);
REGISTER_KERNEL_BUILDER(Name("ControlTrigger").Device(DEVICE_CPU), NoOp);

class ArgOp final : public OpKernel {
 public:
  explicit ArgOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    set_expensive(false);
    OP_REQUIRES_OK(ctx, ctx->GetAttr("index", &index_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("T", &dtype_));
  }
  void Compute(OpKernelContext* ctx) override {
    CallFrameInterface* frame = ctx->call_frame();
    OP_REQUIRES(ctx, frame != nullptr, errors::Internal("_Arg '", name(), "' has no call frame"));
    Tensor value;
    OP_REQUIRES_OK(ctx, frame->GetArg(index_, &value));
    OP_REQUIRES(ctx, value.dtype() == dtype_,
                errors::InvalidArgument("feed ", index_, " is ", DataTypeString(value.dtype()),
                                        " but the graph expects ", DataTypeString(dtype_)));
    ctx->set_output(0, value);
  }

 private:
  int64_t index_ = 0;
  DataType dtype_ = DT_INVALID;
};
REGISTER_KERNEL_BUILDER(Name("_Arg").Device(DEVICE_CPU), ArgOp);
REGISTER_KERNEL_BUILDER(Name("_DeviceArg").Device(DEVICE_CPU), ArgOp);

class RetvalOp final : public OpKernel {
 public:
  explicit RetvalOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    set_expensive(false);
    OP_REQUIRES_OK(ctx, ctx->GetAttr("index", &index_));
  }
  void Compute(OpKernelContext* ctx) override {
    CallFrameInterface* frame = ctx->call_frame();
    OP_REQUIRES(ctx, frame != nullptr,
                errors::Internal("_Retval '", name(), "' has no call frame"));
    OP_REQUIRES_OK(ctx, frame->SetRetval(index_, ctx->input(0)));
  }

 private:
  int64_t index_ = 0;
};
REGISTER_KERNEL_BUILDER(Name("_Retval").Device(DEVICE_CPU), RetvalOp);
REGISTER_KERNEL_BUILDER(Name("_DeviceRetval").Device(DEVICE_CPU), RetvalOp);

}  // namespace
}  // namespace sg
