#include "distributed/rpc/grpc_util.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace sg {
namespace {

absl::StatusOr<std::string> ReadPem(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return errors::InvalidArgument("TLS: cannot read the ", what, " file '", path, "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

::grpc::Status ToGrpcStatus(const absl::Status& s) {
  if (s.ok()) return ::grpc::Status::OK;
  return ::grpc::Status(static_cast<::grpc::StatusCode>(s.code()), std::string(s.message()));
}

absl::Status FromGrpcStatus(const ::grpc::Status& s) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()), s.error_message());
}

std::chrono::system_clock::time_point ToGrpcDeadline(absl::Time deadline) {
  if (deadline == absl::InfiniteFuture()) return std::chrono::system_clock::time_point::max();
  return absl::ToChronoTime(deadline);
}

absl::Time FromGrpcDeadline(std::chrono::system_clock::time_point deadline) {
  // gRPC reports "no deadline" as a time far in the future.
  if (deadline >= std::chrono::system_clock::now() + std::chrono::hours(24 * 365 * 100)) {
    return absl::InfiniteFuture();
  }
  return absl::FromChrono(deadline);
}

std::vector<std::pair<std::string, int>> TransportArguments(const RPCOptions& rpc) {
  std::map<std::string, int> args(rpc.sg_grpc_args().begin(), rpc.sg_grpc_args().end());
  if (const char* v = std::getenv("SG_GRPC_ARGS")) {
    for (absl::string_view kv : absl::StrSplit(v, ',', absl::SkipEmpty())) {
      std::pair<std::string, std::string> p = absl::StrSplit(kv, '=');
      args[p.first] = std::atoi(p.second.c_str());
    }
  }
  return {args.begin(), args.end()};
}

int MaxMessageBytes(const RPCOptions& rpc) {
  if (const char* v = std::getenv("SG_GRPC_MAX_MESSAGE_BYTES"); v != nullptr) {
    int n = 0;
    if (absl::SimpleAtoi(v, &n) && n > 0) return n;
  }
  return rpc.sg_max_message_bytes() > 0 ? rpc.sg_max_message_bytes() : kMaxMessageBytes;
}

TlsOptions ClientTlsOptions(const RPCOptions& rpc) {
  auto pick = [](const char* var, const std::string& configured) {
    const char* v = std::getenv(var);
    return v != nullptr ? std::string(v) : configured;
  };
  TlsOptions tls;
  tls.ca_file = pick("SG_GRPC_TLS_CA", rpc.sg_tls_ca_file());
  if (tls.ca_file.empty()) return tls;
  tls.cert_file = pick("SG_GRPC_TLS_CERT", rpc.sg_tls_cert_file());
  tls.key_file = pick("SG_GRPC_TLS_KEY", rpc.sg_tls_key_file());
  return tls;
}

::grpc::ChannelArguments DefaultChannelArguments(const RPCOptions& rpc) {
  ::grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(MaxMessageBytes(rpc));
  args.SetMaxSendMessageSize(MaxMessageBytes(rpc));
  for (const auto& kv : TransportArguments(rpc)) args.SetInt(kv.first, kv.second);
  // Fail fast when a peer is down instead of backing off for long between reconnects.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  return args;
}

absl::StatusOr<std::shared_ptr<::grpc::ChannelCredentials>> MakeChannelCredentials(
    const TlsOptions& tls) {
  if (tls.cert_file.empty() && tls.key_file.empty() && tls.ca_file.empty()) {
    return ::grpc::InsecureChannelCredentials();
  }
  ::grpc::SslCredentialsOptions opts;
  if (!tls.ca_file.empty()) {
    SG_ASSIGN_OR_RETURN(opts.pem_root_certs, ReadPem(tls.ca_file, "CA certificate"));
  }
  if (!tls.cert_file.empty()) {
    SG_ASSIGN_OR_RETURN(opts.pem_cert_chain, ReadPem(tls.cert_file, "certificate"));
  }
  if (!tls.key_file.empty()) {
    SG_ASSIGN_OR_RETURN(opts.pem_private_key, ReadPem(tls.key_file, "private key"));
  }
  return ::grpc::SslCredentials(opts);
}

absl::StatusOr<std::shared_ptr<::grpc::ServerCredentials>> MakeServerCredentials(
    const TlsOptions& tls) {
  if (tls.cert_file.empty() && tls.key_file.empty() && tls.ca_file.empty()) {
    return ::grpc::InsecureServerCredentials();
  }
  if (tls.cert_file.empty() || tls.key_file.empty()) {
    return errors::InvalidArgument("TLS: a server needs both a certificate and a private key");
  }
  ::grpc::SslServerCredentialsOptions opts;
  ::grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  SG_ASSIGN_OR_RETURN(pair.cert_chain, ReadPem(tls.cert_file, "certificate"));
  SG_ASSIGN_OR_RETURN(pair.private_key, ReadPem(tls.key_file, "private key"));
  opts.pem_key_cert_pairs.push_back(std::move(pair));
  if (!tls.ca_file.empty()) {
    SG_ASSIGN_OR_RETURN(opts.pem_root_certs, ReadPem(tls.ca_file, "CA certificate"));
    // Peers of a cluster are servers and clients at once: with a CA, a client certificate that is
    // presented must verify (a client without one is still served, as a plain session is).
    opts.client_certificate_request = GRPC_SSL_REQUEST_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return ::grpc::SslServerCredentials(opts);
}

}  // namespace sg
