// Fingerprints of byte strings, as TensorFlow computes them: FarmHash's Fingerprint64 (stable
// across platforms and releases, unlike std::hash) and the way TensorFlow chains two of them.
// StringToHashBucketFast, StringToHashBucket, Fingerprint and the SparseCross family hash with
// these, so the buckets they give are TensorFlow's.
//
//   uint64_t h = Fingerprint64("token");
//   h = FingerprintCat64(h, Fingerprint64("next"));   // a fingerprint of the pair, in order
#ifndef SG_CORE_UTIL_FINGERPRINT_H_
#define SG_CORE_UTIL_FINGERPRINT_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace sg {

// FarmHash's Fingerprint64 of the bytes of `s` (Debian's libfarmhash). Thread-safe.
uint64_t Fingerprint64(absl::string_view s);

// Combines two fingerprints into one, as TensorFlow's FingerprintCat64 does: order matters
// (FingerprintCat64(a, b) != FingerprintCat64(b, a) in general). Thread-safe.
uint64_t FingerprintCat64(uint64_t a, uint64_t b);

}  // namespace sg

#endif  // SG_CORE_UTIL_FINGERPRINT_H_
