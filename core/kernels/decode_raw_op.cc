// DecodeRaw, as TensorFlow's: the bytes of each string, all of one length, read as an array of
// out_type in little-endian order (or big-endian: each element's bytes reversed, each half of a
// complex number on its own).
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

class DecodeRawOp final : public OpKernel {
 public:
  explicit DecodeRawOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("out_type", &out_type_));
    bool little_endian;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("little_endian", &little_endian));
    size_ = DataTypeSize(out_type_);
    OP_REQUIRES(ctx, size_ > 0, UnsupportedType(*this, out_type_));
    // The host is little-endian (x86-64, aarch64): only big-endian input needs swapping.
    swap_unit_ = little_endian || size_ == 1 ? 0
                 : (out_type_ == DT_COMPLEX64 || out_type_ == DT_COMPLEX128) ? size_ / 2
                                                                             : size_;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const tstring* s = in.data<tstring>();
    const int64_t n = in.NumElements();
    const int64_t bytes = n > 0 ? static_cast<int64_t>(s[0].size()) : 0;
    for (int64_t i = 1; i < n; ++i) {
      OP_REQUIRES(ctx, static_cast<int64_t>(s[i].size()) == bytes,
                  KernelError(*this, "DecodeRaw requires input strings to all be the same "
                              "size, but element ", i, " has size ", s[i].size(), " != ",
                              bytes));
    }
    OP_REQUIRES(ctx, bytes % size_ == 0,
                KernelError(*this, "Input to DecodeRaw has length ", bytes,
                            " that is not a multiple of ", size_, ", the size of ",
                            DataTypeString(out_type_)));
    TensorShape shape = in.shape();
    shape.AddDim(bytes / size_);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    if (bytes == 0) return;  // nothing to copy (and an empty output may have no buffer)
    char* o = static_cast<char*>(out->raw_data());
    for (int64_t i = 0; i < n; ++i) {
      char* dst = o + i * bytes;
      if (swap_unit_ == 0) {
        std::memcpy(dst, s[i].data(), static_cast<size_t>(bytes));
        continue;
      }
      for (int64_t p = 0; p < bytes; p += swap_unit_) {
        std::reverse_copy(s[i].data() + p, s[i].data() + p + swap_unit_, dst + p);
      }
    }
    if (out_type_ == DT_BOOL) {
      // A bool byte other than 0 or 1 is not a valid bool: read any nonzero byte as true.
      auto* b = reinterpret_cast<uint8_t*>(o);
      for (int64_t k = 0; k < shape.num_elements(); ++k) b[k] = b[k] != 0;
    }
  }

 private:
  DataType out_type_;
  int64_t size_;
  int64_t swap_unit_;
};
REGISTER_KERNEL_BUILDER(Name("DecodeRaw").Device(DEVICE_CPU), DecodeRawOp);

}  // namespace
}  // namespace sg
