// DataFormatDimMap and DataFormatVecPermute: dim indices and per-dim vectors carried from one
// data format string (NHWC, NCDHW, ...) to another, for layout-rewritten graphs.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

// Reads src_format and dst_format and checks them: both 4 or 5 letters, dst a permutation of
// src.
absl::Status ReadFormats(OpKernelConstruction* ctx, std::string* src, std::string* dst) {
  SG_RETURN_IF_ERROR(ctx->GetAttr("src_format", src));
  SG_RETURN_IF_ERROR(ctx->GetAttr("dst_format", dst));
  const std::string where = absl::StrCat(" (node '", ctx->def().name(), "', op ",
                                         ctx->def().op(), ")");
  if (src->size() != 4 && src->size() != 5) {
    return errors::InvalidArgument("Source format must be of length 4 or 5, received "
                                   "src_format = ", *src, where);
  }
  if (dst->size() != 4 && dst->size() != 5) {
    return errors::InvalidArgument("Destination format must be of length 4 or 5, received "
                                   "dst_format = ", *dst, where);
  }
  std::string a = *src, b = *dst;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b || std::adjacent_find(a.begin(), a.end()) != a.end()) {
    return errors::InvalidArgument("Destination and source format must determine a "
                                   "permutation, got ", *src, " and ", *dst, where);
  }
  return absl::OkStatus();
}

// y = the position in dst_format of the dim at position x (taken modulo the rank) of
// src_format, element-wise.
class DataFormatDimMapOp final : public OpKernel {
 public:
  explicit DataFormatDimMapOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string src, dst;
    OP_REQUIRES_OK(ctx, ReadFormats(ctx, &src, &dst));
    for (char ch : src) map_.push_back(static_cast<int>(dst.find(ch)));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    Tensor* y;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    if (x.dtype() == DT_INT32) {
      Map(x.data<int32_t>(), y->data<int32_t>(), x.NumElements());
    } else {
      Map(x.data<int64_t>(), y->data<int64_t>(), x.NumElements());
    }
  }

 private:
  template <typename T>
  void Map(const T* x, T* y, int64_t n) const {
    const int64_t rank = static_cast<int64_t>(map_.size());
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = ((static_cast<int64_t>(x[i]) % rank) + rank) % rank;
      y[i] = static_cast<T>(map_[at]);
    }
  }

  std::vector<int> map_;
};
REGISTER_KERNEL_BUILDER(
    Name("DataFormatDimMap").Device(DEVICE_CPU).TypeConstraint("T", {DT_INT32, DT_INT64}),
    DataFormatDimMapOp);

// y[i] = x[j] where dst_format[i] is src_format[j]: x has one entry (or one row of 2) per dim
// of the format, or per spatial dim only (the letters other than N and C).
class DataFormatVecPermuteOp final : public OpKernel {
 public:
  explicit DataFormatVecPermuteOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadFormats(ctx, &src_, &dst_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const int64_t full = static_cast<int64_t>(src_.size()), spatial = full - 2;
    OP_REQUIRES(ctx, x.dims() == 1 || x.dims() == 2,
                NodeError(ctx, "input must be a vector or 2D tensor, but got shape ",
                          x.shape().DebugString()));
    const int64_t n = x.dim_size(0);
    OP_REQUIRES(ctx, n == full || n == spatial,
                NodeError(ctx, "input must have ", spatial, " or ", full,
                          " rows, but got shape ", x.shape().DebugString()));
    OP_REQUIRES(ctx, x.dims() == 1 || x.dim_size(1) == 2,
                NodeError(ctx, "Second dimension of 2D input must be of size 2, but got shape ",
                          x.shape().DebugString()));
    std::string src = src_, dst = dst_;
    if (n == spatial) {
      auto drop = [](std::string* s) {
        s->erase(std::remove_if(s->begin(), s->end(), [](char ch) { return ch == 'N' ||
                                                                           ch == 'C'; }),
                 s->end());
      };
      drop(&src);
      drop(&dst);
      OP_REQUIRES(ctx, static_cast<int64_t>(src.size()) == n,
                  NodeError(ctx, "formats ", src_, " and ", dst_, " do not have ", n,
                            " spatial dims"));
    }
    Tensor* y;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    const int64_t row = x.dims() == 2 ? 2 : 1;
    const size_t bytes = row * DataTypeSize(x.dtype());
    const char* in = static_cast<const char*>(x.raw_data());
    char* out = static_cast<char*>(y->raw_data());
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = static_cast<int64_t>(src.find(dst[i]));
      std::memcpy(out + i * bytes, in + j * bytes, bytes);
    }
  }

 private:
  std::string src_, dst_;
};
REGISTER_KERNEL_BUILDER(
    Name("DataFormatVecPermute").Device(DEVICE_CPU).TypeConstraint("T", {DT_INT32, DT_INT64}),
    DataFormatVecPermuteOp);

}  // namespace
}  // namespace sg
