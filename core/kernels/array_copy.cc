#include "core/kernels/array_copy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/framework/resource_mgr.h"
#include "core/kernels/element_copy.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

// The view after dropping size-1 dims and merging dims that are contiguous in both buffers.
struct Simplified {
  DimVector shape, src, dst;
};

Simplified Simplify(absl::Span<const int64_t> shape, absl::Span<const int64_t> src,
                    absl::Span<const int64_t> dst) {
  Simplified s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (!s.shape.empty() && s.src.back() == src[i] * shape[i] &&
        s.dst.back() == dst[i] * shape[i]) {
      s.shape.back() *= shape[i];
      s.src.back() = src[i];
      s.dst.back() = dst[i];
      continue;
    }
    s.shape.push_back(shape[i]);
    s.src.push_back(src[i]);
    s.dst.push_back(dst[i]);
  }
  if (s.shape.empty()) {
    s.shape.push_back(1);
    s.src.push_back(1);
    s.dst.push_back(1);
  }
  return s;
}

template <typename T>
void CopyRows(const Simplified& v, const T* src, T* dst, int64_t row_begin, int64_t row_end) {
  const int rank = static_cast<int>(v.shape.size());
  const int64_t inner = v.shape[rank - 1];
  const int64_t si = v.src[rank - 1], di = v.dst[rank - 1];
  // Multi-index of the first row over the outer dims, and the offsets it gives.
  DimVector index(rank, 0);
  int64_t so = 0, dof = 0;
  int64_t r = row_begin;
  for (int d = rank - 2; d >= 0; --d) {
    index[d] = r % v.shape[d];
    r /= v.shape[d];
    so += index[d] * v.src[d];
    dof += index[d] * v.dst[d];
  }
  for (int64_t row = row_begin; row < row_end; ++row) {
    const T* s = src + so;
    T* o = dst + dof;
    if (si == 1 && di == 1) {
      if constexpr (std::is_trivially_copyable_v<T>) {
        std::memcpy(o, s, inner * sizeof(T));
      } else {
        std::copy(s, s + inner, o);
      }
    } else {
      for (int64_t k = 0; k < inner; ++k) o[k * di] = s[k * si];
    }
    for (int d = rank - 2; d >= 0; --d) {
      so += v.src[d];
      dof += v.dst[d];
      if (++index[d] < v.shape[d]) break;
      so -= v.src[d] * v.shape[d];
      dof -= v.dst[d] * v.shape[d];
      index[d] = 0;
    }
  }
}

template <typename T>
void CopyTyped(const Eigen::ThreadPoolDevice* device, const Simplified& v, const void* src,
               int64_t src_offset, void* dst, int64_t dst_offset) {
  const T* s = static_cast<const T*>(src) + src_offset;
  T* d = static_cast<T*>(dst) + dst_offset;
  const int64_t inner = v.shape.back();
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < v.shape.size(); ++i) rows *= v.shape[i];
  if (device == nullptr || rows * inner < 16384) {
    CopyRows<T>(v, s, d, 0, rows);
    return;
  }
  const double bytes = static_cast<double>(inner * sizeof(T));
  ParallelFor(*device, rows, Eigen::TensorOpCost(bytes, bytes, inner),
                      [&](Eigen::Index b, Eigen::Index e) { CopyRows<T>(v, s, d, b, e); });
}

}  // namespace

DimVector RowMajorStrides(absl::Span<const int64_t> shape) {
  DimVector strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * shape[i + 1];
  }
  return strides;
}

void CopyStrided(const Eigen::ThreadPoolDevice* device, DataType dtype,
                 absl::Span<const int64_t> shape, const void* src, int64_t src_offset,
                 absl::Span<const int64_t> src_strides, void* dst, int64_t dst_offset,
                 absl::Span<const int64_t> dst_strides) {
  for (int64_t d : shape) {
    if (d == 0) return;
  }
  Simplified v = Simplify(shape, src_strides, dst_strides);
  auto copy = [&](auto tag) {
    CopyTyped<decltype(tag)>(device, v, src, src_offset, dst, dst_offset);
  };
  if (dtype == DT_RESOURCE) {
    copy(ResourceHandle{});
  } else {
    DispatchByCopy(dtype, copy);
  }
}

