// TopKV2 and TopK: the k largest entries of each row (the last dim) and their indices, largest
// first, equal values in index order (as TensorFlow's sorted output). sorted=false gives the same
// order, which is one of the orders TensorFlow allows. InTopKV2 and InTopK: whether each row's
// target class is among its k largest predictions (false for a row with a NaN or infinity).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

// A strict order for any real T: larger first, NaN before every number (so that a NaN cannot
// break the sort), equal values by index.
template <typename T>
struct RanksBefore {
  const T* v;
  bool operator()(int64_t a, int64_t b) const {
    if constexpr (std::is_integral_v<T>) {
      if (v[a] != v[b]) return v[a] > v[b];
    } else {
      const double x = static_cast<double>(v[a]), y = static_cast<double>(v[b]);
      const bool xn = std::isnan(x), yn = std::isnan(y);
      if (xn != yn) return xn;
      if (!xn && x != y) return x > y;
    }
    return a < b;
  }
};

// Real number types with bfloat16, which DispatchReal leaves out.
template <typename Fn>
bool DispatchTopKTypes(DataType dt, Fn&& fn) {
  if (dt == DT_BFLOAT16) {
    fn(bfloat16{});
    return true;
  }
  return DispatchReal(dt, fn);
}

template <typename I>
void WriteIndex(Tensor* t, int64_t i, int64_t v) {
  t->data<I>()[i] = static_cast<I>(v);
}

class TopKOp final : public OpKernel {
 public:
  explicit TopKOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if (ctx->def().op() == "TopK") {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("k", &k_attr_));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    int64_t k = k_attr_;
    if (ctx->num_inputs() > 1) {
      const Tensor& k_t = ctx->input(1);
      OP_REQUIRES(ctx, k_t.dims() == 0,
                  NodeError(ctx, "k must be 0-D, got shape ", k_t.shape().DebugString()));
      k = IntValues(k_t)[0];
    }
    OP_REQUIRES(ctx, k >= 0, NodeError(ctx, "Need k >= 0, got ", k));
    OP_REQUIRES(ctx, in.dims() >= 1,
                NodeError(ctx, "input must be >= 1-D, got shape ", in.shape().DebugString()));
    const int64_t n = in.dim_size(in.dims() - 1);
    OP_REQUIRES(ctx, n >= k,
                NodeError(ctx, "input must have at least k columns. Had ", n, ", needed ", k));
    const DataType index_type = ctx->expected_output_dtype(1);
    const int64_t index_max = index_type == DT_INT16   ? std::numeric_limits<int16_t>::max()
                              : index_type == DT_INT32 ? std::numeric_limits<int32_t>::max()
                                                       : std::numeric_limits<int64_t>::max();
    OP_REQUIRES(ctx, n == 0 || n - 1 <= index_max,
                NodeError(ctx, "the last dimension, ", n, ", has indices beyond what ",
                          DataTypeString(index_type), " holds"));
    TensorShape out_shape = in.shape();
    out_shape.set_dim(in.dims() - 1, k);
    Tensor *values, *indices;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &values));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, out_shape, &indices));
    if (values->NumElements() == 0) return;
    const int64_t rows = in.NumElements() / n;
    auto write_index = index_type == DT_INT16   ? &WriteIndex<int16_t>
                       : index_type == DT_INT32 ? &WriteIndex<int32_t>
                                                : &WriteIndex<int64_t>;
    const bool ok = DispatchTopKTypes(in.dtype(), [&](auto tag) {
      using T = decltype(tag);
      std::vector<int64_t> order(n);
      for (int64_t r = 0; r < rows; ++r) {
        const T* row = in.data<T>() + r * n;
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + k, order.end(), RanksBefore<T>{row});
        for (int64_t i = 0; i < k; ++i) {
          values->data<T>()[r * k + i] = row[order[i]];
          write_index(indices, r * k + i, order[i]);
        }
      }
    });
    OP_REQUIRES(ctx, ok, NodeError(ctx, "unsupported dtype ", DataTypeString(in.dtype())));
  }

 private:
  int64_t k_attr_ = 0;
};

const std::vector<DataType> kTopKTypes = {DT_FLOAT, DT_DOUBLE, DT_HALF,  DT_BFLOAT16,
                                          DT_INT8,  DT_INT16,  DT_INT32, DT_INT64,
                                          DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64};
REGISTER_KERNEL_BUILDER(Name("TopKV2").Device(DEVICE_CPU).TypeConstraint("T", kTopKTypes),
                        TopKOp);
REGISTER_KERNEL_BUILDER(Name("TopK").Device(DEVICE_CPU).TypeConstraint("T", kTopKTypes), TopKOp);

class InTopKOp final : public OpKernel {
 public:
  explicit InTopKOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if (ctx->def().op() == "InTopK") {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("k", &k_attr_));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& preds = ctx->input(0);
    const Tensor& targets = ctx->input(1);
    int64_t k = k_attr_;
    if (ctx->num_inputs() > 2) {
      const Tensor& k_t = ctx->input(2);
      OP_REQUIRES(ctx, k_t.dims() == 0,
                  NodeError(ctx, "k must be 0-D, got shape ", k_t.shape().DebugString()));
      k = IntValues(k_t)[0];
    }
    OP_REQUIRES(ctx, preds.dims() == 2,
                NodeError(ctx, "predictions must be 2-dimensional, got shape ",
                          preds.shape().DebugString()));
    OP_REQUIRES(ctx, targets.dims() == 1,
                NodeError(ctx, "targets must be 1-dimensional, got shape ",
                          targets.shape().DebugString()));
    const int64_t batch = preds.dim_size(0), classes = preds.dim_size(1);
    OP_REQUIRES(ctx, targets.dim_size(0) == batch,
                NodeError(ctx, "First dimension of predictions ", batch,
                          " must match length of targets ", targets.dim_size(0)));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({batch}), &out));
    const auto target = IntValues(targets);
    for (int64_t b = 0; b < batch; ++b) {
      const float* row = preds.data<float>() + b * classes;
      const int64_t t = target[b];
      // A target outside the classes, or a row with a prediction that is not finite, cannot
      // be ranked: not in the top k.
      bool in_top = t >= 0 && t < classes;
      int64_t larger = 0;
      for (int64_t c = 0; in_top && c < classes; ++c) {
        in_top = std::isfinite(row[c]);
        larger += row[c] > row[t] ? 1 : 0;
      }
      out->data<bool>()[b] = in_top && larger < k;
    }
  }

 private:
  int64_t k_attr_ = 0;
};
REGISTER_KERNEL_BUILDER(Name("InTopKV2").Device(DEVICE_CPU), InTopKOp);
REGISTER_KERNEL_BUILDER(Name("InTopK").Device(DEVICE_CPU), InTopKOp);

}  // namespace
}  // namespace sg
