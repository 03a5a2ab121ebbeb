#include "core/runtime/direct_session.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <set>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "core/framework/device.h"
#include "core/framework/host_memory.h"
#include "core/framework/node_def_util.h"
#include "core/framework/session_state.h"
#include "core/graph/graph_constructor.h"
#include "core/runtime/executor.h"
#include "core/runtime/local_rendezvous.h"
#include "core/runtime/step_builder.h"
#include "core/runtime/step_stats_collector.h"
#include "core/runtime/threadpool.h"
#include "core/util/mutex.h"

namespace sg {
namespace {

// The arguments (feeds) and return values (fetches) of one step.
class StepCallFrame : public CallFrameInterface {
 public:
  StepCallFrame(std::vector<Tensor> args, int num_retvals)
      : args_(std::move(args)),
        num_retvals_(num_retvals),
        retvals_(num_retvals),
        set_(num_retvals, false) {}
  int num_args() const override { return static_cast<int>(args_.size()); }
  int num_retvals() const override { return num_retvals_; }
  absl::Status GetArg(int index, Tensor* value) const override {
    if (index < 0 || index >= args_.size()) return errors::Internal("no feed ", index);
    *value = args_[index];
    return absl::OkStatus();
  }
  absl::Status SetRetval(int index, const Tensor& value) override {
    mutex_lock lock(mu_);
    if (index < 0 || index >= retvals_.size()) return errors::Internal("no fetch ", index);
    if (set_[index]) return errors::Internal("fetch ", index, " set twice");
    retvals_[index] = value;
    set_[index] = true;
    return absl::OkStatus();
  }
  // The value of fetch `index`, or false when the step never set it (a dead fetch).
  bool GetRetval(int index, Tensor* value) {
    mutex_lock lock(mu_);
    if (!set_[index]) return false;
    *value = retvals_[index];
    return true;
  }

 private:
  const std::vector<Tensor> args_;
  const int num_retvals_;
  mutex mu_;
  std::vector<Tensor> retvals_ ABSL_GUARDED_BY(mu_);
  std::vector<bool> set_ ABSL_GUARDED_BY(mu_);
};

// The executors of one run signature.
struct ExecutorSet {
  StepGraphs step;  // the signature in canonical order, feed dtypes and shapes, rendezvous keys
  std::vector<std::unique_ptr<Executor>> executors;
};

struct PartialRun {
  std::shared_ptr<const ExecutorSet> executors;
  std::unique_ptr<LocalRendezvous> rendezvous;
  std::unique_ptr<CancellationManager> cancellation;
  std::unique_ptr<ResourceMgr> step_resources;
  absl::Notification done;
  mutex mu;
  std::set<std::string> pending_feeds ABSL_GUARDED_BY(mu);
  std::set<std::string> pending_fetches ABSL_GUARDED_BY(mu);
  absl::Status status ABSL_GUARDED_BY(mu);
};

class DirectSession;

class DirectSessionRegistry {
 public:
  static DirectSessionRegistry* Get() {
    static auto* r = new DirectSessionRegistry;
    return r;
  }
  void Add(DirectSession* s) {
    mutex_lock lock(mu_);
    sessions_.insert(s);
  }
  void Remove(DirectSession* s) {
    mutex_lock lock(mu_);
    sessions_.erase(s);
  }
  template <typename Fn>
  void ForEach(Fn fn) {
    mutex_lock lock(mu_);
    for (DirectSession* s : sessions_) fn(s);
  }

