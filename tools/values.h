// Command-line tensor literals for the sg tool: `--feed NAME=...` and `--input KEY=...`.
//
//   [[1,2],[3,4]]        nested lists, as saved_model_cli's Python literals: the shape comes from
//                        the nesting ([2,2]); [] is shape [0]; ragged nesting is an error
//   "one string"         a quoted string is a scalar; \" and \\ are its escapes
//   ["a","b"]            quoted strings nest like numbers
//   [2,2]:1,2,3,4        a shape, then a flat comma list (the older form, kept)
//   1,2,3                a flat comma list; the caller picks the shape
//
// The items come back as text, row-major; the caller parses each with the graph's dtype
// (ParseElement).
// Thread safety: pure functions.
#ifndef SG_TOOLS_VALUES_H_
#define SG_TOOLS_VALUES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sg/c_api.h"

namespace sg_tool {

struct Literal {
  enum Form { kFlat, kShaped, kNested, kQuoted } form = kFlat;
  std::vector<int64_t> dims;       // kShaped, kNested and kQuoted (a scalar: {}); empty for kFlat
  std::vector<std::string> items;  // row-major; quoted items unescaped, bare items trimmed
  bool any_quoted = false;         // some item was a quoted string
};

// Parses `text`. false with `error` (one line, without the feed's name) for unbalanced brackets,
// ragged nesting, an unterminated string, a bad escape, or a bad dimension.
bool ParseLiteral(const std::string& text, Literal* out, std::string* error);

// TensorFlow's (NumPy's) name of `dt`: "float32", "float16", "bfloat16", "string", ...;
// "invalid" for a value that is no dtype.
const char* DtypeName(SG_DataType dt);

// Parses one item of a Literal as a value of `dt` into `dst` (SG_DataTypeSize(dt) bytes, the
// tensor's little-endian layout): numbers as C's strtod/strtoll read them (integers wrap to the
// width of `dt`); float16 and bfloat16 rounded to nearest even from the double
// (tools/half_float.h); bools true/True/1 and false/False/0; complex in Python's notation
// ("1", "2j", "1+2j", "1-2.5e-1j"). false with `error` ("'x' is not a float16") for text that is
// not such a value, or a dtype without a command-line form (string: the caller handles it;
// resource, variant...).
bool ParseElement(const std::string& text, SG_DataType dt, char* dst, std::string* error);

}  // namespace sg_tool

#endif  // SG_TOOLS_VALUES_H_
