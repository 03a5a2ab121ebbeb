// RegexFullMatch and StaticRegexFullMatch: element-wise RE2 full matches of a string tensor.
#include <memory>
#include <string>

#include "core/framework/op_kernel.h"
#include "re2/re2.h"

namespace sg {
namespace {

absl::Status CompilePattern(const OpKernel& k, const std::string& pattern,
                            std::unique_ptr<RE2>* re) {
  RE2::Options options;
  options.set_log_errors(false);
  *re = std::make_unique<RE2>(pattern, options);
  if (!(*re)->ok()) {
    return errors::InvalidArgument("node '", k.name(), "' (op ", k.type_string(),
                                   "): invalid pattern '", pattern, "': ", (*re)->error());
  }
  return absl::OkStatus();
}

void FullMatch(OpKernelContext* ctx, const RE2& re) {
  const Tensor& in = ctx->input(0);
  Tensor* out;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
  const tstring* s = in.data<tstring>();
  bool* o = out->data<bool>();
  for (int64_t i = 0; i < in.NumElements(); ++i) o[i] = RE2::FullMatch(s[i], re);
}

class RegexFullMatchOp final : public OpKernel {
 public:
  explicit RegexFullMatchOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& pattern = ctx->input(1);
    OP_REQUIRES(ctx, pattern.dims() == 0,
                errors::InvalidArgument("node '", name(), "' (op RegexFullMatch): pattern must "
                                        "be a scalar, got shape ",
                                        pattern.shape().DebugString()));
    std::unique_ptr<RE2> re;
    OP_REQUIRES_OK(ctx, CompilePattern(*this, pattern.data<tstring>()[0], &re));
    FullMatch(ctx, *re);
  }
};
REGISTER_KERNEL_BUILDER(Name("RegexFullMatch").Device(DEVICE_CPU), RegexFullMatchOp);

class StaticRegexFullMatchOp final : public OpKernel {
 public:
  explicit StaticRegexFullMatchOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string pattern;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("pattern", &pattern));
    OP_REQUIRES_OK(ctx, CompilePattern(*this, pattern, &re_));
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override { FullMatch(ctx, *re_); }

 private:
  std::unique_ptr<RE2> re_;
};
REGISTER_KERNEL_BUILDER(Name("StaticRegexFullMatch").Device(DEVICE_CPU), StaticRegexFullMatchOp);

}  // namespace
}  // namespace sg
