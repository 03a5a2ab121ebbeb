// String ops (TensorFlow's string_ops): StringJoin and ReduceJoin, the regex matches and
// replacements, case changes, StringStrip, StringLength, StringSplit and StringSplitV2, Substr,
// the StringToHashBucket family, Fingerprint and the base64 codecs.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"
#include "core/framework/tensor.h"

namespace sg {
namespace {

// Scalars broadcast; every non-scalar input must have one shape, which the output takes.
absl::Status StringJoinShape(InferenceContext* c) {
  // The first non-scalar input's shape, merged with the others'.
  int first = -1;
  PartialTensorShape out;
  for (int i = 0; i < c->num_inputs(); ++i) {
    const PartialTensorShape& in = c->input(i);
    if (in.dims() == 0) continue;
    if (in.unknown_rank()) {
      c->set_output(0, PartialTensorShape());
      return absl::OkStatus();
    }
    if (first < 0) {
      first = i;
      out = in;
      continue;
    }
    auto merged = out.Merge(in);
    if (!merged.ok()) {
      return c->Error("inputs must be scalars or have one shape; got ", out.DebugString(),
                      " and ", in.DebugString());
    }
    out = *merged;
  }
  c->set_output(0, first < 0 ? PartialTensorShape::Scalar() : out);
  return absl::OkStatus();
}

// Substr: pos and len have one shape; the output is input broadcast against it.
absl::Status SubstrShape(InferenceContext* c) {
  const PartialTensorShape& pos = c->input(1);
  const PartialTensorShape& len = c->input(2);
  if (!pos.unknown_rank() && !len.unknown_rank() && !pos.IsCompatibleWith(len)) {
    return c->Error("pos and len shapes must match: ", pos.DebugString(), " vs. ",
                    len.DebugString());
  }
  auto out = shape_fns::Broadcast(c->input(0), pos);
  if (!out.ok()) return c->Error(out.status().message());
  c->set_output(0, *out);
  return absl::OkStatus();
}

absl::Status ScalarInput(InferenceContext* c, int i, const char* what) {
  PartialTensorShape unused;
  if (!c->WithRank(i, 0, &unused).ok()) {
    return c->Error(what, " must be a scalar, got shape ", c->input(i).DebugString());
  }
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("StringJoin")
    .Input("inputs: N * string")
    .Attr("N: int >= 0")
    .Attr("separator: string = ''")
    .Output("output: string")
    .SetShapeFn(StringJoinShape);

// Whether each string matches the RE2 pattern in full (the Saver uses it to spot "s3://").
REGISTER_OP("RegexFullMatch")
    .Input("input: string")
    .Input("pattern: string")
    .Output("output: bool")
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      PartialTensorShape unused;
      if (!c->WithRank(1, 0, &unused).ok()) return c->Error("pattern must be a scalar");
      return shape_fns::Unchanged(c);
    });

REGISTER_OP("StaticRegexFullMatch")
    .Input("input: string")
    .Output("output: bool")
    .Attr("pattern: string")
    .SetShapeFn(shape_fns::Unchanged);

// ---- Element-wise transformations (every output has the input's shape) -----------------------

// encoding "" changes ASCII letters only; "utf-8" changes every Unicode letter.
REGISTER_OP("StringLower")
    .Input("input: string")
    .Output("output: string")
    .Attr("encoding: string = ''")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("StringUpper")
    .Input("input: string")
    .Output("output: string")
    .Attr("encoding: string = ''")
    .SetShapeFn(shape_fns::Unchanged);

// Removes leading and trailing ASCII whitespace.
REGISTER_OP("StringStrip")
    .Input("input: string")
    .Output("output: string")
    .SetShapeFn(shape_fns::Unchanged);

// Lengths in bytes or in UTF-8 characters (bytes that do not continue a character).
REGISTER_OP("StringLength")
    .Input("input: string")
    .Output("output: int32")
    .Attr("unit: {'BYTE', 'UTF8_CHAR'} = 'BYTE'")
    .SetShapeFn(shape_fns::Unchanged);

// Each element formatted as printf would (core/kernels/as_string_op.cc says how).
REGISTER_OP("AsString")
    .Input("input: T")
    .Output("output: string")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64, complex64, complex128, bool, variant, string}")
    .Attr("precision: int = -1")
    .Attr("scientific: bool = false")
    .Attr("shortest: bool = false")
    .Attr("width: int = -1")
    .Attr("fill: string = ''")
    .SetShapeFn(shape_fns::Unchanged);

// Fingerprint64 (FarmHash) of each string modulo num_buckets.
REGISTER_OP("StringToHashBucketFast")
    .Input("input: string")
    .Output("output: int64")
    .Attr("num_buckets: int >= 1")
    .SetShapeFn(shape_fns::Unchanged);

// Replaces the first (or every) match of an RE2 pattern; `rewrite` may name groups as \1.
REGISTER_OP("RegexReplace")
    .Input("input: string")
    .Input("pattern: string")
    .Input("rewrite: string")
    .Output("output: string")
    .Attr("replace_global: bool = true")
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      SG_RETURN_IF_ERROR(ScalarInput(c, 1, "pattern"));
      SG_RETURN_IF_ERROR(ScalarInput(c, 2, "rewrite"));
      return shape_fns::Unchanged(c);
    });

