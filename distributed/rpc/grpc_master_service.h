// The MasterService over gRPC: a thin adapter that hands each call to a Master on gRPC's
// synchronous server threads, with the call's deadline in CallOptions.
//
//   auto service = NewGrpcMasterService(&master);
//   builder.RegisterService(service.get());
#ifndef SG_DISTRIBUTED_RPC_GRPC_MASTER_SERVICE_H_
#define SG_DISTRIBUTED_RPC_GRPC_MASTER_SERVICE_H_

#include <memory>

#include <grpcpp/impl/codegen/service_type.h>

#include "distributed/master/master.h"

namespace sg {

// Trailing metadata the service adds when the Master itself produced the error, so that a client
// does not mistake an UNAVAILABLE about a worker for an unreachable master and retry.
constexpr char kMasterErrorTrailer[] = "sg-master-error";

// `master` must outlive the service. The service does not take ownership.
std::unique_ptr<::grpc::Service> NewGrpcMasterService(Master* master);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_GRPC_MASTER_SERVICE_H_
