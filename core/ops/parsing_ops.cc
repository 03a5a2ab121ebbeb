// Parsing ops (TensorFlow's parsing_ops): ParseExample, ParseExampleV2 and ParseSingleExample
// turn serialized tf.Example protos into dense and sparse tensors; DecodeRaw reads strings as arrays of numbers.
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

absl::Status ParseSingleExampleShape(InferenceContext* c) {
  int64_t num_sparse = 0;
  SG_RETURN_IF_ERROR(c->GetAttr("num_sparse", &num_sparse));
  std::vector<DataType> tdense;
  SG_RETURN_IF_ERROR(c->GetAttr("Tdense", &tdense));
  PartialTensorShape unused;
  if (!c->WithRank(0, 0, &unused).ok()) {
    return c->Error("serialized must be a scalar, got shape ", c->input(0).DebugString());
  }
  return SetParseExampleOutputs(c, PartialTensorShape::Scalar(), static_cast<int>(num_sparse),
                                static_cast<int>(tdense.size()));
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
