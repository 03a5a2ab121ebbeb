// Sampling from parametrized distributions on the Philox generator, drawing TensorFlow's values:
// Multinomial and StatelessMultinomial (classes by logits), RandomGamma, StatelessRandomGammaV2
// and StatelessRandomGammaV3 (by shape parameter alpha), RandomPoisson, RandomPoissonV2 and
// StatelessRandomPoisson (by rate). The stateful ops own a generator seeded from seed/seed2; the
// stateless ones start from their seed pair's or key and counter's (random_op_util.h).
//
// Gamma and Poisson: sample i of parameter p is output element [i, p] (the sample shape, then
// the parameter's); it is computed in double from the generator moved 256 * (p * samples + i)
// blocks ahead, taking each block's doubles last first: Marsaglia and Tsang's method for gamma
// (alpha < 1 boosted by one and scaled by u^(1/alpha); alpha == 1 an exponential), Knuth's
// product of uniforms for rates below 10 and Hormann's transformed rejection (PTRS) above.
// Multinomial: row b reads 2 * samples words from word 2 * b * samples on, one uniform double
// per sample, placed in the row's unnormalized CDF of exp(logit - max) over the finite logits.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"
#include "core/kernels/philox_random.h"
#include "core/kernels/random_op_util.h"

namespace sg {
namespace {

using random::GuardedPhilox;
using random::Philox4x32;

constexpr uint64_t kBlocksPerSample = 256;

using GammaTypes = TypeList<float, double, half>;
using PoissonTypes = TypeList<float, double, half, int32_t, int64_t>;

// Uniform and normal doubles from a generator, each block's two values handed out last first.
class DoubleSampler {
 public:
  explicit DoubleSampler(Philox4x32* gen) : gen_(gen) {}

  double Uniform() {
    if (uniform_left_ == 0) {
      const Philox4x32::Result s = (*gen_)();
      uniform_[0] = random::Uint64ToDouble(s[0], s[1]);
      uniform_[1] = random::Uint64ToDouble(s[2], s[3]);
      uniform_left_ = 2;
    }
    return uniform_[--uniform_left_];
  }

  double Normal() {
    if (normal_left_ == 0) {
      const Philox4x32::Result s = (*gen_)();
      random::BoxMullerDouble(s[0], s[1], s[2], s[3], &normal_[0], &normal_[1]);
      normal_left_ = 2;
    }
    return normal_[--normal_left_];
  }

