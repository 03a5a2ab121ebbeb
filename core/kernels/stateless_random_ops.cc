// The stateless random ops: the same shape and seed give the same values, TensorFlow's to the bit.
//
// StatelessRandom{Uniform,Normal,UniformInt,UniformFullInt} and StatelessTruncatedNormal take a
// seed pair, which FromSeedPair (philox_random.h) scrambles into a Philox key and counter as
// TensorFlow does; StatelessRandomGetKeyCounter(Alg) exposes that key and counter and
// StatelessRandomGetAlg the algorithm. The V2 ops take the key, counter and algorithm themselves. TensorFlow's CPU kernels run only Philox (1) and
// auto-select (3, which picks Philox); ThreeFry (2) and any other id fail with INVALID_ARGUMENT,
// as there. The samples and their layout are random_distributions.h's, shared with the stateful ops.
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/philox_random.h"
#include "core/kernels/random_distributions.h"
#include "core/kernels/random_op_util.h"

namespace sg {
namespace {

using random::CheckKeyCounter;
using random::CheckSeedShape;
using random::GeneratorFromKeyCounter;
using random::GeneratorFromSeed;
using random::kAlgPhilox;
using random::Philox4x32;
using random::ReadAlgorithm;
using random::ShapeFromTensor;

enum class Dist { kUniform, kNormal, kTruncatedNormal, kUniformInt, kFullInt };


using IntOutTypes = TypeList<int32_t, int64_t, uint32_t, uint64_t>;

// Inputs: V1 (shape, seed[, minval, maxval]); V2 (shape, key, counter, alg[, minval, maxval]).
template <Dist D, bool kV2>
class StatelessRandomOp final : public OpKernel {
 public:
  explicit StatelessRandomOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    int alg = kAlgPhilox;
    if constexpr (kV2) OP_REQUIRES_OK(ctx, ReadAlgorithm(*this, ctx->input(3), &alg));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, ShapeFromTensor(*this, ctx->input(0), &shape));
    if constexpr (kV2) {
      OP_REQUIRES_OK(ctx, CheckKeyCounter(*this, alg, ctx->input(1), ctx->input(2)));
    } else {
      OP_REQUIRES_OK(ctx, CheckSeedShape(*this, ctx->input(1)));
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    if (shape.num_elements() == 0) return;
    Philox4x32 gen;
    if constexpr (kV2) {
      OP_REQUIRES_OK(ctx,
                     GeneratorFromKeyCounter(*this, alg, ctx->input(1), ctx->input(2), &gen));
    } else {
      OP_REQUIRES_OK(ctx, GeneratorFromSeed(*this, ctx->input(1), &gen));
    }
    const Eigen::ThreadPoolDevice& d = ctx->eigen_cpu_device();
    const int64_t n = out->NumElements();
    const DataType dtype = output_type(0);
    bool ok;
    if constexpr (D == Dist::kUniformInt) {
      const int first = kV2 ? 4 : 2;
      const Tensor& lo_t = ctx->input(first);
      const Tensor& hi_t = ctx->input(first + 1);
      OP_REQUIRES(ctx, lo_t.dims() == 0,
                  KernelError(*this, "minval must be 0-D, got shape ", lo_t.shape().DebugString()));
      OP_REQUIRES(ctx, hi_t.dims() == 0,
                  KernelError(*this, "maxval must be 0-D, got shape ", hi_t.shape().DebugString()));
      ok = DispatchTypes(IntOutTypes(), dtype, [&](auto tag) {
        using T = decltype(tag);
        using U = std::make_unsigned_t<T>;
        const T lo = lo_t.data<T>()[0], hi = hi_t.data<T>()[0];
        OP_REQUIRES(ctx, lo < hi,
                    KernelError(*this, "Need minval < maxval, got ", lo, " >= ", hi));
        const U range = static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo));
        random::FillFixed<T>(d, gen, out->data<T>(), n, [&](const Philox4x32::Result& s, T* v) {
          random::UniformIntGroup<T>(s, lo, range, v);
        });
      });
    } else if constexpr (D == Dist::kFullInt) {
      ok = DispatchTypes(IntOutTypes(), dtype, [&](auto tag) {
        using T = decltype(tag);
        random::FillFixed<T>(d, gen, out->data<T>(), n, [](const Philox4x32::Result& s, T* v) {
          random::FullIntGroup<T>(s, v);
        });
      });
    } else {
      ok = DispatchTypes(FloatTypesWithBf16(), dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (D == Dist::kTruncatedNormal) {
          random::FillTruncatedNormal<T>(d, gen, out->data<T>(), n);
        } else {
          random::FillFixed<T>(d, gen, out->data<T>(), n, [](const Philox4x32::Result& s, T* v) {
            if constexpr (D == Dist::kUniform) {
              random::UniformGroup<T>(s, v);
            } else {
              random::NormalGroup<T>(s, v);
            }
          });
        }
      });
    }
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, dtype));
  }
};

