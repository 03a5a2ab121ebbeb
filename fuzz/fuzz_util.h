// What sg's fuzz targets (fuzz/*_fuzzer.cc) share: inputs made of tagged records, a private
// temporary directory, and options that keep one input's run short.
//
// A record is a 1-byte tag, a 4-byte little-endian length and that many bytes; a length that
// runs past the end of the input takes what is left. make_fuzz_seeds writes the seed corpus in
// this form with AppendRecord.
#ifndef SG_FUZZ_FUZZ_UTIL_H_
#define SG_FUZZ_FUZZ_UTIL_H_

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/proto/config.pb.h"

namespace sg {
namespace fuzz {

// How long one step of a fuzzed graph may run: a fuzzed endless loop ends here with
// DEADLINE_EXCEEDED instead of hanging the fuzzer.
constexpr int64_t kStepTimeoutMs = 2000;

struct Record {
  uint8_t tag;
  std::string_view bytes;
};

// At most `max_records` records of `data`; a trailing fragment shorter than a header is dropped.
inline std::vector<Record> SplitRecords(const uint8_t* data, size_t size, size_t max_records) {
  std::vector<Record> out;
  size_t pos = 0;
  while (out.size() < max_records && size - pos >= 5) {
    const uint8_t tag = data[pos];
    const uint32_t len = uint32_t{data[pos + 1]} | uint32_t{data[pos + 2]} << 8 |
                         uint32_t{data[pos + 3]} << 16 | uint32_t{data[pos + 4]} << 24;
    pos += 5;
    const size_t n = len < size - pos ? len : size - pos;
    out.push_back({tag, std::string_view(reinterpret_cast<const char*>(data) + pos, n)});
    pos += n;
  }
  return out;
}

inline void AppendRecord(uint8_t tag, std::string_view bytes, std::string* out) {
  const uint32_t len = static_cast<uint32_t>(bytes.size());
  out->push_back(static_cast<char>(tag));
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((len >> (8 * i)) & 0xff));
  out->append(bytes);
}

// A proto request from a record's bytes; false when they do not parse.
template <typename Request>
bool ParseRecord(std::string_view bytes, Request* req) {
  return req->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

// "$K" (K a digit) names the K-th handle of `made`, as the seed corpus writes the handles a
// target's earlier calls returned; anything else stays as it is.
inline std::string ResolveHandle(const std::string& handle, const std::vector<std::string>& made) {
  if (handle.size() == 2 && handle[0] == '$' && handle[1] >= '0' && handle[1] <= '9') {
    const size_t k = static_cast<size_t>(handle[1] - '0');
    if (k < made.size()) return made[k];
  }
  return handle;
}

// A directory of this process's own under $TMPDIR (or /tmp), made on first use. It is left
// behind at exit (a crash must not lose the files it was reading); its name says whose it is.
inline const std::string& TempDir() {
  static const std::string* dir = [] {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
                       "/sg_fuzz_XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr) {
      std::perror("sg fuzz: mkdtemp");
      std::abort();
    }
    return new std::string(tmpl);
  }();
  return *dir;
}

// Replaces `path` with `bytes`; a failure to write is the harness's fault, so it aborts.
inline void WriteFile(const std::string& path, std::string_view bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() ||
      std::fclose(f) != 0) {
    std::perror(("sg fuzz: writing " + path).c_str());
    std::abort();
  }
}

// Session options for a fuzzed graph: one intra-op and one inter-op thread, and a step deadline
// (nodes run on the inter-op thread, so the caller's thread sees the deadline pass).
inline ConfigProto SmallConfig() {
  ConfigProto config;
  config.set_intra_op_parallelism_threads(1);
  config.set_inter_op_parallelism_threads(1);
  config.set_operation_timeout_in_ms(kStepTimeoutMs);
  return config;
}

}  // namespace fuzz
}  // namespace sg

#endif  // SG_FUZZ_FUZZ_UTIL_H_
