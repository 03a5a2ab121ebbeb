// The WorkerService over gRPC's callback API: a thin adapter over a Worker. No call holds a
// thread while it waits (a RecvTensor whose tensor is not there yet is just a pending reactor);
// a client's cancellation or deadline reaches the Worker through the call's CallOptions.
// RecvTensor replies are written by hand so the tensor's bytes go out without a copy.
#ifndef SG_DISTRIBUTED_RPC_GRPC_WORKER_SERVICE_H_
#define SG_DISTRIBUTED_RPC_GRPC_WORKER_SERVICE_H_

#include <memory>

#include <grpcpp/impl/codegen/service_type.h>

#include "distributed/worker/worker_interface.h"

namespace sg {

// `worker` must outlive the service (and the server it is registered with).
std::unique_ptr<::grpc::Service> NewGrpcWorkerService(WorkerInterface* worker);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_GRPC_WORKER_SERVICE_H_
