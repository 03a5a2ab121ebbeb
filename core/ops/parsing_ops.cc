// Parsing ops (TensorFlow's parsing_ops): ParseExample, ParseExampleV2 and ParseSingleExample
// turn serialized tf.Example protos into dense and sparse tensors, ParseSingleSequenceExample,
// ParseSequenceExample and ParseSequenceExampleV2 serialized tf.SequenceExamples; DecodeRaw
// reads strings as arrays of numbers.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

// Shapes shared by both ops: `batch` is the serialized input's shape (a vector for ParseExample).
absl::Status SetParseExampleOutputs(InferenceContext* c, const PartialTensorShape& batch,
                                    int num_sparse, int num_dense) {
  std::vector<PartialTensorShape> dense_shapes;
  SG_RETURN_IF_ERROR(c->GetAttr("dense_shapes", &dense_shapes));
  if (static_cast<int>(dense_shapes.size()) != num_dense) {
    return c->Error("dense_shapes has ", dense_shapes.size(), " shapes for ", num_dense,
                    " dense keys");
  }
  const int64_t rank = batch.unknown_rank() ? -1 : batch.dims();
  int out = 0;
  for (int i = 0; i < num_sparse; ++i) {
    c->set_output(out++, PartialTensorShape({-1, rank < 0 ? -1 : rank + 1}));
  }
  for (int i = 0; i < num_sparse; ++i) c->set_output(out++, PartialTensorShape({-1}));
  for (int i = 0; i < num_sparse; ++i) {
    c->set_output(out++, PartialTensorShape({rank < 0 ? -1 : rank + 1}));
  }
  for (int i = 0; i < num_dense; ++i) {
    if (batch.unknown_rank() || dense_shapes[i].unknown_rank()) {
      c->set_output(out++, PartialTensorShape());
      continue;
    }
    std::vector<int64_t> dims(batch.dim_sizes().begin(), batch.dim_sizes().end());
    for (int64_t d : dense_shapes[i].dim_sizes()) dims.push_back(d);
    c->set_output(out++, PartialTensorShape(absl::Span<const int64_t>(dims)));
  }
  // Whatever follows (ParseExampleV2's ragged outputs) stays unknown.
  return absl::OkStatus();
}

absl::Status ParseExampleShape(InferenceContext* c) {
  int64_t num_sparse = 0, num_dense = 0;
  SG_RETURN_IF_ERROR(c->GetAttr("Nsparse", &num_sparse));
  SG_RETURN_IF_ERROR(c->GetAttr("Ndense", &num_dense));
  PartialTensorShape batch;
  if (!c->WithRank(0, 1, &batch).ok()) {
    return c->Error("serialized must be a vector, got shape ", c->input(0).DebugString());
  }
  return SetParseExampleOutputs(c, batch, static_cast<int>(num_sparse),
                                static_cast<int>(num_dense));
}

// INVALID_ARGUMENT unless list attr `types` has `n` entries: the outputs that a count attr and a
// type list attr size must agree before a shape function writes them.
absl::Status CheckCount(InferenceContext* c, const char* count_attr, int64_t n,
                        const char* types_attr) {
  std::vector<DataType> types;
  SG_RETURN_IF_ERROR(c->GetAttr(types_attr, &types));
  if (static_cast<int64_t>(types.size()) != n) {
    return c->Error(count_attr, " is ", n, " but ", types_attr, " has ", types.size(),
                    " types");
  }
  return absl::OkStatus();
}

absl::Status ParseSingleExampleShape(InferenceContext* c) {
  int64_t num_sparse = 0;
  SG_RETURN_IF_ERROR(c->GetAttr("num_sparse", &num_sparse));
  SG_RETURN_IF_ERROR(CheckCount(c, "num_sparse", num_sparse, "sparse_types"));
  std::vector<DataType> tdense;
  SG_RETURN_IF_ERROR(c->GetAttr("Tdense", &tdense));
  PartialTensorShape unused;
  if (!c->WithRank(0, 0, &unused).ok()) {
    return c->Error("serialized must be a scalar, got shape ", c->input(0).DebugString());
  }
  return SetParseExampleOutputs(c, PartialTensorShape::Scalar(), static_cast<int>(num_sparse),
                                static_cast<int>(tdense.size()));
}

