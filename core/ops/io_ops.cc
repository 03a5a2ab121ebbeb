// Checkpoint ops (TensorFlow's io_ops): SaveV2 / RestoreV2 on TensorBundle (V2) checkpoints,
// MergeV2Checkpoints, Save / SaveSlices / Restore / RestoreSlice on V1 checkpoints, and the
// file-name helpers the Saver builds its graph with.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"
#include "core/util/saved_tensor_slice.h"

namespace sg {
namespace {

absl::Status ScalarInput(InferenceContext* c, int i, const char* what) {
  PartialTensorShape unused;
  absl::Status s = c->WithRank(i, 0, &unused);
  if (!s.ok()) return c->Error(what, " must be a scalar, got shape ", c->input(i).DebugString());
  return absl::OkStatus();
}

absl::Status VectorInput(InferenceContext* c, int i, const char* what) {
  PartialTensorShape unused;
  absl::Status s = c->WithRank(i, 1, &unused);
  if (!s.ok()) return c->Error(what, " must be a vector, got shape ", c->input(i).DebugString());
  return absl::OkStatus();
}

absl::Status RestoreV2Shape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(ScalarInput(c, 0, "prefix"));
  SG_RETURN_IF_ERROR(VectorInput(c, 1, "tensor_names"));
  SG_RETURN_IF_ERROR(VectorInput(c, 2, "shape_and_slices"));
  const Tensor* specs = c->input_tensor(2);
  for (int i = 0; i < c->num_outputs(); ++i) {
    PartialTensorShape out;  // unknown unless a constant spec names the shape
    if (specs != nullptr && specs->dtype() == DT_STRING && i < specs->NumElements() &&
        !specs->data<tstring>()[i].empty()) {
      SavedSliceSpec spec;
      absl::Status s = ParseShapeAndSlice(specs->data<tstring>()[i], &spec);
      if (!s.ok()) return c->Error(s.message());
      out = spec.SliceShape();
    }
    c->set_output(i, out);
  }
  return absl::OkStatus();
}

absl::Status SaveV2Shape(InferenceContext* c) {
  SG_RETURN_IF_ERROR(ScalarInput(c, 0, "prefix"));
  SG_RETURN_IF_ERROR(VectorInput(c, 1, "tensor_names"));
  SG_RETURN_IF_ERROR(VectorInput(c, 2, "shape_and_slices"));
  const int64_t n = c->num_inputs() - 3;
  for (int i = 1; i <= 2; ++i) {
    if (c->input(i).dims() == 1 && c->input(i).dim_size(0) >= 0 && c->input(i).dim_size(0) != n) {
      return c->Error("input ", i, " has ", c->input(i).dim_size(0), " entries, but there are ",
                      n, " tensors to save");
    }
  }
  return absl::OkStatus();
}

absl::Status MergeV2Shape(InferenceContext* c) {
  PartialTensorShape unused;
  if (!c->WithRankAtLeast(0, 0, &unused).ok() || c->input(0).dims() > 1) {
    return c->Error("checkpoint_prefixes must be a scalar or a vector");
  }
  return ScalarInput(c, 1, "destination_prefix");
}

absl::Status ShardedFilenameShape(InferenceContext* c) {
  for (int i = 0; i < c->num_inputs(); ++i) SG_RETURN_IF_ERROR(ScalarInput(c, i, "every input"));
  c->set_output(0, PartialTensorShape::Scalar());
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("RestoreV2")
    .Input("prefix: string")
    .Input("tensor_names: string")
    .Input("shape_and_slices: string")
    .Output("tensors: dtypes")
    .Attr("dtypes: list(type) >= 1")
    .SetIsStateful()
    .SetShapeFn(RestoreV2Shape);

REGISTER_OP("SaveV2")
    .Input("prefix: string")
    .Input("tensor_names: string")
    .Input("shape_and_slices: string")
    .Input("tensors: dtypes")
    .Attr("dtypes: list(type) >= 1")
    .SetIsStateful()
    .SetShapeFn(SaveV2Shape);

REGISTER_OP("MergeV2Checkpoints")
    .Input("checkpoint_prefixes: string")
    .Input("destination_prefix: string")
    .Attr("delete_old_dirs: bool = true")
    .Attr("allow_missing_files: bool = false")
    .SetIsStateful()
    .SetShapeFn(MergeV2Shape);

// V1 checkpoints: Save writes whole tensors, SaveSlices the slice each spec names (a
// shape_and_slices entry as SaveV2's, empty for a whole tensor), into the one file `filename`.
REGISTER_OP("Save")
    .Input("filename: string")
    .Input("tensor_names: string")
    .Input("data: T")
    .Attr("T: list(type) >= 1")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ScalarInput(c, 0, "filename"));
      return VectorInput(c, 1, "tensor_names");
    });
REGISTER_OP("SaveSlices")
    .Input("filename: string")
    .Input("tensor_names: string")
    .Input("shapes_and_slices: string")
    .Input("data: T")
    .Attr("T: list(type) >= 1")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ScalarInput(c, 0, "filename"));
      SG_RETURN_IF_ERROR(VectorInput(c, 1, "tensor_names"));
      return VectorInput(c, 2, "shapes_and_slices");
    });
// Reads tensor_name (Restore: whole; RestoreSlice: the part shape_and_slice names) from the V1
// checkpoint files file_pattern matches.
REGISTER_OP("Restore")
    .Input("file_pattern: string")
    .Input("tensor_name: string")
    .Output("tensor: dt")
    .Attr("dt: type")
    .Attr("preferred_shard: int = -1")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ScalarInput(c, 0, "file_pattern"));
      SG_RETURN_IF_ERROR(ScalarInput(c, 1, "tensor_name"));
      c->set_output(0, PartialTensorShape());
      return absl::OkStatus();
    });
REGISTER_OP("RestoreSlice")
    .Input("file_pattern: string")
    .Input("tensor_name: string")
    .Input("shape_and_slice: string")
    .Output("tensor: dt")
    .Attr("dt: type")
    .Attr("preferred_shard: int = -1")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ScalarInput(c, 0, "file_pattern"));
      SG_RETURN_IF_ERROR(ScalarInput(c, 1, "tensor_name"));
      SG_RETURN_IF_ERROR(ScalarInput(c, 2, "shape_and_slice"));
      PartialTensorShape out;
      const Tensor* spec = c->input_tensor(2);
      if (spec != nullptr && spec->dtype() == DT_STRING && spec->NumElements() == 1 &&
          !spec->data<tstring>()[0].empty()) {
        SavedSliceSpec parsed;
        absl::Status s = ParseShapeAndSlice(spec->data<tstring>()[0], &parsed);
        if (!s.ok()) return c->Error(s.message());
        out = parsed.SliceShape();
      }
      c->set_output(0, out);
      return absl::OkStatus();
    });

// The whole contents of the file `filename`.
REGISTER_OP("ReadFile")
    .Input("filename: string")
    .Output("contents: string")
    .SetShapeFn([](InferenceContext* c) {
      SG_RETURN_IF_ERROR(ScalarInput(c, 0, "filename"));
      c->set_output(0, PartialTensorShape::Scalar());
      return absl::OkStatus();
    });

REGISTER_OP("ShardedFilename")
    .Input("basename: string")
    .Input("shard: int32")
    .Input("num_shards: int32")
    .Output("filename: string")
    .SetShapeFn(ShardedFilenameShape);

REGISTER_OP("ShardedFilespec")
    .Input("basename: string")
    .Input("num_shards: int32")
    .Output("filename: string")
    .SetShapeFn(ShardedFilenameShape);

}  // namespace sg
