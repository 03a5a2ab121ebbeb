#include "tools/values.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "tools/half_float.h"

namespace sg_tool {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Parser {
 public:
  Parser(const std::string& text, Literal* out, std::string* error)
      : t_(text), out_(out), error_(error) {}

  void SkipSpace() {
    while (p_ < t_.size() && IsSpace(t_[p_])) ++p_;
  }
  size_t pos() const { return p_; }
  bool AtEnd() { SkipSpace(); return p_ == t_.size(); }

  // A quoted string at p_ (which is '"'), unescaped into `s`.
  bool Quoted(std::string* s) {
    ++p_;
    while (p_ < t_.size() && t_[p_] != '"') {
      if (t_[p_] == '\\') {
        if (p_ + 1 >= t_.size()) break;
        const char e = t_[p_ + 1];
        if (e != '"' && e != '\\') return Err("bad escape '\\" + std::string(1, e) +
                                              "' (only \\\" and \\\\)");
        s->push_back(e);
        p_ += 2;
      } else {
        s->push_back(t_[p_++]);
      }
    }
    if (p_ >= t_.size()) return Err("unterminated string");
    ++p_;
    out_->any_quoted = true;
    return true;
  }

  // One element: a list (its shape in `dims`) or a scalar (dims empty).
  bool Element(std::vector<int64_t>* dims, int depth) {
    SkipSpace();
    if (p_ >= t_.size()) return Err("a value is missing at the end");
    if (depth > 64) return Err("nested too deeply");
    if (t_[p_] == '[') return List(dims, depth + 1);
    dims->clear();
    std::string s;
    if (t_[p_] == '"') {
      if (!Quoted(&s)) return false;
    } else {
      const size_t start = p_;
      while (p_ < t_.size() && t_[p_] != ',' && t_[p_] != ']' && t_[p_] != '[' && t_[p_] != '"') ++p_;
      s = t_.substr(start, p_ - start);
      while (!s.empty() && IsSpace(s.back())) s.pop_back();
      if (s.empty()) return Err("an empty value at offset " + std::to_string(start));
    }
    out_->items.push_back(std::move(s));
    return true;
  }

  // '[' elements ']' with every element the same shape.
  bool List(std::vector<int64_t>* dims, int depth) {
    const size_t open = p_++;
    SkipSpace();
    std::vector<int64_t> first;
    int64_t n = 0;
    if (p_ < t_.size() && t_[p_] == ']') {
      ++p_;
      *dims = {0};
      return true;
    }
    while (true) {
      std::vector<int64_t> d;
      if (!Element(&d, depth)) return false;
      if (n == 0) {
        first = d;
      } else if (d != first) {
        return Err("ragged nesting: the list at offset " + std::to_string(open) + " has an element of shape " +
                   Shape(d) + " after one of shape " + Shape(first));
      }
      ++n;
      SkipSpace();
      if (p_ < t_.size() && t_[p_] == ',') {
        ++p_;
        SkipSpace();
        if (p_ < t_.size() && t_[p_] == ']') {  // a trailing comma, as Python allows
          ++p_;
          break;
        }
        continue;
      }
      if (p_ < t_.size() && t_[p_] == ']') {
        ++p_;
        break;
      }
      return Err("the list at offset " + std::to_string(open) + " is not closed with ']'");
    }
    dims->assign(1, n);
    dims->insert(dims->end(), first.begin(), first.end());
    return true;
  }

  bool Err(const std::string& m) {
    *error_ = m;
    return false;
  }

  static std::string Shape(const std::vector<int64_t>& d) {
    std::string s = "[";
    for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
    return s + "]";
  }