 private:
  Philox4x32* gen_;
  double uniform_[2] = {0, 0}, normal_[2] = {0, 0};
  int uniform_left_ = 0, normal_left_ = 0;
};

// TensorFlow runs its kernels with denormals flushed to zero (and read as zero): a value below
// the smallest normal number of its type is 0 there.
double FlushDouble(double x) {
  return std::abs(x) < std::numeric_limits<double>::min() ? std::copysign(0.0, x) : x;
}

// x in T as TensorFlow's cast gives it under flush-to-zero: half goes through float.
template <typename T>
T ToFlushedOutput(double x) {
  if constexpr (std::is_same<T, double>::value) {
    return FlushDouble(x);
  } else {
    float f = static_cast<float>(x);
    if (std::abs(f) < std::numeric_limits<float>::min()) f = std::copysign(0.0f, f);
    return static_cast<T>(f);
  }
}

// ---- gamma ---------------------------------------------------------------------------------

double GammaSample(double alpha, DoubleSampler* s) {
  if (alpha == 1.0) return -std::log1p(-s->Uniform());
  const bool boost = alpha < 1;
  const double d = alpha + (boost ? 2.0 / 3 : -1.0 / 3);
  const double c = 1.0 / 3 / std::sqrt(d);
  while (true) {
    const double x = s->Normal();
    double v = 1 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    const double u = s->Uniform();
    // The squeeze test first: it spares the logarithms for most samples.
    if (u < 1 - 0.0331 * (x * x) * (x * x) || std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) {
      double res = d * v;
      if (boost) res *= FlushDouble(std::pow(s->Uniform(), 1 / alpha));
      return res;
    }
  }
}

// out[i * num_params + p] for i < per_param, p < num_params.
template <typename T, typename Sample>
void FillPerParameter(OpKernelContext* ctx, const Philox4x32& gen, int64_t num_params,
                      int64_t per_param, T* out, double cost, Sample sample) {
  ParallelFor(ctx->eigen_cpu_device(),
      num_params * per_param, Eigen::TensorOpCost(0, sizeof(T), cost),
      [&](Eigen::Index begin, Eigen::Index end) {
        for (Eigen::Index o = begin; o < end; ++o) {
          const int64_t p = o / per_param, i = o % per_param;
          Philox4x32 g = gen;
          g.Skip(kBlocksPerSample * static_cast<uint64_t>(o));
          DoubleSampler sampler(&g);
          out[i * num_params + p] = sample(p, &sampler);
        }
      });
}

template <typename T>
void FillGamma(OpKernelContext* ctx, const Philox4x32& gen, const Tensor& alpha,
               int64_t per_alpha, Tensor* out) {
  const T* a = alpha.data<T>();
  FillPerParameter<T>(ctx, gen, alpha.NumElements(), per_alpha, out->data<T>(), 300,
                      [a](int64_t p, DoubleSampler* s) {
                        return ToFlushedOutput<T>(GammaSample(static_cast<double>(a[p]), s));
                      });
}

// ---- poisson -------------------------------------------------------------------------------

// A double as integer type U the way x86's conversion does it: out of range gives U's minimum
// (TensorFlow converts without a check; sg says what the hardware answer is instead of relying on
// undefined behaviour).
template <typename U>
U ToOutput(double k) {
  if constexpr (std::is_integral<U>::value) {
    constexpr double kLimit = -static_cast<double>(std::numeric_limits<U>::min());
    if (!(k >= -kLimit && k < kLimit)) return std::numeric_limits<U>::min();
    return static_cast<U>(k);
  } else {
    return static_cast<U>(k);
  }
}

template <typename U>
U PoissonSample(double rate, DoubleSampler* s) {
  if (rate < 10) {
    // Knuth: the number of uniforms whose product stays above exp(-rate).
    const double limit = std::exp(-rate);
    const double highest = static_cast<double>(Eigen::NumTraits<U>::highest());
    double prod = 1, x = 0;
    while (true) {
      prod *= s->Uniform();
      if (prod <= limit && x <= highest) return ToOutput<U>(x);
      x += 1;
    }
  }
  if (std::isinf(rate)) {
    // Integer outputs have no infinity: TensorFlow writes 0 (Eigen's infinity of an integer).
    if constexpr (std::is_integral<U>::value) return U(0);
    else return static_cast<U>(std::numeric_limits<float>::infinity());
  }
  // A NaN rate never accepts a sample (TensorFlow loops forever); sg gives NaN (0 as integer).
  if (std::isnan(rate)) {
    if constexpr (std::is_integral<U>::value) return U(0);
    else return static_cast<U>(std::numeric_limits<float>::quiet_NaN());
  }
  // Hormann's PTRS: k = floor((2a / (0.5 - |u|) + b) u + rate + 0.43), accepted by a box test or
  // by comparing logarithms of the dominating and Poisson densities.
  const double log_rate = std::log(rate);
  const double b = 0.931 + 2.53 * std::sqrt(rate);
  const double a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
  while (true) {
    const double u = s->Uniform() - 0.5;
    const double v = s->Uniform();
    const double us = 0.5 - std::abs(u);
    const double k = std::floor((2 * a / us + b) * u + rate + 0.43);
    if (k < 0) continue;
    if (us >= 0.07 && v <= 0.9277 - 3.6224 / (b - 2)) return ToOutput<U>(k);
    if (us < 0.013 && v > us) continue;
    const double lhs = std::log(v * inv_alpha / (a / (us * us) + b));
    const double rhs = -rate + k * log_rate - std::lgamma(k + 1);
    if (lhs <= rhs) return ToOutput<U>(k);
  }
}

// Output of dtype `out->dtype()` from rates of dtype `rate.dtype()`.
bool FillPoisson(OpKernelContext* ctx, const Philox4x32& gen, const Tensor& rate,
                 int64_t per_rate, Tensor* out) {
  bool ok = false;
  DispatchTypes(PoissonTypes(), rate.dtype(), [&](auto rtag) {
    using R = decltype(rtag);
    const R* r = rate.data<R>();
    ok = DispatchTypes(PoissonTypes(), out->dtype(), [&](auto utag) {
      using U = decltype(utag);
      FillPerParameter<U>(ctx, gen, rate.NumElements(), per_rate, out->data<U>(), 200,
                          [r](int64_t p, DoubleSampler* s) {
                            return PoissonSample<U>(static_cast<double>(r[p]), s);
                          });
    });
  });
  return ok;
}

// ---- stateful gamma and poisson -------------------------------------------------------------

// RandomGamma (alpha) and RandomPoisson/RandomPoissonV2 (rate): inputs shape, parameter; the
// output shape is shape followed by the parameter's shape.
template <bool kGamma>
class RandomByParameterOp final : public OpKernel {
 public:
  explicit RandomByParameterOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, generator_.Init(ctx));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& param = ctx->input(1);
    TensorShape samples;
    OP_REQUIRES_OK(ctx, random::ShapeFromTensor(*this, ctx->input(0), &samples));
    const int64_t per_param = samples.num_elements();
    std::vector<int64_t> dims(samples.dim_sizes().begin(), samples.dim_sizes().end());
    dims.insert(dims.end(), param.shape().dim_sizes().begin(), param.shape().dim_sizes().end());
    auto built = TensorShape::Build(dims);
    OP_REQUIRES(ctx, built.ok(), KernelError(*this, built.status().message()));
    const TensorShape& shape = *built;
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    if (shape.num_elements() == 0) return;
    const Philox4x32 gen = generator_.Reserve(static_cast<uint64_t>(shape.num_elements()) *
                                              kBlocksPerSample);
    bool ok;
    if constexpr (kGamma) {
      ok = DispatchTypes(GammaTypes(), param.dtype(), [&](auto tag) {
        FillGamma<decltype(tag)>(ctx, gen, param, per_param, out);
      });
    } else {
      ok = FillPoisson(ctx, gen, param, per_param, out);
    }
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, out->dtype()));
  }

 private:
  GuardedPhilox generator_;
};

