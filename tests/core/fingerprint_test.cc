// Fingerprint64 and FingerprintCat64 against FarmHash's published value for the empty string and
// against TensorFlow 2.21's outputs (tf.fingerprint for Fingerprint64; SparseCross with
// hashed_output and num_buckets 0, which returns FingerprintCat64(FingerprintCat64(hash_key,
// Fingerprint64(a)), Fingerprint64(b)) modulo 2^63 - 1, for FingerprintCat64).
#include "core/util/fingerprint.h"

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

namespace sg {
namespace {

TEST(Fingerprint64, EmptyStringIsFarmHashsConstant) {
  // FarmHash's fingerprint of no bytes is its constant k2.
  EXPECT_EQ(Fingerprint64(""), 0x9ae16a3b2f90404fULL);
}

TEST(Fingerprint64, MatchesTensorFlowForEveryLengthClass) {
  // FarmHash takes a different path for 0-16, 17-32, 33-64 and longer inputs.
  std::string bytes200;
  for (int i = 0; i < 200; ++i) bytes200.push_back(static_cast<char>(i));
  EXPECT_EQ(Fingerprint64("a"), 0xb3454265b6df75e3ULL);
  EXPECT_EQ(Fingerprint64("hello"), 0xb48be5a931380ce8ULL);
  EXPECT_EQ(Fingerprint64("TensorFlow"), 0x3b32a5d4a84a82ceULL);
  EXPECT_EQ(Fingerprint64(std::string(17, 'x')), 0x9ce745a1f3812fa5ULL);
  EXPECT_EQ(Fingerprint64(std::string(33, 'y')), 0x777f79e52d060efeULL);
  EXPECT_EQ(Fingerprint64(std::string(65, 'z')), 0x732f393fa3e7df35ULL);
  EXPECT_EQ(Fingerprint64(bytes200), 0x074c7fcc26d66fb3ULL);
}

TEST(FingerprintCat64, MatchesTensorFlowsSparseCross) {
  const uint64_t a = Fingerprint64("a");
  const uint64_t b = Fingerprint64("b");
  constexpr uint64_t kInt64Max = 0x7fffffffffffffffULL;
  EXPECT_EQ(FingerprintCat64(FingerprintCat64(0, a), b) % kInt64Max, 3449777971007153233ULL);
  EXPECT_EQ(FingerprintCat64(FingerprintCat64(1, a), b) % kInt64Max, 322520104568052393ULL);
  EXPECT_EQ(FingerprintCat64(FingerprintCat64(0xDECAFCAFFEULL, a), b) % kInt64Max,
            5527121959452899179ULL);
  // Before the modulo (computed from the definition): the full 64 bits.
  EXPECT_EQ(FingerprintCat64(FingerprintCat64(0, a), b), 0xafe012c973d96450ULL);
}

TEST(FingerprintCat64, DependsOnOrder) {
  EXPECT_NE(FingerprintCat64(1, 2), FingerprintCat64(2, 1));
}

}  // namespace
}  // namespace sg
