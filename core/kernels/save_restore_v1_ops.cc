// Save, SaveSlices, Restore and RestoreSlice on V1 checkpoints (core/util/tensor_slice_table.h),
// as TensorFlow 1.x's Saver wrote them before V2 bundles, and TF Serving's session bundles hold.
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/util/saved_tensor_slice.h"
#include "core/util/tensor_slice_table.h"

namespace sg {
namespace {

// `s` with the node named in front; OK stays OK.
absl::Status NodeError(const OpKernel& k, absl::Status s) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat("node '", k.name(), "' (op ", k.type_string(),
                                             "): ", s.message()));
}

absl::Status OneString(const OpKernel& k, const Tensor& t, const char* what) {
  if (t.NumElements() != 1) {
    return NodeError(k, errors::InvalidArgument(what, " must hold one string, got shape ",
                                                t.shape().DebugString()));
  }
  return absl::OkStatus();
}

// Save (whole tensors) and SaveSlices (each tensor the slice its spec names) into one file.
class SaveOp final : public OpKernel {
 public:
  explicit SaveOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    slices_ = ctx->def().op() == "SaveSlices";
  }

  void Compute(OpKernelContext* ctx) override {
    const int first = slices_ ? 3 : 2;
    const int64_t n = ctx->num_inputs() - first;
    OP_REQUIRES_OK(ctx, OneString(*this, ctx->input(0), "filename"));
    const Tensor& names = ctx->input(1);
    OP_REQUIRES(ctx, names.NumElements() == n,
                NodeError(*this, errors::InvalidArgument(
                                     "Expected ", n, " elements in tensor_names, got ",
                                     names.NumElements())));
    if (slices_) {
      OP_REQUIRES(ctx, ctx->input(2).NumElements() == n,
                  NodeError(*this, errors::InvalidArgument(
                                       "Expected ", n, " elements in shapes_and_slices, got ",
                                       ctx->input(2).NumElements())));
    }
    TensorSliceWriter writer(ctx->input(0).data<tstring>()[0]);
    for (int64_t i = 0; i < n; ++i) {
      const Tensor& value = ctx->input(first + static_cast<int>(i));
      const std::string spec_text = slices_ ? std::string(ctx->input(2).data<tstring>()[i]) : "";
      SavedSliceSpec spec;
      if (spec_text.empty()) {
        spec.full_shape.assign(value.shape().dim_sizes().begin(), value.shape().dim_sizes().end());
        spec.extents.assign(value.dims(), {0, -1});
      } else {
        OP_REQUIRES_OK(ctx, NodeError(*this, ParseShapeAndSlice(spec_text, &spec)));
      }
      OP_REQUIRES_OK(ctx, NodeError(*this, writer.Add(names.data<tstring>()[i], spec, value)));
    }
    OP_REQUIRES_OK(ctx, NodeError(*this, writer.Finish()));
  }

 private:
  bool slices_;
};
REGISTER_KERNEL_BUILDER(Name("Save").Device(DEVICE_CPU), SaveOp);
REGISTER_KERNEL_BUILDER(Name("SaveSlices").Device(DEVICE_CPU), SaveOp);

// Restore (the whole tensor) and RestoreSlice (the part its spec names) from the files
// file_pattern matches. preferred_shard is only a hint to TensorFlow's reader; sg reads every
// matching file, so it is unused.
class RestoreOp final : public OpKernel {
 public:
  explicit RestoreOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dt", &dtype_));
    slice_ = ctx->def().op() == "RestoreSlice";
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, OneString(*this, ctx->input(0), "file_pattern"));
    OP_REQUIRES_OK(ctx, OneString(*this, ctx->input(1), "tensor_name"));
    if (slice_) OP_REQUIRES_OK(ctx, OneString(*this, ctx->input(2), "shape_and_slice"));
    const std::string name = ctx->input(1).data<tstring>()[0];
    const std::string spec_text = slice_ ? std::string(ctx->input(2).data<tstring>()[0]) : "";
    SavedSliceSpec spec;
    if (!spec_text.empty()) OP_REQUIRES_OK(ctx, NodeError(*this, ParseShapeAndSlice(spec_text, &spec)));
    auto reader = TensorSliceReader::Open(ctx->input(0).data<tstring>()[0]);
    OP_REQUIRES(ctx, reader.ok(), NodeError(*this, reader.status()));
    Tensor value;
    OP_REQUIRES_OK(ctx, NodeError(*this, (*reader)->Read(name, dtype_, spec, &value)));
    ctx->set_output(0, value);
  }

 private:
  DataType dtype_;
  bool slice_;
};
REGISTER_KERNEL_BUILDER(Name("Restore").Device(DEVICE_CPU), RestoreOp);
REGISTER_KERNEL_BUILDER(Name("RestoreSlice").Device(DEVICE_CPU), RestoreOp);

}  // namespace
}  // namespace sg
