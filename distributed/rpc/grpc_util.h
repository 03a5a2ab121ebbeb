// The one place where absl::Status and grpc::Status meet. The codes are the same numbers
// (TensorFlow's error codes are gRPC's), so the mapping is 1:1 both ways; messages carry over.
// Also: deadlines from absl::Time, and the channel/server settings of ConfigProto's RPCOptions
// (a server's from its ServerDef.default_session_config, a client's from its session config),
// each of which an environment variable overrides (README, "Environment variables").
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
#include "core/proto/config.pb.h"
#include "distributed/rpc/grpc_server.h"

namespace sg {

// The largest message an sg endpoint sends or accepts, in bytes: rpc.sg_max_message_bytes when
// positive, else 1 GiB (kMaxMessageBytes); SG_GRPC_MAX_MESSAGE_BYTES from the environment, when
// set to a positive integer, overrides both (read when a channel or server is made). A larger
// feed, fetch or RecvTensor reply fails its call with RESOURCE_EXHAUSTED.
constexpr int kMaxMessageBytes = 1 << 30;
int MaxMessageBytes(const RPCOptions& rpc = RPCOptions());

::grpc::Status ToGrpcStatus(const absl::Status& s);
absl::Status FromGrpcStatus(const ::grpc::Status& s);

// For ClientContext::set_deadline; absl::InfiniteFuture() gives the far future gRPC expects.
std::chrono::system_clock::time_point ToGrpcDeadline(absl::Time deadline);
absl::Time FromGrpcDeadline(std::chrono::system_clock::time_point deadline);

// Extra integer gRPC arguments for channels and servers: rpc.sg_grpc_args, then those of the
// environment variable SG_GRPC_ARGS="name=value,..." (e.g. grpc.http2.lookahead_bytes=16777216),
// which win for a name given twice; sorted by name. Empty by default, so gRPC's own defaults
// apply.
std::vector<std::pair<std::string, int>> TransportArguments(const RPCOptions& rpc = RPCOptions());

// Channel arguments of a channel to an sg server: message limits, TransportArguments, quick
// reconnects.
::grpc::ChannelArguments DefaultChannelArguments(const RPCOptions& rpc = RPCOptions());

// The TLS files of a client's channel to a master: rpc.sg_tls_ca_file, sg_tls_cert_file and
// sg_tls_key_file, each overridden by SG_GRPC_TLS_CA, SG_GRPC_TLS_CERT or SG_GRPC_TLS_KEY when
// that is set. Without a CA the channel is plaintext (all files empty).
TlsOptions ClientTlsOptions(const RPCOptions& rpc);

// Credentials from PEM files (all empty: insecure). INVALID_ARGUMENT when a file cannot be read.
absl::StatusOr<std::shared_ptr<::grpc::ChannelCredentials>> MakeChannelCredentials(
    const TlsOptions& tls);
absl::StatusOr<std::shared_ptr<::grpc::ServerCredentials>> MakeServerCredentials(
    const TlsOptions& tls);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_GRPC_UTIL_H_
