#include "core/framework/device.h"

#include <random>
#include <thread>

namespace sg {

IntraOpThreadPool::IntraOpThreadPool(int num_threads) {
  if (num_threads <= 0) num_threads = std::max(1u, std::thread::hardware_concurrency());
  num_threads_ = num_threads;
  pool_ = std::make_unique<Eigen::ThreadPool>(num_threads);
  device_ = std::make_unique<Eigen::ThreadPoolDevice>(pool_.get(), num_threads);
}

IntraOpThreadPool::~IntraOpThreadPool() = default;

Device::Device(DeviceAttributes attributes, const IntraOpThreadPool* intra_op)
    : attributes_(std::move(attributes)), intra_op_(intra_op) {
  ParsedDeviceName::Parse(attributes_.name(), &parsed_);
}

uint64_t NewIncarnation() {
  static std::mt19937_64* rng = new std::mt19937_64(std::random_device{}());
  static absl::Mutex mu;
  absl::MutexLock lock(&mu);
  uint64_t v;
  do {
    v = (*rng)();
  } while (v == 0);
  return v;
}

std::vector<std::unique_ptr<Device>> NewCpuDevices(absl::string_view job, int task, int count,
                                                   const IntraOpThreadPool* intra_op) {
  std::vector<std::unique_ptr<Device>> devices;
  for (int i = 0; i < count; ++i) {
    DeviceAttributes attrs;
    attrs.set_name(FullDeviceName(job, 0, task, "CPU", i));
    attrs.set_device_type("CPU");
    attrs.set_memory_limit(int64_t{256} << 30);
    attrs.set_incarnation(NewIncarnation());
    devices.push_back(std::make_unique<Device>(std::move(attrs), intra_op));
  }
  return devices;
}

}  // namespace sg
