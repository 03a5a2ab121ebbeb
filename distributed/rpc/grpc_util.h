// The one place where absl::Status and grpc::Status meet. The codes are the same numbers
// (TensorFlow's error codes are gRPC's), so the mapping is 1:1 both ways; messages carry over.
// Also: deadlines from absl::Time, and the channel/server limits every sg endpoint shares.
#ifndef SG_DISTRIBUTED_RPC_GRPC_UTIL_H_
#define SG_DISTRIBUTED_RPC_GRPC_UTIL_H_

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "absl/time/time.h"
#include "core/framework/status.h"
#include "distributed/rpc/grpc_server.h"

namespace sg {

// The largest message an sg endpoint sends or accepts, in bytes: 1 GiB (kMaxMessageBytes), or
// SG_GRPC_MAX_MESSAGE_BYTES from the environment when it is set to a positive integer (read when
// a channel or server is made). A larger feed, fetch or RecvTensor reply fails its call with
// RESOURCE_EXHAUSTED.
constexpr int kMaxMessageBytes = 1 << 30;
int MaxMessageBytes();

::grpc::Status ToGrpcStatus(const absl::Status& s);
absl::Status FromGrpcStatus(const ::grpc::Status& s);

// For ClientContext::set_deadline; absl::InfiniteFuture() gives the far future gRPC expects.
std::chrono::system_clock::time_point ToGrpcDeadline(absl::Time deadline);
absl::Time FromGrpcDeadline(std::chrono::system_clock::time_point deadline);

// Extra integer gRPC arguments for every channel and server, from the environment variable
// SG_GRPC_ARGS="name=value,..." (e.g. grpc.http2.lookahead_bytes=16777216): a tuning hook for
// benchmarks; empty by default, so gRPC's own defaults apply.
std::vector<std::pair<std::string, int>> TransportArguments();

// Channel arguments of every channel to an sg server: message limits, no SO_REUSEPORT surprises.
::grpc::ChannelArguments DefaultChannelArguments();

// Credentials from PEM files (all empty: insecure). INVALID_ARGUMENT when a file cannot be read.
absl::StatusOr<std::shared_ptr<::grpc::ChannelCredentials>> MakeChannelCredentials(
    const TlsOptions& tls);
absl::StatusOr<std::shared_ptr<::grpc::ServerCredentials>> MakeServerCredentials(
    const TlsOptions& tls);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_GRPC_UTIL_H_