// The sequence-example ops: context outputs as ParseExample's (batch `batch_rank` 0 or 1), then
// feature-list sparse triples (a step dimension more), dense values ([batch] + [steps] + shape)
// and, batched, each dense feature list's lengths.
absl::Status SequenceExampleShape(InferenceContext* c, int batch_rank) {
  int64_t ncs = 0, ncd = 0, nfs = 0, nfd = 0;
  SG_RETURN_IF_ERROR(c->GetAttr("Ncontext_sparse", &ncs));
  SG_RETURN_IF_ERROR(c->GetAttr("Ncontext_dense", &ncd));
  SG_RETURN_IF_ERROR(c->GetAttr("Nfeature_list_sparse", &nfs));
  SG_RETURN_IF_ERROR(c->GetAttr("Nfeature_list_dense", &nfd));
  SG_RETURN_IF_ERROR(CheckCount(c, "Ncontext_sparse", ncs, "context_sparse_types"));
  SG_RETURN_IF_ERROR(CheckCount(c, "Ncontext_dense", ncd, "Tcontext_dense"));
  SG_RETURN_IF_ERROR(CheckCount(c, "Nfeature_list_sparse", nfs, "feature_list_sparse_types"));
  SG_RETURN_IF_ERROR(CheckCount(c, "Nfeature_list_dense", nfd, "feature_list_dense_types"));
  std::vector<PartialTensorShape> context_shapes, list_shapes;
  SG_RETURN_IF_ERROR(c->GetAttr("context_dense_shapes", &context_shapes));
  SG_RETURN_IF_ERROR(c->GetAttr("feature_list_dense_shapes", &list_shapes));
  if (static_cast<int64_t>(context_shapes.size()) != ncd ||
      static_cast<int64_t>(list_shapes.size()) != nfd) {
    return c->Error("context_dense_shapes (", context_shapes.size(), ") and ",
                    "feature_list_dense_shapes (", list_shapes.size(),
                    ") must have Ncontext_dense (", ncd, ") and Nfeature_list_dense (", nfd,
                    ") shapes");
  }
  PartialTensorShape serialized;
  if (!c->WithRank(0, batch_rank, &serialized).ok()) {
    return c->Error("serialized must have rank ", batch_rank, ", got shape ",
                    c->input(0).DebugString());
  }
  const int64_t batch = batch_rank == 0 ? 1 : serialized.dim_size(0);
  auto with_batch = [&](std::vector<int64_t> dims) {
    if (batch_rank == 1) dims.insert(dims.begin(), batch);
    return PartialTensorShape(absl::Span<const int64_t>(dims));
  };
  auto dense_dims = [&](const PartialTensorShape& s, bool steps) -> PartialTensorShape {
    if (s.unknown_rank()) return PartialTensorShape();
    std::vector<int64_t> dims(s.dim_sizes().begin(), s.dim_sizes().end());
    if (steps) dims.insert(dims.begin(), -1);
    return with_batch(dims);
  };
  int out = 0;
  for (int64_t i = 0; i < ncs; ++i) c->set_output(out++, PartialTensorShape({-1, batch_rank + 1}));
  for (int64_t i = 0; i < ncs; ++i) c->set_output(out++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < ncs; ++i) c->set_output(out++, PartialTensorShape({batch_rank + 1}));
  for (int64_t i = 0; i < ncd; ++i) c->set_output(out++, dense_dims(context_shapes[i], false));
  for (int64_t i = 0; i < nfs; ++i) c->set_output(out++, PartialTensorShape({-1, batch_rank + 2}));
  for (int64_t i = 0; i < nfs; ++i) c->set_output(out++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < nfs; ++i) c->set_output(out++, PartialTensorShape({batch_rank + 2}));
  for (int64_t i = 0; i < nfd; ++i) c->set_output(out++, dense_dims(list_shapes[i], true));
  if (batch_rank == 1) {
    for (int64_t i = 0; i < nfd; ++i) c->set_output(out++, PartialTensorShape({batch}));
  }
  return absl::OkStatus();
}

