#include "core/framework/device.h"

#include <random>
#include <thread>

#include "core/framework/intra_op_pool.h"

namespace sg {
namespace {

// How long an idle intra-op thread polls for the next kernel's work before it sleeps: longer
// than the gap between two split kernels of a small step (a few microseconds), so they find it
// awake. Batch 1, 2 intra-op threads, 4 alternating rounds (bench/infer_bench, medians): the
// autoencoder 36.8 -> 26.4 us and 112 -> 65 us of CPU per run against Eigen's pool; the MNIST CNN
// and the LSTM within noise at 20, 50 and 200 us.
constexpr absl::Duration kIntraOpSpin = absl::Microseconds(50);

}  // namespace

IntraOpThreadPool::IntraOpThreadPool(int num_threads) {
  if (num_threads <= 0) num_threads = std::max(1u, std::thread::hardware_concurrency());
  num_threads_ = num_threads;
  pool_ = std::make_unique<IntraOpPool>(num_threads, kIntraOpSpin);
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
