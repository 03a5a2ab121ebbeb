#include "distributed/worker/worker_interface.h"

#include "absl/synchronization/notification.h"

namespace sg {

absl::Status WorkerInterface::GetStatus(CallOptions* opts, const GetStatusRequest& req,
                                        GetStatusResponse* resp) {
  absl::Notification n;
  absl::Status result;
  GetStatusAsync(opts, &req, resp, [&](const absl::Status& s) {
    result = s;
    n.Notify();
  });
  n.WaitForNotification();
  return result;
}

absl::Status WorkerInterface::DeliverTensor(int64_t step_id, const std::string& key,
                                            const Tensor& value) {
  return errors::Unimplemented("DeliverTensor: only a worker in the caller's process takes "
                               "tensors directly (key ", key, ")");
}

}  // namespace sg
