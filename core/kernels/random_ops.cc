// RandomUniform, RandomStandardNormal, TruncatedNormal and RandomUniformInt on the Philox
// generator, reproducing TensorFlow's streams: each kernel owns a generator seeded from
// (seed, seed2) (fresh random seeds when both are 0); a run reserves 256 blocks per output element
// and moves the generator past them, so successive runs draw new values. Output group g (4 floats,
// 2 doubles) reads block g; a truncated-normal group reads from block 256*g on (as many words as
// rejection needs).
#include <random>

#include "absl/synchronization/mutex.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/philox_random.h"

namespace sg {
namespace {

using random::Philox4x32;

enum class Dist { kUniform, kNormal, kTruncatedNormal, kUniformInt };

// Output elements per generator block (per group for truncated normals).
template <typename T>
constexpr int kGroupSize = sizeof(T) == 8 ? 2 : 4;

// Fills out[0, n) of group `g` of a fixed-count distribution from one block.
template <Dist D, typename T>
void FillGroup(const Philox4x32::Result& s, T* out, int n, T lo, uint64_t range) {
  T v[4];
  if constexpr (D == Dist::kUniform) {
    if constexpr (std::is_same<T, double>::value) {
      v[0] = random::Uint64ToDouble(s[0], s[1]);
      v[1] = random::Uint64ToDouble(s[2], s[3]);
    } else if constexpr (std::is_same<T, half>::value) {
      for (int i = 0; i < 4; ++i) v[i] = static_cast<T>(random::Uint16ToHalfAsFloat(s[i]));
    } else {
      for (int i = 0; i < 4; ++i) v[i] = static_cast<T>(random::Uint32ToFloat(s[i]));
    }
  } else if constexpr (D == Dist::kNormal) {
    if constexpr (std::is_same<T, double>::value) {
      random::BoxMullerDouble(s[0], s[1], s[2], s[3], &v[0], &v[1]);
    } else {
      float f[4];
      random::BoxMullerFloat(s[0], s[1], &f[0], &f[1]);
      random::BoxMullerFloat(s[2], s[3], &f[2], &f[3]);
      for (int i = 0; i < 4; ++i) v[i] = static_cast<T>(f[i]);
    }
  } else if constexpr (D == Dist::kUniformInt) {
    if constexpr (std::is_same<T, int64_t>::value) {
      for (int i = 0; i < 2; ++i) {
        const uint64_t bits = s[2 * i] | (static_cast<uint64_t>(s[2 * i + 1]) << 32);
        v[i] = static_cast<T>(static_cast<uint64_t>(lo) + bits % range);
      }
    } else {
      for (int i = 0; i < 4; ++i) {
        v[i] = static_cast<T>(static_cast<uint32_t>(lo) + s[i] % static_cast<uint32_t>(range));
      }
    }
  }
  for (int i = 0; i < n; ++i) out[i] = v[i];
}

// One truncated-normal group: normals with |x| < 2, by rejection, from one sampler.
template <typename T>
void FillTruncatedGroup(random::SingleSampler* sampler, T* out, int n) {
  constexpr int kGroup = kGroupSize<T>;
  T v[kGroup];
  int filled = 0;
  while (filled < kGroup) {
    double z[2];
    if constexpr (std::is_same<T, double>::value) {
      const uint32_t x0 = (*sampler)(), x1 = (*sampler)(), x2 = (*sampler)(),
                     x3 = (*sampler)();
      random::BoxMullerDouble(x0, x1, x2, x3, &z[0], &z[1]);
    } else {
      const uint32_t x0 = (*sampler)(), x1 = (*sampler)();
      float f[2];
      random::BoxMullerFloat(x0, x1, &f[0], &f[1]);
      z[0] = f[0];
      z[1] = f[1];
    }
    for (int i = 0; i < 2 && filled < kGroup; ++i) {
      if (std::abs(z[i]) < 2.0) v[filled++] = static_cast<T>(z[i]);
    }
  }
  for (int i = 0; i < n; ++i) out[i] = v[i];
}

template <Dist D>
class RandomOp final : public OpKernel {
 public:
  explicit RandomOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    int64_t seed = 0, seed2 = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("seed", &seed));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("seed2", &seed2));
    if (seed == 0 && seed2 == 0) {
      std::random_device rd;
      seed = (static_cast<int64_t>(rd()) << 32) | rd();
      seed2 = (static_cast<int64_t>(rd()) << 32) | rd();
    }
    generator_ = Philox4x32(static_cast<uint64_t>(seed), static_cast<uint64_t>(seed2));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& shape_t = ctx->input(0);
    OP_REQUIRES(ctx, shape_t.dims() == 1 &&
                         (shape_t.dtype() == DT_INT32 || shape_t.dtype() == DT_INT64),
                KernelError(*this, "shape must be a vector of {int32,int64}, got shape ",
                            shape_t.shape().DebugString()));
    std::vector<int64_t> dims(shape_t.NumElements());
    for (int64_t i = 0; i < shape_t.NumElements(); ++i) {
      dims[i] = shape_t.dtype() == DT_INT64 ? shape_t.data<int64_t>()[i]
                                            : shape_t.data<int32_t>()[i];
    }
    auto shape = TensorShape::Build(dims);
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));
    const DataType dtype = output_type(0);
    if constexpr (D == Dist::kUniformInt) {
      const Tensor& lo = ctx->input(1);
      const Tensor& hi = ctx->input(2);
      OP_REQUIRES(ctx, lo.dims() == 0,
                  KernelError(*this, "minval must be 0-D, got shape ", lo.shape().DebugString()));
      OP_REQUIRES(ctx, hi.dims() == 0,
                  KernelError(*this, "maxval must be 0-D, got shape ", hi.shape().DebugString()));
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
      if (out->NumElements() == 0) return;
      DispatchTypes(TypeList<int32_t, int64_t>(), dtype, [&](auto tag) {
        using T = decltype(tag);
        const T a = lo.data<T>()[0], b = hi.data<T>()[0];
        OP_REQUIRES(ctx, a < b, KernelError(*this, "Need minval < maxval: ", a, " >= ", b));
        const uint64_t range = static_cast<uint64_t>(b) - static_cast<uint64_t>(a);
        Fill<T>(ctx, out, a, std::is_same<T, int64_t>::value ? range : range & 0xffffffffu);
      });
    } else {
      bool ok = DispatchTypes(FloatTypes(), dtype, [&](auto tag) {
        using T = decltype(tag);
        Tensor* out;
        OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
        if (out->NumElements() == 0) return;
        Fill<T>(ctx, out, T(0), 0);
      });
      if (!ok) ctx->CtxFailure(UnsupportedType(*this, dtype));
    }
  }

 private:
  template <typename T>
  void Fill(OpKernelContext* ctx, Tensor* out, T lo, uint64_t range) {
    const int64_t n = out->NumElements();
    Philox4x32 base;
    {
      absl::MutexLock lock(&mu_);
      base = generator_;
      generator_.Skip(static_cast<uint64_t>(n) * 256);
    }
    constexpr int kGroup = kGroupSize<T>;
    const int64_t groups = (n + kGroup - 1) / kGroup;
    T* o = out->data<T>();
    const double cost = D == Dist::kTruncatedNormal ? 200 : 60;
    ctx->eigen_cpu_device().parallelFor(
        groups, Eigen::TensorOpCost(0, kGroup * sizeof(T), cost),
        [&](Eigen::Index begin, Eigen::Index end) {
          if constexpr (D == Dist::kTruncatedNormal) {
            for (Eigen::Index g = begin; g < end; ++g) {
              Philox4x32 gen = base;
              gen.Skip(static_cast<uint64_t>(g) * (kGroup * 256 / 4));
              random::SingleSampler sampler(&gen);
              const int64_t at = g * kGroup;
              FillTruncatedGroup<T>(&sampler, o + at,
                                    static_cast<int>(std::min<int64_t>(kGroup, n - at)));
            }
          } else {
            Philox4x32 gen = base;
            gen.Skip(static_cast<uint64_t>(begin));
            for (Eigen::Index g = begin; g < end; ++g) {
              const int64_t at = g * kGroup;
              FillGroup<D, T>(gen(), o + at,
                              static_cast<int>(std::min<int64_t>(kGroup, n - at)), lo, range);
            }
          }
        });
  }

  absl::Mutex mu_;
  Philox4x32 generator_ ABSL_GUARDED_BY(mu_);
};

REGISTER_KERNEL_BUILDER(Name("RandomUniform").Device(DEVICE_CPU), RandomOp<Dist::kUniform>);
REGISTER_KERNEL_BUILDER(Name("RandomStandardNormal").Device(DEVICE_CPU),
                        RandomOp<Dist::kNormal>);
REGISTER_KERNEL_BUILDER(Name("TruncatedNormal").Device(DEVICE_CPU),
                        RandomOp<Dist::kTruncatedNormal>);
REGISTER_KERNEL_BUILDER(Name("RandomUniformInt").Device(DEVICE_CPU),
                        RandomOp<Dist::kUniformInt>);

}  // namespace
}  // namespace sg
