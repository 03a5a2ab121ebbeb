#include "core/util/saved_tensor_slice.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace sg {

bool SavedSliceSpec::IsFull() const {
  for (size_t d = 0; d < extents.size(); ++d) {
    const auto& [start, length] = extents[d];
    if (length != -1 && !(start == 0 && length == full_shape[d])) return false;
  }
  return true;
}

TensorShape SavedSliceSpec::FullShape() const {
  TensorShape s;
  for (int64_t d : full_shape) s.AddDim(d);
  return s;
}

TensorShape SavedSliceSpec::SliceShape() const {
  TensorShape s;
  for (size_t d = 0; d < full_shape.size(); ++d) {
    s.AddDim(extents[d].second == -1 ? full_shape[d] : extents[d].second);
  }
  return s;
}

absl::Status ParseShapeAndSlice(const std::string& text, SavedSliceSpec* spec) {
  auto bad = [&](const std::string& why) {
    return errors::InvalidArgument("bad shape_and_slice spec '", text, "': ", why);
  };
  std::vector<std::string> parts = absl::StrSplit(text, ' ', absl::SkipEmpty());
  if (parts.empty()) return bad("empty");
  spec->full_shape.clear();
  spec->extents.clear();
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    int64_t d;
    if (!absl::SimpleAtoi(parts[i], &d) || d < 0) return bad("'" + parts[i] + "' is not a dim");
    spec->full_shape.push_back(d);
  }
  std::vector<std::string> extents = absl::StrSplit(parts.back(), ':');
  if (extents.size() != spec->full_shape.size()) {
    return bad("the slice has " + std::to_string(extents.size()) + " extents for " +
               std::to_string(spec->full_shape.size()) + " dims");
  }
  for (size_t d = 0; d < extents.size(); ++d) {
    if (extents[d] == "-") {
      spec->extents.push_back({0, -1});
      continue;
    }
    std::vector<std::string> sl = absl::StrSplit(extents[d], ',');
    int64_t start, length;
    if (sl.size() != 2 || !absl::SimpleAtoi(sl[0], &start) || !absl::SimpleAtoi(sl[1], &length) ||
        start < 0 || length < 0 || start + length > spec->full_shape[d]) {
      return bad("extent '" + extents[d] + "' does not fit dim " + std::to_string(d));
    }
    spec->extents.push_back({start, length});
  }
  return absl::OkStatus();
}

}  // namespace sg
