// String kernels with TensorFlow's semantics: StringLower / StringUpper (ASCII, or UTF-8 through
// ICU), StringStrip, StringLength, StringToHashBucketFast (FarmHash's Fingerprint64, as
// TensorFlow's), StringSplit, StringSplitV2 and Substr. Every input of dtype string; shapes as
// the OpDefs say.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/broadcast.h"
#include "core/kernels/cwise_ops_common.h"
#include "farmhash.h"
#include "unicode/locid.h"
#include "unicode/unistr.h"

namespace sg {
namespace {

// ---- case changes ---------------------------------------------------------------------------

// As TensorFlow's StringLower/StringUpper: encoding "" maps the ASCII letters only; "utf-8"
// decodes the string up to its first NUL as ICU's UTF-8 converter does (a malformed sequence
// becomes U+FFFD) and changes the case of every letter, in ICU's root locale (TensorFlow takes
// the process's default locale; the two differ only for Turkish, Azeri and Lithuanian).
template <bool kLower>
class StringCaseOp final : public OpKernel {
 public:
  explicit StringCaseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("encoding", &encoding_));
    OP_REQUIRES(ctx, encoding_.empty() || encoding_ == "utf-8",
                KernelError(*this, "only utf-8 or '' (no encoding) is supported, received ",
                            encoding_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    const tstring* s = in.data<tstring>();
    tstring* o = out->data<tstring>();
    for (int64_t i = 0; i < in.NumElements(); ++i) {
      if (encoding_.empty()) {
        o[i] = kLower ? absl::AsciiStrToLower(s[i]) : absl::AsciiStrToUpper(s[i]);
        continue;
      }
      icu::UnicodeString u(s[i].c_str(), "UTF-8");
      if (kLower) {
        u.toLower(icu::Locale::getRoot());
      } else {
        u.toUpper(icu::Locale::getRoot());
      }
      std::string r;
      u.toUTF8String(r);
      o[i] = std::move(r);
    }
  }

 private:
  std::string encoding_;
};
REGISTER_KERNEL_BUILDER(Name("StringLower").Device(DEVICE_CPU), StringCaseOp<true>);
REGISTER_KERNEL_BUILDER(Name("StringUpper").Device(DEVICE_CPU), StringCaseOp<false>);

// ---- strip, length, hash --------------------------------------------------------------------

class StringStripOp final : public OpKernel {
 public:
  explicit StringStripOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    const tstring* s = in.data<tstring>();
    tstring* o = out->data<tstring>();
    for (int64_t i = 0; i < in.NumElements(); ++i) {
      o[i] = std::string(absl::StripAsciiWhitespace(s[i]));
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("StringStrip").Device(DEVICE_CPU), StringStripOp);

// Whether byte `c` continues a UTF-8 sequence (10xxxxxx): such bytes do not start a character.
inline bool IsTrailByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

int64_t Utf8Length(const std::string& s) {
  int64_t n = 0;
  for (char c : s) n += IsTrailByte(c) ? 0 : 1;
  return n;
}

class StringLengthOp final : public OpKernel {
 public:
  explicit StringLengthOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string unit;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("unit", &unit));
    utf8_ = unit == "UTF8_CHAR";
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    const tstring* s = in.data<tstring>();
    int32_t* o = out->data<int32_t>();
    for (int64_t i = 0; i < in.NumElements(); ++i) {
      o[i] = static_cast<int32_t>(utf8_ ? Utf8Length(s[i]) : static_cast<int64_t>(s[i].size()));
    }
  }

 private:
  bool utf8_;
};
REGISTER_KERNEL_BUILDER(Name("StringLength").Device(DEVICE_CPU), StringLengthOp);

class StringToHashBucketFastOp final : public OpKernel {
 public:
  explicit StringToHashBucketFastOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    int64_t n;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_buckets", &n));
    OP_REQUIRES(ctx, n >= 1, KernelError(*this, "num_buckets must be >= 1, got ", n));
    num_buckets_ = static_cast<uint64_t>(n);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    const tstring* s = in.data<tstring>();
    int64_t* o = out->data<int64_t>();
    for (int64_t i = 0; i < in.NumElements(); ++i) {
      o[i] = static_cast<int64_t>(util::Fingerprint64(s[i].data(), s[i].size()) % num_buckets_);
    }
  }

 private:
  uint64_t num_buckets_;
};
REGISTER_KERNEL_BUILDER(Name("StringToHashBucketFast").Device(DEVICE_CPU),
                        StringToHashBucketFastOp);

// ---- StringSplitV2 --------------------------------------------------------------------------

inline bool IsAsciiSpace(char c) { return absl::ascii_isspace(static_cast<unsigned char>(c)); }

