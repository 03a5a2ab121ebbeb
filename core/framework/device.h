// Device: where kernels run. sg has CPU devices; each owns a ResourceMgr (variables live there
// across steps) and shares an intra-op thread pool (IntraOpPool) with the other devices of its
// process.
#ifndef SG_CORE_FRAMEWORK_DEVICE_H_
#define SG_CORE_FRAMEWORK_DEVICE_H_

#ifndef EIGEN_USE_THREADS
#define EIGEN_USE_THREADS
#endif
#include <memory>
#include <string>
#include <vector>

#include "core/framework/device_name.h"
#include "core/framework/resource_mgr.h"
#include "core/proto/device_attributes.pb.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sg {

// The intra-op pool (IntraOpPool) and the Eigen device over it, for intra-op parallelism.
class IntraOpThreadPool {
 public:
  // `num_threads` <= 0 picks the number of cores.
  explicit IntraOpThreadPool(int num_threads);
  ~IntraOpThreadPool();
  const Eigen::ThreadPoolDevice* device() const { return device_.get(); }
  int num_threads() const { return num_threads_; }

 private:
  int num_threads_;
  std::unique_ptr<Eigen::ThreadPoolInterface> pool_;  // an IntraOpPool
  std::unique_ptr<Eigen::ThreadPoolDevice> device_;
};

class Device {
 public:
  // `intra_op` must outlive the device.
  Device(DeviceAttributes attributes, const IntraOpThreadPool* intra_op);
  const std::string& name() const { return attributes_.name(); }
  const std::string& device_type() const { return attributes_.device_type(); }
  const DeviceAttributes& attributes() const { return attributes_; }
  const ParsedDeviceName& parsed_name() const { return parsed_; }
  uint64_t incarnation() const { return attributes_.incarnation(); }
  ResourceMgr* resource_manager() { return &resources_; }
  const Eigen::ThreadPoolDevice* eigen_cpu_device() const { return intra_op_->device(); }
  int intra_op_threads() const { return intra_op_->num_threads(); }

 private:
  DeviceAttributes attributes_;
  ParsedDeviceName parsed_;
  const IntraOpThreadPool* intra_op_;
  ResourceMgr resources_;
};

// Makes `count` CPU devices "/job:J/replica:0/task:T/device:CPU:i", each with a fresh random
// incarnation.
std::vector<std::unique_ptr<Device>> NewCpuDevices(absl::string_view job, int task, int count,
                                                   const IntraOpThreadPool* intra_op);

// A fresh non-zero random number for incarnations.
uint64_t NewIncarnation();

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_DEVICE_H_
