#include "tests/core/npy_tensor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <utility>

#include <zlib.h>

#include "absl/types/span.h"
#include "core/framework/types.h"
#include "tools/npy.h"

namespace sg {
namespace {

double AsDouble(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DT_FLOAT: return t.data<float>()[i];
    case DT_DOUBLE: return t.data<double>()[i];
    case DT_INT32: return t.data<int32_t>()[i];
    case DT_INT64: return static_cast<double>(t.data<int64_t>()[i]);
    case DT_INT16: return t.data<int16_t>()[i];
    case DT_INT8: return t.data<int8_t>()[i];
    case DT_UINT8: return t.data<uint8_t>()[i];
    case DT_UINT16: return t.data<uint16_t>()[i];
    case DT_UINT32: return t.data<uint32_t>()[i];
    case DT_UINT64: return static_cast<double>(t.data<uint64_t>()[i]);
    case DT_BOOL: return t.data<bool>()[i] ? 1 : 0;
    default: return std::nan("");
  }
}

}  // namespace

absl::Status ReadGzip(const std::string& path, std::string* out) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) return absl::NotFoundError("cannot open " + path);
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof(buf))) > 0) out->append(buf, n);
  const bool ok = n == 0;
  gzclose(f);
  return ok ? absl::OkStatus() : absl::DataLossError("cannot read " + path);
}

std::string ShapeString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

absl::Status ReadTensor(const std::string& path, Tensor* out) {
  sg_tool::NpyArray npy;
  std::string error;
  if (!sg_tool::ReadNpy(path, &npy, &error)) return absl::InvalidArgumentError(error);
  // sg_tool's SG_DataType values are TensorFlow's DataType numbers, as sg's DataType.
  const DataType dt = static_cast<DataType>(npy.dtype);
  Tensor t(dt, TensorShape(absl::Span<const int64_t>(npy.shape)));
  if (dt == DT_STRING) {
    for (int64_t i = 0; i < t.NumElements(); ++i) t.data<std::string>()[i] = npy.strings[i];
  } else {
    if (npy.data.size() != t.TotalBytes()) {
      return absl::InvalidArgumentError(path + ": " + std::to_string(npy.data.size()) +
                                        " bytes for a " + DataTypeString(dt) + " tensor of " +
                                        ShapeString(npy.shape));
    }
    if (!npy.data.empty()) std::memcpy(t.raw_data(), npy.data.data(), npy.data.size());
  }
  *out = std::move(t);
  return absl::OkStatus();
}

std::string Num(double v) {
  std::ostringstream ss;
  ss.precision(7);
  ss << v;
  return ss.str();
}

absl::Status Compare(const Tensor& got, const Tensor& want, double rtol, double atol,
                     double* max_err) {
  if (got.dtype() != want.dtype()) {
    return absl::InvalidArgumentError("dtype " + DataTypeString(got.dtype()) + ", TensorFlow's is " +
                                      DataTypeString(want.dtype()));
  }
  const std::vector<int64_t> gd(got.shape().dim_sizes().begin(), got.shape().dim_sizes().end());
  const std::vector<int64_t> wd(want.shape().dim_sizes().begin(), want.shape().dim_sizes().end());
  if (gd != wd) {
    return absl::InvalidArgumentError("shape " + ShapeString(gd) + ", TensorFlow's is " +
                                      ShapeString(wd));
  }
  const int64_t n = want.NumElements();
  int64_t bad = 0, first = -1;
  std::string first_got, first_want;
  if (want.dtype() == DT_STRING) {
    for (int64_t i = 0; i < n; ++i) {
      if (got.data<std::string>()[i] != want.data<std::string>()[i]) {
        if (bad++ == 0) {
          first = i;
          first_got = "\"" + got.data<std::string>()[i] + "\"";
          first_want = "\"" + want.data<std::string>()[i] + "\"";
        }
      }
    }
  } else {
    const bool is_float = want.dtype() == DT_FLOAT || want.dtype() == DT_DOUBLE;
    double worst = -1;
    for (int64_t i = 0; i < n; ++i) {
      const double g = AsDouble(got, i), w = AsDouble(want, i);
      bool ok;
      if (!is_float) {
        ok = g == w;
      } else if (std::isnan(w) || std::isnan(g)) {
        ok = std::isnan(w) && std::isnan(g);
      } else if (std::isinf(w)) {
        ok = g == w;
      } else {
        const double err = std::fabs(g - w);
        *max_err = std::max(*max_err, err);
        ok = err <= atol + rtol * std::fabs(w);
        // Report the worst element, not merely the first.
        if (!ok && err - (atol + rtol * std::fabs(w)) > worst) {
          worst = err - (atol + rtol * std::fabs(w));
          first = i;
          first_got = Num(g);
          first_want = Num(w) + " (|diff| " + Num(err) + ")";
        }
      }
      if (!ok) {
        if (!is_float && bad == 0) {
          first = i;
          first_got = Num(g);
          first_want = Num(w);
        }
        ++bad;
      }
    }
  }
  if (bad == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(std::to_string(bad) + " of " + std::to_string(n) +
                                    " values differ; at flat index " + std::to_string(first) +
                                    " sg gives " + first_got + ", TensorFlow " + first_want);
}


}  // namespace sg