 private:
  mutex mu_;
  std::set<DirectSession*> sessions_ ABSL_GUARDED_BY(mu_);
};

class DirectSession : public Session {
 public:
  explicit DirectSession(const SessionOptions& options) : options_(options) {
    const ConfigProto& config = options.config;
    if (config.experimental().has_sg_tensor_cache_mb()) {
      SetHostMemoryCacheMiB(config.experimental().sg_tensor_cache_mb());
    }
    intra_op_ = std::make_unique<IntraOpThreadPool>(config.intra_op_parallelism_threads());
    int num_cpus = 1;
    auto it = config.device_count().find("CPU");
    if (it != config.device_count().end() && it->second > 0) num_cpus = it->second;
    devices_ = NewCpuDevices("localhost", 0, num_cpus, intra_op_.get());
    for (auto& d : devices_) device_names_.push_back(d->name());
    AddSessionState();
    const int inter_op =
        InterOpThreadsFor(config.inter_op_parallelism_threads(), intra_op_->num_threads());
    if (inter_op > 0) inter_op_ = std::make_unique<ThreadPool>(inter_op);
    StepBuilderOptions bo;
    bo.devices = device_names_;
    bo.incarnation = [this](const std::string& name) -> uint64_t {
      for (auto& d : devices_) {
        if (d->name() == name) return d->incarnation();
      }
      return 0;
    };
    bo.client_device = devices_[0]->name();
    bo.client_incarnation = devices_[0]->incarnation();
    bo.placer.allow_soft_placement = config.allow_soft_placement();
    bo.placer.log_device_placement = config.log_device_placement();
    bo.placer.round_robin = config.experimental().sg_round_robin_placement();
    bo.optimizer = GraphOptimizerOptionsFromConfig(config.graph_options());
    bo.whole_graph_on_one_device = true;
    builder_ = std::make_unique<StepBuilder>(std::move(bo));
    DirectSessionRegistry::Get()->Add(this);
  }

  ~DirectSession() override {
    Close().IgnoreError();
    DirectSessionRegistry::Get()->Remove(this);
  }

  absl::Status Create(const GraphDef& graph) override {
    if (builder_->has_graph()) {
      return errors::AlreadyExists("Session::Create called twice; use Extend");
    }
    return Extend(graph);
  }

  absl::Status Extend(const GraphDef& graph) override {
    SG_RETURN_IF_ERROR(BeginCall());
    absl::Status s = builder_->Extend(graph);
    EndCall();
    return s;
  }

  absl::Status CreateShared(const SharedGraphDef& graph) override {
    if (builder_->has_graph()) {
      return errors::AlreadyExists("Session::Create called twice; use Extend");
    }
    return ExtendShared(graph);
  }

  absl::Status ExtendShared(const SharedGraphDef& graph) override {
    SG_RETURN_IF_ERROR(BeginCall());
    absl::Status s = builder_->Extend(graph);
    EndCall();
    return s;
  }

  absl::Status Run(const RunOptions& run_options,
                   const std::vector<std::pair<std::string, Tensor>>& inputs,
                   const std::vector<std::string>& output_names,
                   const std::vector<std::string>& target_nodes, std::vector<Tensor>* outputs,
                   RunMetadata* run_metadata) override {
    SG_RETURN_IF_ERROR(BeginCall());
    absl::Status s = DoRun(run_options, inputs, output_names, target_nodes, outputs, run_metadata);
    EndCall();
    return s;
  }

  absl::Status PRunSetup(const std::vector<std::string>& input_names,
                         const std::vector<std::string>& output_names,
                         const std::vector<std::string>& target_nodes,
                         std::string* handle) override {
    SG_RETURN_IF_ERROR(BeginCall());
    absl::Status s = DoPRunSetup(input_names, output_names, target_nodes, handle);
    EndCall();
    return s;
  }

  absl::Status PRun(const std::string& handle,
                    const std::vector<std::pair<std::string, Tensor>>& inputs,
                    const std::vector<std::string>& output_names,
                    std::vector<Tensor>* outputs) override {
    SG_RETURN_IF_ERROR(BeginCall());
    absl::Status s = DoPRun(handle, inputs, output_names, outputs);
    EndCall();
    return s;
  }

  absl::Status PartitionGraphs(const std::vector<std::string>& input_names,
                               const std::vector<std::string>& output_names,
                               const std::vector<std::string>& target_nodes,
                               RunMetadata* run_metadata) override {
    SG_RETURN_IF_ERROR(BeginCall());
    absl::Status s = DoPartitionGraphs(input_names, output_names, target_nodes, run_metadata);
    EndCall();
    return s;
  }

