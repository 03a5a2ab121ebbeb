#include "tools/file_util.h"

#include <fstream>
#include <sstream>

namespace sg_tool {

bool ReadWholeFile(const std::string& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  // The size, where the file can seek (not a pipe).
  std::streamoff size = -1;
  if (in.seekg(0, std::ios::end)) size = in.tellg();
  in.clear();
  if (size >= 0 && in.seekg(0)) {
    bytes->resize(static_cast<size_t>(size));
    if (!in.read(bytes->data(), size)) return false;
    if (in.peek() == std::ifstream::traits_type::eof()) return true;
    // The file grew since its size was taken: the rest too.
  } else {
    in.clear();
    bytes->clear();
  }
  std::ostringstream rest;
  rest << in.rdbuf();
  *bytes += rest.str();
  return !in.bad();
}

}  // namespace sg_tool
