// Rendezvous: where a _Send leaves a tensor and the matching _Recv picks it up, keyed as
// TensorFlow keys them: "src_device;src_incarnation;dst_device;tensor_name;frame_id:iter_id"
// (the incarnation as 16 hex digits). One rendezvous serves one step.
#ifndef SG_CORE_FRAMEWORK_RENDEZVOUS_H_
#define SG_CORE_FRAMEWORK_RENDEZVOUS_H_

#include <functional>
#include <string>

#include "core/framework/status.h"
#include "core/framework/tensor.h"

namespace sg {

struct FrameAndIter {
  int64_t frame_id = 0;
  int64_t iter_id = 0;
};

class Rendezvous {
 public:
  struct ParsedKey {
    std::string full_key;
    std::string src_device;
    uint64_t src_incarnation = 0;
    std::string dst_device;
    std::string edge_name;
  };
  // The key text; the key's hash of frame and iteration goes in the last field.
  static std::string CreateKey(absl::string_view src_device, uint64_t src_incarnation,
                               absl::string_view dst_device, absl::string_view name,
                               FrameAndIter frame_iter);
  // INVALID_ARGUMENT when `key` does not have five ';'-separated fields.
  static absl::Status ParseKey(absl::string_view key, ParsedKey* out);

  using DoneCallback =
      std::function<void(const absl::Status& status, const Tensor& value, bool is_dead)>;

  virtual ~Rendezvous() = default;
  // Leaves `value` under `key`; a second Send of one key is INTERNAL (a bug in the partition).
  virtual absl::Status Send(const ParsedKey& key, const Tensor& value, bool is_dead) = 0;
  // Calls `done` once the value for `key` is there (maybe at once, maybe on the sender's thread),
  // or with the abort status.
  virtual void RecvAsync(const ParsedKey& key, DoneCallback done) = 0;
  // Fails every pending and later Recv with `status` (not OK).
  virtual void StartAbort(const absl::Status& status) = 0;

  // Blocking helper over RecvAsync.
  absl::Status Recv(const ParsedKey& key, Tensor* value, bool* is_dead);
};

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_RENDEZVOUS_H_
