// Checkpoint kernels: SaveV2, RestoreV2 and MergeV2Checkpoints on TensorBundle checkpoints
// (core/util/tensor_bundle.h); Save, SaveSlices, Restore and RestoreSlice on V1 checkpoints
// (core/util/tensor_slice_table.h), as TensorFlow 1.x's Saver wrote them before V2 bundles and
// TF Serving's session bundles hold; and the file-name helpers ShardedFilename /
// ShardedFilespec. RestoreV2 reads a V1 checkpoint when the prefix has no V2 index, as
// TensorFlow's does.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/framework/op_kernel.h"
#include "core/util/saved_tensor_slice.h"
#include "core/util/tensor_bundle.h"
#include "core/util/tensor_slice_table.h"

namespace sg {
namespace {

// `s` with the node named in front; OK stays OK.
absl::Status NodeError(const OpKernel& k, absl::Status s) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat("node '", k.name(), "' (op ", k.type_string(),
                                             "): ", s.message()));
}

// Checks the prefix / tensor_names / shape_and_slices inputs common to SaveV2 and RestoreV2.
absl::Status CheckNamesAndSlices(const OpKernel& k, OpKernelContext* ctx, int64_t n) {
  const Tensor& prefix = ctx->input(0);
  const Tensor& names = ctx->input(1);
  const Tensor& slices = ctx->input(2);
  if (prefix.NumElements() != 1) {
    return NodeError(k, errors::InvalidArgument("prefix must hold one string, got shape ",
                                                prefix.shape().DebugString()));
  }
  if (names.dims() != 1 || names.NumElements() != n) {
    return NodeError(k, errors::InvalidArgument("tensor_names must be a vector of ", n,
                                                " names, got shape ",
                                                names.shape().DebugString()));
  }
  if (slices.dims() != 1 || slices.NumElements() != n) {
    return NodeError(k, errors::InvalidArgument("shape_and_slices must be a vector of ", n,
                                                " specs, got shape ",
                                                slices.shape().DebugString()));
  }
  return absl::OkStatus();
}

class SaveV2Op final : public OpKernel {
 public:
  explicit SaveV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const int64_t n = ctx->num_inputs() - 3;
    OP_REQUIRES_OK(ctx, CheckNamesAndSlices(*this, ctx, n));
    const std::string prefix = ctx->input(0).data<tstring>()[0];
    const tstring* names = ctx->input(1).data<tstring>();
    const tstring* specs = ctx->input(2).data<tstring>();
    BundleWriter writer(prefix);
    for (int64_t i = 0; i < n; ++i) {
      const Tensor& value = ctx->input(3 + i);
      if (!specs[i].empty()) {
        SavedSliceSpec spec;
        OP_REQUIRES_OK(ctx, NodeError(*this, ParseShapeAndSlice(specs[i], &spec)));
        OP_REQUIRES(ctx, spec.IsFull() && spec.FullShape() == value.shape(),
                    NodeError(*this, errors::Unimplemented(
                                         "saving a slice ('", specs[i], "') of tensor ", names[i],
                                         " (a partitioned variable) is not supported")));
      }
      OP_REQUIRES_OK(ctx, NodeError(*this, writer.Add(names[i], value)));
    }
    OP_REQUIRES_OK(ctx, NodeError(*this, writer.Finish()));
  }
};
REGISTER_KERNEL_BUILDER(Name("SaveV2").Device(DEVICE_CPU), SaveV2Op);

