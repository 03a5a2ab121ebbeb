// MasterInterface: the calls a client session makes on a master, in process (LocalMaster) or over
// gRPC (GrpcRemoteMaster). No gRPC type in sight.
#ifndef SG_DISTRIBUTED_MASTER_MASTER_INTERFACE_H_
#define SG_DISTRIBUTED_MASTER_MASTER_INTERFACE_H_

#include "core/framework/status.h"
#include "distributed/call_options.h"
#include "distributed/proto/master.pb.h"

namespace sg {

class MasterInterface {
 public:
  virtual ~MasterInterface() = default;
  virtual absl::Status CreateSession(CallOptions* opts, const CreateSessionRequest& req,
                                     CreateSessionResponse* resp) = 0;
  virtual absl::Status ExtendSession(CallOptions* opts, const ExtendSessionRequest& req,
                                     ExtendSessionResponse* resp) = 0;
  virtual absl::Status PartialRunSetup(CallOptions* opts, const PartialRunSetupRequest& req,
                                       PartialRunSetupResponse* resp) = 0;
  virtual absl::Status RunStep(CallOptions* opts, const RunStepRequest& req,
                               RunStepResponse* resp) = 0;
  virtual absl::Status CloseSession(CallOptions* opts, const CloseSessionRequest& req,
                                    CloseSessionResponse* resp) = 0;
  virtual absl::Status ListDevices(CallOptions* opts, const ListDevicesRequest& req,
                                   ListDevicesResponse* resp) = 0;
  virtual absl::Status Reset(CallOptions* opts, const ResetRequest& req, ResetResponse* resp) = 0;
  // sg's own call (TensorFlow's MasterService has none): ends a partial run that will not be
  // finished, on the master and on every worker. OK for a handle the session does not hold (a
  // finished, failed or released run); ABORTED for an unknown session. A server of an older sg
  // answers UNIMPLEMENTED.
  virtual absl::Status ReleasePartialRun(CallOptions* opts, const ReleasePartialRunRequest& req,
                                         ReleasePartialRunResponse* resp) = 0;
};

}  // namespace sg

#endif  // SG_DISTRIBUTED_MASTER_MASTER_INTERFACE_H_
