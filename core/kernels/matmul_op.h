// Batched matrix products for kernels that reduce to them (BatchMatMul, Einsum).
#ifndef SG_CORE_KERNELS_MATMUL_OP_H_
#define SG_CORE_KERNELS_MATMUL_OP_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "core/framework/op_kernel.h"
#include "core/framework/tensor.h"
#include "core/kernels/onednn_conv.h"
#include "core/kernels/panel_product.h"

namespace sg {

// For each i in [0, a_index.size()): matrix i of `c` = op(matrix a_index[i] of `a`) *
// op(matrix b_index[i] of `b`), where `a` holds contiguous row-major [m, k] matrices ([k, m]
// when adj_a), `b` [k, n] matrices ([n, k] when adj_b) and `c` [m, n] matrices; the index lists
// have one entry per matrix of `c`. a, b and c share one dtype: float, double, half or bfloat16
// (computed in float), int16 (computed in int32), int32, int64, complex64 or complex128 (adj_a / adj_b transpose only: a caller that
// wants the adjoint conjugates first); UNIMPLEMENTED for another. Runs on ctx's intra-op pool.
// Which matrix of a and of b each matrix of a batch of shape `batch` reads, when the batch
// dims a_batch and b_batch broadcast (numpy-style, aligned from the right) to `batch`.
void BroadcastBatchIndex(const TensorShape& a_batch, const TensorShape& b_batch,
                         const TensorShape& batch, std::vector<int64_t>* a_index,
                         std::vector<int64_t>* b_index);

absl::Status BatchedMatMul(OpKernelContext* ctx, const Tensor& a, const Tensor& b,
                           absl::Span<const int64_t> a_index, absl::Span<const int64_t> b_index,
                           int64_t m, int64_t k, int64_t n, bool adj_a, bool adj_b, Tensor* c);

// c[m, n] = op(a) * op(b) for one pair of row-major float matrices (a is [m, k], [k, m] when
// ta; b is [k, n], [n, k] when tb), exactly as MatMul computes it: on ctx's intra-op pool, or on
// one thread for a small product. c must not alias a or b.
void MatMulFloat(OpKernelContext* ctx, const float* a, const float* b, float* c, int64_t m,
                 int64_t k, int64_t n, bool ta, bool tb);

// c[m, n] = epilogue(a * op(b)) (a [m, k], not transposed; b [k, n], [n, k] when tb) for a
// float product whose b is a Const node's tensor, as MatMul and _FusedMatMul compute it when
// their node has the `_sg_const_filter` attr (OneDnnConv::kConstFilterAttr, set by the graph
// optimiser): with m from 5 to PanelProduct::kMaxRows (an RNN step or a dense layer at a small
// batch), on `product`, which keeps b packed between runs (panel_product.h), and returns true.
// Otherwise, or when the packed b cannot be allocated, returns false having touched nothing, and
// the caller computes the product as usual. epilogue (may be null) as PanelProduct::Run's; b is
// b_tensor's data (float, [k, n] or [n, k]), whose packed copy kernels share. Thread-safe, as
// PanelProduct::Run: concurrent runs may share one `product`.
bool ConstMatMulFloat(OpKernelContext* ctx, PanelProduct* product, const float* a,
                      const Tensor& b_tensor, float* c, int64_t m, int64_t k, int64_t n, bool ta,
                      bool tb, const OneDnnConv::Epilogue* epilogue);

}  // namespace sg

#endif  // SG_CORE_KERNELS_MATMUL_OP_H_
