// LocalMaster: the process-wide table of in-process masters, and the MasterInterface that calls
// one of them directly (no serialization, no gRPC).
#include <map>
#include <memory>

#include "absl/strings/match.h"
#include "absl/synchronization/mutex.h"
#include "distributed/master/master.h"

namespace sg {
namespace {

// One registered master. Calls count themselves in and out so that unregistering can wait for
// them before the master goes away.
struct Entry {
  absl::Mutex mu;
  Master* master ABSL_GUARDED_BY(mu) = nullptr;
  int calls ABSL_GUARDED_BY(mu) = 0;
};

// "grpc://localhost:P" and "grpc://127.0.0.1:P" name the same server.
std::string CanonicalTarget(const std::string& target) {
  const std::string kLocalhost = "grpc://localhost:";
  if (absl::StartsWith(target, kLocalhost)) {
    return "grpc://127.0.0.1:" + target.substr(kLocalhost.size());
  }
  return target;
}

class Registry {
 public:
  static Registry* Get() {
    static auto* r = new Registry;
    return r;
  }
  void Add(const std::string& target, Master* master) {
    auto e = std::make_shared<Entry>();
    {
      absl::MutexLock lock(&e->mu);
      e->master = master;
    }
    absl::MutexLock lock(&mu_);
    map_[CanonicalTarget(target)] = std::move(e);
  }
  std::shared_ptr<Entry> Remove(const std::string& target) {
    absl::MutexLock lock(&mu_);
    auto it = map_.find(CanonicalTarget(target));
    if (it == map_.end()) return nullptr;
    auto e = std::move(it->second);
    map_.erase(it);
    return e;
  }
  std::shared_ptr<Entry> Find(const std::string& target) {
    absl::MutexLock lock(&mu_);
    auto it = map_.find(CanonicalTarget(target));
    return it == map_.end() ? nullptr : it->second;
  }

 private:
  absl::Mutex mu_;
  std::map<std::string, std::shared_ptr<Entry>> map_ ABSL_GUARDED_BY(mu_);
};

class LocalMaster : public MasterInterface {
 public:
  LocalMaster(std::shared_ptr<Entry> entry, std::string target)
      : entry_(std::move(entry)), target_(std::move(target)) {}

  absl::Status CreateSession(CallOptions* opts, const CreateSessionRequest& req,
                             CreateSessionResponse* resp) override {
    return Call([&](Master* m) { return m->CreateSession(opts, req, resp); });
  }
  absl::Status ExtendSession(CallOptions* opts, const ExtendSessionRequest& req,
                             ExtendSessionResponse* resp) override {
    return Call([&](Master* m) { return m->ExtendSession(opts, req, resp); });
  }
  absl::Status PartialRunSetup(CallOptions* opts, const PartialRunSetupRequest& req,
                               PartialRunSetupResponse* resp) override {
    return Call([&](Master* m) { return m->PartialRunSetup(opts, req, resp); });
  }
  absl::Status RunStep(CallOptions* opts, const RunStepRequest& req,
                       RunStepResponse* resp) override {
    return Call([&](Master* m) { return m->RunStep(opts, req, resp); });
  }
  absl::Status ReleasePartialRun(CallOptions* opts, const ReleasePartialRunRequest& req,
                                 ReleasePartialRunResponse* resp) override {
    return Call([&](Master* m) { return m->ReleasePartialRun(opts, req, resp); });
  }
  absl::Status CloseSession(CallOptions* opts, const CloseSessionRequest& req,
                            CloseSessionResponse* resp) override {
    return Call([&](Master* m) { return m->CloseSession(opts, req, resp); });
  }
  absl::Status ListDevices(CallOptions* opts, const ListDevicesRequest& req,
                           ListDevicesResponse* resp) override {
    return Call([&](Master* m) { return m->ListDevices(opts, req, resp); });
  }
  absl::Status Reset(CallOptions* opts, const ResetRequest& req, ResetResponse* resp) override {
    return Call([&](Master* m) { return m->Reset(opts, req, resp); });
  }

 private:
  template <typename Fn>
  absl::Status Call(Fn fn) {
    Master* m;
    {
      absl::MutexLock lock(&entry_->mu);
      m = entry_->master;
      if (m == nullptr) {
        return errors::Unavailable("the in-process server ", target_, " has stopped");
      }
      ++entry_->calls;
    }
    absl::Status s = fn(m);
    absl::MutexLock lock(&entry_->mu);
    --entry_->calls;
    return s;
  }

  std::shared_ptr<Entry> entry_;
  const std::string target_;
};

}  // namespace

void RegisterLocalMaster(const std::string& target, Master* master) {
  Registry::Get()->Add(target, master);
}

void UnregisterLocalMaster(const std::string& target) {
  std::shared_ptr<Entry> e = Registry::Get()->Remove(target);
  if (e == nullptr) return;
  Master* m;
  {
    absl::MutexLock lock(&e->mu);
    m = e->master;
    e->master = nullptr;
    if (e->calls == 0) return;
  }
  // Calls still inside the master: end their steps, then wait for them to leave.
  if (m != nullptr) m->CancelAll();
  absl::MutexLock lock(&e->mu);
  e->mu.Await(absl::Condition(+[](int* n) { return *n == 0; }, &e->calls));
}

std::unique_ptr<MasterInterface> LookupLocalMaster(const std::string& target) {
  std::shared_ptr<Entry> e = Registry::Get()->Find(target);
  if (e == nullptr) return nullptr;
  return std::make_unique<LocalMaster>(std::move(e), target);
}

}  // namespace sg
