// The messages of sg's libtensorflow.so.2 name TensorFlow's functions: sg's C API writes
// "SG_SessionRun: session is NULL", a TensorFlow client reads "TF_SessionRun: session is NULL".
//
// The library is made of the same objects as libsg, whose messages name the SG_ functions; this
// file installs, when the library is loaded, the rewriter sg::c_api::Set passes every message
// through (c_api_internal.h). It replaces each "SG_X" that stands alone (not inside a longer
// identifier) by "TF_X" when TF_X is a name of the drop-in's tensorflow/c headers (a function,
// type or constant: tf_names.inc, written from the headers at build time by
// write_tf_names.cmake). Other SG_ names stay as they are: sg's own functions without a TF_
// twin (SG_GraphSetStringLayout, the SG_Set*Threads helpers, ...), and anything else that looks
// like one. What it cannot tell apart: a name chosen by the client, such as an operation named
// "SG_NewGraph", is rewritten too when it appears in a message.
#include <algorithm>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"
#include "c_api/c_api_internal.h"

namespace sg {
namespace dropin {
namespace {

// Sorted, as write_tf_names.cmake writes them.
constexpr const char* kTfNames[] = {
#define SG_TF_NAME(name) #name,
#include "tf_names.inc"
#undef SG_TF_NAME
};

bool IsTfName(absl::string_view name) {
  return std::binary_search(std::begin(kTfNames), std::end(kTfNames), name,
                            [](absl::string_view a, absl::string_view b) { return a < b; });
}

bool IsIdentifierChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

std::string TfNamesInMessage(absl::string_view message) {
  std::string out;
  out.reserve(message.size());
  size_t i = 0;
  while (i < message.size()) {
    const bool starts_name = message.substr(i, 3) == "SG_" &&
                             (i == 0 || !IsIdentifierChar(message[i - 1]));
    if (!starts_name) {
      out.push_back(message[i++]);
      continue;
    }
    size_t end = i + 3;
    while (end < message.size() && IsIdentifierChar(message[end])) ++end;
    const std::string tf_name = "TF_" + std::string(message.substr(i + 3, end - i - 3));
    if (IsTfName(tf_name)) {
      out += tf_name;
    } else {
      out.append(message.data() + i, end - i);
    }
    i = end;
  }
  return out;
}

// Installed when the library is loaded, before a client can call it.
const bool kInstalled = (sg::c_api::SetMessageRewriter(&TfNamesInMessage), true);

}  // namespace
}  // namespace dropin
}  // namespace sg
