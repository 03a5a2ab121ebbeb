// Unicode kernels with TensorFlow's semantics: UnicodeDecode, UnicodeDecodeWithOffsets,
// UnicodeEncode and UnicodeTranscode. Input strings are decoded by ICU's converters (any
// encoding ICU knows, as TensorFlow's), one code point at a time, so a malformed sequence is
// reported where ICU reports it (for UTF-8: each maximal ill-formed subpart, as Unicode
// recommends); outputs are UTF-8, UTF-16-BE or UTF-32-BE, written here.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "unicode/ucnv.h"
#include "unicode/ucnv_err.h"

namespace sg {
namespace {

enum class ErrorPolicy { kStrict, kReplace, kIgnore };

// The attrs every op here shares: errors, replacement_char and (for decoding)
// replace_control_characters.
struct ErrorOptions {
  ErrorPolicy policy = ErrorPolicy::kReplace;
  int32_t replacement = 0xFFFD;
  bool replace_controls = false;
};

absl::Status ReadErrorOptions(OpKernelConstruction* ctx, ErrorOptions* o) {
  std::string errors;
  SG_RETURN_IF_ERROR(ctx->GetAttr("errors", &errors));
  o->policy = errors == "strict"   ? ErrorPolicy::kStrict
              : errors == "ignore" ? ErrorPolicy::kIgnore
                                   : ErrorPolicy::kReplace;
  int64_t r;
  SG_RETURN_IF_ERROR(ctx->GetAttr("replacement_char", &r));
  if (r < 0 || r > 0x10FFFF) {
    return absl::InvalidArgumentError(absl::StrCat(
        "replacement_char out of unicode codepoint range: ", r, " (node '", ctx->def().name(),
        "')"));
  }
  o->replacement = static_cast<int32_t>(r);
  if (ctx->HasAttr("replace_control_characters")) {
    SG_RETURN_IF_ERROR(ctx->GetAttr("replace_control_characters", &o->replace_controls));
  }
  return absl::OkStatus();
}

inline bool IsValidCodePoint(int64_t c) {
  return c >= 0 && c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF);
}

// ---- decoding -------------------------------------------------------------------------------

struct ConverterCloser {
  void operator()(UConverter* c) const { ucnv_close(c); }
};
using Converter = std::unique_ptr<UConverter, ConverterCloser>;

absl::Status CheckEncoding(OpKernelConstruction* ctx, const std::string& encoding) {
  UErrorCode st = U_ZERO_ERROR;
  Converter c(ucnv_open(encoding.c_str(), &st));
  if (U_FAILURE(st) || c == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("Could not create converter for input "
                                                   "encoding: ", encoding, " (node '",
                                                   ctx->def().name(), "')"));
  }
  return absl::OkStatus();
}

// A converter from `encoding` that stops at each malformed sequence (a converter holds state,
// so each Compute opens its own).
absl::StatusOr<Converter> OpenDecoder(const std::string& encoding) {
  UErrorCode st = U_ZERO_ERROR;
  Converter c(ucnv_open(encoding.c_str(), &st));
  if (U_FAILURE(st) || c == nullptr) {
    return absl::InvalidArgumentError("Could not create converter for input encoding: " +
                                      encoding);
  }
  ucnv_setToUCallBack(c.get(), UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &st);
  if (U_FAILURE(st)) return absl::InternalError("cannot set ICU's decoding callback");
  return c;
}

// Calls emit(code_point, byte_offset) for each code point of `s` after the error policy and the
// control-character replacement; INVALID_ARGUMENT on malformed input under "strict". A C0
// control, when replace_control_characters, is dropped under "ignore" and replaced otherwise;
// `strict_controls` (TensorFlow's UnicodeTranscode) makes it fail under "strict" instead.
template <typename Emit>
absl::Status DecodeString(UConverter* conv, absl::string_view s, const ErrorOptions& o,
                          bool strict_controls, const Emit& emit) {
  ucnv_resetToUnicode(conv);
  const char* const begin = s.data();
  const char* const limit = begin + s.size();
  const char* p = begin;
  while (p < limit) {
    const char* start = p;
    UErrorCode st = U_ZERO_ERROR;
    UChar32 c = ucnv_getNextUChar(conv, &p, limit, &st);
    if (st == U_INDEX_OUTOFBOUNDS_ERROR) break;  // only an ignorable signature (BOM) was left
    if (p == start) ++p;                          // never loop without progress
    if (U_FAILURE(st)) {
      if (o.policy == ErrorPolicy::kStrict) {
        return absl::InvalidArgumentError("Invalid formatting on input string");
      }
      if (o.policy == ErrorPolicy::kIgnore) continue;
      c = o.replacement;
    } else if (o.replace_controls && c < 0x20) {
      if (strict_controls && o.policy == ErrorPolicy::kStrict) {
        return absl::InvalidArgumentError("Invalid formatting on input string");
      }
      if (o.policy == ErrorPolicy::kIgnore) continue;
      c = o.replacement;
    }
    emit(static_cast<int32_t>(c), static_cast<int64_t>(start - begin));
  }
  return absl::OkStatus();
}

