#include "core/kernels/pointwise_conv.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "core/kernels/parallel_for.h"
#include "core/util/cpu_isa.h"
#include "core/util/mutex.h"

namespace sg {
namespace {

using Epilogue = OneDnnConv::Epilogue;
using Act = Epilogue::Act;

// A tile is up to kMaxRows output positions by kPanel output channels. With AVX2 that is 12
// accumulators, 2 filter vectors and a broadcast input value: 15 of the 16 vector registers.
constexpr int64_t kPanel = 16;
constexpr int kMaxRows = 6;

// x * sigmoid(x), as Mul(x, Sigmoid(x)).
inline float Swish(float x) { return x * (1.0f / (1.0f + std::exp(-x))); }

// The epilogue on value v of output channel j, whose value before was `before`.
inline float Finish(float v, int64_t j, float before, const Epilogue* ep) {
  if (ep == nullptr) return v;
  if (ep->bias != nullptr) v += ep->bias[j];
  if (ep->scale != nullptr) v = v * ep->scale[j] + ep->shift[j];
  if (ep->sum) v += before;
  switch (ep->act) {
    case Act::kNone: break;
    case Act::kRelu: v = std::max(v, 0.0f); break;  // NaN stays NaN, as in Relu
    case Act::kRelu6: v = std::min(std::max(v, 0.0f), 6.0f); break;
    case Act::kElu: v = v < 0 ? std::expm1(v) : v; break;
    case Act::kLeakyRelu: v = v > 0 ? v : ep->alpha * v; break;
    case Act::kSwish: v = Swish(v); break;
  }
  return v;
}

// Rows x[0..R) (each C values) times the panel of filter columns [j, j + width) (w: C rows of
// kPanel values) into y[r][j..j + width), then the epilogue. Any width up to kPanel; plain C++.
template <int R>
void TileGeneric(const float* const* x, int64_t c, const float* w, int64_t j, int64_t width,
                 float* const* y, const Epilogue* ep) {
  float acc[R][kPanel] = {};
  for (int64_t i = 0; i < c; ++i) {
    const float* wi = w + i * kPanel;
    for (int r = 0; r < R; ++r) {
      const float a = x[r][i];
      for (int64_t u = 0; u < width; ++u) acc[r][u] += a * wi[u];
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int64_t u = 0; u < width; ++u) y[r][j + u] = Finish(acc[r][u], j + u, y[r][j + u], ep);
  }
}

#if defined(__x86_64__)
// TileGeneric for width kPanel, with AVX2 and FMA (the caller checks the CPU has them).
template <int R>
__attribute__((target("avx2,fma"))) void TileAvx2(const float* const* x, int64_t c,
                                                  const float* w, int64_t j, float* const* y,
                                                  const Epilogue* ep) {
  // Unrolled, so that the accumulators stay in registers (-O2 does not unroll these loops).
  __m256 acc[R][2];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_ps();
  const float* wi = w;
  for (int64_t i = 0; i < c; ++i, wi += kPanel) {
    const __m256 w0 = _mm256_load_ps(wi);
    const __m256 w1 = _mm256_load_ps(wi + 8);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m256 a = _mm256_broadcast_ss(x[r] + i);
      acc[r][0] = _mm256_fmadd_ps(a, w0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(a, w1, acc[r][1]);
    }
  }
  const __m256 zero = _mm256_setzero_ps();
  const __m256 six = _mm256_set1_ps(6.0f);
#pragma GCC unroll 2
  for (int h = 0; h < 2; ++h) {
    const int64_t jh = j + 8 * h;
    const bool bias = ep != nullptr && ep->bias != nullptr;
    const bool affine = ep != nullptr && ep->scale != nullptr;
    const __m256 b = bias ? _mm256_loadu_ps(ep->bias + jh) : zero;
    const __m256 s = affine ? _mm256_loadu_ps(ep->scale + jh) : zero;
    const __m256 t = affine ? _mm256_loadu_ps(ep->shift + jh) : zero;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      __m256 v = acc[r][h];
      float* out = y[r] + jh;
      if (ep != nullptr) {
        if (bias) v = _mm256_add_ps(v, b);
        if (affine) v = _mm256_fmadd_ps(v, s, t);
        if (ep->sum) v = _mm256_add_ps(v, _mm256_loadu_ps(out));
        switch (ep->act) {
          case Act::kNone:
          case Act::kElu:
          case Act::kSwish: break;  // below, on the stored values
          // max and min return their second operand when either is NaN: NaN stays NaN.
          case Act::kRelu: v = _mm256_max_ps(zero, v); break;
          case Act::kRelu6: v = _mm256_min_ps(six, _mm256_max_ps(zero, v)); break;
          case Act::kLeakyRelu:
            v = _mm256_blendv_ps(_mm256_mul_ps(_mm256_set1_ps(ep->alpha), v), v,
                                 _mm256_cmp_ps(v, zero, _CMP_GT_OQ));
            break;
        }
      }
      _mm256_storeu_ps(out, v);
      if (ep != nullptr && ep->act == Act::kElu) {
        for (int u = 0; u < 8; ++u) out[u] = out[u] < 0 ? std::expm1(out[u]) : out[u];
      }
      if (ep != nullptr && ep->act == Act::kSwish) {
        for (int u = 0; u < 8; ++u) out[u] = Swish(out[u]);
      }
    }
  }
}
#endif

template <int R>
void Tile(bool avx2, const float* const* x, int64_t c, const float* w, int64_t j,
          int64_t width, float* const* y, const Epilogue* ep) {
#if defined(__x86_64__)
  if (avx2 && width == kPanel) {
    TileAvx2<R>(x, c, w, j, y, ep);
    return;
  }
#endif
  TileGeneric<R>(x, c, w, j, width, y, ep);
}

// Output channels [j, j + width) of every position, from their panel w: tiles of up to kMaxRows
// positions.
void Panel(bool avx2, const float* const* x, int64_t positions, int64_t c, const float* w,
           int64_t j, int64_t width, float* const* y, const Epilogue* ep) {
  for (int64_t r = 0; r < positions; r += kMaxRows) {
    switch (std::min<int64_t>(kMaxRows, positions - r)) {
      case 1: Tile<1>(avx2, x + r, c, w, j, width, y + r, ep); break;
      case 2: Tile<2>(avx2, x + r, c, w, j, width, y + r, ep); break;
      case 3: Tile<3>(avx2, x + r, c, w, j, width, y + r, ep); break;
      case 4: Tile<4>(avx2, x + r, c, w, j, width, y + r, ep); break;
      case 5: Tile<5>(avx2, x + r, c, w, j, width, y + r, ep); break;
      default: Tile<6>(avx2, x + r, c, w, j, width, y + r, ep); break;
    }
  }
}

int64_t Panels(int64_t out_c) { return (out_c + kPanel - 1) / kPanel; }

}  // namespace