// ParseSequenceExampleV2: as SequenceExampleShape, with ragged outputs and the batch rank (0 or
// 1) taken from `serialized`.
absl::Status SequenceExampleV2Shape(InferenceContext* c) {
  int64_t ncs = 0, nfs = 0, nfd = 0;
  SG_RETURN_IF_ERROR(c->GetAttr("Ncontext_sparse", &ncs));
  SG_RETURN_IF_ERROR(c->GetAttr("Nfeature_list_sparse", &nfs));
  SG_RETURN_IF_ERROR(c->GetAttr("Nfeature_list_dense", &nfd));
  SG_RETURN_IF_ERROR(CheckCount(c, "Ncontext_sparse", ncs, "context_sparse_types"));
  SG_RETURN_IF_ERROR(CheckCount(c, "Nfeature_list_sparse", nfs, "feature_list_sparse_types"));
  SG_RETURN_IF_ERROR(CheckCount(c, "Nfeature_list_dense", nfd, "feature_list_dense_types"));
  std::vector<DataType> ragged;
  SG_RETURN_IF_ERROR(c->GetAttr("context_ragged_value_types", &ragged));
  const int64_t ncr = static_cast<int64_t>(ragged.size());
  SG_RETURN_IF_ERROR(c->GetAttr("feature_list_ragged_value_types", &ragged));
  const int64_t nfr = static_cast<int64_t>(ragged.size());
  SG_RETURN_IF_ERROR(CheckCount(c, "context_ragged_value_types", ncr,
                                "context_ragged_split_types"));
  SG_RETURN_IF_ERROR(CheckCount(c, "feature_list_ragged_value_types", nfr,
                                "feature_list_ragged_split_types"));
  std::vector<PartialTensorShape> context_shapes, list_shapes;
  SG_RETURN_IF_ERROR(c->GetAttr("context_dense_shapes", &context_shapes));
  SG_RETURN_IF_ERROR(c->GetAttr("feature_list_dense_shapes", &list_shapes));
  std::vector<DataType> tcontext_dense;
  SG_RETURN_IF_ERROR(c->GetAttr("Tcontext_dense", &tcontext_dense));
  if (context_shapes.size() != tcontext_dense.size() ||
      static_cast<int64_t>(list_shapes.size()) != nfd) {
    return c->Error("context_dense_shapes (", context_shapes.size(), ") and ",
                    "feature_list_dense_shapes (", list_shapes.size(), ") must have ",
                    tcontext_dense.size(), " and Nfeature_list_dense (", nfd, ") shapes");
  }
  const PartialTensorShape& serialized = c->input(0);
  if (serialized.dims() > 1) {
    return c->Error("serialized must be a scalar or a vector, got shape ",
                    serialized.DebugString());
  }
  if (serialized.unknown_rank()) return absl::OkStatus();  // every output unknown
  const int rank = serialized.dims();
  const int64_t batch = rank == 0 ? 1 : serialized.dim_size(0);
  auto with_batch = [&](std::vector<int64_t> dims) {
    if (rank == 1) dims.insert(dims.begin(), batch);
    return PartialTensorShape(absl::Span<const int64_t>(dims));
  };
  auto dense_dims = [&](const PartialTensorShape& s, bool steps) -> PartialTensorShape {
    if (s.unknown_rank()) return PartialTensorShape();
    std::vector<int64_t> dims(s.dim_sizes().begin(), s.dim_sizes().end());
    if (steps) dims.insert(dims.begin(), -1);
    return with_batch(dims);
  };
  const int64_t ncd = static_cast<int64_t>(context_shapes.size());
  const PartialTensorShape splits = rank == 1 ? PartialTensorShape({batch < 0 ? -1 : batch + 1})
                                              : PartialTensorShape::Scalar();
  int out = 0;
  for (int64_t i = 0; i < ncs; ++i) c->set_output(out++, PartialTensorShape({-1, rank + 1}));
  for (int64_t i = 0; i < ncs; ++i) c->set_output(out++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < ncs; ++i) c->set_output(out++, PartialTensorShape({rank + 1}));
  for (int64_t i = 0; i < ncd; ++i) c->set_output(out++, dense_dims(context_shapes[i], false));
  for (int64_t i = 0; i < ncr; ++i) c->set_output(out++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < ncr; ++i) c->set_output(out++, splits);
  for (int64_t i = 0; i < nfs; ++i) c->set_output(out++, PartialTensorShape({-1, rank + 2}));
  for (int64_t i = 0; i < nfs; ++i) c->set_output(out++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < nfs; ++i) c->set_output(out++, PartialTensorShape({rank + 2}));
  for (int64_t i = 0; i < nfd; ++i) c->set_output(out++, dense_dims(list_shapes[i], true));
  for (int64_t i = 0; i < nfd; ++i) c->set_output(out++, with_batch({}));
  for (int64_t i = 0; i < nfr; ++i) c->set_output(out++, PartialTensorShape({-1}));
  for (int64_t i = 0; i < nfr; ++i) c->set_output(out++, splits);
  for (int64_t i = 0; i < nfr; ++i) c->set_output(out++, PartialTensorShape({-1}));
  return absl::OkStatus();
}

