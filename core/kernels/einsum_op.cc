// Einsum, as TensorFlow's op: each operand is rearranged (diagonals of repeated labels taken,
// labels that only it has and the output lacks summed, the rest transposed to [batch, free,
// contracted] or [batch, contracted, free]) and the two meet in one batched matrix product,
// whose result is transposed to the output's label order. The rearranging copies are skipped when
// an operand or the result is already in order. A label repeated in the output is computed once
// and the result copied onto the output's diagonal (zeros elsewhere).
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/einsum_spec.h"
#include "core/kernels/matmul_op.h"
#include "core/kernels/parallel_for.h"
#include "core/kernels/reduction_ops.h"

namespace sg {
namespace {

// bfloat16 sums and multiplies in float (BatchedMatMul; Rearrange's sums below).
using EinsumTypes =
    TypeList<float, double, half, bfloat16, int32_t, int64_t, complex64, complex128>;

// `t` (one label per dim) as a dense tensor whose dims are the labels `keep`, in that order:
// the diagonal taken for a repeated label, every label of t not in `keep` summed over. *out is t
// itself when nothing moves.
absl::Status Rearrange(OpKernelContext* ctx, const Tensor& t, const std::vector<int>& labels,
                       const std::vector<int>& keep, int num_labels, Tensor* out) {
  if (labels == keep) {
    *out = t;
    return absl::OkStatus();
  }
  const DimVector strides = RowMajorStrides(t.shape().dim_sizes());
  std::vector<int64_t> size(num_labels, -1), stride(num_labels, 0);
  std::vector<int> order;  // t's distinct labels, first occurrence first
  for (size_t d = 0; d < labels.size(); ++d) {
    const int l = labels[d];
    if (size[l] < 0) order.push_back(l);
    size[l] = t.dim_size(static_cast<int>(d));
    stride[l] += strides[d];  // a repeated label walks the diagonal
  }
  DimVector shape, view_strides, kept;
  for (int l : keep) {
    shape.push_back(size[l]);
    view_strides.push_back(stride[l]);
    kept.push_back(size[l]);
  }
  int64_t reduced = 1;
  for (int l : order) {
    if (std::find(keep.begin(), keep.end(), l) != keep.end()) continue;
    shape.push_back(size[l]);
    view_strides.push_back(stride[l]);
    reduced *= size[l];
  }
  const Eigen::ThreadPoolDevice* d = &ctx->eigen_cpu_device();
  SG_RETURN_IF_ERROR(ctx->allocate_temp(t.dtype(), TensorShape(kept), out));
  const int64_t n_out = out->NumElements();
  if (n_out == 0) return absl::OkStatus();
  if (shape.size() == kept.size()) {  // nothing to sum
    CopyStrided(d, t.dtype(), shape, t.raw_data(), 0, view_strides, out->raw_data(), 0,
                RowMajorStrides(kept));
    return absl::OkStatus();
  }
  if (reduced == 0) {
    std::memset(out->raw_data(), 0, n_out * DataTypeSize(t.dtype()));
    return absl::OkStatus();
  }
  Tensor tmp;
  SG_RETURN_IF_ERROR(ctx->allocate_temp(t.dtype(), TensorShape({n_out * reduced}), &tmp));
  CopyStrided(d, t.dtype(), shape, t.raw_data(), 0, view_strides, tmp.raw_data(), 0,
              RowMajorStrides(shape));
  if (t.dtype() == DT_BFLOAT16) {  // summed in float, rounded once
    Tensor wide, sum;
    SG_RETURN_IF_ERROR(WidenBf16Tensor(ctx, tmp, &wide));
    SG_RETURN_IF_ERROR(ctx->allocate_temp(DT_FLOAT, TensorShape({n_out}), &sum));
    ReducePass<ReduceKind::kSum, float>(*d, wide.data<float>(), sum.data<float>(), n_out,
                                        reduced, 1);
    NarrowToBf16(*d, sum.data<float>(), out->data<bfloat16>(), n_out);
    return absl::OkStatus();
  }
  DispatchTypes(EinsumTypes(), t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same<T, bfloat16>::value) {
      ReducePass<ReduceKind::kSum, T>(*d, tmp.data<T>(), out->data<T>(), n_out, reduced, 1);
    }
  });
  return absl::OkStatus();
}

