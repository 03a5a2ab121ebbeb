// CTC decoding (TensorFlow's ctc_ops): CTCGreedyDecoder and CTCBeamSearchDecoder.
#include <cstdint>

#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {
namespace {

absl::Status CtcDecoderShape(InferenceContext* c) {
  PartialTensorShape inputs, lengths;
  SG_RETURN_IF_ERROR(c->WithRank(0, 3, &inputs));
  SG_RETURN_IF_ERROR(c->WithRank(1, 1, &lengths));
  int64_t batch = inputs.unknown_rank() ? -1 : inputs.dim_size(1);
  const int64_t b2 = lengths.unknown_rank() ? -1 : lengths.dim_size(0);
  if (batch >= 0 && b2 >= 0 && batch != b2) {
    return c->Error("Dimensions must be equal, but are ", batch, " and ", b2);
  }
  if (batch < 0) batch = b2;
  // Outputs: `paths` indices, `paths` values, `paths` shapes, log_probability.
  const int paths = (c->num_outputs() - 1) / 3;
  for (int p = 0; p < paths; ++p) {
    c->set_output(p, PartialTensorShape({-1, 2}));
    c->set_output(paths + p, PartialTensorShape({-1}));
    c->set_output(2 * paths + p, PartialTensorShape({2}));
  }
  c->set_output(3 * paths, PartialTensorShape({batch, paths}));
  return absl::OkStatus();
}

}  // namespace

// Per batch entry, the most likely class of each of its first sequence_length steps, blanks
// dropped (and, with merge_repeated, runs of one class merged), as a sparse [batch, longest]
// tensor; log_probability is minus the sum of the chosen logits.
REGISTER_OP("CTCGreedyDecoder")
    .Input("inputs: T")
    .Input("sequence_length: int32")
    .Attr("merge_repeated: bool = false")
    .Attr("blank_index: int = -1")
    .Output("decoded_indices: int64")
    .Output("decoded_values: int64")
    .Output("decoded_shape: int64")
    .Output("log_probability: T")
    .Attr("T: {float, double} = DT_FLOAT")
    .SetShapeFn(CtcDecoderShape);

// The top_paths most likely labellings of each batch entry by a beam search of beam_width
// prefixes over the softmax of the logits (blank: the last class), each as a sparse
// [batch, longest] tensor, with their log-probabilities.
REGISTER_OP("CTCBeamSearchDecoder")
    .Input("inputs: T")
    .Input("sequence_length: int32")
    .Attr("beam_width: int >= 1")
    .Attr("top_paths: int >= 1")
    .Attr("merge_repeated: bool = true")
    .Output("decoded_indices: top_paths * int64")
    .Output("decoded_values: top_paths * int64")
    .Output("decoded_shape: top_paths * int64")
    .Output("log_probability: T")
    .Attr("T: {float, double} = DT_FLOAT")
    .SetShapeFn(CtcDecoderShape);

}  // namespace sg