// The filter [C, out_c] as Panels(out_c) panels of C rows of kPanel columns each, the last
// padded with zeros.
struct PointwiseConv::Packed {
  struct Free {
    void operator()(float* p) const { std::free(p); }
  };
  const float* user = nullptr;  // the filter it was made from
  int64_t c = 0, out_c = 0;
  std::unique_ptr<float, Free> data;
};

namespace {

// `filter` in panels; nullptr when out of memory.
std::shared_ptr<const PointwiseConv::Packed> Pack(const float* filter, int64_t c, int64_t out_c) {
  auto packed = std::make_shared<PointwiseConv::Packed>();
  const int64_t panels = Panels(out_c);
  const size_t bytes = static_cast<size_t>(panels * c * kPanel) * sizeof(float);
  packed->data.reset(static_cast<float*>(std::aligned_alloc(64, bytes)));
  if (packed->data == nullptr) return nullptr;
  float* p = packed->data.get();
  for (int64_t q = 0; q < panels; ++q) {
    const int64_t j = q * kPanel, width = std::min(kPanel, out_c - j);
    for (int64_t i = 0; i < c; ++i, p += kPanel) {
      std::copy(filter + i * out_c + j, filter + i * out_c + j + width, p);
      std::fill(p + width, p + kPanel, 0.0f);
    }
  }
  packed->user = filter;
  packed->c = c;
  packed->out_c = out_c;
  return packed;
}

}  // namespace

