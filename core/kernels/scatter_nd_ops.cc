// GatherNd (and ResourceGatherNd), ScatterNd and TensorScatter{Update,Add,Sub,Min,Max}, as
// TensorFlow's CPU kernels.
//
// indices has shape outer + [depth]; its prod(outer) rows each name a slice of the gathered or
// scattered tensor (the slice at [i_0, ..., i_{depth-1}], of shape shape[depth:]). An index out
// of range is INVALID_ARGUMENT unless bad_indices_policy is "IGNORE": a gather then yields zeros
// for it and a scatter skips it. Scatters apply their updates in order: duplicates add (ScatterNd
// and TensorScatterAdd: integers wrap, bools OR, strings concatenate), subtract, or min/max in
// turn; TensorScatterUpdate's last duplicate wins. Min and Max keep a NaN already in the output
// and ignore a NaN update, as TensorFlow's `a < b ? a : b` order does.
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_join.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/element_copy.h"
#include "core/kernels/variable_update.h"

namespace sg {
namespace {

// TensorFlow's kernels handle index depths up to 7.
constexpr int64_t kMaxIndexDepth = 7;

enum class BadIndices { kError, kIgnore };

absl::Status ParseBadIndicesPolicy(OpKernelConstruction* ctx, BadIndices* policy) {
  std::string s;
  SG_RETURN_IF_ERROR(ctx->GetAttr("bad_indices_policy", &s));
  if (s.empty() || s == "DEFAULT" || s == "ERROR") {
    *policy = BadIndices::kError;
  } else if (s == "IGNORE") {
    *policy = BadIndices::kIgnore;
  } else {
    return errors::InvalidArgument("Unknown bad indices handling attribute: ", s);
  }
  return absl::OkStatus();
}

int64_t IndexValue(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DT_INT16: return t.data<int16_t>()[i];
    case DT_UINT16: return t.data<uint16_t>()[i];
    case DT_INT32: return t.data<int32_t>()[i];
    default: return t.data<int64_t>()[i];
  }
}

// The position (in slices of shape[depth:]) of each of the `num` index rows of `indices` in a
// tensor of `shape`: -1 for a row out of range under kIgnore, INVALID_ARGUMENT `what` under
// kError ("indices[1] = [3, 0] does not index into <what> [2,2]").
absl::Status SlicePositions(const OpKernel& k, const Tensor& indices, int64_t num, int64_t depth,
                            const TensorShape& shape, BadIndices policy, const char* what,
                            std::vector<int64_t>* pos) {
  pos->assign(num, 0);
  for (int64_t i = 0; i < num; ++i) {
    int64_t p = 0;
    bool in_range = true;
    for (int64_t d = 0; d < depth; ++d) {
      const int64_t v = IndexValue(indices, i * depth + d);
      const int64_t size = shape.dim_size(static_cast<int>(d));
      if (v < 0 || v >= size) {
        in_range = false;
        break;
      }
      p = p * size + v;
    }
    if (in_range) {
      (*pos)[i] = p;
      continue;
    }
    if (policy == BadIndices::kIgnore) {
      (*pos)[i] = -1;
      continue;
    }
    std::vector<int64_t> row(depth);
    for (int64_t d = 0; d < depth; ++d) row[d] = IndexValue(indices, i * depth + d);
    return KernelError(k, "indices[", i, "] = [", absl::StrJoin(row, ", "),
                       "] does not index into ", what, " ", shape.DebugString());
  }
  return absl::OkStatus();
}

// ---- GatherNd --------------------------------------------------------------------------------

// Output 0 of `ctx` = GatherNd(params, indices) for kernel `k`.
absl::Status GatherNd(const OpKernel& k, OpKernelContext* ctx, const Tensor& params,
                      const Tensor& indices, BadIndices policy) {
  if (params.dims() < 1) return KernelError(k, "params must be at least a vector");
  if (indices.dims() < 1) return KernelError(k, "indices must be at least a vector");
  const int64_t depth = indices.dim_size(indices.dims() - 1);
  if (depth > params.dims()) {
    return KernelError(k, "index innermost dimension length must be <= params rank; saw: ", depth,
                       " vs. ", params.dims());
  }
  if (depth > kMaxIndexDepth) {
    return KernelError(k, "Only indices.shape[-1] values between 1 and ", kMaxIndexDepth,
                       " are currently supported.  Requested rank: ", depth);
  }
  std::vector<int64_t> dims;
  int64_t num = 1;
  for (int d = 0; d + 1 < indices.dims(); ++d) {
    dims.push_back(indices.dim_size(d));
    num *= indices.dim_size(d);
  }
  int64_t slice = 1;
  for (int d = static_cast<int>(depth); d < params.dims(); ++d) {
    dims.push_back(params.dim_size(d));
    slice *= params.dim_size(d);
  }
  if (num > 0 && params.NumElements() == 0) {
    return KernelError(k, "Requested more than 0 entries, but params is empty.  Params shape: ",
                       params.shape().DebugString());
  }
  std::vector<int64_t> pos;
  SG_RETURN_IF_ERROR(
      SlicePositions(k, indices, num, depth, params.shape(), policy, "param shape", &pos));
  auto shape = TensorShape::Build(dims);
  if (!shape.ok()) return KernelError(k, shape.status().message());
  Tensor* out;
  SG_RETURN_IF_ERROR(ctx->allocate_output(0, *shape, &out));
  const bool ok = DispatchByCopy(params.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = static_cast<const T*>(params.raw_data());
    T* dst = static_cast<T*>(out->raw_data());
    for (int64_t i = 0; i < num; ++i) {
      if (pos[i] < 0) {
        std::fill(dst + i * slice, dst + (i + 1) * slice, T{});
      } else {
        std::copy(src + pos[i] * slice, src + (pos[i] + 1) * slice, dst + i * slice);
      }
    }
  });
  return ok ? absl::OkStatus() : UnsupportedType(k, params.dtype());
}

