// CTC decoding (TensorFlow's ctc_ops): CTCGreedyDecoder.
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
  c->set_output(0, PartialTensorShape({-1, 2}));
  c->set_output(1, PartialTensorShape({-1}));
  c->set_output(2, PartialTensorShape({2}));
  c->set_output(3, PartialTensorShape({batch, 1}));
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

}  // namespace sg