// BatchedMatMul (matmul_op.h) for bfloat16 as TensorFlow's Einsum computes it: in bfloat16
// itself (its Einsum skips the float conversion its BatchMatMul kernels do), k in increasing
// order, the partial sum rounded to bfloat16 after each step. A single product runs Eigen's
// vectorized contraction, whose bfloat16 multiply-add is one float a * b + acc rounded once; a
// batch runs Eigen's scalar product per matrix, which rounds a * b first too. A scalar loop over
// the pool (bfloat16 products are rare; no GEMM is instantiated for them).
absl::Status BatchedMatMulBf16(OpKernelContext* ctx, const Tensor& a, const Tensor& b,
                               absl::Span<const int64_t> a_index,
                               absl::Span<const int64_t> b_index, int64_t m, int64_t k,
                               int64_t n, bool adj_a, bool adj_b, Tensor* c) {
  const int64_t nb = static_cast<int64_t>(a_index.size());
  if (c->NumElements() == 0) return absl::OkStatus();
  const bfloat16* pa = a.data<bfloat16>();
  const bfloat16* pb = b.data<bfloat16>();
  bfloat16* pc = c->data<bfloat16>();
  // Element (i, l) of matrix a: [m, k] row-major, or [k, m] when adj_a; b likewise.
  const int64_t a_row = adj_a ? 1 : k, a_col = adj_a ? m : 1;
  const int64_t b_row = adj_b ? 1 : n, b_col = adj_b ? k : 1;
  const bool fused = nb == 1;
  ParallelFor(ctx->eigen_cpu_device(),
      nb * m * n, Eigen::TensorOpCost(4.0 * k, 2, 4.0 * k),
      [&](Eigen::Index begin, Eigen::Index end) {
        for (Eigen::Index e = begin; e < end; ++e) {
          const int64_t batch = e / (m * n), i = (e / n) % m, j = e % n;
          const bfloat16* ma = pa + a_index[batch] * m * k;
          const bfloat16* mb = pb + b_index[batch] * k * n;
          bfloat16 acc(0.0f);
          for (int64_t l = 0; l < k; ++l) {
            const float x = static_cast<float>(ma[i * a_row + l * a_col]);
            const float y = static_cast<float>(mb[l * b_row + j * b_col]);
            const float prod = fused ? x * y : static_cast<float>(static_cast<bfloat16>(x * y));
            acc = static_cast<bfloat16>(static_cast<float>(acc) + prod);
          }
          pc[e] = acc;
        }
      });
  return absl::OkStatus();
}

