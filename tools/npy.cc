#include "tools/npy.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace sg_tool {
namespace {

struct DescrEntry {
  const char* descr;
  SG_DataType dtype;
};

constexpr DescrEntry kDescrs[] = {
    {"<f4", SG_FLOAT}, {"<f8", SG_DOUBLE}, {"<f2", SG_HALF},   {"<i4", SG_INT32},
    {"<i8", SG_INT64}, {"<i2", SG_INT16},  {"|i1", SG_INT8},   {"|u1", SG_UINT8},
    {"<u2", SG_UINT16}, {"<u4", SG_UINT32}, {"<u8", SG_UINT64}, {"|b1", SG_BOOL},
};

// The value of 'key' in the header dict, up to the next ',' or '}' (or the closing ')' for a
// tuple).
bool DictValue(const std::string& header, const std::string& key, std::string* value) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) return false;
  size_t colon = header.find(':', k);
  if (colon == std::string::npos) return false;
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos) return false;
  size_t end = header[start] == '(' ? header.find(')', start) + 1 : header.find_first_of(",}", start);
  if (end == std::string::npos || end == 0) return false;
  *value = header.substr(start, end - start);
  return true;
}

}  // namespace

std::string NpyDescr(SG_DataType dtype) {
  for (const auto& d : kDescrs) {
    if (d.dtype == dtype) return d.descr;
  }
  return "";
}

bool ReadNpy(const std::string& path, NpyArray* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot open '" + path + "'";
    return false;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) {
    *error = "'" + path + "' is not a .npy file";
    return false;
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len, header_start;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) {
      *error = "'" + path + "' is truncated";
      return false;
    }
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= size_t{static_cast<unsigned char>(bytes[8 + i])} << (8 * i);
    header_start = 12;
  } else {
    *error = "'" + path + "' has .npy version " + std::to_string(major) + ", not 1, 2 or 3";
    return false;
  }
  if (header_start + header_len > bytes.size()) {
    *error = "'" + path + "' is truncated";
    return false;
  }
  const std::string header = bytes.substr(header_start, header_len);
  std::string descr, fortran, shape;
  if (!DictValue(header, "descr", &descr) || !DictValue(header, "fortran_order", &fortran) ||
      !DictValue(header, "shape", &shape)) {
    *error = "'" + path + "' has a malformed .npy header";
    return false;
  }
  if (fortran.find("False") == std::string::npos) {
    *error = "'" + path + "' is in Fortran order; only C order is supported";
    return false;
  }
  descr.erase(0, descr.find_first_not_of("'\""));
  descr.erase(descr.find_last_not_of("'\"") + 1);
  bool found = false;
  for (const auto& d : kDescrs) {
    if (descr == d.descr || (descr.size() == 3 && descr[0] == '=' && descr.substr(1) == std::string(d.descr).substr(1))) {
      out->dtype = d.dtype;
      found = true;
    }
  }
  if (!found) {
    *error = "'" + path + "' holds dtype '" + descr + "', which sg cannot read";
    return false;
  }
  out->shape.clear();
  size_t count = 1;
  for (const char* p = shape.c_str() + 1; *p && *p != ')';) {
    char* end;
    long long v = std::strtoll(p, &end, 10);
    if (end == p) {
      ++p;
      continue;
    }
    if (v < 0) {
      *error = "'" + path + "' has a negative dimension";
      return false;
    }
    out->shape.push_back(v);
    count *= static_cast<size_t>(v);
    p = end;
  }
  const size_t elem = SG_DataTypeSize(out->dtype);
  const size_t payload = bytes.size() - header_start - header_len;
  if (payload != count * elem) {
    *error = "'" + path + "' holds " + std::to_string(payload) + " data bytes; its header needs " +
             std::to_string(count * elem);
    return false;
  }
  out->data = bytes.substr(header_start + header_len);
  return true;
}

bool WriteNpy(const std::string& path, SG_DataType dtype, const std::vector<int64_t>& shape,
              const void* data, size_t size, std::string* error) {
  const std::string descr = NpyDescr(dtype);
  if (descr.empty()) {
    *error = "dtype " + std::to_string(static_cast<int>(dtype)) + " cannot be written as .npy";
    return false;
  }
  std::ostringstream dict;
  dict << "{'descr': '" << descr << "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) dict << shape[i] << (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
  dict << "), }";
  std::string header = dict.str();
  // Pad with spaces so that the data starts on a 64-byte boundary, ending with '\n'.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    *error = "cannot write '" + path + "'";
    return false;
  }
  const uint16_t len = static_cast<uint16_t>(header.size());
  out.write("\x93NUMPY\x01\x00", 8);
  const char len_bytes[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  out.write(len_bytes, 2);
  out.write(header.data(), header.size());
  out.write(static_cast<const char*>(data), size);
  if (!out) {
    *error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace sg_tool