// ---- stateless gamma and poisson -------------------------------------------------------------

// StatelessRandomGammaV2 (alpha) and StatelessRandomPoisson (lam): inputs shape, seed,
// parameter; StatelessRandomGammaV3: shape, key, counter, alg, alpha. The output has `shape`,
// which must end with the parameter's shape.
template <bool kGamma, bool kKeyCounter = false>
class StatelessByParameterOp final : public OpKernel {
 public:
  explicit StatelessByParameterOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& param = ctx->input(kKeyCounter ? 4 : 2);
    int alg = random::kAlgPhilox;
    if constexpr (kKeyCounter) {
      OP_REQUIRES_OK(ctx, random::ReadAlgorithm(*this, ctx->input(3), &alg));
    }
    TensorShape shape;
    OP_REQUIRES_OK(ctx, random::ShapeFromTensor(*this, ctx->input(0), &shape));
    if constexpr (kKeyCounter) {
      OP_REQUIRES_OK(ctx, random::CheckKeyCounter(*this, alg, ctx->input(1), ctx->input(2)));
    } else {
      OP_REQUIRES_OK(ctx, random::CheckSeedShape(*this, ctx->input(1)));
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    if (shape.num_elements() == 0) return;
    const int pr = param.dims(), sr = shape.dims();
    bool ends_with = pr <= sr;
    for (int i = 0; ends_with && i < pr; ++i) {
      ends_with = shape.dim_size(sr - pr + i) == param.dim_size(i);
    }
    OP_REQUIRES(ctx, ends_with,
                KernelError(*this, "Shape passed in must end with broadcasted shape: shape ",
                            shape.DebugString(), ", ", kGamma ? "alpha" : "lam", " ",
                            param.shape().DebugString()));
    Philox4x32 gen;
    if constexpr (kKeyCounter) {
      OP_REQUIRES_OK(ctx, random::GeneratorFromKeyCounter(*this, alg, ctx->input(1),
                                                          ctx->input(2), &gen));
    } else {
      OP_REQUIRES_OK(ctx, random::GeneratorFromSeed(*this, ctx->input(1), &gen));
    }
    const int64_t per_param = shape.num_elements() / param.NumElements();
    bool ok;
    if constexpr (kGamma) {
      ok = DispatchTypes(GammaTypes(), param.dtype(), [&](auto tag) {
        FillGamma<decltype(tag)>(ctx, gen, param, per_param, out);
      });
    } else {
      ok = FillPoisson(ctx, gen, param, per_param, out);
    }
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, out->dtype()));
  }
};

// ---- multinomial ---------------------------------------------------------------------------

template <typename T, typename OutT>
void SampleMultinomial(OpKernelContext* ctx, const Philox4x32& gen, const T* logits,
                       int64_t batch, int64_t classes, int64_t samples, OutT* out) {
  const double cost = 50.0 * (samples * std::log2(static_cast<double>(classes)) + classes);
  ParallelFor(ctx->eigen_cpu_device(),
      batch, Eigen::TensorOpCost(0, 0, cost), [&](Eigen::Index begin, Eigen::Index end) {
        std::vector<double> cdf(classes);
        for (Eigen::Index b = begin; b < end; ++b) {
          // Row b's words start where the rows before it (2 words per sample) left off.
          const uint64_t first_word = 2 * static_cast<uint64_t>(b) * samples;
          Philox4x32 g = gen;
          g.Skip(first_word / 4);
          random::SingleSampler words(&g);
          for (uint64_t i = 0; i < first_word % 4; ++i) words();
          const T* row = logits + b * classes;
          T max = std::numeric_limits<T>::lowest();
          for (int64_t j = 0; j < classes; ++j) {
            if (Eigen::numext::isfinite(row[j])) max = std::max(max, row[j]);
          }
          const double max_logit = static_cast<double>(max);
          double total = 0;
          for (int64_t j = 0; j < classes; ++j) {
            if (Eigen::numext::isfinite(row[j])) {
              total += std::exp(static_cast<double>(row[j]) - max_logit);
            }
            cdf[j] = total;
          }
          for (int64_t j = 0; j < samples; ++j) {
            const uint32_t x0 = words(), x1 = words();
            const double at = random::Uint64ToDouble(x0, x1) * total;
            out[b * samples + j] =
                static_cast<OutT>(std::upper_bound(cdf.begin(), cdf.end(), at) - cdf.begin());
          }
        }
      });
}

