// RendezvousMgr: the per-step rendezvous of one worker. A step's rendezvous is made on first use
// (by RunGraph or by an incoming RecvTensor, whichever comes first) and dropped by Cleanup.
//
// The step's rendezvous keeps a local table for tensors produced in this task; a receive whose
// source device is in another task (another "/job:J/replica:R/task:T" prefix) pulls the tensor
// with RecvTensor from that task's WorkerInterface, asynchronously, and aborting the rendezvous
// cancels the calls in flight.
//
//   RendezvousMgr mgr(env);
//   std::shared_ptr<StepRendezvous> r = mgr.Find(step_id);
//   r->Send(key, tensor, false);          // a local value
//   r->RecvAsync(key, done);              // local, or RecvTensor to the key's source task
//   mgr.Cleanup(step_id);                 // pending receives fail, the step's state is gone
//
// Thread safety: all methods may be called concurrently.
#ifndef SG_DISTRIBUTED_WORKER_RENDEZVOUS_MGR_H_
#define SG_DISTRIBUTED_WORKER_RENDEZVOUS_MGR_H_

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_set>

#include "absl/time/time.h"
#include "core/runtime/local_rendezvous.h"
#include "core/util/mutex.h"
#include "distributed/worker/worker_interface.h"

namespace sg {

// What a step's rendezvous needs to know about its task.
struct RendezvousEnv {
  std::string task_name;  // "/job:J/replica:0/task:T"
  WorkerCacheInterface* worker_cache = nullptr;
};

class StepRendezvous : public Rendezvous,
                       public std::enable_shared_from_this<StepRendezvous> {
 public:
  StepRendezvous(const RendezvousEnv& env, int64_t step_id);
  ~StepRendezvous() override;

  absl::Status Send(const ParsedKey& key, const Tensor& value, bool is_dead) override;
  // Local keys wait in the table; keys from another task become a RecvTensor call whose deadline
  // is the step's (SetDeadline).
  void RecvAsync(const ParsedKey& key, DoneCallback done) override;
  // Fails pending and later receives with `status` and cancels RecvTensor calls in flight.
  void StartAbort(const absl::Status& status) override;

  // Receives from the local table only (what a peer's RecvTensor asks for).
  void RecvLocalAsync(const ParsedKey& key, DoneCallback done);
  // Runs `fn` once the local table is empty, every value sent here taken by its receiver: at
  // once (on this thread) if it is already, else on the thread of the receive that empties it.
  // Never after an abort; a second call replaces a `fn` still waiting.
  void WhenDrained(std::function<void()> fn);
  // The deadline of the step's RecvTensor calls (from the RunGraph call).
  void SetDeadline(absl::Time deadline);
  int64_t step_id() const { return step_id_; }

 private:
  struct RemoteCall;
  bool IsLocal(const ParsedKey& key) const;
  void RecvRemoteAsync(const ParsedKey& key, DoneCallback done);
  // Runs the WhenDrained callback if the table is empty now.
  void CheckDrained();

  const RendezvousEnv env_;
  const int64_t step_id_;
  LocalRendezvous local_;
  mutex mu_;
  absl::Status abort_ ABSL_GUARDED_BY(mu_);
  absl::Time deadline_ ABSL_GUARDED_BY(mu_) = absl::InfiniteFuture();
  std::set<std::shared_ptr<RemoteCall>> calls_ ABSL_GUARDED_BY(mu_);
  std::function<void()> on_drained_ ABSL_GUARDED_BY(mu_);
};

class RendezvousMgr {
 public:
  explicit RendezvousMgr(const RendezvousEnv& env) : env_(env) {}
  ~RendezvousMgr();
  // The step's rendezvous, made on first use. A step cleaned up a short while ago gets an
  // aborted one, so a late RecvTensor fails at once instead of waiting forever.
  std::shared_ptr<StepRendezvous> Find(int64_t step_id);
  // Aborts the step's rendezvous (CANCELLED unless `status` says otherwise) and forgets it.
  void Cleanup(int64_t step_id, const absl::Status& status = absl::OkStatus());
  // Cleans the step up once its rendezvous is drained (every value sent here was taken): what a
  // worker does itself after a step of its ran to the end, so that a successful step needs no
  // CleanupGraph call. No-op for a step it has no rendezvous for.
  void CleanupWhenDrained(int64_t step_id);
  // Aborts every step's rendezvous with `status` and forgets them all.
  void AbortAll(const absl::Status& status);

 private:
  const RendezvousEnv env_;
  mutex mu_;
  std::map<int64_t, std::shared_ptr<StepRendezvous>> table_ ABSL_GUARDED_BY(mu_);
  // Recently cleaned-up steps (bounded), oldest first.
  std::deque<int64_t> cleaned_order_ ABSL_GUARDED_BY(mu_);
  std::unordered_set<int64_t> cleaned_ ABSL_GUARDED_BY(mu_);
};

// "/job:J/replica:R/task:T" of a full device name, or "" when it does not parse.
std::string TaskOfDevice(const std::string& device);

}  // namespace sg

#endif  // SG_DISTRIBUTED_WORKER_RENDEZVOUS_MGR_H_