// The key and counter of a seed pair (and with kAlg the algorithm): what the V2 ops take.
template <bool kAlg>
class StatelessRandomGetKeyCounterOp final : public OpKernel {
 public:
  explicit StatelessRandomGetKeyCounterOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& seed = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckSeedShape(*this, seed));
    Philox4x32 gen;
    OP_REQUIRES_OK(ctx, GeneratorFromSeed(*this, seed, &gen));
    Tensor *key, *counter;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({1}), &key));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({2}), &counter));
    const auto& k = gen.key();
    const auto& c = gen.counter();
    key->data<uint64_t>()[0] = k[0] | (static_cast<uint64_t>(k[1]) << 32);
    counter->data<uint64_t>()[0] = c[0] | (static_cast<uint64_t>(c[1]) << 32);
    counter->data<uint64_t>()[1] = c[2] | (static_cast<uint64_t>(c[3]) << 32);
    if constexpr (kAlg) {
      Tensor* alg;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({}), &alg));
      alg->data<int32_t>()[0] = kAlgPhilox;
    }
  }
};

// The algorithm the V2 ops pick on this device: Philox on CPU.
class StatelessRandomGetAlgOp final : public OpKernel {
 public:
  explicit StatelessRandomGetAlgOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    Tensor* alg;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &alg));
    alg->data<int32_t>()[0] = kAlgPhilox;
  }
};

REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniform").Device(DEVICE_CPU),
                        StatelessRandomOp<Dist::kUniform, false>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomNormal").Device(DEVICE_CPU),
                        StatelessRandomOp<Dist::kNormal, false>);
REGISTER_KERNEL_BUILDER(Name("StatelessTruncatedNormal").Device(DEVICE_CPU),
                        StatelessRandomOp<Dist::kTruncatedNormal, false>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniformInt").Device(DEVICE_CPU),
                        StatelessRandomOp<Dist::kUniformInt, false>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniformFullInt").Device(DEVICE_CPU),
                        StatelessRandomOp<Dist::kFullInt, false>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomGetKeyCounterAlg").Device(DEVICE_CPU),
                        StatelessRandomGetKeyCounterOp<true>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomGetKeyCounter").Device(DEVICE_CPU),
                        StatelessRandomGetKeyCounterOp<false>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomGetAlg").Device(DEVICE_CPU),
                        StatelessRandomGetAlgOp);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniformV2").Device(DEVICE_CPU),
                        StatelessRandomOp<Dist::kUniform, true>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomNormalV2").Device(DEVICE_CPU),
                        StatelessRandomOp<Dist::kNormal, true>);
REGISTER_KERNEL_BUILDER(Name("StatelessTruncatedNormalV2").Device(DEVICE_CPU),
                        StatelessRandomOp<Dist::kTruncatedNormal, true>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniformIntV2").Device(DEVICE_CPU),
                        StatelessRandomOp<Dist::kUniformInt, true>);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniformFullIntV2").Device(DEVICE_CPU),
                        StatelessRandomOp<Dist::kFullInt, true>);

}  // namespace
}  // namespace sg