absl::Status ParseExampleV2Shape(InferenceContext* c) {
  int64_t num_sparse = 0;
  SG_RETURN_IF_ERROR(c->GetAttr("num_sparse", &num_sparse));
  std::vector<DataType> tdense;
  SG_RETURN_IF_ERROR(c->GetAttr("Tdense", &tdense));
  const PartialTensorShape& batch = c->input(0);
  if (batch.dims() > 1) {
    return c->Error("serialized must be a scalar or a vector, got shape ", batch.DebugString());
  }
  return SetParseExampleOutputs(c, batch, static_cast<int>(num_sparse),
                                static_cast<int>(tdense.size()));
}

}  // namespace

REGISTER_OP("ParseExample")
    .Input("serialized: string")
    .Input("names: string")
    .Input("sparse_keys: Nsparse * string")
    .Input("dense_keys: Ndense * string")
    .Input("dense_defaults: Tdense")
    .Output("sparse_indices: Nsparse * int64")
    .Output("sparse_values: sparse_types")
    .Output("sparse_shapes: Nsparse * int64")
    .Output("dense_values: Tdense")
    .Attr("Nsparse: int >= 0")
    .Attr("Ndense: int >= 0")
    .Attr("sparse_types: list({float,int64,string}) >= 0")
    .Attr("Tdense: list({float,int64,string}) >= 0")
    .Attr("dense_shapes: list(shape) >= 0")
    .SetShapeFn(ParseExampleShape);

REGISTER_OP("ParseExampleV2")
    .Input("serialized: string")
    .Input("names: string")
    .Input("sparse_keys: string")
    .Input("dense_keys: string")
    .Input("ragged_keys: string")
    .Input("dense_defaults: Tdense")
    .Output("sparse_indices: num_sparse * int64")
    .Output("sparse_values: sparse_types")
    .Output("sparse_shapes: num_sparse * int64")
    .Output("dense_values: Tdense")
    .Output("ragged_values: ragged_value_types")
    .Output("ragged_row_splits: ragged_split_types")
    .Attr("Tdense: list({float,int64,string}) >= 0")
    .Attr("num_sparse: int >= 0")
    .Attr("sparse_types: list({float,int64,string}) >= 0")
    .Attr("ragged_value_types: list({float,int64,string}) >= 0")
    .Attr("ragged_split_types: list({int32,int64}) >= 0")
    .Attr("dense_shapes: list(shape) >= 0")
    .SetShapeFn(ParseExampleV2Shape);

// ParseExampleV2 for one example (a scalar `serialized`), its keys given as attrs.
REGISTER_OP("ParseSingleExample")
    .Input("serialized: string")
    .Input("dense_defaults: Tdense")
    .Output("sparse_indices: num_sparse * int64")
    .Output("sparse_values: sparse_types")
    .Output("sparse_shapes: num_sparse * int64")
    .Output("dense_values: Tdense")
    .Attr("num_sparse: int >= 0")
    .Attr("sparse_keys: list(string) >= 0")
    .Attr("dense_keys: list(string) >= 0")
    .Attr("sparse_types: list({float,int64,string}) >= 0")
    .Attr("Tdense: list({float,int64,string}) >= 0")
    .Attr("dense_shapes: list(shape) >= 0")
    .SetShapeFn(ParseSingleExampleShape);

