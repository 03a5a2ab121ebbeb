#include "tools/npy.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "tools/file_util.h"

namespace sg_tool {
namespace {

struct DescrEntry {
  const char* descr;
  SG_DataType dtype;
  size_t size;  // bytes per element
};

constexpr DescrEntry kDescrs[] = {
    {"<f4", SG_FLOAT, 4},  {"<f8", SG_DOUBLE, 8}, {"<f2", SG_HALF, 2},   {"<i4", SG_INT32, 4},
    {"<i8", SG_INT64, 8},  {"<i2", SG_INT16, 2},  {"|i1", SG_INT8, 1},   {"|u1", SG_UINT8, 1},
    {"<u2", SG_UINT16, 2}, {"<u4", SG_UINT32, 4}, {"<u8", SG_UINT64, 8}, {"|b1", SG_BOOL, 1},
    {"<c8", SG_COMPLEX64, 8}, {"<c16", SG_COMPLEX128, 16},
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

// Appends code point `c` as UTF-8; false when `c` is not a Unicode scalar value.
bool AppendUtf8(uint32_t c, std::string* out) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return false;
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
  return true;
}

// The string elements of a `|S<width>` (unicode == false) or `<U<width>` / `>U<width>` array:
// NumPy pads each element with NULs (NUL code points) to `width`, and they are dropped here as
// NumPy drops them.
bool DecodeStrings(const std::string& path, const char* p, size_t count, size_t width,
                   bool unicode, bool big_endian, std::vector<std::string>* out,
                   std::string* error) {
  out->clear();
  out->reserve(count);
  for (size_t i = 0; i < count; ++i) {
    std::string s;
    if (!unicode) {
      const char* e = p + i * width;
      size_t len = width;
      while (len > 0 && e[len - 1] == '\0') --len;
      s.assign(e, len);
    } else {
      const unsigned char* e = reinterpret_cast<const unsigned char*>(p) + i * width * 4;
      size_t len = width;
      auto code = [&](size_t k) {
        const unsigned char* b = e + 4 * k;
        return big_endian ? (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3]
                          : (uint32_t{b[3]} << 24) | (uint32_t{b[2]} << 16) | (uint32_t{b[1]} << 8) | b[0];
      };
      while (len > 0 && code(len - 1) == 0) --len;
      for (size_t k = 0; k < len; ++k) {
        if (!AppendUtf8(code(k), &s)) {
          *error = "'" + path + "': element " + std::to_string(i) + " holds " +
                   std::to_string(code(k)) + ", which is not a Unicode code point";
          return false;
        }
      }
    }
    out->push_back(std::move(s));
  }
  return true;
}

std::string HeaderFor(const std::string& descr, const std::vector<int64_t>& shape) {
  std::ostringstream dict;
  dict << "{'descr': '" << descr << "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) dict << shape[i] << (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
  dict << "), }";
  std::string header = dict.str();
  // Pad with spaces so that the data starts on a 64-byte boundary, ending with '\n'.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  return header;
}

bool WriteFile(const std::string& path, const std::string& header, const void* data, size_t size,
               std::string* error) {
  if (header.size() > 0xffff) {
    *error = "cannot write '" + path + "': its .npy header would be too long";
    return false;
  }
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
  if (size > 0) out.write(static_cast<const char*>(data), size);
  if (!out) {
    *error = "cannot write '" + path + "'";
    return false;
  }
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
  std::string bytes;
  if (!ReadWholeFile(path, &bytes)) {
    *error = "cannot open '" + path + "'";
    return false;
  }
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
    if (v > 0 && count > SIZE_MAX / static_cast<size_t>(v)) {
      *error = "'" + path + "' has a shape too large to hold";
      return false;
    }
    out->shape.push_back(v);
    count *= static_cast<size_t>(v);
    p = end;
  }

  // Strings: |S<n> (bytes), <U<n> / >U<n> (UTF-32 code points); object arrays are pickles.
  const char kind = descr.size() >= 2 ? descr[1] : '\0';
  if (kind == 'O') {
    *error = "'" + path + "' holds Python objects (dtype object), which sg cannot read; save "
             "strings as a bytes or str array instead, e.g. np.save(path, a.astype(bytes))";
    return false;
  }
  size_t elem = 0;
  bool strings = false;
  if ((kind == 'S' || kind == 'U') && descr.size() > 2) {
    char* end;
    const unsigned long long width = std::strtoull(descr.c_str() + 2, &end, 10);
    if (*end == '\0' && width < (size_t{1} << 32)) {
      strings = true;
      elem = kind == 'U' ? 4 * static_cast<size_t>(width) : static_cast<size_t>(width);
    }
  }
  if (strings) {
    out->dtype = SG_STRING;
  } else {
    bool found = false;
    for (const auto& d : kDescrs) {
      if (descr == d.descr || (descr.size() > 1 && descr[0] == '=' && descr.compare(1, std::string::npos, d.descr + 1) == 0)) {
        out->dtype = d.dtype;
        elem = d.size;
        found = true;
      }
    }
    if (!found) {
      *error = "'" + path + "' holds dtype '" + descr + "', which sg cannot read";
      return false;
    }
  }
  const size_t payload = bytes.size() - header_start - header_len;
  if ((elem != 0 && count > payload / elem) || payload != count * elem) {
    *error = "'" + path + "' holds " + std::to_string(payload) + " data bytes; its header needs " +
             std::to_string(count * elem);
    return false;
  }
  const char* data = bytes.data() + header_start + header_len;
  if (strings) {
    if (elem == 0 && count > (size_t{1} << 26)) {  // empty strings take no bytes: bound the count
      *error = "'" + path + "' has too many elements for zero-width strings";
      return false;
    }
    out->data.clear();
    return DecodeStrings(path, data, count, kind == 'U' ? elem / 4 : elem, kind == 'U',
                         descr[0] == '>', &out->strings, error);
  }
  out->strings.clear();
  out->data.assign(data, payload);
  return true;
}

bool WriteNpy(const std::string& path, SG_DataType dtype, const std::vector<int64_t>& shape,
              const void* data, size_t size, std::string* error) {
  const std::string descr = NpyDescr(dtype);
  if (descr.empty()) {
    *error = dtype == SG_STRING
                 ? "a string tensor is written with WriteNpyStrings"
                 : "dtype " + std::to_string(static_cast<int>(dtype)) + " cannot be written as .npy";
    return false;
  }
  return WriteFile(path, HeaderFor(descr, shape), data, size, error);
}

bool WriteNpyStrings(const std::string& path, const std::vector<int64_t>& shape,
                     const std::vector<std::string>& strings, std::string* error) {
  size_t count = 1;
  for (int64_t d : shape) count *= static_cast<size_t>(d);
  if (count != strings.size()) {
    *error = "cannot write '" + path + "': " + std::to_string(strings.size()) +
             " strings for a shape of " + std::to_string(count) + " elements";
    return false;
  }
  size_t width = 1;
  for (size_t i = 0; i < strings.size(); ++i) {
    if (!strings[i].empty() && strings[i].back() == '\0') {
      *error = "cannot write '" + path + "': string " + std::to_string(i) +
               " ends in a NUL byte, which a NumPy bytes array drops";
      return false;
    }
    width = std::max(width, strings[i].size());
  }
  std::string data(count * width, '\0');
  for (size_t i = 0; i < strings.size(); ++i) {
    if (!strings[i].empty()) std::memcpy(&data[i * width], strings[i].data(), strings[i].size());
  }
  return WriteFile(path, HeaderFor("|S" + std::to_string(width), shape), data.data(), data.size(),
                   error);
}

}  // namespace sg_tool
