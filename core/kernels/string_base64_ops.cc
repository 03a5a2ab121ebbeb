// EncodeBase64 and DecodeBase64, as TensorFlow's: the web-safe alphabet of RFC 4648 section 5
// ('-' and '_' in place of '+' and '/'), '=' padding on request when encoding, and decoding that
// takes a string with or without its padding.
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

constexpr char kAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string Encode(absl::string_view in, bool pad) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    const uint32_t v = (p[i] << 16) | (p[i + 1] << 8) | p[i + 2];
    for (int k = 3; k >= 0; --k) out.push_back(kAlphabet[(v >> (6 * k)) & 63]);
  }
  const size_t rest = in.size() - i;  // 0, 1 or 2 bytes: 0, 2 or 3 characters
  if (rest > 0) {
    const uint32_t v = (p[i] << 16) | (rest == 2 ? p[i + 1] << 8 : 0);
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    if (rest == 2) out.push_back(kAlphabet[(v >> 6) & 63]);
    if (pad) out.append(3 - rest, '=');
  }
  return out;
}

// The 6-bit value of a web-safe base64 character, or -1.
int Sextet(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

// Up to two '=' end a string whose length is a multiple of 4; a tail of 1 character cannot hold
// a byte; bits of the last character past the last whole byte are ignored.
absl::Status Decode(absl::string_view in, std::string* out) {
  if (in.size() % 4 == 0) {
    for (int k = 0; k < 2 && !in.empty() && in.back() == '='; ++k) in.remove_suffix(1);
  }
  if (in.size() % 4 == 1) {
    return absl::InvalidArgumentError("Base64 string length cannot be 1 modulo 4.");
  }
  out->clear();
  out->reserve(in.size() / 4 * 3 + 2);
  uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : in) {
    const int v = Sextet(c);
    if (v < 0) return absl::InvalidArgumentError("Invalid character found in base64.");
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return absl::OkStatus();
}

class EncodeBase64Op final : public OpKernel {
 public:
  explicit EncodeBase64Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("pad", &pad_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    const tstring* s = in.data<tstring>();
    tstring* o = out->data<tstring>();
    for (int64_t i = 0; i < in.NumElements(); ++i) o[i] = Encode(s[i], pad_);
  }

 private:
  bool pad_;
};
REGISTER_KERNEL_BUILDER(Name("EncodeBase64").Device(DEVICE_CPU), EncodeBase64Op);

class DecodeBase64Op final : public OpKernel {
 public:
  explicit DecodeBase64Op(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    const tstring* s = in.data<tstring>();
    tstring* o = out->data<tstring>();
    for (int64_t i = 0; i < in.NumElements(); ++i) {
      absl::Status st = Decode(s[i], &o[i]);
      OP_REQUIRES(ctx, st.ok(), KernelError(*this, st.message(), " (element ", i, ")"));
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("DecodeBase64").Device(DEVICE_CPU), DecodeBase64Op);

}  // namespace
}  // namespace sg
