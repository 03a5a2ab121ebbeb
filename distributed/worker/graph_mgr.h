// GraphMgr: the partition graphs a worker has registered. Each registered GraphDef (every node on
// a device of this task) is partitioned again per local device and gets one executor per device;
// a step runs all of them at once with the step's rendezvous.
//
//   GraphMgr mgr(devices);
//   std::string handle;
//   SG_RETURN_IF_ERROR(mgr.Register("session", graph_def, &handle));
//   auto item = mgr.Lookup(handle);                // nullptr once deregistered
//   GraphMgr::ExecuteAsync(*item, args, done);     // done gets the first error
//
// Thread safety: all methods may be called concurrently; an item stays valid while a step holds it.
#ifndef SG_DISTRIBUTED_WORKER_GRAPH_MGR_H_
#define SG_DISTRIBUTED_WORKER_GRAPH_MGR_H_

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/util/mutex.h"
#include "core/framework/device.h"
#include "core/proto/graph.pb.h"
#include "core/runtime/executor.h"

namespace sg {

class GraphMgr {
 public:
  struct Item {
    std::string session_handle;
    std::vector<std::unique_ptr<Executor>> executors;  // one per local device used
  };

  explicit GraphMgr(std::vector<Device*> devices) : devices_(std::move(devices)) {}

  // Imports `gdef`, whose nodes name devices of this task (an empty device means the first one),
  // and makes its executors. `handle` is 16 hex digits of a counter.
  // Errors: INVALID_ARGUMENT for a device not of this task or a malformed graph; the kernel's
  // error when one cannot be made.
  absl::Status Register(const std::string& session_handle, const GraphDef& gdef,
                        std::string* handle);
  // ABORTED when the handle is unknown.
  absl::Status Deregister(const std::string& handle);
  // Drops every graph of the session.
  void DeregisterSession(const std::string& session_handle);
  // nullptr when the handle is unknown.
  std::shared_ptr<const Item> Lookup(const std::string& handle) const;

  // Runs every executor of `item` once; `done` gets OK or the first error, after all finished.
  // On the first error the step's rendezvous is aborted with it so the others stop waiting.
  static void ExecuteAsync(const Item& item, const Executor::Args& args,
                           std::function<void(const absl::Status&)> done);

 private:
  Device* FindDevice(const std::string& name) const;

  const std::vector<Device*> devices_;
  std::atomic<uint64_t> next_handle_{1};
  mutable mutex mu_;
  std::map<std::string, std::shared_ptr<const Item>> items_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sg

#endif  // SG_DISTRIBUTED_WORKER_GRAPH_MGR_H_