// The tokens of `s`, as TensorFlow's StringSplitV2: with a separator, every occurrence splits
// (empty tokens kept, "" gives [""]); without one, runs of whitespace split and leading or
// trailing whitespace gives no token. After `maxsplit` splits (when > 0) the rest of the string,
// whatever it holds, is the last token; maxsplit 0 gives the whole string.
void SplitOne(absl::string_view s, absl::string_view sep, int64_t maxsplit,
              std::vector<absl::string_view>* out) {
  if (maxsplit == 0) {
    out->push_back(s);
    return;
  }
  int64_t splits = 0;
  if (sep.empty()) {
    size_t p = 0;
    while (p < s.size() && IsAsciiSpace(s[p])) ++p;
    while (p < s.size()) {
      size_t e = p;
      while (e < s.size() && !IsAsciiSpace(s[e])) ++e;
      out->push_back(s.substr(p, e - p));
      p = e;
      while (p < s.size() && IsAsciiSpace(s[p])) ++p;
      if (maxsplit > 0 && ++splits == maxsplit) {
        out->push_back(s.substr(p));
        return;
      }
    }
    return;
  }
  size_t p = 0;
  for (size_t hit = s.find(sep, p); hit != absl::string_view::npos; hit = s.find(sep, p)) {
    out->push_back(s.substr(p, hit - p));
    p = hit + sep.size();
    if (maxsplit > 0 && ++splits == maxsplit) break;
  }
  out->push_back(s.substr(p));
}

// Writes the sparse outputs of a split: tokens[k] belongs to row row_of[k] (rows ascending),
// its column its rank within the row; shape is (batch, longest row).
void EmitSparseTokens(OpKernelContext* ctx, const std::vector<absl::string_view>& tokens,
                      const std::vector<int64_t>& row_of, int64_t batch, int64_t longest) {
  const int64_t total = static_cast<int64_t>(tokens.size());
  Tensor *indices, *values, *shape;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({total, 2}), &indices));
  OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({total}), &values));
  OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({2}), &shape));
  int64_t* idx = indices->data<int64_t>();
  tstring* val = values->data<tstring>();
  int64_t column = 0;
  for (int64_t k = 0; k < total; ++k) {
    column = (k > 0 && row_of[k] == row_of[k - 1]) ? column + 1 : 0;
    idx[2 * k] = row_of[k];
    idx[2 * k + 1] = column;
    val[k] = std::string(tokens[k]);
  }
  shape->data<int64_t>()[0] = batch;
  shape->data<int64_t>()[1] = longest;
}

// As TensorFlow's StringSplit: every byte of `delimiter` separates tokens (an empty delimiter
// makes each byte a token); empty tokens are dropped when skip_empty; an empty string has no
// tokens at all.
class StringSplitOp final : public OpKernel {
 public:
  explicit StringSplitOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("skip_empty", &skip_empty_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& delim = ctx->input(1);
    OP_REQUIRES(ctx, in.dims() == 1,
                KernelError(*this, "input must be a vector, got shape: ",
                            in.shape().DebugString()));
    OP_REQUIRES(ctx, delim.dims() == 0,
                KernelError(*this, "delimiter must be a scalar, got shape: ",
                            delim.shape().DebugString()));
    const absl::string_view d = delim.data<tstring>()[0];
    const int64_t batch = in.dim_size(0);
    const tstring* s = in.data<tstring>();
    std::vector<absl::string_view> tokens;
    std::vector<int64_t> row_of;
    int64_t longest = 0;
    for (int64_t i = 0; i < batch; ++i) {
      const absl::string_view str = s[i];
      int64_t n = 0;
      auto add = [&](absl::string_view t) {
        if (skip_empty_ && t.empty()) return;
        tokens.push_back(t);
        row_of.push_back(i);
        ++n;
      };
      if (!str.empty() && d.empty()) {
        for (size_t p = 0; p < str.size(); ++p) add(str.substr(p, 1));
      } else if (!str.empty()) {
        size_t p = 0;
        for (size_t hit = str.find_first_of(d); hit != absl::string_view::npos;
             hit = str.find_first_of(d, p)) {
          add(str.substr(p, hit - p));
          p = hit + 1;
        }
        add(str.substr(p));
      }
      longest = std::max(longest, n);
    }
    EmitSparseTokens(ctx, tokens, row_of, batch, longest);
  }

 private:
  bool skip_empty_;
};
REGISTER_KERNEL_BUILDER(Name("StringSplit").Device(DEVICE_CPU), StringSplitOp);

