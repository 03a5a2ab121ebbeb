#include "core/runtime/step_stats_collector.h"

#include <utility>

namespace sg {

void StepStatsCollector::Save(const std::string& device, NodeExecStats stats) {
  mutex_lock lock(mu_);
  by_device_[device].push_back(std::move(stats));
}

void StepStatsCollector::Finalize(StepStats* out) {
  std::map<std::string, std::vector<NodeExecStats>> by_device;
  {
    mutex_lock lock(mu_);
    by_device.swap(by_device_);
  }
  for (auto& [device, nodes] : by_device) {
    DeviceStepStats* d = out->add_dev_stats();
    d->set_device(device);
    for (NodeExecStats& n : nodes) d->add_node_stats()->Swap(&n);
  }
}

}  // namespace sg
