// RandomUniform, RandomStandardNormal, TruncatedNormal, RandomUniformInt and RandomShuffle on the
// Philox generator, reproducing TensorFlow's streams: each kernel owns a generator seeded from
// (seed, seed2) (fresh random seeds when both are 0); a run reserves 256 blocks per output element
// (RandomShuffle: one word per swap) and moves the generator past them, so successive runs draw
// new values. Output group g (4 floats, 2 doubles) reads block g; a truncated-normal group reads
// from block 256*g on (as many words as rejection needs). StatelessShuffle is RandomShuffle from
// a key and counter.
#include <numeric>
#include <vector>

#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/element_copy.h"
#include "core/kernels/philox_random.h"
#include "core/kernels/random_distributions.h"
#include "core/kernels/random_op_util.h"

namespace sg {
namespace {

using random::Philox4x32;

enum class Dist { kUniform, kNormal, kTruncatedNormal, kUniformInt };

template <Dist D>
class RandomOp final : public OpKernel {
 public:
  explicit RandomOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, generator_.Init(ctx));
  }

  void Compute(OpKernelContext* ctx) override {
    TensorShape shape;
    OP_REQUIRES_OK(ctx, random::ShapeFromTensor(*this, ctx->input(0), &shape));
    const DataType dtype = output_type(0);
    if constexpr (D == Dist::kUniformInt) {
      const Tensor& lo = ctx->input(1);
      const Tensor& hi = ctx->input(2);
      OP_REQUIRES(ctx, lo.dims() == 0,
                  KernelError(*this, "minval must be 0-D, got shape ", lo.shape().DebugString()));
      OP_REQUIRES(ctx, hi.dims() == 0,
                  KernelError(*this, "maxval must be 0-D, got shape ", hi.shape().DebugString()));
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
      if (out->NumElements() == 0) return;
      DispatchTypes(TypeList<int32_t, int64_t>(), dtype, [&](auto tag) {
        using T = decltype(tag);
        const T a = lo.data<T>()[0], b = hi.data<T>()[0];
        OP_REQUIRES(ctx, a < b, KernelError(*this, "Need minval < maxval: ", a, " >= ", b));
        Fill<T>(ctx, out, a, static_cast<std::make_unsigned_t<T>>(
                                 static_cast<std::make_unsigned_t<T>>(b) -
                                 static_cast<std::make_unsigned_t<T>>(a)));
      });
    } else {
      bool ok = DispatchTypes(FloatTypesWithBf16(), dtype, [&](auto tag) {
        using T = decltype(tag);
        Tensor* out;
        OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
        if (out->NumElements() == 0) return;
        Fill<T>(ctx, out, T(0), 0u);
      });
      if (!ok) ctx->CtxFailure(UnsupportedType(*this, dtype));
    }
  }

 private:
  template <typename T, typename Range>
  void Fill(OpKernelContext* ctx, Tensor* out, T lo, Range range) {
    const int64_t n = out->NumElements();
    const Philox4x32 base = generator_.Reserve(static_cast<uint64_t>(n) * 256);
    const Eigen::ThreadPoolDevice& d = ctx->eigen_cpu_device();
    T* o = out->data<T>();
    if constexpr (D == Dist::kTruncatedNormal) {
      random::FillTruncatedNormal<T>(d, base, o, n);
    } else {
      random::FillFixed<T>(d, base, o, n, [&](const Philox4x32::Result& s, T* v) {
        if constexpr (D == Dist::kUniform) {
          random::UniformGroup<T>(s, v);
        } else if constexpr (D == Dist::kNormal) {
          random::NormalGroup<T>(s, v);
        } else {
          random::UniformIntGroup<T>(s, lo, range, v);
        }
      });
    }
  }

  random::GuardedPhilox generator_;
};

// The slices of `in` along its first dimension in a random order: Fisher-Yates from the front
// as TensorFlow does it, slice i swapping with slice i + (word mod (n - i)), one word of `gen`
// per swap. `n` >= 2.
absl::Status Shuffle(const OpKernel& k, OpKernelContext* ctx, const Tensor& in, Philox4x32 gen) {
  const int64_t n = in.dim_size(0);
  random::SingleSampler words(&gen);
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (int64_t i = 0; i + 1 < n; ++i) {
    std::swap(order[i], order[i + static_cast<int64_t>(words() % static_cast<uint64_t>(n - i))]);
  }
  Tensor* out;
  SG_RETURN_IF_ERROR(ctx->allocate_output(0, in.shape(), &out));
  const int64_t row = in.NumElements() / n;
  bool ok = DispatchByCopy(in.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = static_cast<const T*>(in.raw_data());
    T* dst = static_cast<T*>(out->raw_data());
    for (int64_t i = 0; i < n; ++i) std::copy_n(src + order[i] * row, row, dst + i * row);
  });
  return ok ? absl::OkStatus() : UnsupportedType(k, in.dtype());
}

// RandomShuffle (seed/seed2 attrs) and StatelessShuffle (key, counter, alg inputs).
template <bool kStateless>
class ShuffleOp final : public OpKernel {
 public:
  explicit ShuffleOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if constexpr (!kStateless) OP_REQUIRES_OK(ctx, generator_.Init(ctx));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Philox4x32 gen;
    if constexpr (kStateless) {
      int alg = random::kAlgPhilox;
      OP_REQUIRES_OK(ctx, random::ReadAlgorithm(*this, ctx->input(3), &alg));
      OP_REQUIRES_OK(ctx, random::CheckKeyCounter(*this, alg, ctx->input(1), ctx->input(2)));
      OP_REQUIRES_OK(ctx, random::GeneratorFromKeyCounter(*this, alg, ctx->input(1),
                                                          ctx->input(2), &gen));
    }
    if (in.NumElements() <= 1 || in.dim_size(0) <= 1) {
      ctx->set_output(0, in);
      return;
    }
    if constexpr (!kStateless) {
      gen = generator_.Reserve((static_cast<uint64_t>(in.dim_size(0) - 1) + 3) / 4);
    }
    OP_REQUIRES_OK(ctx, Shuffle(*this, ctx, in, gen));
  }

 private:
  random::GuardedPhilox generator_;
};

REGISTER_KERNEL_BUILDER(Name("RandomShuffle").Device(DEVICE_CPU), ShuffleOp<false>);
REGISTER_KERNEL_BUILDER(Name("StatelessShuffle").Device(DEVICE_CPU), ShuffleOp<true>);
REGISTER_KERNEL_BUILDER(Name("RandomUniform").Device(DEVICE_CPU), RandomOp<Dist::kUniform>);
REGISTER_KERNEL_BUILDER(Name("RandomStandardNormal").Device(DEVICE_CPU),
                        RandomOp<Dist::kNormal>);
REGISTER_KERNEL_BUILDER(Name("TruncatedNormal").Device(DEVICE_CPU),
                        RandomOp<Dist::kTruncatedNormal>);
REGISTER_KERNEL_BUILDER(Name("RandomUniformInt").Device(DEVICE_CPU),
                        RandomOp<Dist::kUniformInt>);

}  // namespace
}  // namespace sg
