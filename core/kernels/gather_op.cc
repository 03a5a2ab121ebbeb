// GatherV2 (params, indices, axis, batch_dims) and the older Gather (axis 0). With batch_dims b,
// the first b dims of params and indices are shared: each batch gathers with its own indices.
#include <cstring>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/element_copy.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

// out[o, j, :] = params[o, idx[batch(o), j], :] for the `outer` leading blocks, `per_batch` of
// them to a batch, and the `n` indices of each batch.
template <typename T>
void GatherBlocks(const Eigen::ThreadPoolDevice& device, const T* params, const int64_t* idx,
                  int64_t outer, int64_t per_batch, int64_t n, int64_t limit, int64_t inner,
                  T* out) {
  auto work = [&](Eigen::Index begin, Eigen::Index end) {
    for (Eigen::Index k = begin; k < end; ++k) {
      const int64_t o = k / n, j = k % n;
      const T* src = params + (o * limit + idx[(o / per_batch) * n + j]) * inner;
      T* dst = out + k * inner;
      if constexpr (std::is_trivially_copyable_v<T>) {
        std::memcpy(dst, src, inner * sizeof(T));
      } else {
        std::copy(src, src + inner, dst);
      }
    }
  };
  const int64_t blocks = outer * n;
  if (blocks * inner < 16384) {
    work(0, blocks);
  } else {
    const double bytes = static_cast<double>(inner * sizeof(T));
    ParallelFor(device, blocks, Eigen::TensorOpCost(bytes, bytes, inner), work);
  }
}

class GatherOp final : public OpKernel {
 public:
  explicit GatherOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    has_axis_ = ctx->def().op() == "GatherV2";
    if (has_axis_) OP_REQUIRES_OK(ctx, ctx->GetAttr("batch_dims", &batch_dims_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& params = ctx->input(0);
    const Tensor& indices = ctx->input(1);
    const int rank = params.dims();
    OP_REQUIRES(ctx, rank >= 1, NodeError(ctx, "params must be at least 1 dimensional"));
    int64_t axis = 0;
    if (has_axis_) {
      const Tensor& axis_t = ctx->input(2);
      OP_REQUIRES(ctx, axis_t.NumElements() == 1,
                  NodeError(ctx, "axis must be scalar, got ", axis_t.shape().DebugString()));
      axis = IntValues(axis_t)[0];
      OP_REQUIRES(ctx, axis >= -rank && axis < rank,
                  NodeError(ctx, "Expected axis in the range [", -rank, ", ", rank,
                            "), but got ", axis));
      if (axis < 0) axis += rank;
    }
    int64_t batch_dims = batch_dims_;
    if (batch_dims < 0) batch_dims += indices.dims();
    OP_REQUIRES(ctx, batch_dims >= 0 && batch_dims <= indices.dims(),
                NodeError(ctx, "Expected batch_dims in the range [", -indices.dims(), ", ",
                          indices.dims(), "], but got ", batch_dims_));
    OP_REQUIRES(ctx, batch_dims < rank,
                NodeError(ctx, "batch_dims (", batch_dims, ") must be less than rank(params) (",
                          rank, ")."));
    OP_REQUIRES(ctx, batch_dims <= axis,
                NodeError(ctx, "batch_dims (", batch_dims, ") must be less than or equal to ",
                          "axis (", axis, ")."));
    int64_t batch = 1;
    for (int d = 0; d < batch_dims; ++d) {
      OP_REQUIRES(ctx, params.dim_size(d) == indices.dim_size(d),
                  NodeError(ctx, "params.shape[", d, "]: ", params.dim_size(d),
                            " should be equal to indices.shape[", d, "]: ", indices.dim_size(d)));
      batch *= params.dim_size(d);
    }
    const int64_t limit = params.dim_size(static_cast<int>(axis));
    const int64_t n = indices.NumElements();
    std::vector<int64_t> idx(n);
    for (int64_t j = 0; j < n; ++j) {
      switch (indices.dtype()) {
        case DT_INT64: idx[j] = indices.data<int64_t>()[j]; break;
        case DT_INT32: idx[j] = indices.data<int32_t>()[j]; break;
        case DT_INT16: idx[j] = indices.data<int16_t>()[j]; break;
        default: idx[j] = -1; break;
      }
      OP_REQUIRES(ctx, idx[j] >= 0 && idx[j] < limit,
                  NodeError(ctx, "indices[", j, "] = ", idx[j], " is not in [0, ", limit, ")"));
    }
    std::vector<int64_t> out_dims;
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) {
      out_dims.push_back(params.dim_size(d));
      outer *= params.dim_size(d);
    }
    for (int d = static_cast<int>(batch_dims); d < indices.dims(); ++d) {
      out_dims.push_back(indices.dim_size(d));
    }
    for (int d = static_cast<int>(axis) + 1; d < rank; ++d) {
      out_dims.push_back(params.dim_size(d));
      inner *= params.dim_size(d);
    }
    auto out_shape = TensorShape::Build(out_dims);
    OP_REQUIRES(ctx, out_shape.ok(), NodeError(ctx, out_shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *out_shape, &out));
    if (out->NumElements() == 0) return;
    const auto& dev = ctx->eigen_cpu_device();
    auto run = [&](auto tag) {
      using T = decltype(tag);
      GatherBlocks<T>(dev, static_cast<const T*>(params.raw_data()), idx.data(), outer,
                      outer / batch, n / batch, limit, inner, static_cast<T*>(out->raw_data()));
    };
    if (!DispatchByCopy(params.dtype(), run)) {
      ctx->CtxFailure(NodeError(ctx, "unsupported dtype ", DataTypeString(params.dtype())));
    }
  }

 private:
  bool has_axis_;
  int64_t batch_dims_ = 0;
};
REGISTER_KERNEL_BUILDER(Name("GatherV2").Device(DEVICE_CPU), GatherOp);
REGISTER_KERNEL_BUILDER(Name("Gather").Device(DEVICE_CPU), GatherOp);

}  // namespace
}  // namespace sg
