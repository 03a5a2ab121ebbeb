// A check of a LevelDB-format table's footer before LevelDB opens it. LevelDB trusts the two
// block handles of the footer (which no checksum covers) and allocates as many bytes as the index
// handle says before reading, so a corrupt or hostile checkpoint file could ask for gigabytes.
// Checkpoint index files (V2) and V1 checkpoints are such tables; their readers call this first.
// The blocks the index names are covered by its checksum, which the readers verify.
#ifndef SG_CORE_UTIL_TABLE_FOOTER_H_
#define SG_CORE_UTIL_TABLE_FOOTER_H_

#include <cstdint>
#include <string>

#include "core/framework/status.h"

namespace sg {

// OK when the file `path` (of `size` bytes) ends in a table footer whose metaindex and index
// handles lie inside the file; DATA_LOSS naming the file otherwise, or the file system's error
// when it cannot be read. Thread-safe (it only reads the file).
absl::Status CheckTableFooter(const std::string& path, uint64_t size);

}  // namespace sg

#endif  // SG_CORE_UTIL_TABLE_FOOTER_H_
