// One task of a cluster in this process, without gRPC, for the MasterService and WorkerService
// fuzz targets and the seeds made for them: the task "/job:localhost/replica:0/task:0" with two
// CPU devices of fixed incarnations (1 and 2, so that recorded rendezvous keys and _Send/_Recv
// attrs stay valid from one process to the next), its Worker and, when asked, its Master.
//
// The devices and pools live as long as the process; the Worker and Master are made per input
// (NewInput) and destroyed after it (EndInput), which also clears the devices' resources
// (variables), so that one input cannot change how the next one runs.
#ifndef SG_FUZZ_IN_PROCESS_TASK_H_
#define SG_FUZZ_IN_PROCESS_TASK_H_

#include <memory>
#include <string>
#include <vector>

#include "core/framework/device.h"
#include "core/runtime/threadpool.h"
#include "distributed/master/master.h"
#include "distributed/worker/worker.h"
#include "fuzz/fuzz_util.h"

namespace sg {
namespace fuzz {

class InProcessTask : public WorkerCacheInterface {
 public:
  static constexpr const char* kTask = "/job:localhost/replica:0/task:0";

  InProcessTask()
      : intra_(std::make_unique<IntraOpThreadPool>(1)), pool_(std::make_unique<ThreadPool>(2)) {
    for (int i = 0; i < 2; ++i) {
      DeviceAttributes attrs;
      attrs.set_name(FullDeviceName("localhost", 0, 0, "CPU", i));
      attrs.set_device_type("CPU");
      attrs.set_memory_limit(int64_t{1} << 30);
      attrs.set_incarnation(static_cast<uint64_t>(i + 1));
      devices_.push_back(std::make_unique<Device>(std::move(attrs), intra_.get()));
    }
  }

  // A fresh Worker, and a fresh Master on it when `with_master`.
  void NewInput(bool with_master) {
    WorkerEnv wenv;
    wenv.task_name = kTask;
    for (auto& d : devices_) wenv.devices.push_back(d.get());
    wenv.worker_cache = this;
    ThreadPool* pool = pool_.get();
    wenv.runner = [pool](std::function<void()> fn) { pool->Schedule(std::move(fn)); };
    worker_ = std::make_unique<Worker>(wenv);
    if (with_master) {
      MasterEnv menv;
      menv.local_task = kTask;
      for (auto& d : devices_) menv.local_devices.push_back(d.get());
      menv.worker_cache = this;
      menv.default_session_config = SmallConfig();
      master_ = std::make_unique<Master>(menv);
    }
  }

  // Destroys the Master, then the Worker (each ends its calls in flight), then clears every
  // device's resources.
  void EndInput() {
    master_.reset();
    worker_.reset();
    for (auto& d : devices_) d->resource_manager()->Clear();
  }

  Worker* worker() { return worker_.get(); }
  Master* master() { return master_.get(); }

  std::vector<std::string> ListWorkers() const override { return {kTask}; }
  WorkerInterface* GetOrCreateWorker(const std::string& task) override {
    return task == kTask ? worker_.get() : nullptr;
  }
  std::string Address(const std::string& task) const override { return "in-process"; }

 private:
  std::unique_ptr<IntraOpThreadPool> intra_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<Worker> worker_;
  std::unique_ptr<Master> master_;
};

}  // namespace fuzz
}  // namespace sg

#endif  // SG_FUZZ_IN_PROCESS_TASK_H_