  void ReleasePRun(const std::string& handle) override {
    std::shared_ptr<PartialRun> run;
    {
      mutex_lock lock(prun_mu_);
      auto it = partial_runs_.find(handle);
      if (it == partial_runs_.end()) return;
      run = it->second;
      partial_runs_.erase(it);
    }
    run->cancellation->StartCancel();
    run->rendezvous->StartAbort(errors::Cancelled("partial run released"));
    run->done.WaitForNotification();
  }

  absl::Status ListDevices(std::vector<DeviceAttributes>* devices) override {
    devices->clear();
    for (auto& d : devices_) devices->push_back(d->attributes());
    return absl::OkStatus();
  }

  absl::Status Close() override {
    {
      mutex_lock lock(graph_mu_);
      if (closed_) return absl::OkStatus();
      closed_ = true;
    }
    // Ends the waits of queue ops, whose runs would otherwise never finish, then waits for the
    // runs in flight.
    session_state_->close_cancellation()->StartCancel();
    {
      mutex_lock lock(graph_mu_);
      while (in_flight_ != 0) calls_done_.wait(graph_mu_);
    }
    std::vector<std::string> handles;
    {
      mutex_lock lock(prun_mu_);
      for (auto& kv : partial_runs_) handles.push_back(kv.first);
    }
    for (const auto& h : handles) ReleasePRun(h);
    {
      mutex_lock lock(cache_mu_);
      cache_.clear();
    }
    return absl::OkStatus();
  }

  void ResetContainers(const std::vector<std::string>& containers) {
    for (auto& d : devices_) {
      if (containers.empty()) {
        d->resource_manager()->Clear();
      } else {
        for (const auto& c : containers) d->resource_manager()->Cleanup(c);
      }
    }
    AddSessionState();
  }

 private:
  // Puts the session's state into each device's resources (again after a Reset dropped it).
  void AddSessionState() {
    for (auto& d : devices_) {
      d->resource_manager()->Delete(SessionState::kContainer, SessionState::kName).IgnoreError();
      d->resource_manager()
          ->Create(SessionState::kContainer, SessionState::kName, session_state_)
          .IgnoreError();
    }
  }

  absl::Status BeginCall() {
    mutex_lock lock(graph_mu_);
    if (closed_) return errors::Cancelled("Session has been closed.");
    ++in_flight_;
    return absl::OkStatus();
  }
  void EndCall() {
    mutex_lock lock(graph_mu_);
    if (--in_flight_ == 0) calls_done_.notify_all();
  }

  std::function<void(std::function<void()>)> Runner() {
    if (!inter_op_) return nullptr;
    ThreadPool* pool = inter_op_.get();
    return [pool](std::function<void()> fn) { pool->Schedule(std::move(fn)); };
  }

  // Looks the signature up first as the caller wrote it (no sorting on the hot path), then in
  // canonical (sorted) form; builds and caches it under both keys on a miss.
  absl::StatusOr<std::shared_ptr<const ExecutorSet>> GetExecutors(
      const std::vector<std::string>& feeds_in, const std::vector<std::string>& fetches_in,
      const std::vector<std::string>& targets_in, bool use_rendezvous,
      bool any_feed_shapes = false) {
    std::string fast_key = absl::StrCat(use_rendezvous ? "prun:" : "",
                                        any_feed_shapes ? "any_shapes:" : "",
                                        absl::StrJoin(feeds_in, ","),
                                        "->", absl::StrJoin(fetches_in, ","), "/",
                                        absl::StrJoin(targets_in, ","));
    {
      mutex_lock lock(cache_mu_);
      auto it = cache_.find(fast_key);
      if (it != cache_.end()) return it->second;
    }
    SG_ASSIGN_OR_RETURN(auto set, GetCanonicalExecutors(feeds_in, fetches_in, targets_in,
                                                        use_rendezvous, any_feed_shapes));
    mutex_lock lock(cache_mu_);
    cache_.emplace(fast_key, set);
    return set;
  }

