// The per-channel work _FusedConv2D and _FusedMatMul do after their product, on the output in
// place: y = (y - sub) * mul + add (a batch norm) or y + add (a bias), then an activation.
// One instance per activation, in Eigen's vectorised array expressions over blocks of rows: a
// scalar loop with a switch per element made the fused kernels slower than the separate BiasAdd
// and Relu kernels they replace. Header-only; thread-safe (works on the caller's buffers).
#ifndef SG_CORE_KERNELS_FUSED_EPILOGUE_H_
#define SG_CORE_KERNELS_FUSED_EPILOGUE_H_

#ifndef EIGEN_USE_THREADS
#define EIGEN_USE_THREADS
#endif
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/kernels/parallel_for.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sg {

// kSwish is x * sigmoid(x) (fused_ops' "_MklSwish", as TensorFlow's oneDNN build names it).
enum class FusedActivation { kNone, kRelu, kRelu6, kElu, kLeakyRelu, kTanh, kSigmoid, kSwish };

// The activation a fused_ops entry names ("" for none); false for another name.
inline bool ParseFusedActivation(const std::string& name, FusedActivation* act) {
  static const std::pair<const char*, FusedActivation> kNames[] = {
      {"", FusedActivation::kNone},         {"Relu", FusedActivation::kRelu},
      {"Relu6", FusedActivation::kRelu6},   {"Elu", FusedActivation::kElu},
      {"LeakyRelu", FusedActivation::kLeakyRelu}, {"Tanh", FusedActivation::kTanh},
      {"Sigmoid", FusedActivation::kSigmoid},   {"_MklSwish", FusedActivation::kSwish}};
  for (const auto& [n, a] : kNames) {
    if (name == n) {
      *act = a;
      return true;
    }
  }
  return false;
}

namespace fused_epilogue_internal {

// The per-channel vectors repeated `rows_per_block` times, so that a block of that many rows is
// one flat, vectorised expression even when rows are short (16 channels): Eigen's colwise
// broadcast and a loop per row both ran at scalar speed there.
// With one row per block the caller's vectors are used as they are (a batch-1 dense layer's
// epilogue then allocates nothing).
template <typename T>
struct Tiled {
  int64_t rows_per_block = 1;
  std::vector<T> sub_tiles, mul_tiles, add_tiles;  // empty for one row per block
  const T* sub = nullptr;  // null for a bias only
  const T* mul = nullptr;
  const T* add = nullptr;
};

template <typename T, FusedActivation kAct, bool kAffine>
void Rows(T* y, int64_t begin, int64_t end, int64_t channels, const Tiled<T>& t, T alpha) {
  using Flat = Eigen::Array<T, Eigen::Dynamic, 1>;
  for (int64_t r = begin; r < end; r += t.rows_per_block) {
    const int64_t n = std::min(t.rows_per_block, end - r) * channels;
    Eigen::Map<Flat> v(y + r * channels, n);
    const Eigen::Map<const Flat> add(t.add, n);
    if constexpr (kAffine) {
      const Eigen::Map<const Flat> sub(t.sub, n), mul(t.mul, n);
      v = (v - sub) * mul + add;
    } else {
      v += add;
    }
    // As the Relu, Relu6, Elu, LeakyRelu, Tanh and Sigmoid kernels compute them; swish as
    // Mul(x, Sigmoid(x)) does.
    if constexpr (kAct == FusedActivation::kRelu) v = v.max(T(0));
    if constexpr (kAct == FusedActivation::kRelu6) v = v.max(T(0)).min(T(6));
    if constexpr (kAct == FusedActivation::kElu) v = (v < T(0)).select(v.exp() - T(1), v);
    if constexpr (kAct == FusedActivation::kLeakyRelu) v = (v > T(0)).select(v, v * alpha);
    if constexpr (kAct == FusedActivation::kTanh) v = v.tanh();
    if constexpr (kAct == FusedActivation::kSigmoid) v = v.logistic();
    if constexpr (kAct == FusedActivation::kSwish) v = v * v.logistic();
  }
}

template <typename T, bool kAffine>
void Dispatch(FusedActivation act, T* y, int64_t begin, int64_t end, int64_t channels,
              const Tiled<T>& t, T alpha) {
  switch (act) {
#define SG_FUSED_EPILOGUE_CASE_(A)                                                    \
  case FusedActivation::A:                                                            \
    Rows<T, FusedActivation::A, kAffine>(y, begin, end, channels, t, alpha);          \
    break;
    SG_FUSED_EPILOGUE_CASE_(kNone)
    SG_FUSED_EPILOGUE_CASE_(kRelu)
    SG_FUSED_EPILOGUE_CASE_(kRelu6)
    SG_FUSED_EPILOGUE_CASE_(kElu)
    SG_FUSED_EPILOGUE_CASE_(kLeakyRelu)
    SG_FUSED_EPILOGUE_CASE_(kTanh)
    SG_FUSED_EPILOGUE_CASE_(kSigmoid)
    SG_FUSED_EPILOGUE_CASE_(kSwish)
#undef SG_FUSED_EPILOGUE_CASE_
  }
}

}  // namespace fused_epilogue_internal

// Applies the epilogue to `rows` rows of `channels` values at `y` (row-major, channels last),
// on d's pool when there is enough work. sub and mul may be null (then y + add); add must hold
// `channels` values.
template <typename T>
void ApplyFusedEpilogue(const Eigen::ThreadPoolDevice& d, T* y, int64_t rows, int64_t channels,
                        const T* sub, const T* mul, const T* add, FusedActivation act,
                        T alpha) {
  if (rows <= 0 || channels <= 0) return;
  const bool affine = sub != nullptr && mul != nullptr;
  fused_epilogue_internal::Tiled<T> t;
  // About 2048 values a block: in L1 between the arithmetic and the activation.
  t.rows_per_block = std::max<int64_t>(1, std::min<int64_t>(rows, 2048 / channels));
  auto tile = [&](const T* v, std::vector<T>* out) -> const T* {
    if (t.rows_per_block == 1) return v;
    out->resize(t.rows_per_block * channels);
    for (int64_t i = 0; i < t.rows_per_block; ++i) {
      std::copy(v, v + channels, out->data() + i * channels);
    }
    return out->data();
  };
  t.add = tile(add, &t.add_tiles);
  if (affine) {
    t.sub = tile(sub, &t.sub_tiles);
    t.mul = tile(mul, &t.mul_tiles);
  }
  auto run = [&](Eigen::Index begin, Eigen::Index end) {
    if (affine) {
      fused_epilogue_internal::Dispatch<T, true>(act, y, begin, end, channels, t, alpha);
    } else {
      fused_epilogue_internal::Dispatch<T, false>(act, y, begin, end, channels, t, alpha);
    }
  };
  if (rows * channels < 16384) {
    run(0, rows);
    return;
  }
  const double bytes = static_cast<double>(channels) * sizeof(T);
  ParallelFor(d, rows, Eigen::TensorOpCost(bytes, bytes, static_cast<double>(channels) * 2), run);
}

}  // namespace sg

#endif  // SG_CORE_KERNELS_FUSED_EPILOGUE_H_