PointwiseConv::PointwiseConv() = default;
PointwiseConv::~PointwiseConv() = default;

bool PointwiseConv::Takes(const ConvNdGeometry& g, int threads) {
  if (threads <= 1 || g.c <= 0 || g.filter_c != g.c || g.out_c <= 0) return false;
  for (int i = 0; i < 3; ++i) {
    if (g.k[i] != 1 || g.pad[i] != 0) return false;
  }
  const int64_t positions = g.n * g.OutPositions();
  return positions > 0 && positions <= kMaxPositions &&
         ActiveParallelSections().load(std::memory_order_relaxed) == 0;
}

bool PointwiseConv::Run(const Eigen::ThreadPoolDevice& device, const ConvNdGeometry& g,
                        const float* input, const float* filter, float* out,
                        const OneDnnConv::Epilogue* epilogue) {
  std::shared_ptr<const Packed> packed;
  {
    mutex_lock lock(mu_);
    if (packed_ != nullptr && packed_->user == filter && packed_->c == g.c &&
        packed_->out_c == g.out_c) {
      packed = packed_;
    }
  }
  if (packed == nullptr) {
    packed = Pack(filter, g.c, g.out_c);
    if (packed == nullptr) return false;
    mutex_lock lock(mu_);
    packed_ = packed;
  }
  // Each output position's input row (a 1x1 window without padding reads one position, at the
  // output's position times the strides) and output row.
  const int64_t positions = g.n * g.OutPositions();
  const float* x[kMaxPositions];
  float* y[kMaxPositions];
  int64_t p = 0;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
      for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
        for (int64_t o2 = 0; o2 < g.out[2]; ++o2, ++p) {
          const int64_t at =
              ((n * g.in[0] + o0 * g.s[0]) * g.in[1] + o1 * g.s[1]) * g.in[2] + o2 * g.s[2];
          x[p] = input + at * g.c;
          y[p] = out + p * g.out_c;
        }
      }
    }
  }
  const bool avx2 = SelectedCpuIsaLevel() >= 3;
  const int64_t panels = Panels(g.out_c);
  const float* w = packed->data.get();
  auto run = [&](int64_t begin, int64_t end) {
    for (int64_t q = begin; q < end; ++q) {
      const int64_t j = q * kPanel;
      Panel(avx2, x, positions, g.c, w + q * g.c * kPanel, j, std::min(kPanel, g.out_c - j), y,
            epilogue);
    }
  };
  // Each of `parts` threads takes a contiguous range of panels: one block of every filter row.
  const int parts = static_cast<int>(std::min<int64_t>(device.numThreads(), panels));
  auto part = [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) run(panels * t / parts, panels * (t + 1) / parts);
  };
  if (parts <= 1) {
    run(0, panels);
    return true;
  }
  bool done = false;
  {
    const ParallelSection section;
    if (!section.alone()) {
      run(0, panels);
      return true;
    }
    // On the calling thread's OpenMP team, the one oneDNN's convolutions run on: its threads
    // spin from the last convolution while the intra-op pool's sleep (openmp_team.h).
    done = ParallelForChunksOnOpenMpTeam(parts, 1, parts, part);
  }
  // Without OpenMP, on the intra-op pool.
  if (!done) ParallelForChunks(device, parts, 1, parts - 1, part);
  return true;
}

}  // namespace sg