class GatherNdOp final : public OpKernel {
 public:
  explicit GatherNdOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ParseBadIndicesPolicy(ctx, &policy_));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, GatherNd(*this, ctx, ctx->input(0), ctx->input(1), policy_));
  }

 private:
  BadIndices policy_;
};
REGISTER_KERNEL_BUILDER(Name("GatherNd").Device(DEVICE_CPU), GatherNdOp);

// ResourceGatherNd: GatherNd on a snapshot of the resource variable (indices out of range are
// INVALID_ARGUMENT, as TensorFlow's kernel, which has no bad_indices_policy).
class ResourceGatherNdOp final : public OpKernel {
 public:
  explicit ResourceGatherNdOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
  }

  void Compute(OpKernelContext* ctx) override {
    Tensor params;
    OP_REQUIRES_OK(ctx, ReadResourceVariable(ctx, 0, dtype_, &params));
    OP_REQUIRES_OK(ctx, GatherNd(*this, ctx, params, ctx->input(1), BadIndices::kError));
  }

 private:
  DataType dtype_;
};
REGISTER_KERNEL_BUILDER(Name("ResourceGatherNd").Device(DEVICE_CPU), ResourceGatherNdOp);

// ---- ScatterNd and TensorScatter* ---------------------------------------------------------------

enum class Scatter { kAdd, kSub, kUpdate, kMin, kMax };

// The unsigned type integer arithmetic of T wraps in (at least 32 bits, so that no promotion to
// int can overflow).
template <typename T>
using Unsigned = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;

template <Scatter S, typename T>
inline void Apply(const T& u, T* o) {
  if constexpr (S == Scatter::kUpdate) {
    *o = u;
  } else if constexpr (S == Scatter::kMin) {
    *o = (u < *o) ? u : *o;
  } else if constexpr (S == Scatter::kMax) {
    *o = (*o < u) ? u : *o;
  } else if constexpr (std::is_same_v<T, bool>) {
    *o = *o || u;
  } else if constexpr (std::is_same_v<T, tstring>) {
    o->append(u);
  } else if constexpr (std::is_integral_v<T>) {
    const auto a = static_cast<Unsigned<T>>(*o), b = static_cast<Unsigned<T>>(u);
    *o = static_cast<T>(S == Scatter::kAdd ? a + b : a - b);
  } else if constexpr (S == Scatter::kAdd) {
    *o = *o + u;
  } else {
    *o = *o - u;
  }
}

using AddTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                          uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;
using ScatterNdTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                                uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128,
                                bool, tstring>;
using MinMaxTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                             uint8_t, uint16_t, uint32_t, uint64_t>;

