#include "core/util/fingerprint.h"

#include "farmhash.h"

namespace sg {
namespace {

// The multiplier of MurmurHash2's 64-bit mix, which TensorFlow's FingerprintCat64 uses.
constexpr uint64_t kMul = 0xc6a4a7935bd1e995ULL;

inline uint64_t ShiftMix(uint64_t v) { return v ^ (v >> 47); }

}  // namespace

uint64_t Fingerprint64(absl::string_view s) { return util::Fingerprint64(s.data(), s.size()); }

uint64_t FingerprintCat64(uint64_t a, uint64_t b) {
  uint64_t h = (a ^ kMul) ^ (ShiftMix(b * kMul) * kMul);
  h *= kMul;
  h = ShiftMix(h) * kMul;
  return ShiftMix(h);
}

}  // namespace sg