class StringSplitV2Op final : public OpKernel {
 public:
  explicit StringSplitV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("maxsplit", &maxsplit_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& sep = ctx->input(1);
    OP_REQUIRES(ctx, in.dims() == 1,
                KernelError(*this, "input must be a vector, got shape: ",
                            in.shape().DebugString()));
    OP_REQUIRES(ctx, sep.dims() == 0,
                KernelError(*this, "sep must be a scalar, got shape: ",
                            sep.shape().DebugString()));
    const int64_t batch = in.dim_size(0);
    const tstring* s = in.data<tstring>();
    std::vector<absl::string_view> tokens;
    std::vector<int64_t> row_of;
    int64_t longest = 0;
    for (int64_t i = 0; i < batch; ++i) {
      const size_t before = tokens.size();
      SplitOne(s[i], sep.data<tstring>()[0], maxsplit_, &tokens);
      const int64_t n = static_cast<int64_t>(tokens.size() - before);
      longest = std::max(longest, n);
      row_of.insert(row_of.end(), n, i);
    }
    EmitSparseTokens(ctx, tokens, row_of, batch, longest);
  }

 private:
  int64_t maxsplit_;
};
REGISTER_KERNEL_BUILDER(Name("StringSplitV2").Device(DEVICE_CPU), StringSplitV2Op);

// ---- Substr ---------------------------------------------------------------------------------

// Byte offset of the character that starts `chars` characters after byte `from` of `s` (or
// s.size() when the string ends first). A character starts at every byte that is not a trail
// byte.
size_t Utf8Advance(const std::string& s, size_t from, int64_t chars) {
  size_t p = from;
  while (chars > 0 && p < s.size()) {
    ++p;
    while (p < s.size() && IsTrailByte(s[p])) ++p;
    --chars;
  }
  return p;
}

// As TensorFlow's Substr: `pos` counts from the end when negative and must fall within the
// string (|pos| <= length); a negative `len` or one past the end takes the rest.
template <typename T>
absl::Status SubstrOne(const OpKernel& k, const std::string& s, T pos_in, T len_in, bool utf8,
                       int64_t index, tstring* out) {
  const int64_t length = utf8 ? Utf8Length(s) : static_cast<int64_t>(s.size());
  int64_t pos = static_cast<int64_t>(pos_in);
  const int64_t len = static_cast<int64_t>(len_in);
  if (pos > length || pos < -length) {
    return KernelError(k, "pos ", pos, " out of range for string b'", absl::CEscape(s),
                       "' at index ", index);
  }
  if (pos < 0) pos += length;
  const int64_t count = len < 0 ? length - pos : std::min(len, length - pos);
  if (!utf8) {
    *out = s.substr(static_cast<size_t>(pos), static_cast<size_t>(count));
    return absl::OkStatus();
  }
  const size_t begin = Utf8Advance(s, 0, pos);
  const size_t end = Utf8Advance(s, begin, count);
  *out = s.substr(begin, end - begin);
  return absl::OkStatus();
}

class SubstrOp final : public OpKernel {
 public:
  explicit SubstrOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string unit;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("unit", &unit));
    utf8_ = unit == "UTF8_CHAR";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& pos = ctx->input(1);
    const Tensor& len = ctx->input(2);
    OP_REQUIRES(ctx, pos.shape() == len.shape(),
                KernelError(*this, "pos and len should have the same shape, got: ",
                            pos.shape().DebugString(), " vs. ", len.shape().DebugString()));
    BCast bcast(in.shape(), pos.shape());
    OP_REQUIRES(ctx, bcast.valid(),
                KernelError(*this, "Incompatible shapes: ", in.shape().DebugString(), " vs. ",
                            pos.shape().DebugString()));
    const TensorShape& shape = bcast.output_shape();
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    const std::vector<int64_t> in_strides = BroadcastStrides(in.shape(), shape);
    const std::vector<int64_t> pos_strides = BroadcastStrides(pos.shape(), shape);
    const tstring* s = in.data<tstring>();
    tstring* o = out->data<tstring>();
    const bool is64 = pos.dtype() == DT_INT64;
    std::vector<int64_t> at(shape.dims(), 0);  // the output element's multi-index
    for (int64_t i = 0; i < shape.num_elements(); ++i) {
      int64_t a = 0, b = 0;
      for (int d = 0; d < shape.dims(); ++d) {
        a += at[d] * in_strides[d];
        b += at[d] * pos_strides[d];
      }
      absl::Status st =
          is64 ? SubstrOne(*this, s[a], pos.data<int64_t>()[b], len.data<int64_t>()[b], utf8_,
                           i, &o[i])
               : SubstrOne(*this, s[a], pos.data<int32_t>()[b], len.data<int32_t>()[b], utf8_,
                           i, &o[i]);
      OP_REQUIRES_OK(ctx, st);
      for (int d = shape.dims() - 1; d >= 0 && ++at[d] == shape.dim_size(d); --d) at[d] = 0;
    }
  }

 private:
  bool utf8_;
};
REGISTER_KERNEL_BUILDER(Name("Substr").Device(DEVICE_CPU).TypeConstraint("T", {DT_INT32, DT_INT64}),
                        SubstrOp);

}  // namespace
}  // namespace sg
