#include "core/framework/rendezvous.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/notification.h"

namespace sg {

std::string Rendezvous::CreateKey(absl::string_view src_device, uint64_t src_incarnation,
                                  absl::string_view dst_device, absl::string_view name,
                                  FrameAndIter frame_iter) {
  return absl::StrFormat("%s;%016x;%s;%s;%d:%d", src_device, src_incarnation, dst_device, name,
                         frame_iter.frame_id, frame_iter.iter_id);
}

absl::Status Rendezvous::ParseKey(absl::string_view key, ParsedKey* out) {
  std::vector<absl::string_view> parts = absl::StrSplit(key, ';');
  if (parts.size() != 5 || parts[0].empty() || parts[2].empty() || parts[3].empty()) {
    return errors::InvalidArgument("Invalid rendezvous key: ", key);
  }
  out->full_key = std::string(key);
  out->src_device = std::string(parts[0]);
  if (!absl::SimpleHexAtoi(parts[1], &out->src_incarnation)) {
    return errors::InvalidArgument("Invalid rendezvous key (incarnation): ", key);
  }
  out->dst_device = std::string(parts[2]);
  out->edge_name = std::string(parts[3]);
  return absl::OkStatus();
}

absl::Status Rendezvous::Recv(const ParsedKey& key, Tensor* value, bool* is_dead) {
  absl::Notification n;
  absl::Status result;
  RecvAsync(key, [&](const absl::Status& s, const Tensor& v, bool dead) {
    result = s;
    *value = v;
    *is_dead = dead;
    n.Notify();
  });
  n.WaitForNotification();
  return result;
}

}  // namespace sg