// Checks `indices` and `updates` for a scatter into a tensor of `out_shape` and finds where each
// index row's slice starts (in slices of `*slice` elements; -1 for a row that kIgnore skips).
absl::Status PlanScatter(const OpKernel& k, const TensorShape& out_shape, const Tensor& indices,
                         const Tensor& updates, BadIndices policy, std::vector<int64_t>* pos,
                         int64_t* slice) {
  if (indices.dims() < 1) {
    return KernelError(k, "Indices shape must have rank at least one. Found:",
                       indices.shape().DebugString());
  }
  if (updates.dims() < 1) {
    return KernelError(k, "Updates shape must have rank at least one. Found:",
                       updates.shape().DebugString());
  }
  const int outer = indices.dims() - 1;
  const int64_t depth = indices.dim_size(outer);
  // TensorFlow's kernels also read a vector of indices as that many indices of depth 1, and
  // require both readings to fit: in effect a vector of indices is an error.
  if (outer == 0 && updates.dim_size(0) != depth) {
    return KernelError(k, "Dimensions [0,1) of indices[shape=", indices.shape().DebugString(),
                       "] = ", depth, " must match dimensions [0,1) of updates[shape=",
                       updates.shape().DebugString(), "] = ", updates.dim_size(0));
  }
  bool outer_match = updates.dims() >= outer;
  for (int d = 0; outer_match && d < outer; ++d) {
    outer_match = updates.dim_size(d) == indices.dim_size(d);
  }
  if (!outer_match) {
    return KernelError(k, "Dimensions [0,", outer, ") of indices[shape=",
                       indices.shape().DebugString(), "] must match dimensions [0,", outer,
                       ") of updates[shape=", updates.shape().DebugString(), "]");
  }
  bool inner_match = depth <= out_shape.dims() && out_shape.dims() - depth == updates.dims() - outer;
  for (int d = 0; inner_match && d < updates.dims() - outer; ++d) {
    inner_match = out_shape.dim_size(static_cast<int>(depth) + d) == updates.dim_size(outer + d);
  }
  if (!inner_match) {
    return KernelError(k, "Dimensions [", depth, ",", out_shape.dims(), ") of input[shape=",
                       out_shape.DebugString(), "] must match dimensions [", outer, ",",
                       updates.dims(), ") of updates[shape=", updates.shape().DebugString(),
                       "]");
  }
  if (out_shape.num_elements() == 0 && (indices.NumElements() > 0 || updates.NumElements() > 0)) {
    return KernelError(k, "Indices and updates specified for empty output shape");
  }
  if (depth < 1 || depth > kMaxIndexDepth) {
    return KernelError(k, "Only indices.shape[-1] values between 1 and ", kMaxIndexDepth,
                       " are currently supported.  Requested rank: ", depth);
  }
  *slice = 1;
  for (int d = static_cast<int>(depth); d < out_shape.dims(); ++d) {
    *slice *= out_shape.dim_size(d);
  }
  return SlicePositions(k, indices, indices.NumElements() / depth, depth, out_shape, policy,
                        "shape", pos);
}

// Applies each slice of `updates` to `out` at its planned position, in order. The kernel's
// TypeConstraint has already narrowed the dtypes; false for one the operation lacks.
template <Scatter S>
bool ApplyScatter(const Tensor& updates, const std::vector<int64_t>& pos, int64_t slice,
                  Tensor* out) {
  auto run = [&](auto tag) {
    using T = decltype(tag);
    T* o = static_cast<T*>(out->raw_data());
    const T* u = static_cast<const T*>(updates.raw_data());
    for (size_t i = 0; i < pos.size(); ++i) {
      if (pos[i] < 0) continue;
      T* dst = o + pos[i] * slice;
      const T* src = u + static_cast<int64_t>(i) * slice;
      for (int64_t k = 0; k < slice; ++k) Apply<S>(src[k], &dst[k]);
    }
  };
  if constexpr (S == Scatter::kUpdate) {
    return DispatchByCopy(updates.dtype(), run);
  } else if constexpr (S == Scatter::kMin || S == Scatter::kMax) {
    return DispatchTypes(MinMaxTypes(), updates.dtype(), run);
  } else if constexpr (S == Scatter::kSub) {
    return DispatchTypes(AddTypes(), updates.dtype(), run);
  } else {
    return DispatchTypes(ScatterNdTypes(), updates.dtype(), run);
  }
}

// ScatterNd (S = kAdd into zeros, shape from input 2), TensorScatter<S> and
// ScatterNdNonAliasingAdd (into a copy of input 0).
template <Scatter S>
class ScatterNdOp final : public OpKernel {
 public:
  explicit ScatterNdOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ParseBadIndicesPolicy(ctx, &policy_));
    scatter_nd_ = ctx->def().op() == "ScatterNd";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(scatter_nd_ ? 0 : 1);
    const Tensor& updates = ctx->input(scatter_nd_ ? 1 : 2);
    TensorShape out_shape;
    if (scatter_nd_) {
      const Tensor& shape_t = ctx->input(2);
      OP_REQUIRES(ctx, shape_t.dims() == 1, KernelError(*this, "Shape must be a vector"));
      std::vector<int64_t> dims(shape_t.NumElements());
      for (int64_t i = 0; i < shape_t.NumElements(); ++i) {
        dims[i] = IndexValue(shape_t, i);
        OP_REQUIRES(ctx, dims[i] >= 0,
                    KernelError(*this, "Dimension ", dims[i], " must be >= 0"));
      }
      auto built = TensorShape::Build(dims);
      OP_REQUIRES(ctx, built.ok(), KernelError(*this, built.status().message()));
      out_shape = *built;
    } else {
      out_shape = ctx->input(0).shape();
    }
    std::vector<int64_t> pos;
    int64_t slice;
    OP_REQUIRES_OK(ctx, PlanScatter(*this, out_shape, indices, updates, policy_, &pos, &slice));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    const bool ok = DispatchByCopy(updates.dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* o = static_cast<T*>(out->raw_data());
      if (scatter_nd_) {
        std::fill(o, o + out->NumElements(), T{});
      } else {
        const T* in = static_cast<const T*>(ctx->input(0).raw_data());
        std::copy(in, in + out->NumElements(), o);
      }
    });
    OP_REQUIRES(ctx, ok && ApplyScatter<S>(updates, pos, slice, out),
                UnsupportedType(*this, updates.dtype()));
  }

 private:
  BadIndices policy_;
  bool scatter_nd_;
};

