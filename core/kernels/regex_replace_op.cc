// RegexReplace and StaticRegexReplace: element-wise RE2 replacement in a string tensor, as
// TensorFlow's: the first match (replace_global false) or every non-overlapping match is replaced
// by `rewrite`, where \0 .. \9 name the match and its groups. A rewrite that names a group the
// pattern lacks leaves the string unchanged (RE2 refuses it), as in TensorFlow.
#include <memory>
#include <string>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "re2/re2.h"

namespace sg {
namespace {

absl::Status Compile(const OpKernel& k, const std::string& pattern, std::unique_ptr<RE2>* re) {
  RE2::Options options;
  options.set_log_errors(false);
  *re = std::make_unique<RE2>(pattern, options);
  if (!(*re)->ok()) {
    return KernelError(k, "Invalid pattern: ", pattern, ", error: ", (*re)->error());
  }
  return absl::OkStatus();
}

void Replace(OpKernelContext* ctx, const RE2& re, const std::string& rewrite, bool global) {
  const Tensor& in = ctx->input(0);
  Tensor* out;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
  const tstring* s = in.data<tstring>();
  tstring* o = out->data<tstring>();
  for (int64_t i = 0; i < in.NumElements(); ++i) {
    std::string buf = s[i];
    if (global) {
      RE2::GlobalReplace(&buf, re, rewrite);
    } else {
      RE2::Replace(&buf, re, rewrite);
    }
    o[i] = std::move(buf);
  }
}

class RegexReplaceOp final : public OpKernel {
 public:
  explicit RegexReplaceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("replace_global", &global_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& pattern = ctx->input(1);
    const Tensor& rewrite = ctx->input(2);
    OP_REQUIRES(ctx, pattern.dims() == 0,
                KernelError(*this, "Pattern must be scalar, but received ",
                            pattern.shape().DebugString()));
    OP_REQUIRES(ctx, rewrite.dims() == 0,
                KernelError(*this, "Replacement string must be scalar, but received ",
                            rewrite.shape().DebugString()));
    std::unique_ptr<RE2> re;
    OP_REQUIRES_OK(ctx, Compile(*this, pattern.data<tstring>()[0], &re));
    Replace(ctx, *re, rewrite.data<tstring>()[0], global_);
  }

 private:
  bool global_;
};
REGISTER_KERNEL_BUILDER(Name("RegexReplace").Device(DEVICE_CPU), RegexReplaceOp);

class StaticRegexReplaceOp final : public OpKernel {
 public:
  explicit StaticRegexReplaceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string pattern;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("pattern", &pattern));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("rewrite", &rewrite_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("replace_global", &global_));
    OP_REQUIRES_OK(ctx, Compile(*this, pattern, &re_));
  }

  void Compute(OpKernelContext* ctx) override { Replace(ctx, *re_, rewrite_, global_); }

 private:
  std::unique_ptr<RE2> re_;
  std::string rewrite_;
  bool global_;
};
REGISTER_KERNEL_BUILDER(Name("StaticRegexReplace").Device(DEVICE_CPU), StaticRegexReplaceOp);

}  // namespace
}  // namespace sg
