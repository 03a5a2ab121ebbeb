#include "core/runtime/session.h"

#include <map>

#include "absl/synchronization/mutex.h"

namespace sg {
namespace {

absl::Mutex* FactoriesMu() {
  static absl::Mutex* mu = new absl::Mutex;
  return mu;
}
std::map<std::string, SessionFactory*>* Factories() {
  static auto* factories = new std::map<std::string, SessionFactory*>;
  return factories;
}

}  // namespace

absl::Status Session::PartitionGraphs(const std::vector<std::string>&,
                                      const std::vector<std::string>&,
                                      const std::vector<std::string>&, RunMetadata*) {
  return errors::Unimplemented(
      "this session partitions a step only when it runs it: ask for the graphs with "
      "RunOptions.output_partition_graphs");
}

void SessionFactory::Register(const std::string& name, SessionFactory* factory) {
  absl::MutexLock lock(FactoriesMu());
  (*Factories())[name] = factory;
}

absl::Status SessionFactory::GetFactory(const SessionOptions& options, SessionFactory** out) {
  absl::MutexLock lock(FactoriesMu());
  for (const auto& kv : *Factories()) {
    if (kv.second->AcceptsOptions(options)) {
      *out = kv.second;
      return absl::OkStatus();
    }
  }
  return errors::InvalidArgument("No session factory accepts the target '", options.target,
                                 "' (use \"\" or \"local\" for an in-process session, or ",
                                 "\"grpc://host:port\" for a cluster)");
}

absl::Status NewSession(const SessionOptions& options, std::unique_ptr<Session>* out) {
  SessionFactory* factory;
  SG_RETURN_IF_ERROR(SessionFactory::GetFactory(options, &factory));
  return factory->NewSession(options, out);
}

absl::Status Reset(const SessionOptions& options, const std::vector<std::string>& containers) {
  SessionFactory* factory;
  SG_RETURN_IF_ERROR(SessionFactory::GetFactory(options, &factory));
  return factory->Reset(options, containers);
}

}  // namespace sg