// One serialized tf.SequenceExample: its context parsed as ParseSingleExample parses features, each
// sparse feature list into (indices [n, 2] of (step, position), values, shape [2]) and each
// dense feature list into [steps] + its shape. A dense feature list that is absent fails unless
// its key is in feature_list_dense_missing_assumed_empty (then it has no steps).
REGISTER_OP("ParseSingleSequenceExample")
    .Input("serialized: string")
    .Input("feature_list_dense_missing_assumed_empty: string")
    .Input("context_sparse_keys: Ncontext_sparse * string")
    .Input("context_dense_keys: Ncontext_dense * string")
    .Input("feature_list_sparse_keys: Nfeature_list_sparse * string")
    .Input("feature_list_dense_keys: Nfeature_list_dense * string")
    .Input("context_dense_defaults: Tcontext_dense")
    .Input("debug_name: string")
    .Output("context_sparse_indices: Ncontext_sparse * int64")
    .Output("context_sparse_values: context_sparse_types")
    .Output("context_sparse_shapes: Ncontext_sparse * int64")
    .Output("context_dense_values: Tcontext_dense")
    .Output("feature_list_sparse_indices: Nfeature_list_sparse * int64")
    .Output("feature_list_sparse_values: feature_list_sparse_types")
    .Output("feature_list_sparse_shapes: Nfeature_list_sparse * int64")
    .Output("feature_list_dense_values: feature_list_dense_types")
    .Attr("Ncontext_sparse: int >= 0 = 0")
    .Attr("Ncontext_dense: int >= 0 = 0")
    .Attr("Nfeature_list_sparse: int >= 0 = 0")
    .Attr("Nfeature_list_dense: int >= 0 = 0")
    .Attr("context_sparse_types: list({float,int64,string}) >= 0 = []")
    .Attr("Tcontext_dense: list({float,int64,string}) >= 0 = []")
    .Attr("feature_list_dense_types: list({float,int64,string}) >= 0 = []")
    .Attr("context_dense_shapes: list(shape) >= 0 = []")
    .Attr("feature_list_sparse_types: list({float,int64,string}) >= 0 = []")
    .Attr("feature_list_dense_shapes: list(shape) >= 0 = []")
    .SetShapeFn([](InferenceContext* c) { return SequenceExampleShape(c, 0); });

// A batch (vector) of serialized tf.SequenceExamples, keys as attrs: outputs as
// ParseSingleSequenceExample's with a batch dimension first (dense feature lists padded with
// zeros or "" to the longest), and the number of steps of each dense feature list per example.
REGISTER_OP("ParseSequenceExample")
    .Input("serialized: string")
    .Input("debug_name: string")
    .Input("context_dense_defaults: Tcontext_dense")
    .Output("context_sparse_indices: Ncontext_sparse * int64")
    .Output("context_sparse_values: context_sparse_types")
    .Output("context_sparse_shapes: Ncontext_sparse * int64")
    .Output("context_dense_values: Tcontext_dense")
    .Output("feature_list_sparse_indices: Nfeature_list_sparse * int64")
    .Output("feature_list_sparse_values: feature_list_sparse_types")
    .Output("feature_list_sparse_shapes: Nfeature_list_sparse * int64")
    .Output("feature_list_dense_values: feature_list_dense_types")
    .Output("feature_list_dense_lengths: Nfeature_list_dense * int64")
    .Attr("feature_list_dense_missing_assumed_empty: list(string) >= 0")
    .Attr("context_sparse_keys: list(string) >= 0")
    .Attr("context_dense_keys: list(string) >= 0")
    .Attr("feature_list_sparse_keys: list(string) >= 0")
    .Attr("feature_list_dense_keys: list(string) >= 0")
    .Attr("Ncontext_sparse: int >= 0 = 0")
    .Attr("Ncontext_dense: int >= 0 = 0")
    .Attr("Nfeature_list_sparse: int >= 0 = 0")
    .Attr("Nfeature_list_dense: int >= 0 = 0")
    .Attr("context_sparse_types: list({float,int64,string}) >= 0 = []")
    .Attr("Tcontext_dense: list({float,int64,string}) >= 0 = []")
    .Attr("feature_list_dense_types: list({float,int64,string}) >= 0 = []")
    .Attr("context_dense_shapes: list(shape) >= 0 = []")
    .Attr("feature_list_sparse_types: list({float,int64,string}) >= 0 = []")
    .Attr("feature_list_dense_shapes: list(shape) >= 0 = []")
    .SetShapeFn([](InferenceContext* c) { return SequenceExampleShape(c, 1); });

