// Assert (as TensorFlow's): fails the step when its condition is false.
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

// The first `max_entries` entries of `t`, space-separated, strings unquoted, "..." when cut.
std::string Summary(const Tensor& t, int max_entries) {
  if (BaseType(t.dtype()) != DT_STRING) return t.SummarizeValue(max_entries);
  const int64_t n = t.NumElements();
  const int64_t shown = std::min<int64_t>(n, std::max(max_entries, 0));
  std::string out;
  for (int64_t i = 0; i < shown; ++i) {
    absl::StrAppend(&out, i ? " " : "", std::string(t.data<tstring>()[i]));
  }
  if (n > shown) out += "...";
  return out;
}

class AssertOp final : public OpKernel {
 public:
  explicit AssertOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("summarize", &summarize_));
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& cond = ctx->input(0);
    OP_REQUIRES(ctx, cond.dims() == 0,
                KernelError(*this, "In[0] should be a scalar: ", cond.shape().DebugString()));
    if (cond.data<bool>()[0]) return;
    std::string msg = "assertion failed: ";
    for (int i = 1; i < ctx->num_inputs(); ++i) {
      absl::StrAppend(&msg, i > 1 ? " " : "", "[", Summary(ctx->input(i), summarize_), "]");
    }
    ctx->CtxFailure(KernelError(*this, msg));
  }

 private:
  int64_t summarize_ = 3;
};

REGISTER_KERNEL_BUILDER(Name("Assert").Device(DEVICE_CPU), AssertOp);

}  // namespace
}  // namespace sg
