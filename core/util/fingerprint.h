// FarmHash fingerprints, as TensorFlow computes them: Fingerprint64 of a byte string (its
// StringToHashBucketFast, Fingerprint and the hashed SparseCross ops), and FingerprintCat64,
// which combines two fingerprints into one (the hashed feature crosses chain it).
//
//   uint64_t h = sg::Fingerprint64("hello");
//   uint64_t both = sg::FingerprintCat64(h, sg::Fingerprint64("world"));
//
// Both are pure functions of their arguments, the same on every platform and in every release
// (models store the hashes they were trained with), and safe from any thread.
#ifndef SG_CORE_UTIL_FINGERPRINT_H_
#define SG_CORE_UTIL_FINGERPRINT_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace sg {

// FarmHash's Fingerprint64 (farmhashna) of the bytes of `s`.
uint64_t Fingerprint64(absl::string_view s);

// A fingerprint of the pair (a, b), order-sensitive: TensorFlow's FingerprintCat64.
uint64_t FingerprintCat64(uint64_t a, uint64_t b);

}  // namespace sg

#endif  // SG_CORE_UTIL_FINGERPRINT_H_
