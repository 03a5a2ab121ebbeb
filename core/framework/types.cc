#include "core/framework/types.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace sg {

int DataTypeSize(DataType dt) {
  switch (BaseType(dt)) {
    case DT_FLOAT: return 4;
    case DT_DOUBLE: return 8;
    case DT_INT32: return 4;
    case DT_UINT32: return 4;
    case DT_UINT8: return 1;
    case DT_UINT16: return 2;
    case DT_INT16: return 2;
    case DT_INT8: return 1;
    case DT_COMPLEX64: return 8;
    case DT_INT64: return 8;
    case DT_UINT64: return 8;
    case DT_BOOL: return 1;
    case DT_QINT8: return 1;
    case DT_QUINT8: return 1;
    case DT_QINT32: return 4;
    case DT_BFLOAT16: return 2;
    case DT_QINT16: return 2;
    case DT_QUINT16: return 2;
    case DT_COMPLEX128: return 16;
    case DT_HALF: return 2;
    default: return 0;
  }
}

namespace {
struct NameEntry {
  DataType dt;
  const char* name;
};
constexpr NameEntry kNames[] = {
    {DT_FLOAT, "float"},     {DT_DOUBLE, "double"},   {DT_INT32, "int32"},
    {DT_UINT8, "uint8"},     {DT_INT16, "int16"},     {DT_INT8, "int8"},
    {DT_STRING, "string"},   {DT_COMPLEX64, "complex64"}, {DT_INT64, "int64"},
    {DT_BOOL, "bool"},       {DT_QINT8, "qint8"},     {DT_QUINT8, "quint8"},
    {DT_QINT32, "qint32"},   {DT_BFLOAT16, "bfloat16"}, {DT_QINT16, "qint16"},
    {DT_QUINT16, "quint16"}, {DT_UINT16, "uint16"},   {DT_COMPLEX128, "complex128"},
    {DT_HALF, "half"},       {DT_RESOURCE, "resource"}, {DT_VARIANT, "variant"},
    {DT_UINT32, "uint32"},   {DT_UINT64, "uint64"},
    {DT_FLOAT8_E5M2, "float8_e5m2"}, {DT_FLOAT8_E4M3FN, "float8_e4m3fn"},
    {DT_FLOAT8_E4M3FNUZ, "float8_e4m3fnuz"}, {DT_FLOAT8_E4M3B11FNUZ, "float8_e4m3b11fnuz"},
    {DT_FLOAT8_E5M2FNUZ, "float8_e5m2fnuz"}, {DT_INT4, "int4"}, {DT_UINT4, "uint4"},
    {DT_INT2, "int2"}, {DT_UINT2, "uint2"}, {DT_FLOAT4_E2M1FN, "float4_e2m1fn"},
};
}  // namespace

std::string DataTypeString(DataType dt) {
  DataType base = BaseType(dt);
  for (const auto& e : kNames) {
    if (e.dt == base) return IsRefType(dt) ? std::string(e.name) + "_ref" : e.name;
  }
  return "unknown dtype " + std::to_string(static_cast<int>(dt));
}

bool DataTypeFromString(absl::string_view s, DataType* dt) {
  std::string name = absl::AsciiStrToLower(s);
  if (absl::StartsWith(name, "dt_")) name = name.substr(3);
  bool ref = false;
  if (absl::EndsWith(name, "_ref")) {
    ref = true;
    name.resize(name.size() - 4);
  }
  if (name == "float32") name = "float";
  if (name == "float64") name = "double";
  if (name == "float16") name = "half";
  for (const auto& e : kNames) {
    if (name == e.name) {
      *dt = ref ? MakeRefType(e.dt) : e.dt;
      return true;
    }
  }
  return false;
}

}  // namespace sg
