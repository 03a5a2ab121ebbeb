// Feature crosses (TensorFlow's sparse_ops): SparseCross, SparseCrossV2 and SparseCrossHashed.
// Each takes N sparse columns (indices, values, shapes) and dense [batch, k] columns, all int64 or
// string, and outputs a sparse [batch, crosses] tensor: per batch row, every combination of one
// feature from each column, as a joined string or a hash.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

absl::Status SparseCrossShape(InferenceContext* c) {
  c->set_output(0, PartialTensorShape({-1, 2}));
  c->set_output(1, PartialTensorShape({-1}));
  c->set_output(2, PartialTensorShape({2}));
  return absl::OkStatus();
}

}  // namespace

// out_type string: the features joined by "_X_" (int64s in decimal). out_type int64: the
// FingerprintCat64 chain from hash_key over the features' hashes (a string's Fingerprint64, an
// int64 itself), modulo num_buckets (INT64_MAX when 0). hashed_output is not consulted.
REGISTER_OP("SparseCross")
    .Input("indices: N * int64")
    .Input("values: sparse_types")
    .Input("shapes: N * int64")
    .Input("dense_inputs: dense_types")
    .Output("output_indices: int64")
    .Output("output_values: out_type")
    .Output("output_shape: int64")
    .Attr("N: int >= 0")
    .Attr("hashed_output: bool")
    .Attr("num_buckets: int >= 0")
    .Attr("hash_key: int")
    .Attr("sparse_types: list({int64, string}) >= 0")
    .Attr("dense_types: list({int64, string}) >= 0")
    .Attr("out_type: {int64, string}")
    .Attr("internal_type: {int64, string}")
    .SetShapeFn(SparseCrossShape);

// As SparseCross's string output, joined by `sep`.
REGISTER_OP("SparseCrossV2")
    .Input("indices: N * int64")
    .Input("values: sparse_types")
    .Input("shapes: N * int64")
    .Input("dense_inputs: dense_types")
    .Input("sep: string")
    .Output("output_indices: int64")
    .Output("output_values: string")
    .Output("output_shape: int64")
    .Attr("N: int >= 0")
    .Attr("sparse_types: list({int64, string}) >= 0")
    .Attr("dense_types: list({int64, string}) >= 0")
    .SetShapeFn(SparseCrossShape);

// The FingerprintCat64 chain over the features' hashes (starting from the first feature's hash),
// modulo num_buckets (INT64_MAX when 0); strong_hash hashes strings with SipHash-2-4 keyed by
// salt instead of Fingerprint64.
REGISTER_OP("SparseCrossHashed")
    .Input("indices: N * int64")
    .Input("values: sparse_types")
    .Input("shapes: N * int64")
    .Input("dense_inputs: dense_types")
    .Input("num_buckets: int64")
    .Input("strong_hash: bool")
    .Input("salt: int64")
    .Output("output_indices: int64")
    .Output("output_values: int64")
    .Output("output_shape: int64")
    .Attr("N: int >= 0")
    .Attr("sparse_types: list({int64, string}) >= 0")
    .Attr("dense_types: list({int64, string}) >= 0")
    .SetShapeFn(SparseCrossShape);

}  // namespace sg