class RestoreV2Op final : public OpKernel {
 public:
  explicit RestoreV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtypes", &dtypes_));
  }

  void Compute(OpKernelContext* ctx) override {
    const int64_t n = static_cast<int64_t>(dtypes_.size());
    OP_REQUIRES_OK(ctx, CheckNamesAndSlices(*this, ctx, n));
    const std::string prefix = ctx->input(0).data<tstring>()[0];
    const tstring* names = ctx->input(1).data<tstring>();
    const tstring* specs = ctx->input(2).data<tstring>();
    std::error_code ec;
    if (!std::filesystem::exists(BundleIndexFilename(prefix), ec)) {
      RestoreV1(ctx, prefix, names, specs);
      return;
    }
    auto reader = BundleReader::Open(prefix);
    OP_REQUIRES(ctx, reader.ok(), NodeError(*this, reader.status()));
    for (int64_t i = 0; i < n; ++i) {
      BundleEntryProto entry;
      OP_REQUIRES_OK(ctx, NodeError(*this, (*reader)->LookupEntry(names[i], &entry)));
      OP_REQUIRES(ctx, entry.dtype() == dtypes_[i],
                  NodeError(*this, errors::InvalidArgument(
                                       "tensor ", names[i], " in checkpoint ", prefix, " has dtype ",
                                       DataTypeString(entry.dtype()), ", but dtypes[", i,
                                       "] is ", DataTypeString(dtypes_[i]))));
      Tensor value;
      OP_REQUIRES_OK(ctx, NodeError(*this, (*reader)->Lookup(names[i], &value)));
      if (!specs[i].empty()) {
        SavedSliceSpec spec;
        OP_REQUIRES_OK(ctx, NodeError(*this, ParseShapeAndSlice(specs[i], &spec)));
        OP_REQUIRES(ctx, spec.FullShape() == value.shape(),
                    NodeError(*this, errors::InvalidArgument(
                                         "tensor ", names[i], " in checkpoint ", prefix,
                                         " has shape ", value.shape().DebugString(),
                                         ", but the spec '", specs[i], "' expects ",
                                         spec.FullShape().DebugString())));
        OP_REQUIRES(ctx, spec.IsFull(),
                    NodeError(*this, errors::Unimplemented("restoring a slice ('", specs[i],
                                                           "') of tensor ", names[i],
                                                           " is not supported")));
      }
      ctx->set_output(static_cast<int>(i), value);
    }
  }

 private:
  // The prefix names V1 checkpoint files (a file, or a pattern matching its shards).
  void RestoreV1(OpKernelContext* ctx, const std::string& prefix, const tstring* names,
                 const tstring* specs) {
    auto reader = TensorSliceReader::Open(prefix);
    OP_REQUIRES(ctx, reader.ok(), NodeError(*this, reader.status()));
    for (size_t i = 0; i < dtypes_.size(); ++i) {
      SavedSliceSpec spec;
      if (!specs[i].empty()) OP_REQUIRES_OK(ctx, NodeError(*this, ParseShapeAndSlice(specs[i], &spec)));
      Tensor value;
      OP_REQUIRES_OK(ctx, NodeError(*this, (*reader)->Read(names[i], dtypes_[i], spec, &value)));
      ctx->set_output(static_cast<int>(i), value);
    }
  }

  std::vector<DataType> dtypes_;
};
REGISTER_KERNEL_BUILDER(Name("RestoreV2").Device(DEVICE_CPU), RestoreV2Op);

class MergeV2CheckpointsOp final : public OpKernel {
 public:
  explicit MergeV2CheckpointsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("delete_old_dirs", &delete_old_dirs_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("allow_missing_files", &allow_missing_files_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& prefixes = ctx->input(0);
    const Tensor& dest = ctx->input(1);
    OP_REQUIRES(ctx, prefixes.dims() <= 1,
                NodeError(*this, errors::InvalidArgument(
                                     "checkpoint_prefixes must be a scalar or a vector, got shape ",
                                     prefixes.shape().DebugString())));
    OP_REQUIRES(ctx, dest.NumElements() == 1,
                NodeError(*this, errors::InvalidArgument(
                                     "destination_prefix must hold one string, got shape ",
                                     dest.shape().DebugString())));
    std::vector<std::string> inputs;
    for (int64_t i = 0; i < prefixes.NumElements(); ++i) {
      const std::string& p = prefixes.data<tstring>()[i];
      std::error_code ec;
      if (allow_missing_files_ && !std::filesystem::exists(BundleIndexFilename(p), ec)) continue;
      inputs.push_back(p);
    }
    OP_REQUIRES_OK(ctx, NodeError(*this, MergeBundles(inputs, dest.data<tstring>()[0],
                                                      delete_old_dirs_)));
  }

 private:
  bool delete_old_dirs_ = true;
  bool allow_missing_files_ = false;
};
REGISTER_KERNEL_BUILDER(Name("MergeV2Checkpoints").Device(DEVICE_CPU), MergeV2CheckpointsOp);

absl::Status ScalarInput(const OpKernel& k, const Tensor& t, const char* what) {
  if (t.dims() != 0) {
    return NodeError(k, errors::InvalidArgument(what, " must be a scalar, got shape ",
                                                t.shape().DebugString()));
  }
  return absl::OkStatus();
}

class ShardedFilenameOp final : public OpKernel {
 public:
  explicit ShardedFilenameOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, ScalarInput(*this, ctx->input(0), "basename"));
    OP_REQUIRES_OK(ctx, ScalarInput(*this, ctx->input(1), "shard"));
    OP_REQUIRES_OK(ctx, ScalarInput(*this, ctx->input(2), "num_shards"));
    const int32_t shard = ctx->input(1).data<int32_t>()[0];
    const int32_t num_shards = ctx->input(2).data<int32_t>()[0];
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(), &out));
    out->data<tstring>()[0] =
        absl::StrFormat("%s-%05d-of-%05d", ctx->input(0).data<tstring>()[0], shard, num_shards);
  }
};
REGISTER_KERNEL_BUILDER(Name("ShardedFilename").Device(DEVICE_CPU), ShardedFilenameOp);

class ShardedFilespecOp final : public OpKernel {
 public:
  explicit ShardedFilespecOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, ScalarInput(*this, ctx->input(0), "basename"));
    OP_REQUIRES_OK(ctx, ScalarInput(*this, ctx->input(1), "num_shards"));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(), &out));
    out->data<tstring>()[0] = absl::StrFormat("%s-\?\?\?\?\?-of-%05d",
                                              ctx->input(0).data<tstring>()[0],
                                              ctx->input(1).data<int32_t>()[0]);
  }
};
REGISTER_KERNEL_BUILDER(Name("ShardedFilespec").Device(DEVICE_CPU), ShardedFilespecOp);

// ---- V1 checkpoints --------------------------------------------------------------------------

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
