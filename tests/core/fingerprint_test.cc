// sg::Fingerprint64 and sg::FingerprintCat64 against values TensorFlow 2.21 computes (its
// Fingerprint op and hashed SparseCross), which include the vectors TensorFlow publishes as
// frozen forever ("Hello", "World").
#include "core/util/fingerprint.h"

#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace sg {
namespace {

TEST(Fingerprint64, MatchesTensorFlowsPublishedValues) {
  EXPECT_EQ(Fingerprint64("Hello"), 15404698994557526151ULL);
  EXPECT_EQ(Fingerprint64("World"), 18308117990299812472ULL);
}

// tf.fingerprint(...) (method farmhash64), read as little-endian uint64s: lengths on each side of
// FarmHash's 16, 32 and 64-byte code paths.
TEST(Fingerprint64, MatchesTensorFlowOnEveryLengthClass) {
  std::string all(256, '\0');
  for (int i = 0; i < 256; ++i) all[i] = static_cast<char>(i);
  EXPECT_EQ(Fingerprint64(""), 11160318154034397263ULL);
  EXPECT_EQ(Fingerprint64("a"), 12917804110809363939ULL);
  EXPECT_EQ(Fingerprint64("hello world"), 6381520714923946011ULL);
  EXPECT_EQ(Fingerprint64(std::string(17, 'x')), 11306081951414300581ULL);
  EXPECT_EQ(Fingerprint64(std::string(33, 'y')), 8610735037765521150ULL);
  EXPECT_EQ(Fingerprint64(std::string(64, 'z')), 294799756062990872ULL);
  EXPECT_EQ(Fingerprint64(std::string(65, 'w')), 12495383604066267776ULL);
  EXPECT_EQ(Fingerprint64(all), 5291657088564336415ULL);
}

// TensorFlow's hashed SparseCross of one column with num_buckets = 0 outputs
// FingerprintCat64(hash_key, feature) % INT64_MAX, the feature an int64 as is or a string's
// Fingerprint64.
TEST(FingerprintCat64, MatchesTensorFlowsHashedCross) {
  constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr uint64_t kKey = 956888297470ULL;
  EXPECT_EQ(FingerprintCat64(kKey, 0) % kMax, 1950187560451231046ULL);
  EXPECT_EQ(FingerprintCat64(kKey, 1) % kMax, 5199413699614396413ULL);
  EXPECT_EQ(FingerprintCat64(kKey, 12345) % kMax, 2490522787809386254ULL);
  EXPECT_EQ(FingerprintCat64(kKey, static_cast<uint64_t>(-1)) % kMax, 4320402171578694657ULL);
  EXPECT_EQ(FingerprintCat64(0, Fingerprint64("Hello")) % kMax, 4677859362240557760ULL);
  EXPECT_EQ(FingerprintCat64(0, Fingerprint64("World")) % kMax, 4921079725236393735ULL);
}

TEST(FingerprintCat64, DependsOnTheOrder) {
  EXPECT_NE(FingerprintCat64(1, 2), FingerprintCat64(2, 1));
}

}  // namespace
}  // namespace sg
