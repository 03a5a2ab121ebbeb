#include "core/framework/resource_mgr.h"

namespace sg {

std::string Var::DebugString() const {
  return absl::StrCat("Var<", DataTypeString(dtype_), ">");
}

absl::Status ResourceMgr::Create(const std::string& container, const std::string& name,
                                 std::shared_ptr<ResourceBase> resource) {
  absl::MutexLock lock(&mu_);
  auto& c = containers_[Container(container)];
  if (!c.emplace(name, std::move(resource)).second) {
    return errors::AlreadyExists("Resource ", Container(container), "/", name,
                                 " already exists");
  }
  return absl::OkStatus();
}

absl::Status ResourceMgr::Delete(const std::string& container, const std::string& name) {
  absl::MutexLock lock(&mu_);
  auto cit = containers_.find(Container(container));
  if (cit == containers_.end() || cit->second.erase(name) == 0) {
    return errors::NotFound("Resource ", Container(container), "/", name, " does not exist");
  }
  return absl::OkStatus();
}

void ResourceMgr::Cleanup(const std::string& container) {
  std::map<std::string, std::shared_ptr<ResourceBase>> doomed;
  absl::MutexLock lock(&mu_);
  auto it = containers_.find(Container(container));
  if (it == containers_.end()) return;
  doomed.swap(it->second);
  containers_.erase(it);
}

void ResourceMgr::Clear() {
  absl::MutexLock lock(&mu_);
  containers_.clear();
}

std::vector<std::string> ResourceMgr::ContainerNames() const {
  absl::MutexLock lock(&mu_);
  std::vector<std::string> names;
  for (const auto& kv : containers_) names.push_back(kv.first);
  return names;
}

}  // namespace sg
