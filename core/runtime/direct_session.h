// DirectSession: the in-process Session (target "" or "local"). It keeps the session's GraphDef,
// and per run signature (sorted feeds, fetches, targets) caches the executors built for it:
// prune, place on the session's CPU devices (ConfigProto.device_count["CPU"], default 1),
// partition with _Send/_Recv between devices, one executor per partition.
#ifndef SG_CORE_RUNTIME_DIRECT_SESSION_H_
#define SG_CORE_RUNTIME_DIRECT_SESSION_H_

#include "core/runtime/session.h"

namespace sg {

// Creates a DirectSession directly (NewSession with an empty target does the same).
absl::Status NewDirectSession(const SessionOptions& options, std::unique_ptr<Session>* out);

}  // namespace sg

#endif  // SG_CORE_RUNTIME_DIRECT_SESSION_H_