  absl::StatusOr<std::shared_ptr<const ExecutorSet>> GetCanonicalExecutors(
      const std::vector<std::string>& feeds, const std::vector<std::string>& fetches,
      const std::vector<std::string>& targets, bool use_rendezvous, bool any_feed_shapes) {
    // Feeds keep duplicates, so that a tensor fed twice never matches a cached signature.
    auto canonical = [](std::vector<std::string> v, bool unique) {
      std::sort(v.begin(), v.end());
      if (unique) v.erase(std::unique(v.begin(), v.end()), v.end());
      return absl::StrJoin(v, ",");
    };
    const std::string key =
        absl::StrCat(use_rendezvous ? "prun:" : "", any_feed_shapes ? "any_shapes:" : "",
                     canonical(feeds, false), "->",
                     canonical(fetches, true), "/", canonical(targets, true));
    {
      mutex_lock lock(cache_mu_);
      auto it = cache_.find(key);
      if (it != cache_.end()) return it->second;
    }
    // Build outside the cache lock; two threads may build the same set, one wins.
    auto set = std::make_shared<ExecutorSet>();
    StepSignature sig{feeds, fetches, targets, use_rendezvous, any_feed_shapes};
    SG_RETURN_IF_ERROR(builder_->Build(sig, &set->step));
    StepGraphs& step = set->step;
    for (auto& [device_name, gdef] : step.partitions) {
      Device* device = nullptr;
      for (auto& d : devices_) {
        if (d->name() == device_name) device = d.get();
      }
      if (device == nullptr) return errors::Internal("no device ", device_name);
      std::unique_ptr<Graph> graph;
      if (step.partitions.size() == 1) {
        graph = std::move(step.graph);  // the step's whole graph: no need to import its copy
      } else {
        graph = std::make_unique<Graph>();
        SG_RETURN_IF_ERROR(ImportGraphDef(std::move(gdef), ImportOptions(), graph.get()));
        for (Node* n : graph->nodes()) n->set_assigned_device_name(device_name);
      }
      SG_ASSIGN_OR_RETURN(auto exec, NewLocalExecutor(device, std::move(graph)));
      set->executors.push_back(std::move(exec));
    }
    step.graph.reset();
    step.partitions.clear();
    mutex_lock lock(cache_mu_);
    auto inserted = cache_.emplace(key, std::move(set));
    return inserted.first->second;
  }

  // Runs every executor of `set` once; `done` gets the first error.
  void StartStep(const ExecutorSet& set, Executor::Args args,
                 std::function<void(const absl::Status&)> done) {
    // A step with nothing to run (no fetches, no targets, or an empty graph) is done at once:
    // no executor would ever call `done`.
    if (set.executors.empty()) {
      done(absl::OkStatus());
      return;
    }
    struct Barrier {
      Barrier(int n, Rendezvous* r, std::function<void(const absl::Status&)> d)
          : rendezvous(r), done(std::move(d)), remaining(n) {}
      Rendezvous* const rendezvous;
      std::function<void(const absl::Status&)> done;  // taken by the last executor out
      mutex mu;
      int remaining ABSL_GUARDED_BY(mu);
      absl::Status status ABSL_GUARDED_BY(mu);
    };
    auto* b = new Barrier(static_cast<int>(set.executors.size()), args.rendezvous,
                          std::move(done));
    for (const auto& exec : set.executors) {
      exec->RunAsync(args, [b](const absl::Status& s) {
        bool last;
        absl::Status st;
        {
          mutex_lock lock(b->mu);
          if (!s.ok() && b->status.ok()) {
            b->status = s;
            if (b->rendezvous) b->rendezvous->StartAbort(s);
          }
          last = --b->remaining == 0;
          if (last) st = b->status;
        }
        if (last) {
          auto fn = std::move(b->done);
          delete b;
          fn(st);
        }
      });
    }
  }