REGISTER_OP("StaticRegexReplace")
    .Input("input: string")
    .Output("output: string")
    .Attr("pattern: string")
    .Attr("rewrite: string")
    .Attr("replace_global: bool = true")
    .SetShapeFn(shape_fns::Unchanged);

// Substrings at pos (negative: from the end) of at most len bytes or UTF-8 characters; pos and
// len broadcast against input.
REGISTER_OP("Substr")
    .Input("input: string")
    .Input("pos: T")
    .Input("len: T")
    .Output("output: string")
    .Attr("T: {int32, int64}")
    .Attr("unit: {'BYTE', 'UTF8_CHAR'} = 'BYTE'")
    .SetShapeFn(SubstrShape);

// Splits a vector of strings into a sparse matrix of tokens: indices [N, 2], values [N],
// shape [2] = (batch, longest row). sep "" splits at runs of whitespace, as Python's str.split.
REGISTER_OP("StringSplitV2")
    .Input("input: string")
    .Input("sep: string")
    .Output("indices: int64")
    .Output("values: string")
    .Output("shape: int64")
    .Attr("maxsplit: int = -1")
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      PartialTensorShape unused;
      if (!c->WithRank(0, 1, &unused).ok()) {
        return c->Error("input must be a vector, got shape ", c->input(0).DebugString());
      }
      SG_RETURN_IF_ERROR(ScalarInput(c, 1, "sep"));
      c->set_output(0, PartialTensorShape({-1, 2}));
      c->set_output(1, PartialTensorShape({-1}));
      c->set_output(2, PartialTensorShape({2}));
      return absl::OkStatus();
    });

// TensorFlow's legacy hash (MurmurHash64A seeded with 0xDECAFCAFFE) of each string modulo
// num_buckets.
REGISTER_OP("StringToHashBucket")
    .Input("string_tensor: string")
    .Output("output: int64")
    .Attr("num_buckets: int >= 1")
    .SetShapeFn(shape_fns::Unchanged);

// SipHash-2-4 of each string under the 128-bit `key` (two ints) modulo num_buckets.
REGISTER_OP("StringToHashBucketStrong")
    .Input("input: string")
    .Output("output: int64")
    .Attr("num_buckets: int >= 1")
    .Attr("key: list(int)")
    .SetShapeFn(shape_fns::Unchanged);

// The 8-byte FarmHash fingerprint of each row (first dimension) of `data`: [rows, 8] uint8.
REGISTER_OP("Fingerprint")
    .Input("data: T")
    .Input("method: string")
    .Output("fingerprint: uint8")
    .Attr("T: type")
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      PartialTensorShape data;
      if (!c->WithRankAtLeast(0, 1, &data).ok()) {
        return c->Error("`data` should have at least one dimension: ",
                        c->input(0).DebugString());
      }
      SG_RETURN_IF_ERROR(ScalarInput(c, 1, "`method`"));
      if (const Tensor* m = c->input_tensor(1); m != nullptr && m->dims() == 0 &&
                                                m->data<tstring>()[0] != "farmhash64") {
        return c->Error("Unsupported fingerprint method: ", m->data<tstring>()[0]);
      }
      c->set_output(0, PartialTensorShape({data.unknown_rank() ? -1 : data.dim_size(0), 8}));
      return absl::OkStatus();
    });

// Joins the strings along the axes `reduction_indices` (negative counts from the end) with
// `separator`; the first axis listed varies fastest.
REGISTER_OP("ReduceJoin")
    .Input("inputs: string")
    .Input("reduction_indices: int32")
    .Attr("keep_dims: bool = false")
    .Attr("separator: string = ''")
    .Output("output: string")
    .SetShapeFn(shape_fns::Reduction);

// Splits a vector of strings at any byte of `delimiter` (at every byte when it is empty) into a
// sparse matrix of tokens, dropping empty tokens when skip_empty.
REGISTER_OP("StringSplit")
    .Input("input: string")
    .Input("delimiter: string")
    .Output("indices: int64")
    .Output("values: string")
    .Output("shape: int64")
    .Attr("skip_empty: bool = true")
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      PartialTensorShape unused;
      if (!c->WithRank(0, 1, &unused).ok()) {
        return c->Error("input must be a vector, got shape ", c->input(0).DebugString());
      }
      SG_RETURN_IF_ERROR(ScalarInput(c, 1, "delimiter"));
      c->set_output(0, PartialTensorShape({-1, 2}));
      c->set_output(1, PartialTensorShape({-1}));
      c->set_output(2, PartialTensorShape({2}));
      return absl::OkStatus();
    });

// Web-safe base64 ('-' and '_' for '+' and '/'); decoding accepts the padding or its absence.
REGISTER_OP("DecodeBase64")
    .Input("input: string")
    .Output("output: string")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("EncodeBase64")
    .Input("input: string")
    .Output("output: string")
    .Attr("pad: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace sg
