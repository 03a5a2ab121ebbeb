// Unicode ops (TensorFlow's unicode ops of string_ops): UnicodeDecode and
// UnicodeDecodeWithOffsets (strings to ragged code points), UnicodeEncode (back) and
// UnicodeTranscode (string to string between encodings).
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

// Row splits for every string of input 0: [strings + 1]; then the flat code points (and offsets).
absl::Status UnicodeDecodeShape(InferenceContext* c) {
  const PartialTensorShape& in = c->input(0);
  const int64_t n = in.IsFullyDefined() ? in.num_elements() : -1;
  c->set_output(0, PartialTensorShape({n < 0 ? -1 : n + 1}));
  for (int i = 1; i < c->num_outputs(); ++i) c->set_output(i, PartialTensorShape({-1}));
  return absl::OkStatus();
}

}  // namespace

// Decodes each string (any encoding ICU knows) into code points: row_splits delimit each
// string's code points in char_values. Malformed input fails (errors "strict"), becomes
// replacement_char ("replace") or is dropped ("ignore"); replace_control_characters also
// replaces the C0 controls U+0000-U+001F.
REGISTER_OP("UnicodeDecode")
    .Input("input: string")
    .Output("row_splits: Tsplits")
    .Output("char_values: int32")
    .Attr("input_encoding: string")
    .Attr("errors: {'strict', 'replace', 'ignore'} = 'replace'")
    .Attr("replacement_char: int = 65533")
    .Attr("replace_control_characters: bool = false")
    .Attr("Tsplits: {int32, int64} = DT_INT64")
    .SetShapeFn(UnicodeDecodeShape);

// As UnicodeDecode, with the byte offset in its string at which each code point starts.
REGISTER_OP("UnicodeDecodeWithOffsets")
    .Input("input: string")
    .Output("row_splits: Tsplits")
    .Output("char_values: int32")
    .Output("char_to_byte_starts: int64")
    .Attr("input_encoding: string")
    .Attr("errors: {'strict', 'replace', 'ignore'} = 'replace'")
    .Attr("replacement_char: int = 65533")
    .Attr("replace_control_characters: bool = false")
    .Attr("Tsplits: {int32, int64} = DT_INT64")
    .SetShapeFn(UnicodeDecodeShape);

// Encodes the code points of each row (input_values[input_splits[i]:input_splits[i+1]]) as one
// string.
REGISTER_OP("UnicodeEncode")
    .Input("input_values: int32")
    .Input("input_splits: Tsplits")
    .Attr("errors: {'ignore', 'replace', 'strict'} = 'replace'")
    .Attr("output_encoding: {'UTF-8', 'UTF-16-BE', 'UTF-32-BE'}")
    .Attr("replacement_char: int = 65533")
    .Attr("Tsplits: {int32, int64} = DT_INT64")
    .Output("output: string")
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      PartialTensorShape values, splits;
      if (!c->WithRank(0, 1, &values).ok()) {
        return c->Error("input_values must be a vector, got shape ", c->input(0).DebugString());
      }
      if (!c->WithRank(1, 1, &splits).ok()) {
        return c->Error("input_splits must be a vector, got shape ", c->input(1).DebugString());
      }
      const int64_t n = splits.unknown_rank() ? -1 : splits.dim_size(0);
      c->set_output(0, PartialTensorShape({n < 0 ? -1 : std::max<int64_t>(n - 1, 0)}));
      return absl::OkStatus();
    });

// Decodes each string as UnicodeDecode does and encodes the code points again.
REGISTER_OP("UnicodeTranscode")
    .Input("input: string")
    .Output("output: string")
    .Attr("input_encoding: string")
    .Attr("output_encoding: {'UTF-8', 'UTF-16-BE', 'UTF-32-BE'}")
    .Attr("errors: {'strict', 'replace', 'ignore'} = 'replace'")
    .Attr("replacement_char: int = 65533")
    .Attr("replace_control_characters: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace sg