  absl::Status DoRun(const RunOptions& run_options,
                     const std::vector<std::pair<std::string, Tensor>>& inputs,
                     const std::vector<std::string>& output_names,
                     const std::vector<std::string>& target_nodes, std::vector<Tensor>* outputs,
                     RunMetadata* run_metadata) {
    // A tensor fed twice never matches a cached signature; building one reports it.
    std::vector<std::string> feed_names;
    feed_names.reserve(inputs.size());
    for (const auto& in : inputs) feed_names.push_back(in.first);
    SG_ASSIGN_OR_RETURN(auto set, GetExecutors(feed_names, output_names, target_nodes, false));
    // A feed whose shape contradicts its tensor's declared one runs, as TensorFlow's C API lets
    // it, in a step built without the graph's static shapes (the optimiser may have folded them
    // into the usual one).
    for (const auto& in : inputs) {
      if (!set->step.FeedShapeFits(set->step.FeedIndex(in.first),
                                   PartialTensorShape(in.second.shape()))) {
        SG_ASSIGN_OR_RETURN(set, GetExecutors(feed_names, output_names, target_nodes, false,
                                              /*any_feed_shapes=*/true));
        break;
      }
    }
    const StepGraphs& step = set->step;
    std::vector<Tensor> args(step.feeds.size());
    for (const auto& in : inputs) {
      const int i = step.FeedIndex(in.first);
      SG_RETURN_IF_ERROR(step.CheckFeed(i, in.second));
      args[i] = in.second;
    }
    StepCallFrame frame(std::move(args), static_cast<int>(step.fetches.size()));
    LocalRendezvous rendezvous;
    CancellationManager cancellation;
    ResourceMgr step_resources;
    Executor::Args eargs;
    eargs.step_id = next_step_id_.fetch_add(1);
    eargs.rendezvous = &rendezvous;
    eargs.call_frame = &frame;
    eargs.cancellation_manager = &cancellation;
    eargs.step_resources = &step_resources;
    const int64_t timeout_ms = run_options.timeout_in_ms() > 0
                                   ? run_options.timeout_in_ms()
                                   : options_.config.operation_timeout_in_ms();
    // With an inter-op pool of one thread, a step runs on the caller's thread instead when no
    // other step does so at the moment: the same one kernel at a time, without two thread
    // hand-offs per step (a thread woken from sleep took 45-60 us here; MNIST's CNN at batch 1
    // went from 180-200 to 72-100 us, bench/infer_bench). Not with a timeout (the caller's
    // thread would be busy running the step instead of watching the clock), nor with more than
    // one executor (one partition's kernels may wait for another's).
    bool on_caller_thread = false;
    if (inter_op_ != nullptr && inter_op_->num_threads() == 1 && timeout_ms <= 0 &&
        set->executors.size() == 1) {
      bool idle = false;
      on_caller_thread = caller_thread_busy_.compare_exchange_strong(idle, true);
    }
    absl::Cleanup release_caller_thread = [&] {
      if (on_caller_thread) caller_thread_busy_.store(false);
    };
    eargs.runner = on_caller_thread ? nullptr : Runner();
    // RunMetadata.step_stats, when the caller wants a trace (an untraced step records nothing).
    std::optional<StepStatsCollector> stats;
    if (run_metadata != nullptr && run_options.trace_level() > RunOptions::NO_TRACE) {
      eargs.stats_collector = &stats.emplace();
    }
    absl::Notification finished;
    absl::Status status;
    StartStep(*set, eargs, [&](const absl::Status& s) {
      status = s;
      finished.Notify();
    });
    if (timeout_ms > 0 &&
        !finished.WaitForNotificationWithTimeout(absl::Milliseconds(timeout_ms))) {
      absl::Status timeout = errors::DeadlineExceeded("Timed out after ", timeout_ms,
                                                      " ms waiting for the step to finish");
      cancellation.StartCancel();
      rendezvous.StartAbort(timeout);
      finished.WaitForNotification();
      return timeout;
    }
    finished.WaitForNotification();
    SG_RETURN_IF_ERROR(status);
    // The tensors of fetched GetSessionHandle nodes outlive the step.
    std::shared_ptr<StepTensorStore> store;
    if (session_state_->ids_taken() &&
        step_resources.Lookup<StepTensorStore>(StepTensorStore::kContainer,
                                               StepTensorStore::kName, &store).ok()) {
      SG_RETURN_IF_ERROR(store->SaveFetched(output_names, session_state_.get()));
    }
    outputs->clear();
    for (const std::string& name : output_names) {
      Tensor value;
      if (!frame.GetRetval(step.FetchIndex(name), &value)) {
        return errors::InvalidArgument("fetch '", name,
                                       "' was not computed: its value is dead (an untaken "
                                       "branch of a cond)");
      }
      outputs->push_back(std::move(value));
    }
    if (run_metadata != nullptr) {
      // What this step asked for replaces what the caller's RunMetadata held.
      run_metadata->Clear();
      if (stats) stats->Finalize(run_metadata->mutable_step_stats());
      if (run_options.output_partition_graphs()) {
        for (const auto& exec : set->executors) {
          exec->graph().ToGraphDef(run_metadata->add_partition_graphs());
        }
      }
    }
    return absl::OkStatus();
  }