// ParseSequenceExample with the keys as string vectors, a scalar or vector `serialized`, a bool
// per dense feature list for feature_list_dense_missing_assumed_empty, and ragged features:
// context ones as (values, row splits per example), feature-list ones as (values, splits of
// the steps per example, splits of the values per step).
REGISTER_OP("ParseSequenceExampleV2")
    .Input("serialized: string")
    .Input("debug_name: string")
    .Input("context_sparse_keys: string")
    .Input("context_dense_keys: string")
    .Input("context_ragged_keys: string")
    .Input("feature_list_sparse_keys: string")
    .Input("feature_list_dense_keys: string")
    .Input("feature_list_ragged_keys: string")
    .Input("feature_list_dense_missing_assumed_empty: bool")
    .Input("context_dense_defaults: Tcontext_dense")
    .Output("context_sparse_indices: Ncontext_sparse * int64")
    .Output("context_sparse_values: context_sparse_types")
    .Output("context_sparse_shapes: Ncontext_sparse * int64")
    .Output("context_dense_values: Tcontext_dense")
    .Output("context_ragged_values: context_ragged_value_types")
    .Output("context_ragged_row_splits: context_ragged_split_types")
    .Output("feature_list_sparse_indices: Nfeature_list_sparse * int64")
    .Output("feature_list_sparse_values: feature_list_sparse_types")
    .Output("feature_list_sparse_shapes: Nfeature_list_sparse * int64")
    .Output("feature_list_dense_values: feature_list_dense_types")
    .Output("feature_list_dense_lengths: Nfeature_list_dense * int64")
    .Output("feature_list_ragged_values: feature_list_ragged_value_types")
    .Output("feature_list_ragged_outer_splits: feature_list_ragged_split_types")
    .Output("feature_list_ragged_inner_splits: feature_list_ragged_split_types")
    .Attr("Ncontext_sparse: int >= 0 = 0")
    .Attr("Tcontext_dense: list({float,int64,string}) >= 0 = []")
    .Attr("context_sparse_types: list({float,int64,string}) >= 0 = []")
    .Attr("context_ragged_value_types: list({float,int64,string}) >= 0 = []")
    .Attr("context_ragged_split_types: list({int32,int64}) >= 0 = []")
    .Attr("context_dense_shapes: list(shape) >= 0 = []")
    .Attr("Nfeature_list_sparse: int >= 0 = 0")
    .Attr("Nfeature_list_dense: int >= 0 = 0")
    .Attr("feature_list_dense_types: list({float,int64,string}) >= 0 = []")
    .Attr("feature_list_sparse_types: list({float,int64,string}) >= 0 = []")
    .Attr("feature_list_ragged_value_types: list({float,int64,string}) >= 0 = []")
    .Attr("feature_list_ragged_split_types: list({int32,int64}) >= 0 = []")
    .Attr("feature_list_dense_shapes: list(shape) >= 0 = []")
    .SetShapeFn(SequenceExampleV2Shape);

// Reinterprets the bytes of each string (all of one length, a multiple of out_type's size) as
// an array of out_type: the output is the input's shape plus that array's length.
REGISTER_OP("DecodeRaw")
    .Input("bytes: string")
    .Output("output: out_type")
    .Attr("out_type: {half, float, double, int32, uint16, uint8, int16, int8, int64, complex64, "
          "complex128, bool, bfloat16}")
    .Attr("little_endian: bool = true")
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      const PartialTensorShape& in = c->input(0);
      if (in.unknown_rank()) {
        c->set_output(0, PartialTensorShape());
        return absl::OkStatus();
      }
      std::vector<int64_t> dims(in.dim_sizes().begin(), in.dim_sizes().end());
      dims.push_back(-1);
      c->set_output(0, PartialTensorShape(absl::Span<const int64_t>(dims)));
      return absl::OkStatus();
    });

}  // namespace sg
