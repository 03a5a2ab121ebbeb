// Hashes of strings with TensorFlow's exact functions, so that buckets and fingerprints match:
// StringToHashBucket (TensorFlow's legacy Hash64: MurmurHash64A seeded with 0xDECAFCAFFE),
// StringToHashBucketStrong (SipHash-2-4 under a 128-bit key, from Debian's libhighwayhash) and
// Fingerprint (FarmHash's Fingerprint64 of each row, as little-endian bytes).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/util/fingerprint.h"
#include "highwayhash/sip_hash.h"

namespace sg {
namespace {

// MurmurHash64A (Austin Appleby's published MurmurHash2, 64-bit version for 64-bit machines):
// 8-byte little-endian blocks, then the 0-7 tail bytes, then a final avalanche. TensorFlow's
// Hash64(string) is this function with seed 0xDECAFCAFFE.
uint64_t MurmurHash64A(absl::string_view s, uint64_t seed) {
  constexpr uint64_t m = 0xc6a4a7935bd1e995ULL;
  constexpr int r = 47;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size();
  uint64_t h = seed ^ (static_cast<uint64_t>(n) * m);
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t k = 0;
    for (int i = 7; i >= 0; --i) k = (k << 8) | p[i];
    k *= m;
    k ^= k >> r;
    k *= m;
    h ^= k;
    h *= m;
  }
  if (n > 0) {
    for (size_t i = n; i-- > 0;) h ^= static_cast<uint64_t>(p[i]) << (8 * i);
    h *= m;
  }
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return h;
}

constexpr uint64_t kLegacyHashSeed = 0xDECAFCAFFEULL;

absl::Status ReadNumBuckets(OpKernelConstruction* ctx, uint64_t* out) {
  int64_t n;
  SG_RETURN_IF_ERROR(ctx->GetAttr("num_buckets", &n));
  if (n < 1) return absl::InvalidArgumentError(absl::StrCat("num_buckets must be >= 1, got ", n));
  *out = static_cast<uint64_t>(n);
  return absl::OkStatus();
}

// Output i = Hash(input i) % num_buckets, input and output of one shape.
template <typename Hash>
void HashToBuckets(OpKernelContext* ctx, const Hash& hash, uint64_t num_buckets) {
  const Tensor& in = ctx->input(0);
  Tensor* out;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
  const tstring* s = in.data<tstring>();
  int64_t* o = out->data<int64_t>();
  for (int64_t i = 0; i < in.NumElements(); ++i) {
    o[i] = static_cast<int64_t>(hash(s[i]) % num_buckets);
  }
}

class StringToHashBucketOp final : public OpKernel {
 public:
  explicit StringToHashBucketOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadNumBuckets(ctx, &num_buckets_));
  }

  void Compute(OpKernelContext* ctx) override {
    HashToBuckets(
        ctx, [](const tstring& s) { return MurmurHash64A(s, kLegacyHashSeed); }, num_buckets_);
  }

 private:
  uint64_t num_buckets_;
};
REGISTER_KERNEL_BUILDER(Name("StringToHashBucket").Device(DEVICE_CPU), StringToHashBucketOp);

class StringToHashBucketStrongOp final : public OpKernel {
 public:
  explicit StringToHashBucketStrongOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadNumBuckets(ctx, &num_buckets_));
    std::vector<int64_t> key;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("key", &key));
    OP_REQUIRES(ctx, key.size() == 2,
                absl::InvalidArgumentError(absl::StrCat(
                    "Key must have 2 elements, got ", key.size(), " (node '", name(), "')")));
    key_[0] = static_cast<uint64_t>(key[0]);
    key_[1] = static_cast<uint64_t>(key[1]);
  }

  void Compute(OpKernelContext* ctx) override {
    HashToBuckets(
        ctx,
        [this](const tstring& s) { return highwayhash::SipHash(key_, s.data(), s.size()); },
        num_buckets_);
  }

 private:
  uint64_t num_buckets_;
  highwayhash::HH_U64 key_[2];
};
REGISTER_KERNEL_BUILDER(Name("StringToHashBucketStrong").Device(DEVICE_CPU),
                        StringToHashBucketStrongOp);

// ---- Fingerprint ----------------------------------------------------------------------------

constexpr int kFingerprintSize = 8;

void StoreLittleEndian(uint64_t v, uint8_t* out) {
  for (int i = 0; i < kFingerprintSize; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
}

// Row i of the output: the fingerprint of row i of `data` (its first dimension indexes rows).
// A numeric row is fingerprinted as its bytes in memory; a string row of one element as that
// string; a string row of several elements as the concatenation of their fingerprints' bytes
// (so that ["ab", "c"] and ["a", "bc"] differ), as TensorFlow does.
class FingerprintOp final : public OpKernel {
 public:
  explicit FingerprintOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& data = ctx->input(0);
    const Tensor& method = ctx->input(1);
    OP_REQUIRES(ctx, method.dims() == 0,
                KernelError(*this, "`method` should be a scalar string: ",
                            method.shape().DebugString()));
    OP_REQUIRES(ctx, method.data<tstring>()[0] == "farmhash64",
                KernelError(*this, "Unsupported fingerprint method: ", method.data<tstring>()[0]));
    OP_REQUIRES(ctx, data.dims() >= 1,
                KernelError(*this, "`data` should have at least one dimension: ",
                            data.shape().DebugString()));
    const DataType dt = BaseType(data.dtype());
    OP_REQUIRES(ctx, dt == DT_STRING || DataTypeSize(dt) > 0, UnsupportedType(*this, dt));
    const int64_t rows = data.dim_size(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({rows, kFingerprintSize}), &out));
    if (rows == 0) return;
    uint8_t* o = out->data<uint8_t>();
    const int64_t per_row = data.NumElements() / rows;
    if (dt != DT_STRING) {
      const size_t row_bytes = static_cast<size_t>(per_row) * DataTypeSize(dt);
      const char* bytes = static_cast<const char*>(data.raw_data());
      for (int64_t i = 0; i < rows; ++i) {
        StoreLittleEndian(Fingerprint64(absl::string_view(bytes + i * row_bytes, row_bytes)),
                          o + i * kFingerprintSize);
      }
      return;
    }
    const tstring* s = data.data<tstring>();
    if (per_row == 1) {
      for (int64_t i = 0; i < rows; ++i) {
        StoreLittleEndian(Fingerprint64(s[i]), o + i * kFingerprintSize);
      }
      return;
    }
    std::string row(static_cast<size_t>(per_row) * kFingerprintSize, '\0');
    auto* r = reinterpret_cast<uint8_t*>(&row[0]);
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < per_row; ++j) {
        StoreLittleEndian(Fingerprint64(s[i * per_row + j]), r + j * kFingerprintSize);
      }
      StoreLittleEndian(Fingerprint64(row), o + i * kFingerprintSize);
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("Fingerprint").Device(DEVICE_CPU), FingerprintOp);

}  // namespace
}  // namespace sg