// Multinomial (seed/seed2 attrs) and StatelessMultinomial (seed input 2): logits
// [batch, classes], num_samples; output [batch, num_samples] of class indices.
template <bool kStateless>
class MultinomialOp final : public OpKernel {
 public:
  explicit MultinomialOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if constexpr (!kStateless) OP_REQUIRES_OK(ctx, generator_.Init(ctx));
  }

  void Compute(OpKernelContext* ctx) override {
    Philox4x32 seeded;
    if constexpr (kStateless) {
      OP_REQUIRES_OK(ctx, random::CheckSeedShape(*this, ctx->input(2)));
      OP_REQUIRES_OK(ctx, random::GeneratorFromSeed(*this, ctx->input(2), &seeded));
    }
    const Tensor& logits = ctx->input(0);
    const Tensor& num_samples_t = ctx->input(1);
    OP_REQUIRES(ctx, logits.dims() == 2,
                KernelError(*this, "logits should be a matrix, got shape ",
                            logits.shape().DebugString()));
    OP_REQUIRES(ctx, num_samples_t.dims() == 0,
                KernelError(*this, "num_samples should be a scalar, got shape ",
                            num_samples_t.shape().DebugString()));
    const int32_t samples = num_samples_t.data<int32_t>()[0];
    OP_REQUIRES(ctx, samples >= 0,
                KernelError(*this, "num_samples should be non-negative, got ", samples));
    const int64_t batch = logits.dim_size(0), classes = logits.dim_size(1);
    OP_REQUIRES(ctx, batch <= std::numeric_limits<int32_t>::max() &&
                         classes <= std::numeric_limits<int32_t>::max(),
                KernelError(*this, "logits.shape = ", logits.shape().DebugString(),
                            " too large for int"));
    OP_REQUIRES(ctx, classes > 0,
                KernelError(*this, "num_classes should be positive, got ", classes));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({batch, samples}), &out));
    if (out->NumElements() == 0) return;
    // A stateful run reserves 256 blocks per double drawn, samples rounded up to 4, as
    // TensorFlow's does.
    const Philox4x32 gen =
        kStateless ? seeded
                   : generator_.Reserve(static_cast<uint64_t>(batch) *
                                        ((static_cast<uint64_t>(samples) + 3) / 4 * 4 * 2) *
                                        kBlocksPerSample);
    bool ok = DispatchTypes(FloatTypesWithBf16(), logits.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* l = logits.data<T>();
      if (output_type(0) == DT_INT32) {
        SampleMultinomial<T>(ctx, gen, l, batch, classes, samples, out->data<int32_t>());
      } else {
        SampleMultinomial<T>(ctx, gen, l, batch, classes, samples, out->data<int64_t>());
      }
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, logits.dtype()));
  }

 private:
  GuardedPhilox generator_;
};

REGISTER_KERNEL_BUILDER(Name("Multinomial").Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(FloatTypesWithBf16())),
                        MultinomialOp<false>);
REGISTER_KERNEL_BUILDER(Name("StatelessMultinomial").Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(FloatTypesWithBf16())),
                        MultinomialOp<true>);
REGISTER_KERNEL_BUILDER(Name("RandomGamma").Device(DEVICE_CPU), RandomByParameterOp<true>);
REGISTER_KERNEL_BUILDER(Name("RandomPoisson").Device(DEVICE_CPU), RandomByParameterOp<false>);
REGISTER_KERNEL_BUILDER(Name("RandomPoissonV2").Device(DEVICE_CPU), RandomByParameterOp<false>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomGammaV2").Device(DEVICE_CPU),
                        StatelessByParameterOp<true>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomGammaV3").Device(DEVICE_CPU),
                        StatelessByParameterOp<true, true>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomPoisson").Device(DEVICE_CPU),
                        StatelessByParameterOp<false>);

}  // namespace
}  // namespace sg