// ScatterNd{Update,Add,Sub,Min,Max} on a ref variable (forwarded as the output) and
// ResourceScatterNd* on a resource variable: the scatter, in place.
template <Scatter S>
class ScatterNdVariableOp final : public OpKernel {
 public:
  explicit ScatterNdVariableOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ParseBadIndicesPolicy(ctx, &policy_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("T", &dtype_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(1);
    const Tensor& updates = ctx->input(2);
    OP_REQUIRES_OK(ctx, UpdateVariable(ctx, 0, dtype_, [&](Tensor* var) {
      std::vector<int64_t> pos;
      int64_t slice;
      SG_RETURN_IF_ERROR(PlanScatter(*this, var->shape(), indices, updates, policy_, &pos, &slice));
      SG_RETURN_IF_ERROR(EnsureUnshared(ctx, var));
      if (!ApplyScatter<S>(updates, pos, slice, var)) return UnsupportedType(*this, dtype_);
      return absl::OkStatus();
    }));
    if (ctx->input_is_ref(0)) ctx->forward_ref_input_to_ref_output(0, 0);
  }

 private:
  BadIndices policy_;
  DataType dtype_;
};

std::vector<DataType> ScatterIndexTypes() { return {DT_INT32, DT_INT64}; }

REGISTER_KERNEL_BUILDER(Name("ScatterNd")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(ScatterNdTypes()))
                            .TypeConstraint("Tindices", ScatterIndexTypes()),
                        ScatterNdOp<Scatter::kAdd>);
REGISTER_KERNEL_BUILDER(Name("TensorScatterUpdate")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("Tindices", ScatterIndexTypes()),
                        ScatterNdOp<Scatter::kUpdate>);
REGISTER_KERNEL_BUILDER(Name("TensorScatterAdd")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(AddTypes())),
                        ScatterNdOp<Scatter::kAdd>);
REGISTER_KERNEL_BUILDER(Name("TensorScatterSub")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(AddTypes())),
                        ScatterNdOp<Scatter::kSub>);
REGISTER_KERNEL_BUILDER(Name("TensorScatterMin")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(MinMaxTypes())),
                        ScatterNdOp<Scatter::kMin>);
REGISTER_KERNEL_BUILDER(Name("TensorScatterMax")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(MinMaxTypes())),
                        ScatterNdOp<Scatter::kMax>);
REGISTER_KERNEL_BUILDER(Name("ScatterNdNonAliasingAdd")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", DataTypesOf(ScatterNdTypes())),
                        ScatterNdOp<Scatter::kAdd>);

// The in-place scatters, ref and resource forms alike.
#define SG_REGISTER_SCATTER_ND_VARIABLE(name, S, types)                                       \
  REGISTER_KERNEL_BUILDER(                                                                    \
      Name("ScatterNd" name).Device(DEVICE_CPU).TypeConstraint("T", types),                  \
      ScatterNdVariableOp<S>);                                                                \
  REGISTER_KERNEL_BUILDER(                                                                    \
      Name("ResourceScatterNd" name).Device(DEVICE_CPU).TypeConstraint("T", types),          \
      ScatterNdVariableOp<S>)
REGISTER_KERNEL_BUILDER(Name("ScatterNdUpdate").Device(DEVICE_CPU),
                        ScatterNdVariableOp<Scatter::kUpdate>);
REGISTER_KERNEL_BUILDER(Name("ResourceScatterNdUpdate").Device(DEVICE_CPU),
                        ScatterNdVariableOp<Scatter::kUpdate>);
SG_REGISTER_SCATTER_ND_VARIABLE("Add", Scatter::kAdd, DataTypesOf(AddTypes()));
SG_REGISTER_SCATTER_ND_VARIABLE("Sub", Scatter::kSub, DataTypesOf(AddTypes()));
SG_REGISTER_SCATTER_ND_VARIABLE("Min", Scatter::kMin, DataTypesOf(MinMaxTypes()));
SG_REGISTER_SCATTER_ND_VARIABLE("Max", Scatter::kMax, DataTypesOf(MinMaxTypes()));
#undef SG_REGISTER_SCATTER_ND_VARIABLE

}  // namespace
}  // namespace sg
