// Unique, UniqueV2, UniqueWithCounts, UniqueWithCountsV2: the distinct values of a vector, or the
// distinct slices of a tensor along an axis, in order of first appearance, with each element's
// (slice's) index among them and, WithCounts, how often each occurs. ListDiff: the entries of x
// that are not in y, with their positions in x.
//
// Values compare as TensorFlow's kernels compare them: a NaN equals nothing, not even itself, and
// 0 equals -0 (the first one seen is kept) except in half and bfloat16.
#include <functional>
#include <limits>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

// Every type the kernels take: TensorFlow's, the complex types aside.
template <typename Fn>
bool DispatchHashable(DataType dt, Fn&& fn) {
  switch (dt) {
    case DT_BOOL: fn(bool{}); return true;
    case DT_STRING: fn(tstring{}); return true;
    case DT_BFLOAT16: fn(bfloat16{}); return true;
    default: return DispatchReal(dt, fn);
  }
}

// How TensorFlow's kernels tell values apart. half and bfloat16 are hashed by their bits
// there, so 0 and -0 (unequal bits) count as different values and a NaN matches nothing: equal
// bits and ==. Every other type by ==, with a hash that agrees (std::hash gives 0 and -0 of a
// float the same value).
template <typename T>
constexpr bool kByBits = std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

template <typename T>
size_t HashOf(const T& v) {
  if constexpr (kByBits<T>) {
    return std::hash<uint16_t>()(Eigen::numext::bit_cast<uint16_t>(v));
  } else {
    return std::hash<T>()(v);
  }
}

template <typename T>
bool Same(const T& a, const T& b) {
  if constexpr (kByBits<T>) {
    return Eigen::numext::bit_cast<uint16_t>(a) == Eigen::numext::bit_cast<uint16_t>(b) &&
           a == b;
  } else {
    return a == b;
  }
}

// The slices of x along an axis: x seen as [outer, n, inner], slice j is x[:, j, :].
template <typename T>
struct Slices {
  const T* x;
  int64_t outer, n, inner;

  const T& at(int64_t o, int64_t j, int64_t i) const { return x[(o * n + j) * inner + i]; }
  size_t Hash(int64_t j) const {
    size_t h = 0;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) h = h * 1000003u ^ HashOf(at(o, j, i));
    }
    return h;
  }
  bool Equal(int64_t a, int64_t b) const {
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        if (!Same(at(o, a, i), at(o, b, i))) return false;
      }
    }
    return true;
  }
};

// Writes `v` at position i of an int32 or int64 tensor.
void SetIndex(Tensor* t, int64_t i, int64_t v) {
  if (t->dtype() == DT_INT32) {
    t->data<int32_t>()[i] = static_cast<int32_t>(v);
  } else {
    t->data<int64_t>()[i] = v;
  }
}

