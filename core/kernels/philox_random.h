// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011), the
// counter-based generator TensorFlow's random ops use, and the conversions of its 32-bit outputs
// to uniform and normal samples. Seeded as TensorFlow seeds it: the key is `seed`, the upper half
// of the 128-bit counter is `seed2`, so equal seeds give TensorFlow's streams. The stateless ops
// start from an explicit key and counter instead (FromSeedPair derives them from a seed pair).
#ifndef SG_CORE_KERNELS_PHILOX_RANDOM_H_
#define SG_CORE_KERNELS_PHILOX_RANDOM_H_

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace sg {
namespace random {

class Philox4x32 {
 public:
  using Result = std::array<uint32_t, 4>;
  using Key = std::array<uint32_t, 2>;

  Philox4x32() = default;
  Philox4x32(const Result& counter, const Key& key) : counter_(counter), key_(key) {}
  Philox4x32(uint64_t seed, uint64_t seed2) {
    key_[0] = static_cast<uint32_t>(seed);
    key_[1] = static_cast<uint32_t>(seed >> 32);
    counter_[2] = static_cast<uint32_t>(seed2);
    counter_[3] = static_cast<uint32_t>(seed2 >> 32);
  }

  const Result& counter() const { return counter_; }
  const Key& key() const { return key_; }

  // Moves the counter `count` blocks of four outputs ahead.
  void Skip(uint64_t count) {
    const uint32_t lo = static_cast<uint32_t>(count);
    uint32_t hi = static_cast<uint32_t>(count >> 32);
    counter_[0] += lo;
    if (counter_[0] < lo) ++hi;
    counter_[1] += hi;
    if (counter_[1] < hi) {
      if (++counter_[2] == 0) ++counter_[3];
    }
  }

  // The next four 32-bit outputs.
  Result operator()() {
    Result c = counter_;
    std::array<uint32_t, 2> k = key_;
    for (int round = 0; round < 10; ++round) {
      const uint64_t p0 = uint64_t{kM0} * c[0];
      const uint64_t p1 = uint64_t{kM1} * c[2];
      const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
      const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
      c = {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
      k[0] += kW0;
      k[1] += kW1;
    }
    if (++counter_[0] == 0 && ++counter_[1] == 0 && ++counter_[2] == 0) ++counter_[3];
    return c;
  }

 private:
  static constexpr uint32_t kM0 = 0xD2511F53, kM1 = 0xCD9E8D57;
  static constexpr uint32_t kW0 = 0x9E3779B9, kW1 = 0xBB67AE85;
  std::array<uint32_t, 4> counter_{};
  std::array<uint32_t, 2> key_{};
};

// The generator of the stateless ops for the seed pair (s0, s1): one block of Philox under a
// fixed key, its counter the two seeds, scrambles them (so neither half of the seed needs to be
// strong); the block's first two words are the key, its last two the counter's upper half.
inline Philox4x32 FromSeedPair(uint64_t s0, uint64_t s1) {
  const Philox4x32::Result seeds = {static_cast<uint32_t>(s0), static_cast<uint32_t>(s0 >> 32),
                                    static_cast<uint32_t>(s1), static_cast<uint32_t>(s1 >> 32)};
  Philox4x32 scramble(seeds, {0x3ec8f720u, 0x02461e29u});
  const Philox4x32::Result mix = scramble();
  return Philox4x32({0, 0, mix[2], mix[3]}, {mix[0], mix[1]});
}

// Hands out the generator's outputs one 32-bit word at a time.
class SingleSampler {
 public:
  explicit SingleSampler(Philox4x32* gen) : gen_(gen) {}
  uint32_t operator()() {
    if (used_ == 4) {
      block_ = (*gen_)();
      used_ = 0;
    }
    return block_[used_++];
  }

 private:
  Philox4x32* gen_;
  Philox4x32::Result block_{};
  int used_ = 4;
};

// Uniform in [0, 1) from the low 23 bits: a float in [1, 2) minus one.
inline float Uint32ToFloat(uint32_t x) {
  const uint32_t bits = (127u << 23) | (x & 0x7fffffu);
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f - 1.0f;
}

// Uniform in [0, 1) from 52 bits: the low 20 bits of x0 above the 32 of x1.
inline double Uint64ToDouble(uint32_t x0, uint32_t x1) {
  const uint64_t man = (static_cast<uint64_t>(x0 & 0xfffffu) << 32) | x1;
  const uint64_t bits = (uint64_t{1023} << 52) | man;
  double d;
  std::memcpy(&d, &bits, sizeof(d));
  return d - 1.0;
}

// Uniform in [0, 1) as the bits of a half: the low 10 bits; returned as float in [1, 2) - 1
// exactly representable in half.
inline float Uint16ToHalfAsFloat(uint32_t x) {
  return 1.0f + static_cast<float>(x & 0x3ffu) / 1024.0f - 1.0f;
}

// Uniform in [0, 1) as the bits of a bfloat16: the low 7 bits.
inline float Uint16ToBfloat16AsFloat(uint32_t x) {
  return static_cast<float>(x & 0x7fu) / 128.0f;
}

// Two standard normals from two uniforms (Box-Muller). The angle is 2*pi*u rounded to float once
// (computed in double), as TensorFlow computes it.
inline void BoxMullerFloat(uint32_t x0, uint32_t x1, float* f0, float* f1) {
  const float kEpsilon = 1.0e-7f;
  float u1 = Uint32ToFloat(x0);
  if (u1 < kEpsilon) u1 = kEpsilon;
  const float v1 = static_cast<float>(2.0 * M_PI * Uint32ToFloat(x1));
  const float u2 = std::sqrt(-2.0f * std::log(u1));
  *f0 = std::sin(v1) * u2;
  *f1 = std::cos(v1) * u2;
}

inline void BoxMullerDouble(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3, double* d0,
                            double* d1) {
  const double kEpsilon = 1.0e-7;
  double u1 = Uint64ToDouble(x0, x1);
  if (u1 < kEpsilon) u1 = kEpsilon;
  const double v1 = 2 * M_PI * Uint64ToDouble(x2, x3);
  const double u2 = std::sqrt(-2.0 * std::log(u1));
  *d0 = std::sin(v1) * u2;
  *d1 = std::cos(v1) * u2;
}

}  // namespace random
}  // namespace sg

#endif  // SG_CORE_KERNELS_PHILOX_RANDOM_H_