namespace {

// Fills larger than this bypass the caches. A fixed size: sysconf's last-level cache size is
// not one to go by (256 MiB on the 2-core VM, whose CPU has 32 MiB), and 8 MiB is already more
// than a core's private caches hold on the machines seen.
constexpr size_t kStreamingFillBytes = size_t{8} << 20;

// d[0, n) = v. When `stream`, with non-temporal stores: a fill larger than the caches would
// otherwise read every line from memory before writing it. Filling 64 MiB of floats on one
// thread of the 2-core VM took 3.7 ms with these stores and 13.7 ms with std::fill.
template <typename T>
void FillRange(T* d, int64_t n, const T& v, bool stream) {
#if defined(__SSE2__)
  if constexpr (std::is_trivially_copyable_v<T> && 16 % sizeof(T) == 0) {
    if (stream) {
      int64_t i = 0;
      for (; i < n && reinterpret_cast<uintptr_t>(d + i) % 16 != 0; ++i) d[i] = v;
      alignas(16) T pattern[16 / sizeof(T)];
      std::fill(pattern, pattern + 16 / sizeof(T), v);
      const __m128i p = _mm_load_si128(reinterpret_cast<const __m128i*>(pattern));
      constexpr int64_t kPer = 16 / sizeof(T);
      for (; i + kPer <= n; i += kPer) _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), p);
      for (; i < n; ++i) d[i] = v;
      _mm_sfence();  // the stores are weakly ordered: done before the range is reported done
      return;
    }
  }
#endif
  (void)stream;
  std::fill(d, d + n, v);
}

}  // namespace

void FillWithScalar(const Eigen::ThreadPoolDevice* device, const Tensor& value, Tensor* out) {
  const int64_t n = out->NumElements();
  if (n == 0) return;
  auto fill = [&](auto tag) {
    using T = decltype(tag);
    const T v = value.data<T>()[0];
    T* d = out->data<T>();
    const bool stream = static_cast<size_t>(n) * sizeof(T) > kStreamingFillBytes;
    if (device == nullptr || n < 32768) {
      FillRange(d, n, v, stream);
    } else {
      ParallelFor(*device, n, Eigen::TensorOpCost(0, sizeof(T), 1),
                  [&](Eigen::Index b, Eigen::Index e) { FillRange(d + b, e - b, v, stream); });
    }
  };
  if (out->dtype() == DT_RESOURCE) {
    fill(ResourceHandle{});
  } else {
    DispatchByCopy(out->dtype(), fill);
  }
}

absl::InlinedVector<int64_t, 8> IntValues(const Tensor& t) {
  absl::InlinedVector<int64_t, 8> v;
  const int64_t n = t.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    switch (t.dtype()) {
      case DT_INT64: v.push_back(t.data<int64_t>()[i]); break;
      case DT_INT32: v.push_back(t.data<int32_t>()[i]); break;
      case DT_INT16: v.push_back(t.data<int16_t>()[i]); break;
      case DT_INT8: v.push_back(t.data<int8_t>()[i]); break;
      case DT_UINT8: v.push_back(t.data<uint8_t>()[i]); break;
      default: v.push_back(0); break;
    }
  }
  return v;
}

absl::Status ShapeFromIntVector(OpKernelContext* ctx, const Tensor& dims_t, TensorShape* shape) {
  if (dims_t.dims() != 1) {
    return NodeError(ctx, "shape must be a vector, got shape ", dims_t.shape().DebugString());
  }
  const auto dims = IntValues(dims_t);
  for (int64_t d : dims) {
    if (d < 0) {
      return NodeError(ctx, "dimensions must be non-negative, got ", dims_t.SummarizeValue(10));
    }
  }
  auto s = TensorShape::Build(dims);
  if (!s.ok()) return NodeError(ctx, s.status().message());
  *shape = *s;
  return absl::OkStatus();
}

}  // namespace sg