 private:
  const std::string& t_;
  Literal* out_;
  std::string* error_;
  size_t p_ = 0;
};

bool ParseDims(const std::string& text, std::vector<int64_t>* dims, std::string* error) {
  dims->clear();
  size_t start = 0;
  if (text.empty()) return true;  // "[]:5" is a scalar
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string d = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char* end;
    const long long v = std::strtoll(d.c_str(), &end, 10);
    if (d.empty() || *end != '\0' || v < 0) {
      *error = "bad dimension '" + d + "' in the shape";
      return false;
    }
    dims->push_back(v);
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

// A flat comma list, quoted items allowed.
bool ParseFlat(const std::string& text, Literal* out, std::string* error) {
  out->items.clear();
  if (text.empty()) return true;
  size_t p = 0;
  while (true) {
    while (p < text.size() && IsSpace(text[p])) ++p;
    if (p < text.size() && text[p] == '"') {
      Literal tmp;
      const std::string rest = text.substr(p);
      Parser q(rest, &tmp, error);
      std::vector<int64_t> d;
      if (!q.Element(&d, 0)) return false;
      out->items.push_back(tmp.items[0]);
      out->any_quoted = true;
      p += q.pos();
      while (p < text.size() && IsSpace(text[p])) ++p;
      if (p == text.size()) return true;
      if (text[p] != ',') {
        *error = "a ',' is missing after the string ending at offset " + std::to_string(p);
        return false;
      }
      ++p;
      continue;
    }
    const size_t comma = text.find(',', p);
    out->items.push_back(text.substr(p, comma == std::string::npos ? std::string::npos : comma - p));
    if (comma == std::string::npos) return true;
    p = comma + 1;
  }
}

}  // namespace

bool ParseLiteral(const std::string& text, Literal* out, std::string* error) {
  *out = Literal();
  size_t first = 0;
  while (first < text.size() && IsSpace(text[first])) ++first;
  if (first < text.size() && text[first] == '[') {
    // "[2,2]:values" keeps its meaning: a shape, then a flat list.
    const size_t close = text.find(']', first);
    if (close != std::string::npos && close + 1 < text.size() && text[close + 1] == ':' &&
        text.find_first_of("[\"", first + 1) > close) {
      out->form = Literal::kShaped;
      if (!ParseDims(text.substr(first + 1, close - first - 1), &out->dims, error)) return false;
      return ParseFlat(text.substr(close + 2), out, error);
    }
    Parser p(text, out, error);
    out->form = Literal::kNested;
    if (!p.Element(&out->dims, 0)) return false;
    if (!p.AtEnd()) {
      *error = "unexpected text after the list at offset " + std::to_string(p.pos());
      return false;
    }
    return true;
  }
  if (first < text.size() && text[first] == '"') {
    // One quoted string is a scalar; several ("a","b") are a flat list.
    if (!ParseFlat(text, out, error)) return false;
    if (out->items.size() == 1) out->form = Literal::kQuoted;
    return true;
  }
  return ParseFlat(text, out, error);
}

}  // namespace sg_tool

namespace sg_tool {

const char* DtypeName(SG_DataType dt) {
  switch (dt) {
    case SG_FLOAT: return "float32";
    case SG_DOUBLE: return "float64";
    case SG_HALF: return "float16";
    case SG_BFLOAT16: return "bfloat16";
    case SG_INT8: return "int8";
    case SG_INT16: return "int16";
    case SG_INT32: return "int32";
    case SG_INT64: return "int64";
    case SG_UINT8: return "uint8";
    case SG_UINT16: return "uint16";
    case SG_UINT32: return "uint32";
    case SG_UINT64: return "uint64";
    case SG_BOOL: return "bool";
    case SG_STRING: return "string";
    case SG_COMPLEX64: return "complex64";
    case SG_COMPLEX128: return "complex128";
    case SG_RESOURCE: return "resource";
    case SG_VARIANT: return "variant";
    default: return "invalid";
  }
}

bool ParseElement(const std::string& text, SG_DataType dt, char* dst, std::string* error) {
  const char* c = text.c_str();
  char* end = nullptr;
  auto bad = [&] {
    *error = "'" + text + "' is not a " + DtypeName(dt);
    return false;
  };
  switch (dt) {
    case SG_FLOAT: {
      const float v = std::strtof(c, &end);
      std::memcpy(dst, &v, sizeof v);
      break;
    }
    case SG_DOUBLE: {
      const double v = std::strtod(c, &end);
      std::memcpy(dst, &v, sizeof v);
      break;
    }
    case SG_HALF: case SG_BFLOAT16: {
      const double v = std::strtod(c, &end);
      const uint16_t bits = dt == SG_HALF ? DoubleToHalf(v) : DoubleToBfloat16(v);
      std::memcpy(dst, &bits, sizeof bits);
      break;
    }
    case SG_BOOL:
      if (text == "true" || text == "True" || text == "1") {
        *dst = 1;
      } else if (text == "false" || text == "False" || text == "0") {
        *dst = 0;
      } else {
        return bad();
      }
      return true;
    case SG_INT8: case SG_INT16: case SG_INT32: case SG_INT64:
    case SG_UINT8: case SG_UINT16: case SG_UINT32: case SG_UINT64: {
      const long long v = std::strtoll(c, &end, 10);
      // Little-endian: the low bytes of the int64 are the narrower value.
      std::memcpy(dst, &v, SG_DataTypeSize(dt));
      break;
    }
    case SG_COMPLEX64: case SG_COMPLEX128: {
      double re = 0, im = 0;
      const double v = std::strtod(c, &end);
      if (end == c) return bad();
      if (*end == 'j') {
        im = v;
        ++end;
      } else {
        re = v;
        if (*end == '+' || *end == '-') {
          const char* start = end;
          im = std::strtod(start, &end);
          if (end == start || *end != 'j') return bad();
          ++end;
        }
      }
      if (dt == SG_COMPLEX64) {
        const float f[2] = {static_cast<float>(re), static_cast<float>(im)};
        std::memcpy(dst, f, sizeof f);
      } else {
        const double d[2] = {re, im};
        std::memcpy(dst, d, sizeof d);
      }
      break;
    }
    default:
      *error = std::string("values of dtype ") + DtypeName(dt) +
               " cannot be given on the command line; use a .npy file";
      return false;
  }
  if (end == c || *end != '\0') return bad();
  return true;
}

}  // namespace sg_tool
