// CTCGreedyDecoder, as TensorFlow's CPU kernel. inputs is [max_time, batch, num_classes] logits;
// entry b decodes its first sequence_length[b] steps (a negative length decodes none, one past
// max_time is FAILED_PRECONDITION, empty inputs INVALID_ARGUMENT). At each step the class with the largest logit (the first on a
// tie) is taken; it is emitted unless it is the blank (blank_index, -1 meaning num_classes - 1)
// or, with merge_repeated, the class of the step before. log_probability[b] accumulates minus
// each step's largest logit, in T.
#include <cstdint>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

class CTCGreedyDecoderOp final : public OpKernel {
 public:
  explicit CTCGreedyDecoderOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("merge_repeated", &merge_repeated_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("blank_index", &blank_index_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& inputs = ctx->input(0);
    const Tensor& lengths = ctx->input(1);
    OP_REQUIRES(ctx, inputs.dims() == 3, KernelError(*this, "inputs is not a 3-Tensor"));
    OP_REQUIRES(ctx, lengths.dims() == 1, KernelError(*this, "sequence_length is not a vector"));
    OP_REQUIRES(ctx, inputs.NumElements() > 0, KernelError(*this, "inputs must not be empty"));
    const int64_t max_time = inputs.dim_size(0), batch = inputs.dim_size(1),
                  classes = inputs.dim_size(2);
    // TensorFlow gives these two FAILED_PRECONDITION.
    OP_REQUIRES(ctx, lengths.dim_size(0) == batch,
                errors::FailedPrecondition(type_string(), " (node '", name(),
                                           "'): len(sequence_length) != batch_size.  "
                                           "len(sequence_length): ",
                                           lengths.dim_size(0), " batch_size: ", batch));
    OP_REQUIRES(ctx, classes > 0, KernelError(*this, "num_classes cannot be 0."));
    const int64_t blank = blank_index_ < 0 ? blank_index_ + classes : blank_index_;
    OP_REQUIRES(ctx, blank >= 0 && blank < classes,
                KernelError(*this, "blank_index expected to be between ", -classes, " and ",
                            classes - 1, " but was ", blank_index_));
    const int32_t* len = lengths.data<int32_t>();
    for (int64_t b = 0; b < batch; ++b) {
      OP_REQUIRES(ctx, len[b] <= max_time,
                  errors::FailedPrecondition(type_string(), " (node '", name(),
                                             "'): sequence_length(", b, ") <= ", max_time));
    }
    std::vector<std::vector<int64_t>> decoded(batch);
    Tensor* log_prob;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3, TensorShape({batch, 1}), &log_prob));
    const bool ok = DispatchTypes(TypeList<float, double>(), inputs.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* x = inputs.data<T>();
      T* lp = log_prob->data<T>();
      for (int64_t b = 0; b < batch; ++b) {
        T sum = 0;
        int64_t prev = -1;
        for (int64_t t = 0; t < len[b]; ++t) {
          const T* row = x + (t * batch + b) * classes;
          int64_t best = 0;
          for (int64_t c = 1; c < classes; ++c) {
            if (row[c] > row[best]) best = c;
          }
          sum += -row[best];
          if (best != blank && !(merge_repeated_ && best == prev)) decoded[b].push_back(best);
          prev = best;
        }
        lp[b] = sum;
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, inputs.dtype()));
    int64_t total = 0, longest = 0;
    for (const auto& d : decoded) {
      total += static_cast<int64_t>(d.size());
      longest = std::max<int64_t>(longest, static_cast<int64_t>(d.size()));
    }
    Tensor *indices, *values, *shape;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({total, 2}), &indices));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({total}), &values));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({2}), &shape));
    int64_t* ix = indices->data<int64_t>();
    int64_t* v = values->data<int64_t>();
    int64_t k = 0;
    for (int64_t b = 0; b < batch; ++b) {
      for (size_t j = 0; j < decoded[b].size(); ++j, ++k) {
        ix[2 * k] = b;
        ix[2 * k + 1] = static_cast<int64_t>(j);
        v[k] = decoded[b][j];
      }
    }
    shape->data<int64_t>()[0] = batch;
    shape->data<int64_t>()[1] = longest;
  }

 private:
  bool merge_repeated_;
  int64_t blank_index_;
};
REGISTER_KERNEL_BUILDER(Name("CTCGreedyDecoder").Device(DEVICE_CPU), CTCGreedyDecoderOp);

}  // namespace
}  // namespace sg
