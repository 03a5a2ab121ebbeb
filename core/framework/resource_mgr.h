// ResourceMgr: named state that outlives a step (variables, TensorArrays of a step), grouped in
// containers as TensorFlow's resource manager groups them. The default container is "localhost".
// Thread safety: all methods are safe to call concurrently.
#ifndef SG_CORE_FRAMEWORK_RESOURCE_MGR_H_
#define SG_CORE_FRAMEWORK_RESOURCE_MGR_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/framework/status.h"
#include "core/framework/tensor.h"

namespace sg {

// What a DT_RESOURCE tensor holds: where a resource lives and its name (as TensorFlow's
// ResourceHandleProto).
struct ResourceHandle {
  std::string device;
  std::string container;
  std::string name;
  std::string type_name;
};

class ResourceBase {
 public:
  virtual ~ResourceBase() = default;
  virtual std::string DebugString() const = 0;
};

// A variable: a tensor guarded by a mutex. VariableV2 hands out references to `tensor`.
class Var : public ResourceBase {
 public:
  explicit Var(DataType dtype) : dtype_(dtype) {}
  absl::Mutex* mu() { return &mu_; }
  Tensor* tensor() { return &tensor_; }
  DataType dtype() const { return dtype_; }
  bool is_initialized = false;  // guarded by mu()
  std::string DebugString() const override;

 private:
  const DataType dtype_;
  absl::Mutex mu_;
  Tensor tensor_;
};

class ResourceMgr {
 public:
  static constexpr const char* kDefaultContainer = "localhost";

  // Finds or creates the resource `name` in `container`; NOT_FOUND-free. INVALID_ARGUMENT when a
  // resource of another type has that name.
  template <typename T>
  absl::Status LookupOrCreate(const std::string& container, const std::string& name,
                              std::shared_ptr<T>* out,
                              const std::function<absl::Status(std::shared_ptr<T>*)>& create) {
    absl::MutexLock lock(&mu_);
    auto& c = containers_[Container(container)];
    auto it = c.find(name);
    if (it != c.end()) {
      *out = std::dynamic_pointer_cast<T>(it->second);
      if (!*out) {
        return errors::InvalidArgument("resource ", container, "/", name,
                                       " exists with another type");
      }
      return absl::OkStatus();
    }
    SG_RETURN_IF_ERROR(create(out));
    c[name] = *out;
    return absl::OkStatus();
  }
  // NOT_FOUND when absent.
  template <typename T>
  absl::Status Lookup(const std::string& container, const std::string& name,
                      std::shared_ptr<T>* out) const {
    absl::MutexLock lock(&mu_);
    auto cit = containers_.find(Container(container));
    if (cit != containers_.end()) {
      auto it = cit->second.find(name);
      if (it != cit->second.end()) {
        *out = std::dynamic_pointer_cast<T>(it->second);
        if (*out) return absl::OkStatus();
      }
    }
    return errors::NotFound("Resource ", Container(container), "/", name,
                            " does not exist");
  }
  absl::Status Create(const std::string& container, const std::string& name,
                      std::shared_ptr<ResourceBase> resource);
  absl::Status Delete(const std::string& container, const std::string& name);
  // Drops a whole container (TensorFlow's Reset / CleanupAll).
  void Cleanup(const std::string& container);
  void Clear();
  std::vector<std::string> ContainerNames() const;

 private:
  static std::string Container(const std::string& c) { return c.empty() ? kDefaultContainer : c; }
  mutable absl::Mutex mu_;
  std::map<std::string, std::map<std::string, std::shared_ptr<ResourceBase>>> containers_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_RESOURCE_MGR_H_
