// Fuzz target: a V2 checkpoint (TensorBundle) read from files, as RestoreV2 reads one.
//
// The input is records (fuzz_util.h): tag 0 the index file (a LevelDB table of
// BundleEntryProtos), tag 1 the data file; they are written as <tmp>/ckpt.index and
// <tmp>/ckpt.data-00000-of-00001. BundleReader opens the bundle and reads every tensor; a
// shape-and-slice spec (record tag 2) goes through ParseShapeAndSlice. Any status is fine; a
// crash or a sanitizer report is a finding.
#include <cstdint>
#include <string>

#include "core/util/saved_tensor_slice.h"
#include "core/util/tensor_bundle.h"
#include "fuzz/fuzz_util.h"

namespace {
constexpr int kMaxLookups = 64;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string index, bytes, slice;
  for (const auto& r : sg::fuzz::SplitRecords(data, size, 8)) {
    if (r.tag == 0) index = r.bytes;
    if (r.tag == 1) bytes = r.bytes;
    if (r.tag == 2) slice = r.bytes;
  }
  if (!slice.empty()) {
    sg::SavedSliceSpec spec;
    if (sg::ParseShapeAndSlice(slice, &spec).ok()) {
      (void)spec.IsFull();
      (void)spec.SliceShape();
    }
  }
  const std::string prefix = sg::fuzz::TempDir() + "/ckpt";
  sg::fuzz::WriteFile(sg::BundleIndexFilename(prefix), index);
  sg::fuzz::WriteFile(sg::BundleDataFilename(prefix, 0, 1), bytes);
  auto reader = sg::BundleReader::Open(prefix);
  if (!reader.ok()) return 0;
  int lookups = 0;
  for (const auto& [key, entry] : (*reader)->entries()) {
    if (++lookups > kMaxLookups) break;
    sg::Tensor t;
    if ((*reader)->Lookup(key, &t).ok()) (void)t.DebugString();
  }
  return 0;
}
