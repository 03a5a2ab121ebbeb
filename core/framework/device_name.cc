#include "core/framework/device_name.h"

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace sg {

bool ParsedDeviceName::Parse(absl::string_view name, ParsedDeviceName* out) {
  *out = ParsedDeviceName();
  if (name.empty()) return true;
  if (name[0] != '/') return false;
  std::vector<absl::string_view> parts = absl::StrSplit(name.substr(1), '/');
  for (absl::string_view part : parts) {
    if (part.empty()) return false;
    std::vector<absl::string_view> kv = absl::StrSplit(part, ':');
    if (kv[0] == "job" && kv.size() == 2) {
      if (kv[1] == "*") continue;
      out->has_job = true;
      out->job = std::string(kv[1]);
    } else if (kv[0] == "replica" && kv.size() == 2) {
      if (kv[1] == "*") continue;
      if (!absl::SimpleAtoi(kv[1], &out->replica)) return false;
      out->has_replica = true;
    } else if (kv[0] == "task" && kv.size() == 2) {
      if (kv[1] == "*") continue;
      if (!absl::SimpleAtoi(kv[1], &out->task)) return false;
      out->has_task = true;
    } else if (kv[0] == "device" && (kv.size() == 2 || kv.size() == 3)) {
      out->has_type = true;
      out->type = absl::AsciiStrToUpper(kv[1]);
      if (kv.size() == 3 && kv[2] != "*") {
        if (!absl::SimpleAtoi(kv[2], &out->id)) return false;
        out->has_id = true;
      }
    } else if (kv.size() == 2 && (absl::EqualsIgnoreCase(kv[0], "cpu") ||
                                  absl::EqualsIgnoreCase(kv[0], "gpu"))) {
      // Legacy "/cpu:0".
      out->has_type = true;
      out->type = absl::AsciiStrToUpper(kv[0]);
      if (kv[1] != "*") {
        if (!absl::SimpleAtoi(kv[1], &out->id)) return false;
        out->has_id = true;
      }
    } else {
      return false;
    }
  }
  return true;
}

bool ParsedDeviceName::Matches(const ParsedDeviceName& spec) const {
  if (spec.has_job && (!has_job || job != spec.job)) return false;
  if (spec.has_replica && (!has_replica || replica != spec.replica)) return false;
  if (spec.has_task && (!has_task || task != spec.task)) return false;
  if (spec.has_type && (!has_type || type != spec.type)) return false;
  if (spec.has_id && (!has_id || id != spec.id)) return false;
  return true;
}

void ParsedDeviceName::MergeFrom(const ParsedDeviceName& o) {
  if (!has_job && o.has_job) { has_job = true; job = o.job; }
  if (!has_replica && o.has_replica) { has_replica = true; replica = o.replica; }
  if (!has_task && o.has_task) { has_task = true; task = o.task; }
  if (!has_type && o.has_type) { has_type = true; type = o.type; }
  if (!has_id && o.has_id) { has_id = true; id = o.id; }
}

std::string ParsedDeviceName::ToString() const {
  std::string s;
  if (has_job) absl::StrAppend(&s, "/job:", job);
  if (has_replica) absl::StrAppend(&s, "/replica:", replica);
  if (has_task) absl::StrAppend(&s, "/task:", task);
  if (has_type) {
    absl::StrAppend(&s, "/device:", type, ":");
    if (has_id) {
      absl::StrAppend(&s, id);
    } else {
      s += "*";
    }
  }
  return s;
}

std::string ParsedDeviceName::TaskName() const {
  return absl::StrCat("/job:", job, "/replica:", replica, "/task:", task);
}

std::string FullDeviceName(absl::string_view job, int replica, int task, absl::string_view type,
                           int id) {
  return absl::StrCat("/job:", job, "/replica:", replica, "/task:", task, "/device:", type, ":",
                      id);
}

}  // namespace sg
