// Device names as TensorFlow writes them: "/job:worker/replica:0/task:1/device:CPU:0", partial
// forms such as "/job:ps", "/device:CPU:0", "/cpu:0" (legacy), or "" (anywhere).
#ifndef SG_CORE_FRAMEWORK_DEVICE_NAME_H_
#define SG_CORE_FRAMEWORK_DEVICE_NAME_H_

#include <string>

#include "absl/strings/string_view.h"

namespace sg {

struct ParsedDeviceName {
  bool has_job = false;
  std::string job;
  bool has_replica = false;
  int replica = 0;
  bool has_task = false;
  int task = 0;
  bool has_type = false;
  std::string type;  // "CPU", "GPU"
  bool has_id = false;
  int id = 0;

  // Parses a full or partial name; false when it is not one.
  static bool Parse(absl::string_view name, ParsedDeviceName* out);
  // Whether every field set in `spec` agrees with this name.
  bool Matches(const ParsedDeviceName& spec) const;
  // Fills fields unset here from `other`.
  void MergeFrom(const ParsedDeviceName& other);
  bool IsFullySpecified() const { return has_job && has_replica && has_task && has_type && has_id; }
  // The canonical text of the fields that are set.
  std::string ToString() const;
  // "/job:J/replica:R/task:T" (the task part only).
  std::string TaskName() const;
};

// The canonical full name: "/job:J/replica:R/task:T/device:TYPE:ID".
std::string FullDeviceName(absl::string_view job, int replica, int task, absl::string_view type,
                           int id);

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_DEVICE_NAME_H_
