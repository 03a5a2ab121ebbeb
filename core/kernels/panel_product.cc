#include "core/kernels/panel_product.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

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

// A tile is up to kTileRows rows by kPanel columns. With AVX2 that is 12
// accumulators, 2 panel vectors and a broadcast value of x: 15 of the 16 vector registers.
// With AVX-512 a tile is up to kTileRows512 rows by two panels (TileAvx512).
constexpr int64_t kPanel = 16;
constexpr int kTileRows = 6;
constexpr int kTileRows512 = 12;

// x * sigmoid(x), as Mul(x, Sigmoid(x)).
inline float Swish(float x) { return x * (1.0f / (1.0f + std::exp(-x))); }

// The epilogue on value v of column j, whose value before was `before`.
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

// The activations the vector tiles leave to scalar code (Elu, Swish), on `count` values stored
// at out; other activations and a null epilogue leave them as they are.
inline void FinishScalarActivation(float* out, int count, const Epilogue* ep) {
  if (ep == nullptr) return;
  if (ep->act == Act::kElu) {
    for (int u = 0; u < count; ++u) out[u] = out[u] < 0 ? std::expm1(out[u]) : out[u];
  } else if (ep->act == Act::kSwish) {
    for (int u = 0; u < count; ++u) out[u] = Swish(out[u]);
  }
}

// Rows x[0..R) (each c values) times the panel of b's columns [j, j + width) (w: c rows of
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
// TileGeneric with AVX2 and FMA (the caller checks the CPU has them). A last panel narrower than
// kPanel is zero-padded: its products are computed in full and `width` of them kept, with the
// scalar epilogue (the epilogue's vectors end at the last column).
template <int R>
__attribute__((target("avx2,fma"))) void TileAvx2(const float* const* x, int64_t c,
                                                  const float* w, int64_t j, int64_t width,
                                                  float* const* y, const Epilogue* ep) {
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
  if (width < kPanel) {
    alignas(32) float part[kPanel];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      _mm256_store_ps(part, acc[r][0]);
      _mm256_store_ps(part + 8, acc[r][1]);
      for (int64_t u = 0; u < width; ++u) y[r][j + u] = Finish(part[u], j + u, y[r][j + u], ep);
    }
    return;
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
      FinishScalarActivation(out, 8, ep);
    }
  }
}

// Two panels side by side (P = 2: 32 columns, two vectors a row) or one, with AVX-512F (the
// caller checks the CPU has it): R rows by P panels of accumulators, up to 24 of the 32 vector
// registers, P panel vectors and a broadcast value. w is the first panel, the second
// `panel_floats` further; n is b's column count, so that a last panel narrower than kPanel keeps
// its `n - j` columns (scalar epilogue), as in TileAvx2.
// (GCC 12 warns that _mm512_max_ps's and _mm512_min_ps's pass-through operand, which they set
// to _mm512_undefined_ps() and never use, may be used uninitialized.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <int R, int P>
__attribute__((target("avx512f"))) void TileAvx512(const float* const* x, int64_t c,
                                                   const float* w, int64_t panel_floats,
                                                   int64_t j, int64_t n, float* const* y,
                                                   const Epilogue* ep) {
  __m512 acc[R][P];
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 2
    for (int p = 0; p < P; ++p) acc[r][p] = _mm512_setzero_ps();
  }
  const float* w0 = w;
  const float* w1 = w + (P == 2 ? panel_floats : 0);
  for (int64_t i = 0; i < c; ++i, w0 += kPanel, w1 += kPanel) {
    const __m512 b0 = _mm512_load_ps(w0);
    const __m512 b1 = P == 2 ? _mm512_load_ps(w1) : b0;
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
      const __m512 a = _mm512_set1_ps(x[r][i]);
      acc[r][0] = _mm512_fmadd_ps(a, b0, acc[r][0]);
      if constexpr (P == 2) acc[r][P - 1] = _mm512_fmadd_ps(a, b1, acc[r][P - 1]);
    }
  }
  const __m512 zero = _mm512_setzero_ps();
  const __m512 six = _mm512_set1_ps(6.0f);
#pragma GCC unroll 2
  for (int p = 0; p < P; ++p) {
    const int64_t jp = j + kPanel * p, width = std::min(kPanel, n - jp);
    if (width < kPanel) {
      alignas(64) float part[kPanel];
      for (int r = 0; r < R; ++r) {
        _mm512_store_ps(part, acc[r][p]);
        for (int64_t u = 0; u < width; ++u) {
          y[r][jp + u] = Finish(part[u], jp + u, y[r][jp + u], ep);
        }
      }
      continue;
    }
    const bool bias = ep != nullptr && ep->bias != nullptr;
    const bool affine = ep != nullptr && ep->scale != nullptr;
    const __m512 b = bias ? _mm512_loadu_ps(ep->bias + jp) : zero;
    const __m512 s = affine ? _mm512_loadu_ps(ep->scale + jp) : zero;
    const __m512 t = affine ? _mm512_loadu_ps(ep->shift + jp) : zero;
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
      __m512 v = acc[r][p];
      float* out = y[r] + jp;
      if (ep != nullptr) {
        if (bias) v = _mm512_add_ps(v, b);
        if (affine) v = _mm512_fmadd_ps(v, s, t);
        if (ep->sum) v = _mm512_add_ps(v, _mm512_loadu_ps(out));
        switch (ep->act) {
          case Act::kNone:
          case Act::kElu:
          case Act::kSwish: break;  // below, on the stored values
          // max and min return their second operand when either is NaN: NaN stays NaN.
          case Act::kRelu: v = _mm512_max_ps(zero, v); break;
          case Act::kRelu6: v = _mm512_min_ps(six, _mm512_max_ps(zero, v)); break;
          case Act::kLeakyRelu:
            v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, zero, _CMP_GT_OQ),
                                     _mm512_mul_ps(_mm512_set1_ps(ep->alpha), v), v);
            break;
        }
      }
      _mm512_storeu_ps(out, v);
      FinishScalarActivation(out, kPanel, ep);
    }
  }
}