template <bool kWithOffsets>
class UnicodeDecodeOp final : public OpKernel {
 public:
  explicit UnicodeDecodeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadErrorOptions(ctx, &options_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("input_encoding", &encoding_));
    OP_REQUIRES_OK(ctx, CheckEncoding(ctx, encoding_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    auto conv = OpenDecoder(encoding_);
    OP_REQUIRES(ctx, conv.ok(), KernelError(*this, conv.status().message()));
    const int64_t n = in.NumElements();
    const tstring* s = in.data<tstring>();
    std::vector<int64_t> splits(n + 1, 0);
    std::vector<int32_t> chars;
    std::vector<int64_t> offsets;
    for (int64_t i = 0; i < n; ++i) {
      auto emit = [&](int32_t c, int64_t at) {
        chars.push_back(c);
        if (kWithOffsets) offsets.push_back(at);
      };
      absl::Status st = DecodeString(conv->get(), s[i], options_, false, emit);
      OP_REQUIRES(ctx, st.ok(), KernelError(*this, st.message(), " (element ", i, ")"));
      splits[i + 1] = static_cast<int64_t>(chars.size());
    }
    Tensor *splits_out, *chars_out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({n + 1}), &splits_out));
    if (splits_out->dtype() == DT_INT32) {
      OP_REQUIRES(ctx, chars.size() <= INT32_MAX,
                  KernelError(*this, "too many code points for int32 row_splits: ",
                              chars.size()));
      for (int64_t i = 0; i <= n; ++i) {
        splits_out->data<int32_t>()[i] = static_cast<int32_t>(splits[i]);
      }
    } else {
      std::copy(splits.begin(), splits.end(), splits_out->data<int64_t>());
    }
    const int64_t total = static_cast<int64_t>(chars.size());
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({total}), &chars_out));
    std::copy(chars.begin(), chars.end(), chars_out->data<int32_t>());
    if (kWithOffsets) {
      Tensor* offsets_out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({total}), &offsets_out));
      std::copy(offsets.begin(), offsets.end(), offsets_out->data<int64_t>());
    }
  }

 private:
  ErrorOptions options_;
  std::string encoding_;
};
REGISTER_KERNEL_BUILDER(Name("UnicodeDecode").Device(DEVICE_CPU), UnicodeDecodeOp<false>);
REGISTER_KERNEL_BUILDER(Name("UnicodeDecodeWithOffsets").Device(DEVICE_CPU),
                        UnicodeDecodeOp<true>);

// ---- encoding -------------------------------------------------------------------------------

enum class Encoding { kUtf8, kUtf16Be, kUtf32Be };

Encoding ParseEncoding(const std::string& name) {
  return name == "UTF-16-BE" ? Encoding::kUtf16Be
         : name == "UTF-32-BE" ? Encoding::kUtf32Be
                               : Encoding::kUtf8;
}

