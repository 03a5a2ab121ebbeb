// The samples TensorFlow's random ops draw from Philox blocks, per output dtype, and the parallel
// fill that lays them out as TensorFlow does, shared by the stateful ops (random_ops.cc) and the
// stateless ones (stateless_random_ops.cc).
//
// A fixed-count distribution turns one 128-bit block into one group of kGroupSize<T> outputs
// (4 for 32- and 16-bit types, 2 for 64-bit ones); output group g reads block g. Truncated normals
// reject samples, so group g reads from block g * kGroupSize<T> * 64 on, one word at a time, as
// many as it needs.
//
//   random::FillFixed<T>(device, gen, out, n, [&](const Philox4x32::Result& s, T* v) {
//     random::UniformGroup(s, v);
//   });
#ifndef SG_CORE_KERNELS_RANDOM_DISTRIBUTIONS_H_
#define SG_CORE_KERNELS_RANDOM_DISTRIBUTIONS_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "core/framework/types.h"
#include "core/kernels/parallel_for.h"
#include "core/kernels/philox_random.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sg {
namespace random {

template <typename T>
constexpr int kGroupSize = sizeof(T) == 8 ? 2 : 4;

// Blocks a truncated-normal group may consume (256 words per output).
template <typename T>
constexpr uint64_t kTruncatedBlocksPerGroup = kGroupSize<T> * 256 / 4;

// Uniform in [0, 1): 23 mantissa bits for float, 52 for double, 10 for half, 7 for bfloat16.
template <typename T>
void UniformGroup(const Philox4x32::Result& s, T* v) {
  if constexpr (std::is_same<T, double>::value) {
    v[0] = Uint64ToDouble(s[0], s[1]);
    v[1] = Uint64ToDouble(s[2], s[3]);
  } else {
    for (int i = 0; i < 4; ++i) {
      if constexpr (std::is_same<T, half>::value) {
        v[i] = static_cast<T>(Uint16ToHalfAsFloat(s[i]));
      } else if constexpr (std::is_same<T, bfloat16>::value) {
        v[i] = static_cast<T>(Uint16ToBfloat16AsFloat(s[i]));
      } else {
        v[i] = Uint32ToFloat(s[i]);
      }
    }
  }
}

// Standard normals by Box-Muller, in float for the 16- and 32-bit types, rounded once to T.
template <typename T>
void NormalGroup(const Philox4x32::Result& s, T* v) {
  if constexpr (std::is_same<T, double>::value) {
    BoxMullerDouble(s[0], s[1], s[2], s[3], &v[0], &v[1]);
  } else {
    float f[4];
    BoxMullerFloat(s[0], s[1], &f[0], &f[1]);
    BoxMullerFloat(s[2], s[3], &f[2], &f[3]);
    for (int i = 0; i < 4; ++i) v[i] = static_cast<T>(f[i]);
  }
}

// lo + bits mod range, from 32 bits per output for 32-bit types and 64 for 64-bit ones.
template <typename T>
void UniformIntGroup(const Philox4x32::Result& s, T lo, std::make_unsigned_t<T> range, T* v) {
  using U = std::make_unsigned_t<T>;
  if constexpr (sizeof(T) == 8) {
    for (int i = 0; i < 2; ++i) {
      const uint64_t bits = s[2 * i] | (static_cast<uint64_t>(s[2 * i + 1]) << 32);
      v[i] = static_cast<T>(static_cast<U>(lo) + bits % range);
    }
  } else {
    for (int i = 0; i < 4; ++i) v[i] = static_cast<T>(static_cast<U>(lo) + s[i] % range);
  }
}

// Every bit pattern equally likely.
template <typename T>
void FullIntGroup(const Philox4x32::Result& s, T* v) {
  if constexpr (sizeof(T) == 8) {
    for (int i = 0; i < 2; ++i) {
      v[i] = static_cast<T>(s[2 * i] | (static_cast<uint64_t>(s[2 * i + 1]) << 32));
    }
  } else {
    for (int i = 0; i < 4; ++i) v[i] = static_cast<T>(s[i]);
  }
}

// One group of normals with |x| < 2, by rejection, from `sampler`'s words.
template <typename T>
void TruncatedNormalGroup(SingleSampler* sampler, T* v) {
  constexpr int kGroup = kGroupSize<T>;
  int filled = 0;
  while (filled < kGroup) {
    if constexpr (std::is_same<T, double>::value) {
      const uint32_t x0 = (*sampler)(), x1 = (*sampler)(), x2 = (*sampler)(),
                     x3 = (*sampler)();
      double z[2];
      BoxMullerDouble(x0, x1, x2, x3, &z[0], &z[1]);
      for (int i = 0; i < 2 && filled < kGroup; ++i) {
        if (std::abs(z[i]) < 2.0) v[filled++] = z[i];
      }
    } else {
      const uint32_t x0 = (*sampler)(), x1 = (*sampler)();
      float z[2];
      BoxMullerFloat(x0, x1, &z[0], &z[1]);
      for (int i = 0; i < 2 && filled < kGroup; ++i) {
        if (std::abs(z[i]) < 2.0f) v[filled++] = static_cast<T>(z[i]);
      }
    }
  }
}

// out[0, n) from a fixed-count distribution: group g is group_fn(block g of gen, values).
template <typename T, typename GroupFn>
void FillFixed(const Eigen::ThreadPoolDevice& device, const Philox4x32& gen, T* out, int64_t n,
               GroupFn group_fn) {
  constexpr int kGroup = kGroupSize<T>;
  const int64_t groups = (n + kGroup - 1) / kGroup;
  ParallelFor(device, groups, Eigen::TensorOpCost(0, kGroup * sizeof(T), 60),
                     [&](Eigen::Index begin, Eigen::Index end) {
                       Philox4x32 g = gen;
                       g.Skip(static_cast<uint64_t>(begin));
                       for (Eigen::Index i = begin; i < end; ++i) {
                         T v[kGroup];
                         group_fn(g(), v);
                         const int64_t at = i * kGroup;
                         std::copy_n(v, std::min<int64_t>(kGroup, n - at), out + at);
                       }
                     });
}

// out[0, n) of truncated normals.
template <typename T>
void FillTruncatedNormal(const Eigen::ThreadPoolDevice& device, const Philox4x32& gen, T* out,
                         int64_t n) {
  constexpr int kGroup = kGroupSize<T>;
  const int64_t groups = (n + kGroup - 1) / kGroup;
  ParallelFor(device, groups, Eigen::TensorOpCost(0, kGroup * sizeof(T), 200),
                     [&](Eigen::Index begin, Eigen::Index end) {
                       for (Eigen::Index i = begin; i < end; ++i) {
                         Philox4x32 g = gen;
                         g.Skip(static_cast<uint64_t>(i) * kTruncatedBlocksPerGroup<T>);
                         SingleSampler sampler(&g);
                         T v[kGroup];
                         TruncatedNormalGroup<T>(&sampler, v);
                         const int64_t at = i * kGroup;
                         std::copy_n(v, std::min<int64_t>(kGroup, n - at), out + at);
                       }
                     });
}

}  // namespace random
}  // namespace sg

#endif  // SG_CORE_KERNELS_RANDOM_DISTRIBUTIONS_H_