  // The executors DoRun would use for feeds of the declared shapes (built and cached as a run
  // builds them), reported as DoRun reports them: one graph per executor.
  absl::Status DoPartitionGraphs(const std::vector<std::string>& input_names,
                                 const std::vector<std::string>& output_names,
                                 const std::vector<std::string>& target_nodes,
                                 RunMetadata* run_metadata) {
    SG_ASSIGN_OR_RETURN(auto set, GetExecutors(input_names, output_names, target_nodes, false));
    run_metadata->Clear();
    for (const auto& exec : set->executors) {
      exec->graph().ToGraphDef(run_metadata->add_partition_graphs());
    }
    return absl::OkStatus();
  }

  absl::Status DoPRunSetup(const std::vector<std::string>& input_names,
                           const std::vector<std::string>& output_names,
                           const std::vector<std::string>& target_nodes, std::string* handle) {
    SG_ASSIGN_OR_RETURN(auto set, GetExecutors(input_names, output_names, target_nodes, true));
    auto run = std::make_shared<PartialRun>();
    run->executors = set;
    run->rendezvous = std::make_unique<LocalRendezvous>();
    run->cancellation = std::make_unique<CancellationManager>();
    run->step_resources = std::make_unique<ResourceMgr>();
    {
      mutex_lock lock(run->mu);
      run->pending_feeds.insert(set->step.feeds.begin(), set->step.feeds.end());
      run->pending_fetches.insert(set->step.fetches.begin(), set->step.fetches.end());
    }
    Executor::Args eargs;
    eargs.step_id = next_step_id_.fetch_add(1);
    eargs.rendezvous = run->rendezvous.get();
    eargs.cancellation_manager = run->cancellation.get();
    eargs.step_resources = run->step_resources.get();
    eargs.runner = Runner();
    *handle = absl::StrCat("prun_", next_prun_.fetch_add(1));
    {
      mutex_lock lock(prun_mu_);
      partial_runs_[*handle] = run;
    }
    PartialRun* raw = run.get();
    StartStep(*set, eargs, [raw](const absl::Status& s) {
      {
        mutex_lock lock(raw->mu);
        raw->status = s;
      }
      raw->done.Notify();
    });
    return absl::OkStatus();
  }

