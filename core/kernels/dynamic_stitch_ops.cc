// DynamicPartition and (Parallel)DynamicStitch, as TensorFlow's CPU kernels: any dtype, moved
// element by element.
//
// DynamicPartition: the rows of data (indexed by the dims of partitions) go, in order, to output
// partitions[row]; each output is [count] + data.shape[partitions.rank:].
// DynamicStitch: merged[indices[i][j...]] = data[i][j...], for i and then j in order, so a later
// duplicate wins; merged has max index + 1 rows and a row no index names is zero (empty for
// strings). ParallelDynamicStitch is the same kernel: TensorFlow leaves the order of duplicates
// open there.
#include <algorithm>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/element_copy.h"

namespace sg {
namespace {

// Whether `shape` starts with the dims of `prefix`.
bool StartsWith(const TensorShape& shape, const TensorShape& prefix) {
  if (shape.dims() < prefix.dims()) return false;
  for (int d = 0; d < prefix.dims(); ++d) {
    if (shape.dim_size(d) != prefix.dim_size(d)) return false;
  }
  return true;
}

// Product of dims [from, rank) of `shape`.
int64_t InnerSize(const TensorShape& shape, int from) {
  int64_t n = 1;
  for (int d = from; d < shape.dims(); ++d) n *= shape.dim_size(d);
  return n;
}

class DynamicPartitionOp final : public OpKernel {
 public:
  explicit DynamicPartitionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_partitions", &num_partitions_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& data = ctx->input(0);
    const Tensor& partitions = ctx->input(1);
    OP_REQUIRES(ctx, StartsWith(data.shape(), partitions.shape()),
                KernelError(*this, "data.shape must start with partitions.shape, got "
                                   "data.shape = ",
                            data.shape().DebugString(), ", partitions.shape = ",
                            partitions.shape().DebugString()));
    const int64_t rows = partitions.NumElements();
    const int32_t* part = partitions.data<int32_t>();
    std::vector<int64_t> counts(num_partitions_, 0);
    for (int64_t i = 0; i < rows; ++i) {
      OP_REQUIRES(ctx, part[i] >= 0 && part[i] < num_partitions_,
                  KernelError(*this, "partitions[", i, "] = ", part[i], " is not in [0, ",
                              num_partitions_, ")"));
      ++counts[part[i]];
    }
    const int64_t inner = InnerSize(data.shape(), partitions.dims());
    std::vector<void*> outs(num_partitions_);
    for (int64_t p = 0; p < num_partitions_; ++p) {
      TensorShape shape({counts[p]});
      for (int d = partitions.dims(); d < data.dims(); ++d) shape.AddDim(data.dim_size(d));
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(static_cast<int>(p), shape, &out));
      outs[p] = out->raw_data();
    }
    const bool ok = DispatchByCopy(data.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* src = static_cast<const T*>(data.raw_data());
      std::vector<int64_t> next(num_partitions_, 0);
      for (int64_t i = 0; i < rows; ++i) {
        T* dst = static_cast<T*>(outs[part[i]]) + next[part[i]]++ * inner;
        std::copy(src + i * inner, src + (i + 1) * inner, dst);
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, data.dtype()));
  }

 private:
  int64_t num_partitions_;
};
REGISTER_KERNEL_BUILDER(Name("DynamicPartition").Device(DEVICE_CPU), DynamicPartitionOp);

class DynamicStitchOp final : public OpKernel {
 public:
  explicit DynamicStitchOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs() / 2;
    const Tensor& indices0 = ctx->input(0);
    const Tensor& data0 = ctx->input(n);
    OP_REQUIRES(ctx, StartsWith(data0.shape(), indices0.shape()),
                KernelError(*this, "data[0].shape = ", data0.shape().DebugString(),
                            " does not start with indices[0].shape = ",
                            indices0.shape().DebugString()));
    // The shape of one element: data[0].shape[indices[0].rank:], the same for every i.
    std::vector<int64_t> element;
    for (int d = indices0.dims(); d < data0.dims(); ++d) element.push_back(data0.dim_size(d));
    int64_t max_index = -1;
    for (int i = 0; i < n; ++i) {
      const Tensor& indices = ctx->input(i);
      const Tensor& data = ctx->input(n + i);
      bool same = StartsWith(data.shape(), indices.shape()) &&
                  data.dims() - indices.dims() == static_cast<int>(element.size());
      for (int d = indices.dims(); same && d < data.dims(); ++d) {
        same = data.dim_size(d) == element[d - indices.dims()];
      }
      OP_REQUIRES(ctx, same,
                  KernelError(*this, "Need data[0].shape[", indices0.dims(), ":] = data[", i,
                              "].shape[", indices.dims(), ":], got data[0].shape = ",
                              data0.shape().DebugString(), ", data[", i,
                              "].shape = ", data.shape().DebugString(), ", indices[0].shape = ",
                              indices0.shape().DebugString(), ", indices[", i,
                              "].shape = ", indices.shape().DebugString()));
      const int32_t* idx = indices.data<int32_t>();
      for (int64_t j = 0; j < indices.NumElements(); ++j) {
        max_index = std::max<int64_t>(max_index, idx[j]);
      }
    }
    const int64_t rows = max_index + 1;
    for (int i = 0; i < n; ++i) {
      const Tensor& indices = ctx->input(i);
      const int32_t* idx = indices.data<int32_t>();
      for (int64_t j = 0; j < indices.NumElements(); ++j) {
        OP_REQUIRES(ctx, idx[j] >= 0 && idx[j] < rows,
                    KernelError(*this, "indices[", j, "] is out of range: ", idx[j],
                                " (in input ", i, " of ", n, ")"));
      }
    }
    std::vector<int64_t> dims = {rows};
    dims.insert(dims.end(), element.begin(), element.end());
    auto shape = TensorShape::Build(dims);
    OP_REQUIRES(ctx, shape.ok(), KernelError(*this, shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    const int64_t inner = InnerSize(*shape, 1);
    const bool ok = DispatchByCopy(data0.dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* dst = static_cast<T*>(out->raw_data());
      std::fill(dst, dst + out->NumElements(), T{});
      for (int i = 0; i < n; ++i) {
        const Tensor& indices = ctx->input(i);
        const int32_t* idx = indices.data<int32_t>();
        const T* src = static_cast<const T*>(ctx->input(n + i).raw_data());
        for (int64_t j = 0; j < indices.NumElements(); ++j) {
          std::copy(src + j * inner, src + (j + 1) * inner, dst + idx[j] * inner);
        }
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, data0.dtype()));
  }
};
REGISTER_KERNEL_BUILDER(Name("DynamicStitch").Device(DEVICE_CPU), DynamicStitchOp);
REGISTER_KERNEL_BUILDER(Name("ParallelDynamicStitch").Device(DEVICE_CPU), DynamicStitchOp);

}  // namespace
}  // namespace sg