std::vector<int> Concat(std::initializer_list<const std::vector<int>*> parts) {
  std::vector<int> out;
  for (const auto* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

class EinsumOp final : public OpKernel {
 public:
  explicit EinsumOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("equation", &equation_));
  }

  void Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs();
    const DataType dtype = ctx->input(0).dtype();
    bool supported = DispatchTypes(EinsumTypes(), dtype, [](auto) {});
    OP_REQUIRES(ctx, supported, UnsupportedType(*this, dtype));
    std::vector<std::vector<int64_t>> dims(n);
    for (int i = 0; i < n; ++i) {
      const auto ds = ctx->input(i).shape().dim_sizes();
      dims[i].assign(ds.begin(), ds.end());
    }
    EinsumPlan plan;
    absl::Status s = PlanEinsum(equation_, dims, &plan);
    OP_REQUIRES(ctx, s.ok(), KernelError(*this, s.message()));
    // A label repeated in the output: the result over its distinct labels, then inflated.
    std::vector<int> distinct;
    for (int l : plan.output_labels) {
      if (std::find(distinct.begin(), distinct.end(), l) == distinct.end()) distinct.push_back(l);
    }
    const std::vector<int> output_labels = plan.output_labels;
    plan.output_labels = distinct;
    Tensor r;
    OP_REQUIRES_OK(ctx, Evaluate(ctx, plan, &r));
    if (distinct == output_labels) {
      ctx->set_output(0, r);
      return;
    }
    plan.output_labels = output_labels;
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(plan.OutputShape()), &out));
    if (out->NumElements() == 0) return;
    std::memset(out->raw_data(), 0, out->NumElements() * DataTypeSize(dtype));
    const DimVector out_strides = RowMajorStrides(out->shape().dim_sizes());
    DimVector diagonal_strides;  // of r's dims in out: a repeated label walks the diagonal
    for (int l : distinct) {
      int64_t stride = 0;
      for (size_t d = 0; d < output_labels.size(); ++d) {
        if (output_labels[d] == l) stride += out_strides[d];
      }
      diagonal_strides.push_back(stride);
    }
    CopyStrided(&ctx->eigen_cpu_device(), dtype, r.shape().dim_sizes(), r.raw_data(), 0,
                RowMajorStrides(r.shape().dim_sizes()), out->raw_data(), 0, diagonal_strides);
  }

 private:
  // The result of `plan` (whose output labels are distinct) in *result.
  absl::Status Evaluate(OpKernelContext* ctx, const EinsumPlan& plan, Tensor* result) {
    const int n = ctx->num_inputs();
    const DataType dtype = ctx->input(0).dtype();
    const int num_labels = plan.num_labels();
    const TensorShape out_shape(plan.OutputShape());
    if (n == 1) {
      return Rearrange(ctx, ctx->input(0), plan.input_labels[0], plan.output_labels, num_labels,
                       result);
    }
    const Tensor& a = ctx->input(0);
    const Tensor& b = ctx->input(1);
    const auto& la = plan.input_labels[0];
    const auto& lb = plan.input_labels[1];
    std::vector<int64_t> size_a(num_labels, -1), size_b(num_labels, -1);
    for (size_t d = 0; d < la.size(); ++d) size_a[la[d]] = a.dim_size(static_cast<int>(d));
    for (size_t d = 0; d < lb.size(); ++d) size_b[lb[d]] = b.dim_size(static_cast<int>(d));

    // Batch and free labels in the output's order; contracted ones in a's order. A label both
    // operands have, that the output lacks and whose sizes differ (an ellipsis dim of size 1
    // against n) is summed within each operand by Rearrange.
    std::vector<int> batch, free_a, free_b, contract;
    for (int l : plan.output_labels) {
      const bool ina = size_a[l] >= 0, inb = size_b[l] >= 0;
      if (ina && inb) {
        batch.push_back(l);
      } else if (ina) {
        free_a.push_back(l);
      } else {
        free_b.push_back(l);
      }
    }
    for (int l : la) {
      if (plan.in_output[l] || size_b[l] < 0 || size_a[l] != size_b[l]) continue;
      if (std::find(contract.begin(), contract.end(), l) == contract.end()) contract.push_back(l);
    }
    // Each operand's layout: the one that needs no copy when there is one.
    const bool adj_a = la != Concat({&batch, &free_a, &contract}) &&
                       la == Concat({&batch, &contract, &free_a});
    const bool adj_b = lb != Concat({&batch, &contract, &free_b}) &&
                       lb == Concat({&batch, &free_b, &contract});
    Tensor pa, pb;
    SG_RETURN_IF_ERROR(Rearrange(ctx, a, la,
                                 adj_a ? Concat({&batch, &contract, &free_a})
                                       : Concat({&batch, &free_a, &contract}),
                                 num_labels, &pa));
    SG_RETURN_IF_ERROR(Rearrange(ctx, b, lb,
                                 adj_b ? Concat({&batch, &free_b, &contract})
                                       : Concat({&batch, &contract, &free_b}),
                                 num_labels, &pb));
    auto product = [](const std::vector<int>& ls, const std::vector<int64_t>& sz) {
      int64_t p = 1;
      for (int l : ls) p *= sz[l];
      return p;
    };
    const int64_t m = product(free_a, size_a), k = product(contract, size_a),
                  nn = product(free_b, size_b);
    TensorShape batch_a, batch_b, batch_out;
    for (int l : batch) {
      batch_a.AddDim(size_a[l]);
      batch_b.AddDim(size_b[l]);
      batch_out.AddDim(plan.size[l]);
    }
    std::vector<int64_t> index_a, index_b;
    BroadcastBatchIndex(batch_a, batch_b, batch_out, &index_a, &index_b);

    // The product's labels: [batch, free_a, free_b], or [batch, free_b, free_a] computed as
    // b^T a^T when that is the output's order.
    const std::vector<int> ab = Concat({&batch, &free_a, &free_b});
    const std::vector<int> ba = Concat({&batch, &free_b, &free_a});
    const bool swap = ab != plan.output_labels && ba == plan.output_labels;
    const std::vector<int>& r_labels = swap ? ba : ab;
    TensorShape r_shape;
    for (int l : r_labels) r_shape.AddDim(plan.size[l]);
    const bool direct = r_labels == plan.output_labels;
    Tensor r;
    SG_RETURN_IF_ERROR(ctx->allocate_temp(dtype, direct ? out_shape : r_shape, &r));
    if (r.NumElements() > 0) {
      auto mul = dtype == DT_BFLOAT16 ? BatchedMatMulBf16 : BatchedMatMul;
      SG_RETURN_IF_ERROR(swap ? mul(ctx, pb, pa, index_b, index_a, nn, k, m, !adj_b, !adj_a, &r)
                              : mul(ctx, pa, pb, index_a, index_b, m, k, nn, adj_a, adj_b, &r));
    }
    if (direct) {
      *result = r;
      return absl::OkStatus();
    }
    SG_RETURN_IF_ERROR(ctx->allocate_temp(dtype, out_shape, result));
    if (result->NumElements() == 0) return absl::OkStatus();
    const DimVector r_strides = RowMajorStrides(r_shape.dim_sizes());
    DimVector src_strides;
    for (int l : plan.output_labels) {
      const int pos = static_cast<int>(std::find(r_labels.begin(), r_labels.end(), l) -
                                       r_labels.begin());
      src_strides.push_back(r_strides[pos]);
    }
    CopyStrided(&ctx->eigen_cpu_device(), dtype, out_shape.dim_sizes(), r.raw_data(), 0,
                src_strides, result->raw_data(), 0, RowMajorStrides(out_shape.dim_sizes()));
    return absl::OkStatus();
  }

 private:
  std::string equation_;
};

REGISTER_KERNEL_BUILDER(Name("Einsum").Device(DEVICE_CPU), EinsumOp);

}  // namespace
}  // namespace sg
