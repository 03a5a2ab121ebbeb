// Element moves between strided views of tensor buffers: the one routine behind the
// data-movement kernels (Slice, StridedSlice, Transpose, Tile, BroadcastTo, Concat, Split, Pack,
// Pad, MirrorPad, Reverse). A "view" is a buffer, an offset and one stride per dim, all counted in
// elements, so a reversed dim has a negative stride and a broadcast dim a zero stride.
//
//   // Transpose a [2,3] row-major matrix into a [3,2] output.
//   CopyStrided(&device, DT_FLOAT, {3, 2}, in.raw_data(), 0, {1, 3}, out.raw_data(), 0, {2, 1});
#ifndef SG_CORE_KERNELS_ARRAY_COPY_H_
#define SG_CORE_KERNELS_ARRAY_COPY_H_

#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "core/framework/op_kernel.h"
#include "core/framework/tensor.h"

namespace sg {

using DimVector = absl::InlinedVector<int64_t, 8>;

// Copies every element of a view of `shape`: element (i_0..i_k) is read at
// src[src_offset + sum_j i_j * src_strides[j]] and written at dst[dst_offset + sum_j i_j *
// dst_strides[j]]. Elements are of `dtype` (strings, resource handles and variants are
// assigned, everything else is copied as bytes). The caller guarantees every address is inside its buffer and that the destination
// elements are distinct and do not overlap the source elements. `device` may be nullptr (runs on
// the calling thread); otherwise the work is split across its pool.
void CopyStrided(const Eigen::ThreadPoolDevice* device, DataType dtype,
                 absl::Span<const int64_t> shape, const void* src, int64_t src_offset,
                 absl::Span<const int64_t> src_strides, void* dst, int64_t dst_offset,
                 absl::Span<const int64_t> dst_strides);

// Row-major strides (in elements) of a dense tensor of `shape`.
DimVector RowMajorStrides(absl::Span<const int64_t> shape);

// Sets every element of `out` to the single element of `value` (same dtype as `out`).
void FillWithScalar(const Eigen::ThreadPoolDevice* device, const Tensor& value, Tensor* out);

// Checked a*b for non-negative sizes: false when the product exceeds kMaxTensorElements.
inline bool MultiplySizes(int64_t a, int64_t b, int64_t* out) {
  if (a == 0 || b == 0) {
    *out = 0;
    return true;
  }
  if (a > kMaxTensorElements / b) return false;
  *out = a * b;
  return true;
}

// Reads a rank-0 or rank-1 int32/int64 tensor's values.
absl::InlinedVector<int64_t, 8> IntValues(const Tensor& t);

// The shape whose dims are the values of the int vector `dims_t` (Fill, BroadcastTo);
// INVALID_ARGUMENT for a non-vector, a negative dim or more than 2^62 elements.
absl::Status ShapeFromIntVector(OpKernelContext* ctx, const Tensor& dims_t, TensorShape* shape);

// INVALID_ARGUMENT for a kernel's bad input: the message, then the node and op at fault.
template <typename... Args>
absl::Status NodeError(OpKernelContext* ctx, const Args&... args) {
  return errors::InvalidArgument(args..., " (node '", ctx->op_kernel().name(), "', op ",
                                 ctx->op_kernel().type_string(), ")");
}

}  // namespace sg

#endif  // SG_CORE_KERNELS_ARRAY_COPY_H_
