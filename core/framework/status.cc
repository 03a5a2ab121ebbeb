#include "core/framework/status.h"

namespace sg {
namespace errors {

absl::Status Annotate(const absl::Status& s, absl::string_view prefix) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(prefix, s.message()));
}

}  // namespace errors
}  // namespace sg
