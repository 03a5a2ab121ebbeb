// The per-channel work _FusedConv2D and _FusedMatMul do after their product, on the output in
// place: y = (y - sub) * mul + add (a batch norm) or y + add (a bias), then an activation.
// Written as one loop per activation so that the compiler vectorises it: a switch on the
// activation inside the loop made the fused kernels slower than the separate BiasAdd and Relu
// kernels they replace. Header-only; thread-safe (works on the caller's buffers).
#ifndef SG_CORE_KERNELS_FUSED_EPILOGUE_H_
#define SG_CORE_KERNELS_FUSED_EPILOGUE_H_

#ifndef EIGEN_USE_THREADS
#define EIGEN_USE_THREADS
#endif
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "unsupported/Eigen/CXX11/Tensor"

namespace sg {

enum class FusedActivation { kNone, kRelu, kRelu6, kElu, kLeakyRelu, kTanh, kSigmoid };

// The activation a fused_ops entry names ("" for none); false for another name.
inline bool ParseFusedActivation(const std::string& name, FusedActivation* act) {
  static const std::pair<const char*, FusedActivation> kNames[] = {
      {"", FusedActivation::kNone},         {"Relu", FusedActivation::kRelu},
      {"Relu6", FusedActivation::kRelu6},   {"Elu", FusedActivation::kElu},
      {"LeakyRelu", FusedActivation::kLeakyRelu}, {"Tanh", FusedActivation::kTanh},
      {"Sigmoid", FusedActivation::kSigmoid}};
  for (const auto& [n, a] : kNames) {
    if (name == n) {
      *act = a;
      return true;
    }
  }
  return false;
}

namespace fused_epilogue_internal {

template <typename T, FusedActivation kAct, bool kAffine>
void Rows(T* y, int64_t begin, int64_t end, int64_t channels, const T* sub, const T* mul,
          const T* add, T alpha) {
  for (int64_t r = begin; r < end; ++r) {
    T* row = y + r * channels;
    for (int64_t c = 0; c < channels; ++c) {
      T v = kAffine ? (row[c] - sub[c]) * mul[c] + add[c] : row[c] + add[c];
      if constexpr (kAct == FusedActivation::kRelu) v = std::max(v, T(0));
      if constexpr (kAct == FusedActivation::kRelu6) v = std::min(std::max(v, T(0)), T(6));
      if constexpr (kAct == FusedActivation::kLeakyRelu) v = v > T(0) ? v : v * alpha;
      row[c] = v;
    }
    if constexpr (kAct == FusedActivation::kElu) {
      for (int64_t c = 0; c < channels; ++c) row[c] = row[c] < T(0) ? std::expm1(row[c]) : row[c];
    }
    // Eigen's vectorised functions, as the Tanh and Sigmoid kernels compute them.
    Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>> a(row, channels);
    if constexpr (kAct == FusedActivation::kTanh) a = a.tanh();
    if constexpr (kAct == FusedActivation::kSigmoid) a = a.logistic();
  }
}

template <typename T, bool kAffine>
void Dispatch(FusedActivation act, T* y, int64_t begin, int64_t end, int64_t channels,
              const T* sub, const T* mul, const T* add, T alpha) {
  switch (act) {
#define SG_FUSED_EPILOGUE_CASE_(A)                                                    \
  case FusedActivation::A:                                                            \
    Rows<T, FusedActivation::A, kAffine>(y, begin, end, channels, sub, mul, add, alpha); \
    break;
    SG_FUSED_EPILOGUE_CASE_(kNone)
    SG_FUSED_EPILOGUE_CASE_(kRelu)
    SG_FUSED_EPILOGUE_CASE_(kRelu6)
    SG_FUSED_EPILOGUE_CASE_(kElu)
    SG_FUSED_EPILOGUE_CASE_(kLeakyRelu)
    SG_FUSED_EPILOGUE_CASE_(kTanh)
    SG_FUSED_EPILOGUE_CASE_(kSigmoid)
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
  const bool affine = sub != nullptr && mul != nullptr;
  auto run = [&](Eigen::Index begin, Eigen::Index end) {
    if (affine) {
      fused_epilogue_internal::Dispatch<T, true>(act, y, begin, end, channels, sub, mul, add,
                                                 alpha);
    } else {
      fused_epilogue_internal::Dispatch<T, false>(act, y, begin, end, channels, sub, mul, add,
                                                  alpha);
    }
  };
  if (rows * channels < 16384) {
    run(0, rows);
    return;
  }
  const double bytes = static_cast<double>(channels) * sizeof(T);
  d.parallelFor(rows, Eigen::TensorOpCost(bytes, bytes, static_cast<double>(channels) * 2), run);
}

}  // namespace sg

#endif  // SG_CORE_KERNELS_FUSED_EPILOGUE_H_