#pragma GCC diagnostic pop

// TileAvx512 for R = 1 to kTileRows512 rows.
template <int P>
void TileAvx512Rows(int64_t rows, const float* const* x, int64_t c, const float* w,
                    int64_t panel_floats, int64_t j, int64_t n, float* const* y,
                    const Epilogue* ep) {
  switch (rows) {
    case 1: TileAvx512<1, P>(x, c, w, panel_floats, j, n, y, ep); break;
    case 2: TileAvx512<2, P>(x, c, w, panel_floats, j, n, y, ep); break;
    case 3: TileAvx512<3, P>(x, c, w, panel_floats, j, n, y, ep); break;
    case 4: TileAvx512<4, P>(x, c, w, panel_floats, j, n, y, ep); break;
    case 5: TileAvx512<5, P>(x, c, w, panel_floats, j, n, y, ep); break;
    case 6: TileAvx512<6, P>(x, c, w, panel_floats, j, n, y, ep); break;
    case 7: TileAvx512<7, P>(x, c, w, panel_floats, j, n, y, ep); break;
    case 8: TileAvx512<8, P>(x, c, w, panel_floats, j, n, y, ep); break;
    case 9: TileAvx512<9, P>(x, c, w, panel_floats, j, n, y, ep); break;
    case 10: TileAvx512<10, P>(x, c, w, panel_floats, j, n, y, ep); break;
    case 11: TileAvx512<11, P>(x, c, w, panel_floats, j, n, y, ep); break;
    default: TileAvx512<12, P>(x, c, w, panel_floats, j, n, y, ep); break;
  }
}

// Panels [q0, q1) of every row with AVX-512: two panels at a time (one when one is left), the
// rows in equal tiles of at most kTileRows512.
void PanelsAvx512(const float* const* x, int64_t rows, int64_t c, const float* w, int64_t q0,
                  int64_t q1, int64_t n, float* const* y, const Epilogue* ep) {
  const int64_t tiles = (rows + kTileRows512 - 1) / kTileRows512;
  const int64_t panel_floats = c * kPanel;
  for (int64_t q = q0; q < q1; q += 2) {
    const float* wq = w + q * panel_floats;
    for (int64_t t = 0; t < tiles; ++t) {
      const int64_t r = rows * t / tiles, r1 = rows * (t + 1) / tiles;
      if (q + 1 < q1) {
        TileAvx512Rows<2>(r1 - r, x + r, c, wq, panel_floats, q * kPanel, n, y + r, ep);
      } else {
        TileAvx512Rows<1>(r1 - r, x + r, c, wq, panel_floats, q * kPanel, n, y + r, ep);
      }
    }
  }
}
#endif

template <int R>
void Tile(bool avx2, const float* const* x, int64_t c, const float* w, int64_t j,
          int64_t width, float* const* y, const Epilogue* ep) {
#if defined(__x86_64__)
  if (avx2) {
    TileAvx2<R>(x, c, w, j, width, y, ep);
    return;
  }
#endif
  TileGeneric<R>(x, c, w, j, width, y, ep);
}

