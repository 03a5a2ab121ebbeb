// Logging kernels, as TensorFlow's: Assert fails the step when its condition is false; Print and
// PrintV2 write to stderr, stdout or a file; Timestamp reads the clock; Abort ends the process.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

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

// Writes `text` to stderr in one call, so that lines of concurrent kernels do not interleave.
void WriteStderr(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

class PrintOp final : public OpKernel {
 public:
  explicit PrintOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("message", &message_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("first_n", &first_n_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("summarize", &summarize_));
  }

  void Compute(OpKernelContext* ctx) override {
    ctx->set_output(0, ctx->input(0));
    if (first_n_ >= 0 && printed_.fetch_add(1) >= first_n_) return;
    std::string msg = message_;
    for (int i = 1; i < ctx->num_inputs(); ++i) {
      absl::StrAppend(&msg, "[", Summary(ctx->input(i), static_cast<int>(summarize_)), "]");
    }
    WriteStderr(msg + "\n");
  }

 private:
  std::string message_;
  int64_t first_n_ = -1;
  int64_t summarize_ = 3;
  std::atomic<int64_t> printed_{0};
};
REGISTER_KERNEL_BUILDER(Name("Print").Device(DEVICE_CPU), PrintOp);

class PrintV2Op final : public OpKernel {
 public:
  explicit PrintV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("output_stream", &stream_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("end", &end_));
    const bool known = stream_ == "stdout" || stream_ == "stderr" || stream_ == "log(info)" ||
                       stream_ == "log(warning)" || stream_ == "log(error)" ||
                       absl::StartsWith(stream_, "file://");
    OP_REQUIRES(ctx, known,
                errors::InvalidArgument("PrintV2 (node '", name(), "'): output_stream '",
                                        stream_, "' is not one of stdout, stderr, log(info), "
                                        "log(warning), log(error) or file://PATH"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, in.dims() == 0,
                KernelError(*this, "Input is expected to be scalar, but got ",
                            in.shape().DebugString()));
    const std::string text = in.data<tstring>()[0] + end_;
    if (stream_ == "stdout") {
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
    } else if (stream_ == "stderr") {
      WriteStderr(text);
    } else if (absl::StartsWith(stream_, "log(")) {
      // sg has no logging library: the log streams go to stderr, marked with their level.
      const char level = static_cast<char>(std::toupper(stream_[4]));
      WriteStderr(std::string(1, level) + " " + text);
    } else {
      const std::string path = stream_.substr(std::string("file://").size());
      std::FILE* f = std::fopen(path.c_str(), "a");
      OP_REQUIRES(ctx, f != nullptr,
                  errors::NotFound("PrintV2 (node '", name(), "'): cannot open ", path));
      const size_t written = std::fwrite(text.data(), 1, text.size(), f);
      const bool closed = std::fclose(f) == 0;
      OP_REQUIRES(ctx, written == text.size() && closed,
                  errors::Internal("PrintV2 (node '", name(), "'): cannot write ", path));
    }
  }

 private:
  std::string stream_;
  std::string end_;
};
REGISTER_KERNEL_BUILDER(Name("PrintV2").Device(DEVICE_CPU), PrintV2Op);

class TimestampOp final : public OpKernel {
 public:
  explicit TimestampOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    out->data<double>()[0] = static_cast<double>(absl::ToUnixMicros(absl::Now())) / 1e6;
  }
};
REGISTER_KERNEL_BUILDER(Name("Timestamp").Device(DEVICE_CPU), TimestampOp);

class AbortOp final : public OpKernel {
 public:
  explicit AbortOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("error_msg", &error_msg_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("exit_without_error", &exit_without_error_));
  }

  void Compute(OpKernelContext* ctx) override {
    if (exit_without_error_) {
      WriteStderr("Abort (node '" + name() + "'): exit without error\n");
      std::exit(0);
    }
    WriteStderr("Abort (node '" + name() + "'): intentional failure; " + error_msg_ + "\n");
    std::abort();
  }

 private:
  std::string error_msg_;
  bool exit_without_error_ = false;
};
REGISTER_KERNEL_BUILDER(Name("Abort").Device(DEVICE_CPU), AbortOp);

}  // namespace
}  // namespace sg