  absl::Status DoPRun(const std::string& handle,
                      const std::vector<std::pair<std::string, Tensor>>& inputs,
                      const std::vector<std::string>& output_names,
                      std::vector<Tensor>* outputs) {
    std::shared_ptr<PartialRun> run;
    {
      mutex_lock lock(prun_mu_);
      auto it = partial_runs_.find(handle);
      if (it == partial_runs_.end()) {
        return errors::InvalidArgument("unknown partial run handle '", handle, "'");
      }
      run = it->second;
    }
    const ExecutorSet& set = *run->executors;
    // Every feed and fetch of the call is checked before any is used up, as TensorFlow does: a
    // call refused for one bad name or value leaves the partial run as it was.
    {
      mutex_lock lock(run->mu);
      std::set<std::string> fed, fetched;
      for (const auto& in : inputs) {
        if (!run->pending_feeds.count(in.first) || !fed.insert(in.first).second) {
          return errors::InvalidArgument("'", in.first,
                                         "' was not declared as a feed of this partial run, or "
                                         "was fed already");
        }
        SG_RETURN_IF_ERROR(set.step.CheckFeed(set.step.FeedIndex(in.first), in.second));
      }
      for (const std::string& name : output_names) {
        if (!run->pending_fetches.count(name) || !fetched.insert(name).second) {
          return errors::InvalidArgument("'", name,
                                         "' was not declared as a fetch of this partial run, or "
                                         "was fetched already");
        }
      }
      for (const auto& in : inputs) run->pending_feeds.erase(in.first);
      for (const std::string& name : output_names) run->pending_fetches.erase(name);
    }
    for (const auto& in : inputs) {
      const int i = set.step.FeedIndex(in.first);
      Rendezvous::ParsedKey key;
      SG_RETURN_IF_ERROR(Rendezvous::ParseKey(set.step.feed_keys[i], &key));
      SG_RETURN_IF_ERROR(run->rendezvous->Send(key, in.second, false));
    }
    outputs->clear();
    for (const std::string& name : output_names) {
      Rendezvous::ParsedKey key;
      SG_RETURN_IF_ERROR(Rendezvous::ParseKey(set.step.fetch_keys[set.step.FetchIndex(name)],
                                              &key));
      Tensor value;
      bool is_dead = false;
      absl::Status s = run->rendezvous->Recv(key, &value, &is_dead);
      if (!s.ok()) {
        run->done.WaitForNotification();
        mutex_lock lock(run->mu);
        return run->status.ok() ? s : run->status;
      }
      if (is_dead) return errors::InvalidArgument("fetch '", name, "' is dead");
      outputs->push_back(value);
    }
    bool finished;
    {
      mutex_lock lock(run->mu);
      finished = run->pending_feeds.empty() && run->pending_fetches.empty();
    }
    if (finished) {
      run->done.WaitForNotification();
      {
        mutex_lock lock(prun_mu_);
        partial_runs_.erase(handle);
      }
      mutex_lock lock(run->mu);
      return run->status;
    }
    return absl::OkStatus();
  }

  const SessionOptions options_;
  std::unique_ptr<IntraOpThreadPool> intra_op_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<std::string> device_names_;
  std::unique_ptr<ThreadPool> inter_op_;
  // Whether a step is running on its caller's thread (DoRun): one at a time does.
  std::atomic<bool> caller_thread_busy_{false};
  std::atomic<int64_t> next_step_id_{1};
  std::atomic<int64_t> next_prun_{1};

  std::unique_ptr<StepBuilder> builder_;
  // Shared with the kernels through the devices' ResourceMgrs.
  const std::shared_ptr<SessionState> session_state_ = std::make_shared<SessionState>();

  mutex graph_mu_;  // guards the session's state: closed, calls in flight
  bool closed_ ABSL_GUARDED_BY(graph_mu_) = false;
  int in_flight_ ABSL_GUARDED_BY(graph_mu_) = 0;
  condition_variable calls_done_;  // in_flight_ went to 0

  mutex cache_mu_;
  std::map<std::string, std::shared_ptr<const ExecutorSet>> cache_ ABSL_GUARDED_BY(cache_mu_);

  mutex prun_mu_;
  std::map<std::string, std::shared_ptr<PartialRun>> partial_runs_ ABSL_GUARDED_BY(prun_mu_);
};

class DirectSessionFactory : public SessionFactory {
 public:
  bool AcceptsOptions(const SessionOptions& options) override {
    return options.target.empty() || options.target == "local";
  }
  absl::Status NewSession(const SessionOptions& options, std::unique_ptr<Session>* out) override {
    out->reset(new DirectSession(options));
    return absl::OkStatus();
  }
  absl::Status Reset(const SessionOptions&, const std::vector<std::string>& containers) override {
    DirectSessionRegistry::Get()->ForEach(
        [&](DirectSession* s) { s->ResetContainers(containers); });
    return absl::OkStatus();
  }
};

struct DirectSessionRegistrar {
  DirectSessionRegistrar() { SessionFactory::Register("DIRECT_SESSION", new DirectSessionFactory); }
};
DirectSessionRegistrar registrar;

}  // namespace

absl::Status NewDirectSession(const SessionOptions& options, std::unique_ptr<Session>* out) {
  out->reset(new DirectSession(options));
  return absl::OkStatus();
}

}  // namespace sg