// Columns [j, j + width) of every row, from their panel w: the rows in equal tiles of at most
// kTileRows (8 rows as 4 + 4: see panel_product.h).
void Panel(bool avx2, const float* const* x, int64_t rows, int64_t c, const float* w, int64_t j,
           int64_t width, float* const* y, const Epilogue* ep) {
  const int64_t tiles = (rows + kTileRows - 1) / kTileRows;
  for (int64_t t = 0; t < tiles; ++t) {
    const int64_t r = rows * t / tiles, r1 = rows * (t + 1) / tiles;
    switch (r1 - r) {
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

// b as Panels(n) panels of k rows of kPanel columns each, the last padded with zeros.
struct PanelProduct::Packed {
  struct Free {
    void operator()(float* p) const { std::free(p); }
  };
  const float* user = nullptr;  // the b it was made from
  int64_t k = 0, n = 0;
  bool transposed = false;
  std::unique_ptr<float, Free> data;
  // For a shared copy, b's tensor: while the copy lives, b's buffer does, so no other tensor can
  // have b's address and find this copy.
  Tensor owner;
};

namespace {

// `b` ([k, n], or [n, k] when transposed) in panels, holding `owner` (may be null); nullptr when
// out of memory.
std::shared_ptr<const PanelProduct::Packed> Pack(const float* b, int64_t k, int64_t n,
                                                 bool transposed, const Tensor* owner) {
  auto packed = std::make_shared<PanelProduct::Packed>();
  const int64_t panels = Panels(n);
  const size_t bytes = static_cast<size_t>(panels * k * kPanel) * sizeof(float);
  packed->data.reset(static_cast<float*>(std::aligned_alloc(64, bytes)));
  if (packed->data == nullptr) return nullptr;
  float* p = packed->data.get();
  for (int64_t q = 0; q < panels; ++q) {
    const int64_t j = q * kPanel, width = std::min(kPanel, n - j);
    for (int64_t i = 0; i < k; ++i, p += kPanel) {
      if (transposed) {
        for (int64_t u = 0; u < width; ++u) p[u] = b[(j + u) * k + i];
      } else {
        std::copy(b + i * n + j, b + i * n + j + width, p);
      }
      std::fill(p + width, p + kPanel, 0.0f);
    }
  }
  packed->user = b;
  packed->k = k;
  packed->n = n;
  packed->transposed = transposed;
  if (owner != nullptr) packed->owner = *owner;
  return packed;
}

// The packed copies of tensors passed as b_tensor, alive while a PanelProduct uses them.
mutex shared_mu;
std::vector<std::weak_ptr<const PanelProduct::Packed>>* SharedCopies()
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(shared_mu) {
  static auto* copies = new std::vector<std::weak_ptr<const PanelProduct::Packed>>;
  return copies;
}

bool Matches(const PanelProduct::Packed& p, const float* b, int64_t k, int64_t n,
             bool transposed) {
  return p.user == b && p.k == k && p.n == n && p.transposed == transposed;
}

// The shared copy of b_tensor's b, packed now if no PanelProduct has it; nullptr when out of
// memory.
std::shared_ptr<const PanelProduct::Packed> SharedPack(const Tensor& b_tensor, const float* b,
                                                       int64_t k, int64_t n, bool transposed) {
  mutex_lock lock(shared_mu);
  auto* copies = SharedCopies();
  for (const auto& weak : *copies) {
    std::shared_ptr<const PanelProduct::Packed> p = weak.lock();
    if (p != nullptr && Matches(*p, b, k, n, transposed)) return p;
  }
  std::shared_ptr<const PanelProduct::Packed> packed = Pack(b, k, n, transposed, &b_tensor);
  if (packed == nullptr) return nullptr;
  copies->erase(std::remove_if(copies->begin(), copies->end(),
                               [](const auto& weak) { return weak.expired(); }),
                copies->end());
  copies->push_back(packed);
  return packed;
}

}  // namespace

PanelProduct::PanelProduct() = default;
PanelProduct::~PanelProduct() = default;

bool PanelProduct::Run(const Eigen::ThreadPoolDevice& device, bool split, const float* const* x,
                       int64_t rows, const float* b, int64_t k, int64_t n, bool b_transposed,
                       float* const* y, const OneDnnConv::Epilogue* epilogue,
                       const Tensor* b_tensor) {
  std::shared_ptr<const Packed> packed;
  {
    mutex_lock lock(mu_);
    if (packed_ != nullptr && Matches(*packed_, b, k, n, b_transposed)) packed = packed_;
  }
  if (packed == nullptr) {
    packed = b_tensor != nullptr ? SharedPack(*b_tensor, b, k, n, b_transposed)
                                 : Pack(b, k, n, b_transposed, nullptr);
    if (packed == nullptr) return false;
    mutex_lock lock(mu_);
    packed_ = packed;
  }
  const int isa = SelectedCpuIsaLevel();
  const bool avx2 = isa >= 3;
  const int64_t panels = Panels(n);
  const float* w = packed->data.get();
  auto run = [&](int64_t begin, int64_t end) {
#if defined(__x86_64__)
    if (isa >= 4) {
      PanelsAvx512(x, rows, k, w, begin, end, n, y, epilogue);
      return;
    }
#endif
    for (int64_t q = begin; q < end; ++q) {
      const int64_t j = q * kPanel;
      Panel(avx2, x, rows, k, w + q * k * kPanel, j, std::min(kPanel, n - j), y, epilogue);
    }
  };
  // Each of `parts` threads takes a contiguous range of panels: one block of every row of b.
  const int parts =
      split ? static_cast<int>(std::min<int64_t>(device.numThreads(), panels)) : 1;
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
    // On the calling thread's OpenMP team, the one oneDNN's kernels run on: its threads spin
    // from the last oneDNN call while the intra-op pool's sleep (openmp_team.h).
    done = ParallelForChunksOnOpenMpTeam(parts, 1, parts, part);
  }
  // Without OpenMP, on the intra-op pool.
  if (!done) ParallelForChunks(device, parts, 1, parts - 1, part);
  return true;
}

}  // namespace sg
