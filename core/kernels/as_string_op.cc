// AsString: each element of a number, bool or string tensor as a string, formatted as TensorFlow's
// AsString does, through one printf format made from the attrs:
//   "%" [fill] [width] ["." precision] conversion
// fill: "" or one of the printf flags ' ', '+', '-', '0', '#' (so "0" pads with zeros, "-"
// left-justifies); conversion: "f" for floating point ("e" with scientific, "g" with shortest),
// "lld" / "llu" for integers, "s" for strings. Complex numbers are "(re,im)" with the float
// format for each part; bools are "true" / "false" whatever the attrs. half and bfloat16 print
// as their float values. precision is an error for integers and bools (as in TensorFlow), and so
// are scientific or shortest; the two together are an error for every type. Variants: sg does not
// print them (UNIMPLEMENTED).
#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/framework/op_kernel.h"
#include "core/framework/types.h"

namespace sg {
namespace {

// printf into a std::string (the format is built from validated attrs only).
template <typename... Args>
std::string Format(const std::string& fmt, Args... args) {
  const int n = std::snprintf(nullptr, 0, fmt.c_str(), args...);
  if (n <= 0) return std::string();
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(&out[0], out.size(), fmt.c_str(), args...);
  out.resize(static_cast<size_t>(n));
  return out;
}

bool IsInteger(DataType dt) {
  switch (dt) {
    case DT_INT8: case DT_INT16: case DT_INT32: case DT_INT64:
    case DT_UINT8: case DT_UINT16: case DT_UINT32: case DT_UINT64:
      return true;
    default:
      return false;
  }
}

bool IsUnsigned(DataType dt) {
  return dt == DT_UINT8 || dt == DT_UINT16 || dt == DT_UINT32 || dt == DT_UINT64;
}

class AsStringOp final : public OpKernel {
 public:
  explicit AsStringOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    int64_t precision, width;
    bool scientific, shortest;
    std::string fill;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("T", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("precision", &precision));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("scientific", &scientific));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shortest", &shortest));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("width", &width));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("fill", &fill));
    auto fail = [&](const std::string& why) {
      ctx->CtxFailure(errors::InvalidArgument("node '", name(), "' (op AsString): ", why));
    };
    if (scientific && shortest) {
      fail("cannot select both scientific and shortest notation");
      return;
    }
    if (fill.size() > 1) {
      fail("fill must be one character or none, not \"" + fill + "\"");
      return;
    }
    if (!fill.empty() && std::string(" +-0#").find(fill[0]) == std::string::npos) {
      fail("fill \"" + fill + "\" is not supported (one of ' ', '+', '-', '0', '#')");
      return;
    }
    if (precision > 1000 || width > 1000) {
      fail("precision and width must be at most 1000");
      return;
    }
    const bool floating = dtype_ == DT_FLOAT || dtype_ == DT_DOUBLE || dtype_ == DT_HALF ||
                          dtype_ == DT_BFLOAT16 || dtype_ == DT_COMPLEX64 ||
                          dtype_ == DT_COMPLEX128;
    const bool integer = IsInteger(dtype_);
    if (dtype_ == DT_VARIANT) {
      ctx->CtxFailure(errors::Unimplemented("node '", name(),
                                            "' (op AsString): sg does not print variants"));
      return;
    }
    if (!floating && precision > -1 && dtype_ != DT_STRING) {
      fail("precision is not supported for " + DataTypeString(dtype_));
      return;
    }
    if (!floating && (scientific || shortest)) {
      fail("scientific and shortest are only for floating-point types, not " +
                  DataTypeString(dtype_));
      return;
    }
    format_ = "%" + fill;
    if (width > -1) absl::StrAppend(&format_, width);
    width_ = width > 0 ? static_cast<size_t>(width) : 0;
    left_justify_ = fill == "-";
    if (floating && precision > -1) absl::StrAppend(&format_, ".", precision);
    if (floating) {
      format_ += shortest ? "g" : scientific ? "e" : "f";
    } else if (integer) {
      format_ += IsUnsigned(dtype_) ? "llu" : "lld";
    } else {
      format_ += "s";
    }
    if (dtype_ == DT_COMPLEX64 || dtype_ == DT_COMPLEX128) {
      format_ = "(" + format_ + "," + format_ + ")";
    }
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    tstring* o = out->data<tstring>();
    const int64_t n = in.NumElements();
    switch (dtype_) {
#define SG_AS_STRING_CASE(DT, T, CAST)                                          \
  case DT: {                                                                    \
    const T* v = in.data<T>();                                                  \
    for (int64_t i = 0; i < n; ++i) o[i] = Format(format_, CAST(v[i]));        \
    return;                                                                     \
  }
      SG_AS_STRING_CASE(DT_FLOAT, float, static_cast<double>)
      SG_AS_STRING_CASE(DT_DOUBLE, double, static_cast<double>)
      SG_AS_STRING_CASE(DT_HALF, half, static_cast<float>)
      SG_AS_STRING_CASE(DT_BFLOAT16, bfloat16, static_cast<float>)
      SG_AS_STRING_CASE(DT_INT8, int8_t, static_cast<long long>)
      SG_AS_STRING_CASE(DT_INT16, int16_t, static_cast<long long>)
      SG_AS_STRING_CASE(DT_INT32, int32_t, static_cast<long long>)
      SG_AS_STRING_CASE(DT_INT64, int64_t, static_cast<long long>)
      SG_AS_STRING_CASE(DT_UINT8, uint8_t, static_cast<unsigned long long>)
      SG_AS_STRING_CASE(DT_UINT16, uint16_t, static_cast<unsigned long long>)
      SG_AS_STRING_CASE(DT_UINT32, uint32_t, static_cast<unsigned long long>)
      SG_AS_STRING_CASE(DT_UINT64, uint64_t, static_cast<unsigned long long>)
#undef SG_AS_STRING_CASE
      case DT_COMPLEX64: {
        const complex64* v = in.data<complex64>();
        for (int64_t i = 0; i < n; ++i) {
          o[i] = Format(format_, static_cast<double>(v[i].real()),
                        static_cast<double>(v[i].imag()));
        }
        return;
      }
      case DT_COMPLEX128: {
        const complex128* v = in.data<complex128>();
        for (int64_t i = 0; i < n; ++i) o[i] = Format(format_, v[i].real(), v[i].imag());
        return;
      }
      case DT_BOOL: {
        const bool* v = in.data<bool>();
        for (int64_t i = 0; i < n; ++i) o[i] = v[i] ? "true" : "false";
        return;
      }
      case DT_STRING: {
        // %s stops at a NUL: the bytes go in whole, padded with spaces to the width.
        const tstring* v = in.data<tstring>();
        for (int64_t i = 0; i < n; ++i) {
          const std::string& s = v[i];
          const std::string fill(width_ > s.size() ? width_ - s.size() : 0, ' ');
          o[i] = left_justify_ ? s + fill : fill + s;
        }
        return;
      }
      default:
        ctx->CtxFailure(errors::InvalidArgument("node '", name(), "' (op AsString): no kernel for ",
                                                DataTypeString(dtype_)));
    }
  }

 private:
  DataType dtype_;
  std::string format_;
  size_t width_ = 0;           // strings: padded to this many bytes
  bool left_justify_ = false;  // strings: fill "-" pads on the right
};

REGISTER_KERNEL_BUILDER(Name("AsString").Device(DEVICE_CPU), AsStringOp);

}  // namespace
}  // namespace sg
