// What the random kernels share beyond the samples themselves: reading a shape input, the
// generator of a stateless op's seed pair or of a V2 op's key, counter and algorithm, and the
// generator a stateful op owns.
//
//   GuardedPhilox gen;                        // in the constructor:
//   OP_REQUIRES_OK(ctx, gen.Init(ctx));       //   attrs seed, seed2 (both 0: a random seed)
//   Philox4x32 g = gen.Reserve(n * 256);      // in Compute: this run's blocks, under the lock
#ifndef SG_CORE_KERNELS_RANDOM_OP_UTIL_H_
#define SG_CORE_KERNELS_RANDOM_OP_UTIL_H_

#include <algorithm>
#include <random>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/philox_random.h"

namespace sg {
namespace random {

// The shape a shape input names: an int32/int64 vector of non-negative sizes.
inline absl::Status ShapeFromTensor(const OpKernel& k, const Tensor& t, TensorShape* shape) {
  if (t.dims() != 1 || (t.dtype() != DT_INT32 && t.dtype() != DT_INT64)) {
    return KernelError(k, "shape must be a vector of {int32,int64}, got shape ",
                       t.shape().DebugString());
  }
  std::vector<int64_t> dims(t.NumElements());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    dims[i] = t.dtype() == DT_INT64 ? t.data<int64_t>()[i] : t.data<int32_t>()[i];
  }
  auto s = TensorShape::Build(dims);
  if (!s.ok()) return KernelError(k, s.status().message());
  *shape = *s;
  return absl::OkStatus();
}

inline absl::Status CheckSeedShape(const OpKernel& k, const Tensor& seed) {
  if (seed.dims() != 1 || seed.dim_size(0) != 2) {
    return KernelError(k, "seed must have shape [2], not ", seed.shape().DebugString());
  }
  return absl::OkStatus();
}

// The generator of a seed pair of shape [2] (int32 seeds are sign-extended to 64 bits).
inline absl::Status GeneratorFromSeed(const OpKernel& k, const Tensor& seed, Philox4x32* gen) {
  uint64_t s0, s1;
  if (seed.dtype() == DT_INT32) {
    s0 = static_cast<uint64_t>(static_cast<int64_t>(seed.data<int32_t>()[0]));
    s1 = static_cast<uint64_t>(static_cast<int64_t>(seed.data<int32_t>()[1]));
  } else if (seed.dtype() == DT_INT64) {
    s0 = static_cast<uint64_t>(seed.data<int64_t>()[0]);
    s1 = static_cast<uint64_t>(seed.data<int64_t>()[1]);
  } else {
    return KernelError(k, "Invalid seed type: ", DataTypeString(seed.dtype()));
  }
  *gen = FromSeedPair(s0, s1);
  return absl::OkStatus();
}

// TensorFlow's RNG algorithm ids (the V2 ops' alg input).
constexpr int kAlgPhilox = 1;
constexpr int kAlgAutoSelect = 3;

// The V2 ops' algorithm input (a scalar), auto-select resolved to Philox.
inline absl::Status ReadAlgorithm(const OpKernel& k, const Tensor& alg_t, int* alg) {
  if (alg_t.dims() != 0 || alg_t.dtype() != DT_INT32) {
    return KernelError(k, "input 3 (0-based) must have shape [], not ",
                       alg_t.shape().DebugString());
  }
  *alg = alg_t.data<int32_t>()[0];
  if (*alg == kAlgAutoSelect) *alg = kAlgPhilox;
  return absl::OkStatus();
}

// Key [1] and counter [at least the algorithm's counter size] (Philox: 2 words of 64 bits).
// TensorFlow asks for `alg` words whatever the algorithm; sg asks Philox for the 2 it reads.
inline absl::Status CheckKeyCounter(const OpKernel& k, int alg, const Tensor& key,
                                   const Tensor& counter) {
  if (key.dims() != 1 || key.dim_size(0) != 1) {
    return KernelError(k, "key must have shape [1], not ", key.shape().DebugString(),
                       ". (Note that batched keys are not supported yet.)");
  }
  const int64_t min_counter = alg == kAlgPhilox ? 2 : std::max(alg, 0);
  if (counter.dims() != 1 || counter.dim_size(0) < min_counter) {
    return KernelError(k, "counter must be a vector with length at least ", min_counter,
                       "; got shape: ", counter.shape().DebugString(),
                       ". (Note that batched counters are not supported yet.)");
  }
  return absl::OkStatus();
}

// The Philox generator a V2 op's key and counter describe.
inline absl::Status GeneratorFromKeyCounter(const OpKernel& k, int alg, const Tensor& key_t,
                                            const Tensor& counter_t, Philox4x32* gen) {
  if (alg != kAlgPhilox) return KernelError(k, "Unsupported algorithm id: ", alg);
  const uint64_t key = key_t.data<uint64_t>()[0];
  const uint64_t* c = counter_t.data<uint64_t>();
  *gen = Philox4x32({static_cast<uint32_t>(c[0]), static_cast<uint32_t>(c[0] >> 32),
                     static_cast<uint32_t>(c[1]), static_cast<uint32_t>(c[1] >> 32)},
                    {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
  return absl::OkStatus();
}

// A stateful op's generator: seeded from attrs seed and seed2 (fresh random seeds when both are
// 0); each run takes its blocks and moves it past them, so runs draw new values.
class GuardedPhilox {
 public:
  absl::Status Init(OpKernelConstruction* ctx) {
    int64_t seed = 0, seed2 = 0;
    SG_RETURN_IF_ERROR(ctx->GetAttr("seed", &seed));
    SG_RETURN_IF_ERROR(ctx->GetAttr("seed2", &seed2));
    if (seed == 0 && seed2 == 0) {
      std::random_device rd;
      seed = static_cast<int64_t>((static_cast<uint64_t>(rd()) << 32) | rd());
      seed2 = static_cast<int64_t>((static_cast<uint64_t>(rd()) << 32) | rd());
    }
    absl::MutexLock lock(&mu_);
    gen_ = Philox4x32(static_cast<uint64_t>(seed), static_cast<uint64_t>(seed2));
    return absl::OkStatus();
  }

  // The generator as it stands, for `blocks` 128-bit blocks; moves past them. Thread-safe.
  Philox4x32 Reserve(uint64_t blocks) {
    absl::MutexLock lock(&mu_);
    Philox4x32 at = gen_;
    gen_.Skip(blocks);
    return at;
  }

 private:
  absl::Mutex mu_;
  Philox4x32 gen_ ABSL_GUARDED_BY(mu_);
};

}  // namespace random
}  // namespace sg

#endif  // SG_CORE_KERNELS_RANDOM_OP_UTIL_H_
