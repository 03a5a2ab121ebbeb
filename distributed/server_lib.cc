#include "distributed/server_lib.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"

namespace sg {
namespace {

struct FactoryRegistry {
  absl::Mutex mu;
  std::map<std::string, ServerFactory*> factories ABSL_GUARDED_BY(mu);
};

FactoryRegistry* Registry() {
  static FactoryRegistry* registry = new FactoryRegistry;
  return registry;
}

}  // namespace

void ServerFactory::Register(const std::string& name, ServerFactory* factory) {
  FactoryRegistry* r = Registry();
  absl::MutexLock lock(&r->mu);
  if (!r->factories.emplace(name, factory).second) {
    std::fprintf(stderr, "sg: two server factories registered as '%s'\n", name.c_str());
    std::abort();
  }
}

absl::Status ServerFactory::GetFactory(const ServerDef& def, ServerFactory** out) {
  FactoryRegistry* r = Registry();
  absl::MutexLock lock(&r->mu);
  std::vector<std::string> accepting;
  std::vector<std::string> names;
  for (const auto& [name, factory] : r->factories) {
    names.push_back(name);
    if (factory->AcceptsOptions(def)) {
      accepting.push_back(name);
      *out = factory;
    }
  }
  if (accepting.empty()) {
    const std::string registered = names.empty() ? "none" : absl::StrJoin(names, ", ");
    return errors::InvalidArgument("No server factory accepts protocol '", def.protocol(),
                                   "' (registered: ", registered, ")");
  }
  if (accepting.size() > 1) {
    return errors::Internal("Several server factories accept protocol '", def.protocol(), "': ",
                            absl::StrJoin(accepting, ", "));
  }
  return absl::OkStatus();
}

absl::Status NewServer(const ServerDef& def, const ServerOptions& options,
                       std::unique_ptr<ServerInterface>* out) {
  ServerFactory* factory = nullptr;
  SG_RETURN_IF_ERROR(ServerFactory::GetFactory(def, &factory));
  return factory->NewServer(def, options, out);
}

// Splits "host:port" or "[v6]:port". INVALID_ARGUMENT names the address.
absl::Status SplitHostPort(const std::string& address, std::string* host, int* port) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return errors::InvalidArgument("'", address, "' is not a host:port address");
  }
  *host = address.substr(0, colon);
  if ((*host)[0] == '[' && host->back() != ']') {
    return errors::InvalidArgument("'", address, "' is not a host:port address");
  }
  if ((*host)[0] != '[' && host->find(':') != std::string::npos) {
    return errors::InvalidArgument("'", address,
                                   "' is not a host:port address (write IPv6 hosts in [])");
  }
  if (host->find_first_of(" \t,;=/") != std::string::npos) {
    return errors::InvalidArgument("'", address, "' has a malformed host");
  }
  const std::string port_text = address.substr(colon + 1);
  if (port_text.empty() || !absl::SimpleAtoi(port_text, port) || *port < 0 || *port > 65535 ||
      port_text.find_first_not_of("0123456789") != std::string::npos) {
    return errors::InvalidArgument("'", address, "' has a malformed port");
  }
  return absl::OkStatus();
}


absl::StatusOr<ServerDef> ServerDefFromClusterSpec(const std::string& spec, const std::string& job,
                                                   int task) {
  ServerDef def;
  def.set_protocol("grpc");
  def.set_job_name(job);
  def.set_task_index(task);
  const std::string text(absl::StripAsciiWhitespace(spec));
  if (text.empty()) return errors::InvalidArgument("The cluster spec is empty");
  std::set<std::string> jobs;
  for (absl::string_view part : absl::StrSplit(text, ';')) {
    part = absl::StripAsciiWhitespace(part);
    if (part.empty()) continue;  // a trailing ';'
    const size_t eq = part.find('=');
    if (eq == absl::string_view::npos) {
      return errors::InvalidArgument("Cluster spec '", spec, "': '", part,
                                     "' is not job=host:port[,host:port...]");
    }
    std::string name(absl::StripAsciiWhitespace(part.substr(0, eq)));
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                               "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
                            std::string::npos) {
      return errors::InvalidArgument("Cluster spec '", spec, "': '", name,
                                     "' is not a job name");
    }
    if (!jobs.insert(name).second) {
      return errors::InvalidArgument("Cluster spec '", spec, "': job '", name,
                                     "' appears twice");
    }
    JobDef* j = def.mutable_cluster()->add_job();
    j->set_name(name);
    int index = 0;
    for (absl::string_view addr : absl::StrSplit(part.substr(eq + 1), ',')) {
      std::string a(absl::StripAsciiWhitespace(addr));
      std::string host;
      int port;
      absl::Status s = SplitHostPort(a, &host, &port);
      if (!s.ok()) {
        return errors::InvalidArgument("Cluster spec '", spec, "': task ", index, " of job '",
                                       name, "': ", s.message());
      }
      (*j->mutable_tasks())[index++] = a;
    }
  }
  if (jobs.empty()) return errors::InvalidArgument("Cluster spec '", spec, "' names no job");
  if (!jobs.count(job)) {
    return errors::InvalidArgument("Cluster spec '", spec, "' has no job '", job, "'");
  }
  for (const JobDef& j : def.cluster().job()) {
    if (j.name() == job && (task < 0 || task >= j.tasks_size())) {
      return errors::InvalidArgument("Cluster spec '", spec, "': job '", job, "' has ",
                                     j.tasks_size(), " task(s), so there is no task ", task);
    }
  }
  return def;
}

}  // namespace sg
