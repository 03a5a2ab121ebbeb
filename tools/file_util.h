// Reading whole files for the sg tool's commands.
#ifndef SG_TOOLS_FILE_UTIL_H_
#define SG_TOOLS_FILE_UTIL_H_

#include <string>

namespace sg_tool {

// Reads all of the file at `path` into *bytes with one read of the file's size when the size
// can be had (a regular file), else in blocks until its end (a pipe). A character-at-a-time read
// (std::istreambuf_iterator) took about 0.2 s of `sg run`'s 0.75 s on ResNet50's 98 MiB GraphDef.
// Returns false, with *bytes unspecified, when the file cannot be opened or read.
// Thread-compatible.
bool ReadWholeFile(const std::string& path, std::string* bytes);

}  // namespace sg_tool

#endif  // SG_TOOLS_FILE_UTIL_H_