class UniqueOp final : public OpKernel {
 public:
  explicit UniqueOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    const std::string& op = ctx->def().op();
    has_axis_ = op == "UniqueV2" || op == "UniqueWithCountsV2";
    with_counts_ = op == "UniqueWithCounts" || op == "UniqueWithCountsV2";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    bool flat = true;
    int64_t axis = 0;
    if (has_axis_) {
      const Tensor& axis_t = ctx->input(1);
      OP_REQUIRES(ctx, axis_t.dims() == 1, NodeError(ctx, "axis expects a 1D vector."));
      OP_REQUIRES(ctx, axis_t.NumElements() <= 1,
                  NodeError(ctx, "axis does not support input tensors larger than 1 elements"));
      if (axis_t.NumElements() == 1) {
        flat = false;
        axis = IntValues(axis_t)[0];
        OP_REQUIRES(ctx, axis >= -x.dims() && axis < x.dims(),
                    NodeError(ctx, "axis has to be between [", -x.dims(), ", ", x.dims(),
                              "), got ", axis));
        if (axis < 0) axis += x.dims();
      }
    }
    if (flat) {
      OP_REQUIRES(ctx, x.dims() == 1,
                  NodeError(ctx, "unique expects a 1D vector, got shape ",
                            x.shape().DebugString()));
    }
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= x.dim_size(d);
    for (int d = static_cast<int>(axis) + 1; d < x.dims(); ++d) inner *= x.dim_size(d);
    const int64_t n = x.dim_size(static_cast<int>(axis));
    OP_REQUIRES(ctx,
                ctx->expected_output_dtype(1) == DT_INT64 ||
                    n <= std::numeric_limits<int32_t>::max(),
                NodeError(ctx, "unique does not support input tensors larger than int32 max "
                               "with out_idx int32"));
    Tensor* idx;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({n}), &idx));
    const bool ok = DispatchHashable(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const Slices<T> s{x.data<T>(), outer, n, inner};
      auto hash = [&](int64_t j) { return s.Hash(j); };
      auto equal = [&](int64_t a, int64_t b) { return s.Equal(a, b); };
      std::unordered_map<int64_t, int64_t, decltype(hash), decltype(equal)> first(
          16, hash, equal);
      std::vector<int64_t> uniq, counts;  // the first slice of each, how many
      for (int64_t j = 0; j < n; ++j) {
        auto [it, added] = first.emplace(j, static_cast<int64_t>(uniq.size()));
        if (added) {
          uniq.push_back(j);
          counts.push_back(0);
        }
        ++counts[it->second];
        SetIndex(idx, j, it->second);
      }
      TensorShape y_shape = x.shape();
      y_shape.set_dim(static_cast<int>(axis), static_cast<int64_t>(uniq.size()));
      Tensor* y;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, y_shape, &y));
      T* out = y->data<T>();
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t u : uniq) {
          for (int64_t i = 0; i < inner; ++i) *out++ = s.at(o, u, i);
        }
      }
      if (with_counts_) {
        Tensor* count;
        OP_REQUIRES_OK(ctx, ctx->allocate_output(
                                2, TensorShape({static_cast<int64_t>(counts.size())}), &count));
        for (size_t u = 0; u < counts.size(); ++u) SetIndex(count, u, counts[u]);
      }
    });
    OP_REQUIRES(ctx, ok,
                NodeError(ctx, "unsupported dtype ", DataTypeString(x.dtype())));
  }

 private:
  bool has_axis_, with_counts_;
};
REGISTER_KERNEL_BUILDER(Name("Unique").Device(DEVICE_CPU), UniqueOp);
REGISTER_KERNEL_BUILDER(Name("UniqueV2").Device(DEVICE_CPU), UniqueOp);
REGISTER_KERNEL_BUILDER(Name("UniqueWithCounts").Device(DEVICE_CPU), UniqueOp);
REGISTER_KERNEL_BUILDER(Name("UniqueWithCountsV2").Device(DEVICE_CPU), UniqueOp);

class ListDiffOp final : public OpKernel {
 public:
  explicit ListDiffOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    OP_REQUIRES(ctx, x.dims() == 1,
                NodeError(ctx, "x should be a 1D vector, got shape ", x.shape().DebugString()));
    OP_REQUIRES(ctx, y.dims() == 1,
                NodeError(ctx, "y should be a 1D vector, got shape ", y.shape().DebugString()));
    OP_REQUIRES(ctx,
                ctx->expected_output_dtype(1) == DT_INT64 ||
                    x.NumElements() <= std::numeric_limits<int32_t>::max(),
                NodeError(ctx, "x has more entries than out_idx int32 can index"));
    const bool ok = DispatchHashable(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      auto hash = [](const T& v) { return HashOf(v); };
      auto same = [](const T& a, const T& b) { return Same(a, b); };
      std::unordered_set<T, decltype(hash), decltype(same)> drop(16, hash, same);
      for (int64_t i = 0; i < y.NumElements(); ++i) drop.insert(y.data<T>()[i]);
      std::vector<int64_t> keep;
      for (int64_t i = 0; i < x.NumElements(); ++i) {
        if (drop.count(x.data<T>()[i]) == 0) keep.push_back(i);
      }
      const TensorShape shape({static_cast<int64_t>(keep.size())});
      Tensor *out, *idx;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
      OP_REQUIRES_OK(ctx, ctx->allocate_output(1, shape, &idx));
      for (size_t i = 0; i < keep.size(); ++i) {
        out->data<T>()[i] = x.data<T>()[keep[i]];
        SetIndex(idx, i, keep[i]);
      }
    });
    OP_REQUIRES(ctx, ok, NodeError(ctx, "unsupported dtype ", DataTypeString(x.dtype())));
  }
};
REGISTER_KERNEL_BUILDER(Name("ListDiff").Device(DEVICE_CPU), ListDiffOp);

}  // namespace
}  // namespace sg