// Appends code point `c` in `enc`; a surrogate or a value outside Unicode, which no encoding
// can hold, is written as U+FFFD.
void AppendCodePoint(int32_t c, Encoding enc, std::string* out) {
  uint32_t u = IsValidCodePoint(c) ? static_cast<uint32_t>(c) : 0xFFFD;
  switch (enc) {
    case Encoding::kUtf8:
      if (u < 0x80) {
        out->push_back(static_cast<char>(u));
      } else if (u < 0x800) {
        out->push_back(static_cast<char>(0xC0 | (u >> 6)));
        out->push_back(static_cast<char>(0x80 | (u & 0x3F)));
      } else if (u < 0x10000) {
        out->push_back(static_cast<char>(0xE0 | (u >> 12)));
        out->push_back(static_cast<char>(0x80 | ((u >> 6) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | (u & 0x3F)));
      } else {
        out->push_back(static_cast<char>(0xF0 | (u >> 18)));
        out->push_back(static_cast<char>(0x80 | ((u >> 12) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | ((u >> 6) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | (u & 0x3F)));
      }
      return;
    case Encoding::kUtf16Be: {
      auto unit = [out](uint32_t v) {
        out->push_back(static_cast<char>(v >> 8));
        out->push_back(static_cast<char>(v & 0xFF));
      };
      if (u < 0x10000) {
        unit(u);
      } else {
        u -= 0x10000;
        unit(0xD800 | (u >> 10));
        unit(0xDC00 | (u & 0x3FF));
      }
      return;
    }
    case Encoding::kUtf32Be:
      for (int shift = 24; shift >= 0; shift -= 8) {
        out->push_back(static_cast<char>((u >> shift) & 0xFF));
      }
      return;
  }
}

class UnicodeEncodeOp final : public OpKernel {
 public:
  explicit UnicodeEncodeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadErrorOptions(ctx, &options_));
    std::string enc;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("output_encoding", &enc));
    encoding_ = ParseEncoding(enc);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& values = ctx->input(0);
    const Tensor& splits_in = ctx->input(1);
    OP_REQUIRES(ctx, values.dims() == 1,
                KernelError(*this, "input_values must be a vector, got shape ",
                            values.shape().DebugString()));
    OP_REQUIRES(ctx, splits_in.dims() == 1,
                KernelError(*this, "input_splits must be a vector, got shape ",
                            splits_in.shape().DebugString()));
    const int64_t nsplits = splits_in.NumElements();
    OP_REQUIRES(ctx, nsplits > 0,
                KernelError(*this, "Input_splits should contain elements, but given "
                            "input_values has ", values.NumElements(), " elements"));
    std::vector<int64_t> splits(nsplits);
    for (int64_t i = 0; i < nsplits; ++i) {
      splits[i] = splits_in.dtype() == DT_INT32 ? splits_in.data<int32_t>()[i]
                                                : splits_in.data<int64_t>()[i];
    }
    OP_REQUIRES(ctx, splits[0] == 0,
                KernelError(*this, "First value in input_splits must be zero."));
    OP_REQUIRES(ctx, splits.back() == values.NumElements(),
                KernelError(*this, "Last value in input_splits must be equal to length of "
                            "input_tensor."));
    for (int64_t i = 1; i < nsplits; ++i) {
      OP_REQUIRES(ctx, splits[i] >= splits[i - 1],
                  KernelError(*this, "input_splits must be non-decreasing, got ",
                              splits[i - 1], " then ", splits[i], " at ", i));
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({nsplits - 1}), &out));
    const int32_t* v = values.data<int32_t>();
    tstring* o = out->data<tstring>();
    for (int64_t r = 0; r + 1 < nsplits; ++r) {
      std::string s;
      for (int64_t k = splits[r]; k < splits[r + 1]; ++k) {
        int32_t c = v[k];
        if (!IsValidCodePoint(c)) {
          OP_REQUIRES(ctx, options_.policy != ErrorPolicy::kStrict,
                      KernelError(*this, "Code point is out of range for Unicode, or is a "
                                  "surrogate: ", c));
          if (options_.policy == ErrorPolicy::kIgnore) continue;
          c = options_.replacement;
        }
        AppendCodePoint(c, encoding_, &s);
      }
      o[r] = std::move(s);
    }
  }

 private:
  ErrorOptions options_;
  Encoding encoding_;
};
REGISTER_KERNEL_BUILDER(
    Name("UnicodeEncode").Device(DEVICE_CPU).TypeConstraint("Tsplits", {DT_INT32, DT_INT64}),
    UnicodeEncodeOp);

class UnicodeTranscodeOp final : public OpKernel {
 public:
  explicit UnicodeTranscodeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadErrorOptions(ctx, &options_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("input_encoding", &input_encoding_));
    OP_REQUIRES_OK(ctx, CheckEncoding(ctx, input_encoding_));
    std::string enc;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("output_encoding", &enc));
    encoding_ = ParseEncoding(enc);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    auto conv = OpenDecoder(input_encoding_);
    OP_REQUIRES(ctx, conv.ok(), KernelError(*this, conv.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    const tstring* s = in.data<tstring>();
    tstring* o = out->data<tstring>();
    for (int64_t i = 0; i < in.NumElements(); ++i) {
      std::string r;
      auto emit = [&](int32_t c, int64_t) { AppendCodePoint(c, encoding_, &r); };
      absl::Status st = DecodeString(conv->get(), s[i], options_, true, emit);
      OP_REQUIRES(ctx, st.ok(), KernelError(*this, st.message(), " (element ", i, ")"));
      o[i] = std::move(r);
    }
  }

 private:
  ErrorOptions options_;
  std::string input_encoding_;
  Encoding encoding_;
};
REGISTER_KERNEL_BUILDER(Name("UnicodeTranscode").Device(DEVICE_CPU), UnicodeTranscodeOp);

}  // namespace
}  // namespace sg
