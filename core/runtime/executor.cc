#include "core/runtime/executor.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>
#include <optional>
#include <tuple>

#include "absl/container/inlined_vector.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "core/framework/host_memory.h"
#include "core/runtime/step_stats_collector.h"
#include "core/util/mutex.h"

namespace sg {

absl::Status Executor::Run(const Args& args) {
  absl::Notification n;
  absl::Status result;
  RunAsync(args, [&](const absl::Status& s) {
    result = s;
    n.Notify();
  });
  n.WaitForNotification();
  return result;
}

namespace {

// The asynchronous kernel call in progress on this thread (see Process): its completion callback
// tells from it whether it runs inside ComputeAsync.
class ReadyQueue;
struct AsyncCall {
  const void* run;           // the call's NodeRun
  ReadyQueue* inline_ready;  // the calling loop's queue
  AsyncCall* outer;          // an enclosing call further up this thread's stack
};
thread_local AsyncCall* t_async_call = nullptr;
// How many completion callbacks on this thread are running nodes inline, one inside another
// (a Send whose waiting receiver is in another executor); past the bound they go to the pool.
thread_local int t_inline_depth = 0;
constexpr int kMaxInlineDepth = 4;

// Spare input vectors of kernel calls on this thread, with their capacity: a call takes one
// instead of allocating its own (NodeRun). An asynchronous call's vector goes back to the thread
// its callback ran on.
thread_local std::vector<std::vector<TensorValue>> t_spare_inputs;
constexpr size_t kMaxSpareInputVectors = 8;

std::vector<TensorValue> TakeInputVector() {
  if (t_spare_inputs.empty()) return {};
  std::vector<TensorValue> v = std::move(t_spare_inputs.back());
  t_spare_inputs.pop_back();
  return v;
}

void GiveInputVector(std::vector<TensorValue>&& v) {
  v.clear();
  if (v.capacity() == 0 || t_spare_inputs.size() >= kMaxSpareInputVectors) return;
  if (t_spare_inputs.capacity() == 0) t_spare_inputs.reserve(kMaxSpareInputVectors);
  t_spare_inputs.push_back(std::move(v));
}

// An exception a kernel throws becomes its node's failure (the executor adds the node's name):
// RESOURCE_EXHAUSTED for a failed allocation, INTERNAL for anything else. Nothing a kernel does
// may unwind past the executor, whose threads share the step's state. Returns OK when fn did not
// throw.
template <typename Fn>
absl::Status CatchKernelExceptions(Fn&& fn) {
  try {
    fn();
    return absl::OkStatus();
  } catch (const std::bad_alloc&) {
    return errors::ResourceExhausted("out of memory: an allocation failed");
  } catch (const std::length_error& e) {
    return errors::ResourceExhausted("out of memory: a size too large (", e.what(), ")");
  } catch (const std::exception& e) {
    return errors::Internal("the kernel threw an exception: ", e.what());
  } catch (...) {
    return errors::Internal("the kernel threw an exception");
  }
}

// A small number per thread for NodeExecStats.thread_id (timelines draw one lane per thread).
uint32_t TraceThreadId() {
  static std::atomic<uint32_t> next{1};
  thread_local const uint32_t id = next.fetch_add(1);
  return id;
}

struct EdgeInfo {
  int dst_id;
  int src_output;
  int dst_input;
  bool is_control;
  // The last data edge of the node's out edges that reads src_output: it may take the value
  // instead of copying it.
  bool last_use = false;
};

struct NodeItem {
  const Node* node = nullptr;
  std::unique_ptr<OpKernel> kernel;
  bool is_async = false;
  bool expensive = true;
  int num_inputs = 0;
  int num_data_inputs = 0;   // connected data inputs
  int num_control_inputs = 0;
  int input_start = 0;       // offset of input 0 in the frame's input slots
  int frame = 0;             // static frame index
  int local_id = 0;          // index within the frame
  bool is_merge = false, is_enter = false, is_exit = false, is_next_iteration = false;
  bool is_switch = false, is_constant_enter = false, is_send = false;
  int enter_frame = -1;      // for Enter: the static frame it enters
  std::vector<bool> input_is_ref;
  std::vector<EdgeInfo> out;
};

struct FrameInfo {
  std::string name;
  int parent = -1;
  // The most iterations of one frame in flight at once: the parallel_iterations of its Enter
  // nodes (TensorFlow's executor takes it from the Enter that creates the frame; the Enters of
  // one loop all carry the same value).
  int max_parallel_iterations = 1;
  std::vector<int> nodes;  // node ids
  int total_inputs = 0;
  int num_enters = 0;      // Enter nodes feeding this frame
  std::vector<int> initial_pending;  // by local id
};

// 64-bit FNV-1a: frame ids must agree across the executors of one step, even in other
// processes, so they cannot come from a salted hash.
uint64_t Fnv(uint64_t h, absl::string_view s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

struct IterationState;

// Spare iteration states of one static frame, kept between steps: a step takes one instead of
// allocating its vectors and value-initialising one input slot per node input.
struct IterationPool {
  mutex mu;
  std::vector<std::unique_ptr<IterationState>> spare ABSL_GUARDED_BY(mu);
};

class ExecutorImpl : public Executor {
 public:
  ExecutorImpl(Device* device, std::unique_ptr<const Graph> graph)
      : device_(device), graph_(std::move(graph)) {}

  absl::Status Initialize();
  void RunAsync(const Args& args, DoneCallback done) override;
  const Graph& graph() const override { return *graph_; }

  Device* device_;
  std::unique_ptr<const Graph> graph_;
  std::vector<NodeItem> items_;  // by node id
  std::vector<FrameInfo> frames_;
  std::vector<int> roots_;
  // By static frame index.
  std::unique_ptr<IterationPool[]> iteration_pools_;
  // No frames but the root and no Merge or NextIteration: nodes finish without the step's lock
  // (ExecutorState::ActivateNodesLockFree).
  bool lock_free_ = false;
};

absl::Status ExecutorImpl::Initialize() {
  const int n = graph_->num_node_ids();
  items_.resize(n);
  std::map<std::string, int> frame_index;
  frames_.push_back(FrameInfo{});  // the root frame ""
  std::vector<int> frame_of(n, -1);
  std::deque<const Node*> queue;
  for (const Node* node : graph_->nodes()) {
    if (node->in_edges().empty()) {
      roots_.push_back(node->id());
      frame_of[node->id()] = 0;
      queue.push_back(node);
    }
  }
  // Assigns each node its frame: Enter's successors are in the frame it names, Exit's in the
  // parent of Exit's frame, everyone else's in their producer's.
  while (!queue.empty()) {
    const Node* node = queue.front();
    queue.pop_front();
    int f = frame_of[node->id()];
    int out_frame = f;
    if (node->IsEnter()) {
      std::string name;
      SG_RETURN_IF_ERROR(GetAttr(node->def().attr(), "frame_name", &name));
      auto it = frame_index.find(name);
      if (it == frame_index.end()) {
        it = frame_index.emplace(name, static_cast<int>(frames_.size())).first;
        FrameInfo info;
        info.name = name;
        info.parent = f;
        frames_.push_back(info);
      } else if (frames_[it->second].parent != f) {
        return errors::InvalidArgument("frame '", name, "' is entered from two different frames");
      }
      out_frame = it->second;
      items_[node->id()].enter_frame = out_frame;
    } else if (node->IsExit()) {
      if (f == 0) {
        return errors::InvalidArgument("Exit node '", node->name(), "' is not inside a loop");
      }
      out_frame = frames_[f].parent;
    }
    for (const Edge* e : node->out_edges()) {
      int& df = frame_of[e->dst->id()];
      if (df == -1) {
        df = out_frame;
        queue.push_back(e->dst);
      } else if (df != out_frame) {
        return errors::InvalidArgument("node '", e->dst->name(),
                                       "' has inputs from two different while-loop frames");
      }
    }
  }
  for (const Node* node : graph_->nodes()) {
    if (frame_of[node->id()] == -1) {
      return errors::InvalidArgument("node '", node->name(),
                                     "' can never run: it is on a cycle no input enters");
    }
  }
  for (const Node* node : graph_->nodes()) {
    NodeItem& item = items_[node->id()];
    item.node = node;
    item.frame = frame_of[node->id()];
    FrameInfo& frame = frames_[item.frame];
    item.local_id = static_cast<int>(frame.nodes.size());
    frame.nodes.push_back(node->id());
    item.num_inputs = node->num_inputs();
    item.input_start = frame.total_inputs;
    frame.total_inputs += node->num_inputs();
    item.is_merge = node->IsMerge();
    item.is_enter = node->IsEnter();
    item.is_exit = node->IsExit();
    item.is_next_iteration = node->IsNextIteration();
    // _SwitchN (lowered Case) leaves all outputs but one unset, as Switch does.
    item.is_switch = node->IsSwitch() || node->type_string() == "_SwitchN";
    item.is_send = node->IsSend();
    if (item.is_enter) {
      GetAttr(node->def().attr(), "is_constant", &item.is_constant_enter).IgnoreError();
      int64_t parallel = 10;  // the attr's default
      GetAttr(node->def().attr(), "parallel_iterations", &parallel).IgnoreError();
      if (parallel <= 0) {
        return errors::InvalidArgument("Enter node '", node->name(),
                                       "' has parallel_iterations ", parallel,
                                       "; it must be at least 1");
      }
      FrameInfo& entered = frames_[item.enter_frame];
      if (entered.num_enters == 0 || parallel < entered.max_parallel_iterations) {
        entered.max_parallel_iterations = static_cast<int>(std::min<int64_t>(parallel, 1 << 30));
      }
      entered.num_enters++;
    }
    for (int i = 0; i < node->num_inputs(); ++i) {
      item.input_is_ref.push_back(IsRefType(node->input_type(i)));
      if (node->input_edge(i) == nullptr) {
        return errors::InvalidArgument("input ", i, " of node '", node->name(),
                                       "' is not connected");
      }
    }
    for (const Edge* e : node->in_edges()) {
      if (e->IsControlEdge()) {
        item.num_control_inputs++;
      } else {
        item.num_data_inputs++;
      }
    }
    for (const Edge* e : node->out_edges()) {
      item.out.push_back(EdgeInfo{e->dst->id(), e->src_output, e->dst_input, e->IsControlEdge()});
    }
    std::vector<bool> used(node->num_outputs(), false);
    for (auto e = item.out.rbegin(); e != item.out.rend(); ++e) {
      if (e->is_control || e->src_output < 0 || e->src_output >= node->num_outputs()) continue;
      e->last_use = !used[e->src_output];
      used[e->src_output] = true;
    }
    SG_RETURN_IF_ERROR(KernelRegistry::Global()->CreateKernel(
        device_, device_->device_type(), node->shared_def(), &node->op_def(), &item.kernel,
        &node->tensor_attrs()));
    item.is_async = item.kernel->AsAsync() != nullptr;
    item.expensive = item.kernel->IsExpensive();
  }
  for (FrameInfo& frame : frames_) {
    frame.initial_pending.resize(frame.nodes.size());
    for (int id : frame.nodes) {
      const NodeItem& item = items_[id];
      frame.initial_pending[item.local_id] =
          item.is_merge ? item.num_control_inputs : item.num_data_inputs + item.num_control_inputs;
    }
  }
  iteration_pools_ = std::make_unique<IterationPool[]>(frames_.size());
  lock_free_ = frames_.size() == 1;
  for (const NodeItem& item : items_) {
    if (item.node != nullptr && (item.is_merge || item.is_next_iteration)) lock_free_ = false;
  }
  return absl::OkStatus();
}

// ---- One step ----

struct Entry {
  TensorValue val;
  bool has_value = false;
};
using EntryVector = absl::InlinedVector<Entry, 4>;

// One counter per node of a frame. Graphs with control flow update them under the step's lock
// (Get and Add, plain loads and stores); graphs without it with atomic read-modify-writes and no
// lock (Atomic; ExecutorImpl::lock_free_).
class NodeCounters {
 public:
  explicit NodeCounters(size_t n) : n_(n), c_(new std::atomic<int>[n]) {}
  void Assign(const std::vector<int>& values) {
    for (size_t i = 0; i < n_; ++i) c_[i].store(values[i], std::memory_order_relaxed);
  }
  void Zero() {
    for (size_t i = 0; i < n_; ++i) c_[i].store(0, std::memory_order_relaxed);
  }
  int Get(int i) const { return c_[i].load(std::memory_order_relaxed); }
  int Add(int i, int delta) {
    const int v = c_[i].load(std::memory_order_relaxed) + delta;
    c_[i].store(v, std::memory_order_relaxed);
    return v;
  }
  std::atomic<int>& Atomic(int i) { return c_[i]; }

 private:
  size_t n_;
  std::unique_ptr<std::atomic<int>[]> c_;
};

struct IterationState {
  explicit IterationState(const FrameInfo& info)
      : inputs(info.total_inputs),
        pending(info.nodes.size()),
        dead_count(info.nodes.size()),
        merge_state(info.nodes.size(), 0) {
    pending.Assign(info.initial_pending);
    dead_count.Zero();
  }
  // Back to the state of a new iteration of `info`, for a state whose iteration finished
  // without error: its input slots are already empty (every node of a finished iteration ran and
  // took its inputs out of their slots; a Merge's slots of dead inputs were never written).
  void Reset(const FrameInfo& info) {
    pending.Assign(info.initial_pending);
    dead_count.Zero();
    std::fill(merge_state.begin(), merge_state.end(), 0);
    outstanding_ops = 0;
    outstanding_frame_count = 0;
  }
  std::vector<TensorValue> inputs;
  NodeCounters pending;
  NodeCounters dead_count;
  std::vector<char> merge_state;  // 0: waiting, 1: a live input came, 2: dead
  int outstanding_ops = 0;
  int outstanding_frame_count = 0;
};

struct FrameState {
  const FrameInfo* info = nullptr;
  int static_index = 0;
  uint64_t frame_id = 0;
  FrameState* parent = nullptr;
  int64_t parent_iter = 0;
  int num_pending_inputs = 0;
  int64_t iteration_count = 0;
  int num_outstanding_iterations = 1;
  std::map<int64_t, std::unique_ptr<IterationState>> iterations;
  struct Invariant {
    int node_id;
    Entry value;
    bool is_dead;
  };
  std::vector<Invariant> loop_invariants;
  std::vector<int> dead_exits;
  // NextIteration outputs held back while max_parallel_iterations iterations are in flight; they
  // start the next iteration once the oldest one is done.
  struct Deferred {
    int node_id;
    Entry value;
  };
  std::vector<Deferred> next_iter_roots;
};

struct TaggedNode {
  int node_id;
  FrameState* frame;
  int64_t iter;
  IterationState* iter_state;
  bool is_dead;
};

// A FIFO of ready nodes that keeps its first entries inline: a small step allocates nothing for
// its queues.
class ReadyQueue {
 public:
  void push_back(const TaggedNode& t) { v_.push_back(t); }
  bool empty() const { return head_ == v_.size(); }
  size_t size() const { return v_.size() - head_; }
  TaggedNode pop_front() {
    TaggedNode t = v_[head_++];
    if (head_ == v_.size()) clear();
    return t;
  }
  void clear() {
    v_.clear();
    head_ = 0;
  }
  const TaggedNode* begin() const { return v_.data() + head_; }
  const TaggedNode* end() const { return v_.data() + v_.size(); }

 private:
  absl::InlinedVector<TaggedNode, 8> v_;
  size_t head_ = 0;
};

class ExecutorState {
 public:
  ExecutorState(const ExecutorImpl* impl, const Executor::Args& args,
                Executor::DoneCallback done)
      : impl_(impl), args_(args), done_(std::move(done)) {
    root_ = std::make_unique<FrameState>();
    root_->info = &impl_->frames_[0];
    root_->iterations[0] = NewIteration(0);
  }

  void Start() {
    ReadyQueue ready;
    IterationState* st = root_->iterations[0].get();
    for (int id : impl_->roots_) {
      st->outstanding_ops++;
      ready.push_back(TaggedNode{id, root_.get(), 0, st, false});
    }
    if (ready.empty()) {
      Finish();
      return;
    }
    num_outstanding_.store(static_cast<int64_t>(ready.size()));
    // Cheap roots run here, on the caller's thread; small graphs then finish without a thread
    // hop.
    ReadyQueue inline_ready;
    ScheduleReady(&ready, &inline_ready);
    if (!inline_ready.empty()) Process(std::move(inline_ready));
  }

 private:
  struct NodeRun;  // per-node state of a kernel call (heap-held for async kernels)

  void Schedule(TaggedNode tn) {
    if (args_.runner) {
      args_.runner([this, tn]() { Process(tn); });
    } else {
      Process(tn);
    }
  }

  // Sends expensive ready nodes to the pool and queues cheap ones on `inline_ready` (or
  // schedules them too when there is no inline queue).
  void ScheduleReady(ReadyQueue* ready, ReadyQueue* inline_ready) {
    if (ready->empty()) return;
    if (inline_ready == nullptr) {
      for (const TaggedNode& tn : *ready) Schedule(tn);
      ready->clear();
      return;
    }
    const TaggedNode* keep = nullptr;
    for (const TaggedNode& tn : *ready) {
      const NodeItem& item = impl_->items_[tn.node_id];
      if (!item.expensive || tn.is_dead) {
        inline_ready->push_back(tn);
      } else {
        if (keep != nullptr) Schedule(*keep);
        keep = &tn;
      }
    }
    // One expensive node runs on this thread, if it has nothing else to do.
    if (keep != nullptr) {
      if (inline_ready->empty()) {
        inline_ready->push_back(*keep);
      } else {
        Schedule(*keep);
      }
    }
    ready->clear();
  }

  void Process(TaggedNode first) {
    ReadyQueue inline_ready;
    inline_ready.push_back(first);
    Process(std::move(inline_ready));
  }

  void Process(ReadyQueue inline_ready) {
    while (!inline_ready.empty()) {
      TaggedNode tn = inline_ready.pop_front();
      const NodeItem& item = impl_->items_[tn.node_id];
      EntryVector outputs;
      bool aborted = failed_.load(std::memory_order_acquire);
      if (!aborted && args_.cancellation_manager != nullptr &&
          args_.cancellation_manager->IsCancelled()) {
        RecordError(errors::Cancelled("step ", args_.step_id, " was cancelled"));
        aborted = true;
      }
      if (aborted) {
        if (NodeDone(tn, nullptr, &inline_ready)) return;
        continue;
      }
      // Take the inputs out of their slots: the consumer now holds the only reference, so a
      // kernel may reuse the buffer.
      // Synchronous kernels keep their per-call state on this stack; asynchronous ones on the
      // heap until their callback.
      NodeRun stack_run;
      std::unique_ptr<NodeRun> heap_run;
      if (item.is_async) heap_run = std::make_unique<NodeRun>();
      NodeRun* run = item.is_async ? heap_run.get() : &stack_run;
      run->inputs.reserve(item.num_inputs);
      std::string uninitialized;
      for (int i = 0; i < item.num_inputs; ++i) {
        TensorValue& slot = tn.iter_state->inputs[item.input_start + i];
        if (item.input_is_ref[i] || !slot.is_ref()) {
          run->inputs.push_back(std::move(slot));
        } else {
          run->inputs.push_back(TensorValue{slot.Get()});
          if (!run->inputs.back().value.IsInitialized() && !tn.is_dead) {
            uninitialized = item.node->input_edge(i)->src->name();
          }
        }
        slot = TensorValue();
      }
      if (!uninitialized.empty() && !item.node->op_def().allows_uninitialized_input()) {
        RecordError(errors::FailedPrecondition("Attempting to use uninitialized value ",
                                               uninitialized, " (read by node '",
                                               item.node->name(), "')"));
        if (NodeDone(tn, nullptr, &inline_ready)) return;
        continue;
      }
      if (tn.is_dead && !item.is_send) {
        outputs.resize(item.node->num_outputs());
        if (PropagateAndDone(tn, &outputs, &inline_ready)) return;
        continue;
      }
      absl::Status s = CheckRefInputs(item, run->inputs);
      if (!s.ok()) {
        RecordError(s);
        if (NodeDone(tn, nullptr, &inline_ready)) return;
        continue;
      }
      run->params.device = impl_->device_;
      run->params.op_kernel = item.kernel.get();
      run->params.inputs = &run->inputs;
      run->params.is_input_dead = tn.is_dead;
      run->params.rendezvous = args_.rendezvous;
      run->params.step_id = args_.step_id;
      run->params.frame_iter = FrameAndIter{static_cast<int64_t>(tn.frame->frame_id), tn.iter};
      run->params.cancellation_manager = args_.cancellation_manager;
      run->params.call_frame = args_.call_frame;
      run->params.step_resources = args_.step_resources;
      run->params.runner = args_.runner;
      run->ctx.emplace(&run->params);
      if (args_.stats_collector != nullptr) {
        run->start_ns = absl::GetCurrentTimeNanos();
        ResetThreadHostMemoryUsage();
      }
      if (item.is_async) {
        NodeRun* raw = heap_run.release();
        AsyncCall call{raw, &inline_ready, t_async_call};
        t_async_call = &call;
        // The callback runs once: from the kernel, or here when the kernel threw before
        // calling it.
        auto called = std::make_shared<std::atomic<bool>>(false);
        auto on_done = [this, tn, raw]() {
          // Done inside ComputeAsync (a value already there): the outer loop runs what became
          // ready. Done later on another thread (a RecvTensor reply, a peer's Send): that thread
          // runs the cheap nodes itself, unless it is already deep in nested steps.
          AsyncCall* within = t_async_call != nullptr && t_async_call->run == raw ? t_async_call
                                                                                   : nullptr;
          std::unique_ptr<NodeRun> owned(raw);
          if (args_.stats_collector != nullptr) {
            SaveStats(impl_->items_[tn.node_id], owned->start_ns, &*owned->ctx, nullptr);
          }
          EntryVector outs;
          ReadyQueue ready_after;
          if (ProcessOutputs(impl_->items_[tn.node_id], &*owned->ctx, &outs)) {
            if (PropagateAndDone(tn, &outs, &ready_after)) return;
          } else {
            if (NodeDone(tn, nullptr, &ready_after)) return;
          }
          if (within != nullptr) {
            ScheduleReady(&ready_after, within->inline_ready);
            return;
          }
          ReadyQueue here;
          const TaggedNode* keep = nullptr;
          for (const TaggedNode& t : ready_after) {
            if (t_inline_depth >= kMaxInlineDepth) {
              Schedule(t);
            } else if (!impl_->items_[t.node_id].expensive || t.is_dead) {
              here.push_back(t);
            } else {
              if (keep != nullptr) Schedule(*keep);
              keep = &t;
            }
          }
          // As in ScheduleReady, one expensive node runs on this thread when it has nothing
          // else to do (the step's compute once its input arrived), instead of waking the pool.
          if (keep != nullptr) {
            if (here.empty()) {
              here.push_back(*keep);
            } else {
              Schedule(*keep);
            }
          }
          if (here.empty()) return;
          ++t_inline_depth;
          Process(std::move(here));
          --t_inline_depth;
        };
        auto done = [called, on_done]() {
          if (!called->exchange(true)) on_done();
        };
        // raw may be gone once done has run: after the call only the flag is read, and the
        // context is touched only by whoever claims the callback.
        OpKernelContext* raw_ctx = &*raw->ctx;
        const absl::Status thrown = CatchKernelExceptions(
            [&]() { item.kernel->AsAsync()->ComputeAsync(raw_ctx, done); });
        if (!thrown.ok() && !called->exchange(true)) {
          raw_ctx->CtxFailure(thrown);
          on_done();
        }
        t_async_call = call.outer;
        continue;
      }
      const absl::Status thrown =
          CatchKernelExceptions([&]() { item.kernel->Compute(&*run->ctx); });
      if (!thrown.ok()) run->ctx->CtxFailure(thrown);
      if (args_.stats_collector != nullptr) {
        const HostMemoryUsage used = ThreadHostMemoryUsage();
        SaveStats(item, run->start_ns, &*run->ctx, &used);
      }
      bool ok = ProcessOutputs(item, &*run->ctx, &outputs);
      run->ctx.reset();
      run->inputs.clear();
      if (ok) {
        if (PropagateAndDone(tn, &outputs, &inline_ready)) return;
      } else {
        if (NodeDone(tn, nullptr, &inline_ready)) return;
      }
    }
  }

  // Records what the kernel of `item` did, started at `start_ns` (RunOptions.trace_level): as
  // TensorFlow's NodeExecStats, the op's time counts from the kernel's start, and the timeline
  // label is "name = Op(inputs...)", from which timelines take the op. `used`: the tensor memory
  // the kernel's thread allocated while it ran (a synchronous kernel's; nullptr for an
  // asynchronous one, whose work may be on other threads).
  void SaveStats(const NodeItem& item, int64_t start_ns, OpKernelContext* ctx,
                 const HostMemoryUsage* used) {
    const int64_t elapsed_ns = absl::GetCurrentTimeNanos() - start_ns;
    const Node& node = *item.node;
    NodeExecStats stats;
    stats.set_node_name(node.name());
    stats.set_all_start_micros(start_ns / 1000);
    stats.set_all_start_nanos(start_ns);
    stats.set_op_end_rel_micros(elapsed_ns / 1000);
    stats.set_op_end_rel_nanos(elapsed_ns);
    stats.set_all_end_rel_micros(elapsed_ns / 1000);
    stats.set_all_end_rel_nanos(elapsed_ns);
    stats.set_scheduled_micros(start_ns / 1000);
    stats.set_scheduled_nanos(start_ns);
    stats.set_thread_id(TraceThreadId());
    stats.set_timeline_label(absl::StrCat(node.name(), " = ", node.type_string(), "(",
                                          absl::StrJoin(node.def().input(), ", "), ")"));
    if (ctx->status().ok() && !*ctx->is_output_dead()) {
      for (int i = 0; i < node.num_outputs(); ++i) {
        if (!ctx->has_output(i)) continue;
        const Tensor t = ctx->output_value(i).Get();
        NodeOutput* out = stats.add_output();
        out->set_slot(i);
        TensorDescription* d = out->mutable_tensor_description();
        d->set_dtype(t.dtype());
        t.shape().AsProto(d->mutable_shape());
        if (t.IsInitialized()) {
          AllocationDescription* a = d->mutable_allocation_description();
          a->set_requested_bytes(static_cast<int64_t>(t.TotalBytes()));
          a->set_allocator_name("cpu");
        }
      }
    }
    if (used != nullptr) {
      AllocatorMemoryUsed* m = stats.add_memory();
      m->set_allocator_name("cpu");
      m->set_total_bytes(used->total_bytes);
      m->set_peak_bytes(used->peak_bytes);
      m->set_live_bytes(std::max<int64_t>(used->live_bytes, 0));
    }
    args_.stats_collector->Save(impl_->device_->name(), std::move(stats));
  }

  absl::Status CheckRefInputs(const NodeItem& item, const std::vector<TensorValue>& inputs) {
    for (int i = 0; i < item.num_inputs; ++i) {
      // A merge runs with its dead inputs empty (RefMerge of a RefSwitch's two outputs).
      if (item.is_merge && !inputs[i].is_ref() && inputs[i].value.dtype() == DT_INVALID) {
        continue;
      }
      if (item.input_is_ref[i] && !inputs[i].is_ref()) {
        return errors::InvalidArgument("input ", i, " of node '", item.node->name(),
                                       "' must be a reference (a variable), got a value");
      }
    }
    return absl::OkStatus();
  }

  bool ProcessOutputs(const NodeItem& item, OpKernelContext* ctx, EntryVector* outputs) {
    if (!ctx->status().ok()) {
      const absl::Status& s = ctx->status();
      std::string where = absl::StrCat(" [[node ", item.node->name(), " (", item.node->type_string(),
                                       ")]]");
      RecordError(absl::StrContains(s.message(), item.node->name())
                      ? s
                      : absl::Status(s.code(), absl::StrCat(s.message(), where)));
      return false;
    }
    const int n = item.node->num_outputs();
    outputs->clear();
    outputs->reserve(n);
    for (int i = 0; i < n; ++i) {
      if (ctx->has_output(i) && !*ctx->is_output_dead()) {
        outputs->push_back(Entry{ctx->release_output(i), true});
        const TensorValue& v = outputs->back().val;
        DataType want = item.node->output_type(i);
        DataType got = v.is_ref() ? MakeRefType(v.ref->dtype()) : v.value.dtype();
        if (v.is_ref() && !v.ref->IsInitialized()) got = want;  // uninitialized variable
        if (BaseType(want) != BaseType(got)) {
          RecordError(errors::Internal("node '", item.node->name(), "' produced ",
                                       DataTypeString(got), " for output ", i, ", expected ",
                                       DataTypeString(want)));
          return false;
        }
      } else if (!*ctx->is_output_dead() && !item.is_switch) {
        RecordError(errors::Internal("node '", item.node->name(), "' (", item.node->type_string(),
                                     ") did not produce output ", i));
        return false;
      } else {
        outputs->emplace_back();  // dead, or a Switch's untaken side
      }
    }
    return true;
  }

  void RecordError(const absl::Status& s) {
    bool first = false;
    {
      mutex_lock lock(mu_);
      if (status_.ok()) {
        status_ = s;
        failed_.store(true, std::memory_order_release);
        first = true;
      }
    }
    if (first) {
      if (args_.rendezvous) args_.rendezvous->StartAbort(s);
      if (args_.cancellation_manager) args_.cancellation_manager->StartCancel();
    }
  }

  // Delivers `outputs` of `tn` to its consumers, then retires `tn`. Returns true when the step
  // finished (and `this` is gone).
  bool PropagateAndDone(const TaggedNode& tn, EntryVector* outputs,
                        ReadyQueue* inline_ready) {
    return NodeDone(tn, outputs, inline_ready);
  }

  // Retires `tn`: propagates `outputs` (when not null), cleans up finished iterations and
  // frames, schedules what became ready. Returns true when the step finished.
  bool NodeDone(const TaggedNode& tn, EntryVector* outputs,
                ReadyQueue* inline_ready) {
    ReadyQueue ready;
    if (impl_->lock_free_) {
      if (outputs != nullptr && !failed_.load(std::memory_order_acquire)) {
        ActivateNodesLockFree(tn, outputs, &ready);
      }
    } else {
      mutex_lock lock(mu_);
      if (outputs != nullptr && status_.ok()) PropagateOutputs(tn, outputs, &ready);
      tn.iter_state->outstanding_ops--;
      if (tn.iter_state->outstanding_ops == 0) CleanupFramesIterations(tn.frame, tn.iter, &ready);
    }
    if (!ready.empty()) num_outstanding_.fetch_add(static_cast<int64_t>(ready.size()));
    bool finished = num_outstanding_.fetch_sub(1) == 1;
    if (finished) {
      Finish();
      return true;
    }
    ScheduleReady(&ready, inline_ready);
    return false;
  }

  // Takes the values out of `outputs` where it can.
  void PropagateOutputs(const TaggedNode& tn, EntryVector* outputs,
                        ReadyQueue* ready) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const NodeItem& item = impl_->items_[tn.node_id];
    FrameState* frame = tn.frame;
    const int64_t iter = tn.iter;
    if (item.is_enter) {
      FrameState* child = FindOrCreateChildFrame(frame, iter, item.enter_frame);
      if (item.is_constant_enter) {
        Entry v = outputs->empty() ? Entry() : (*outputs)[0];
        child->loop_invariants.push_back({tn.node_id, v, tn.is_dead});
        for (auto& kv : child->iterations) {
          ActivateNodes(item, tn.is_dead, child, kv.first, outputs, /*take=*/false, ready);
        }
      } else {
        ActivateNodes(item, tn.is_dead, child, 0, outputs, /*take=*/true, ready);
      }
      child->num_pending_inputs--;
      if (child->num_pending_inputs == 0) CleanupFramesIterations(child, 0, ready);
      return;
    }
    if (item.is_exit) {
      if (tn.is_dead) {
        if (iter == frame->iteration_count) frame->dead_exits.push_back(tn.node_id);
        return;
      }
      ActivateNodes(item, false, frame->parent, frame->parent_iter, outputs, /*take=*/true,
                    ready);
      return;
    }
    if (item.is_next_iteration) {
      if (tn.is_dead) return;  // deadness stops at the back edge
      if (iter == frame->iteration_count) {
        // As TensorFlow's executor: with parallel_iterations iterations in flight, the next one
        // waits until the oldest is done (CleanupIterations starts it).
        if (frame->num_outstanding_iterations >= frame->info->max_parallel_iterations) {
          frame->next_iter_roots.push_back(
              {tn.node_id, outputs->empty() ? Entry() : std::move((*outputs)[0])});
          return;
        }
        IncrementIteration(frame, ready);
      }
      ActivateNodes(item, false, frame, iter + 1, outputs, /*take=*/true, ready);
      return;
    }
    ActivateNodes(item, tn.is_dead, frame, iter, outputs, /*take=*/true, ready);
  }

  // Delivers `outputs` of `item` to its consumers in iteration `iter` of `frame`. With `take`,
  // each output's last consumer takes the value instead of a copy (`outputs` is not read again).
  void ActivateNodes(const NodeItem& item, bool is_dead, FrameState* frame, int64_t iter,
                     EntryVector* outputs, bool take, ReadyQueue* ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto it = frame->iterations.find(iter);
    if (it == frame->iterations.end()) return;
    IterationState* st = it->second.get();
    for (const EdgeInfo& e : item.out) {
      const NodeItem& dst = impl_->items_[e.dst_id];
      const int local = dst.local_id;
      bool dst_ready = false, dst_dead = false;
      const bool live_data = !e.is_control && !is_dead &&
                             e.src_output < static_cast<int>(outputs->size()) &&
                             (*outputs)[e.src_output].has_value;
      auto deliver = [&]() {
        TensorValue& v = (*outputs)[e.src_output].val;
        TensorValue& slot = st->inputs[dst.input_start + e.dst_input];
        if (take && e.last_use) {
          slot = std::move(v);
        } else {
          slot = v;
        }
      };
      if (dst.is_merge) {
        if (e.is_control) {
          dst_ready = st->pending.Add(local, -1) == 0 && st->merge_state[local] != 0;
          dst_dead = st->merge_state[local] == 2;
        } else if (live_data) {
          if (st->merge_state[local] == 0) {
            st->merge_state[local] = 1;
            deliver();
            dst_ready = st->pending.Get(local) == 0;
          }
        } else {
          const int dead = st->dead_count.Add(local, 1);
          if (st->merge_state[local] == 0 && (dead == dst.num_data_inputs || item.is_enter)) {
            st->merge_state[local] = 2;
            dst_ready = st->pending.Get(local) == 0;
            dst_dead = true;
          }
        }
      } else {
        if (e.is_control) {
          if (is_dead) st->dead_count.Add(local, 1);
        } else if (live_data) {
          deliver();
        } else {
          st->dead_count.Add(local, 1);
        }
        dst_ready = st->pending.Add(local, -1) == 0;
        dst_dead = st->dead_count.Get(local) > 0;
      }
      if (dst_ready) {
        st->outstanding_ops++;
        ready->push_back(TaggedNode{e.dst_id, frame, iter, st, dst_dead});
      }
    }
  }

  // ActivateNodes for a graph without control flow frames or Merges (ExecutorImpl::lock_free_):
  // each input slot has one producer, which writes it before its release decrement of the
  // consumer's pending count; the decrement that reaches zero (acquire) sees every slot and dead
  // count and makes the consumer ready. The root iteration ends with the step (Finish), so no
  // per-iteration bookkeeping.
  void ActivateNodesLockFree(const TaggedNode& tn, EntryVector* outputs, ReadyQueue* ready) {
    const NodeItem& item = impl_->items_[tn.node_id];
    IterationState* st = tn.iter_state;
    for (const EdgeInfo& e : item.out) {
      const NodeItem& dst = impl_->items_[e.dst_id];
      const int local = dst.local_id;
      if (e.is_control) {
        if (tn.is_dead) st->dead_count.Atomic(local).fetch_add(1, std::memory_order_relaxed);
      } else if (!tn.is_dead && e.src_output < static_cast<int>(outputs->size()) &&
                 (*outputs)[e.src_output].has_value) {
        TensorValue& v = (*outputs)[e.src_output].val;
        TensorValue& slot = st->inputs[dst.input_start + e.dst_input];
        if (e.last_use) {
          slot = std::move(v);
        } else {
          slot = v;
        }
      } else {
        st->dead_count.Atomic(local).fetch_add(1, std::memory_order_relaxed);
      }
      if (st->pending.Atomic(local).fetch_sub(1, std::memory_order_acq_rel) == 1) {
        const bool dead = st->dead_count.Atomic(local).load(std::memory_order_relaxed) > 0;
        ready->push_back(TaggedNode{e.dst_id, tn.frame, tn.iter, st, dead});
      }
    }
  }

  // A state for a new iteration of static frame `static_index`: a spare one when there is one.
  std::unique_ptr<IterationState> NewIteration(int static_index) {
    IterationPool& pool = impl_->iteration_pools_[static_index];
    std::unique_ptr<IterationState> st;
    {
      mutex_lock lock(pool.mu);
      if (!pool.spare.empty()) {
        st = std::move(pool.spare.back());
        pool.spare.pop_back();
      }
    }
    const FrameInfo& info = impl_->frames_[static_index];
    if (st == nullptr) return std::make_unique<IterationState>(info);
    st->Reset(info);
    return st;
  }

  // Keeps the state of a finished iteration for a later one (a few per frame: as many as run at
  // once in the common cases, one step of a root frame or a loop's parallel iterations).
  void RecycleIteration(int static_index, std::unique_ptr<IterationState> st) {
    IterationPool& pool = impl_->iteration_pools_[static_index];
    mutex_lock lock(pool.mu);
    if (pool.spare.size() < kMaxSpareIterations) pool.spare.push_back(std::move(st));
  }
  static constexpr size_t kMaxSpareIterations = 4;

  FrameState* FindOrCreateChildFrame(FrameState* parent, int64_t iter, int static_index)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto key = std::make_tuple(parent, iter, static_index);
    auto it = children_.find(key);
    if (it != children_.end()) return it->second.get();
    auto f = std::make_unique<FrameState>();
    f->info = &impl_->frames_[static_index];
    f->static_index = static_index;
    f->parent = parent;
    f->parent_iter = iter;
    f->num_pending_inputs = f->info->num_enters;
    uint64_t h = Fnv(14695981039346656037ull, f->info->name);
    h = Fnv(h, absl::StrCat(parent->frame_id, ":", iter));
    f->frame_id = h;
    f->iterations[0] = NewIteration(static_index);
    parent->iterations[iter]->outstanding_frame_count++;
    FrameState* raw = f.get();
    children_.emplace(key, std::move(f));
    return raw;
  }

  void IncrementIteration(FrameState* frame, ReadyQueue* ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    frame->iteration_count++;
    const int64_t next = frame->iteration_count;
    frame->iterations[next] = NewIteration(frame->static_index);
    frame->num_outstanding_iterations++;
    frame->dead_exits.clear();
    // The NextIteration outputs that waited for this iteration.
    std::vector<FrameState::Deferred> roots;
    roots.swap(frame->next_iter_roots);
    for (const auto& root : roots) {
      EntryVector outs{root.value};
      ActivateNodes(impl_->items_[root.node_id], false, frame, next, &outs, /*take=*/true, ready);
    }
    for (const auto& inv : frame->loop_invariants) {
      EntryVector outs{inv.value};
      ActivateNodes(impl_->items_[inv.node_id], inv.is_dead, frame, next, &outs, /*take=*/true,
                    ready);
    }
  }

  bool IsIterationDone(FrameState* frame, int64_t iter) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto it = frame->iterations.find(iter);
    if (it == frame->iterations.end()) return false;
    IterationState* st = it->second.get();
    if (st->outstanding_ops != 0 || st->outstanding_frame_count != 0) return false;
    if (iter == 0) return frame->num_pending_inputs == 0;
    return frame->iterations.find(iter - 1) == frame->iterations.end();
  }

  // Deletes the iterations from `iter` on that are done, starting an iteration that waited for
  // room (parallel_iterations) for each; returns whether the frame is done.
  bool CleanupIterations(FrameState* frame, int64_t iter, ReadyQueue* ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    int64_t curr = iter;
    while (curr <= frame->iteration_count && IsIterationDone(frame, curr)) {
      auto done = frame->iterations.find(curr);
      if (status_.ok()) RecycleIteration(frame->static_index, std::move(done->second));
      frame->iterations.erase(done);
      frame->num_outstanding_iterations--;
      ++curr;
      if (!frame->next_iter_roots.empty()) IncrementIteration(frame, ready);
    }
    return frame->num_pending_inputs == 0 && frame->num_outstanding_iterations == 0;
  }

  void CleanupFramesIterations(FrameState* frame, int64_t iter, ReadyQueue* ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    bool frame_done = CleanupIterations(frame, iter, ready);
    while (frame_done && frame->parent != nullptr) {
      FrameState* parent = frame->parent;
      const int64_t piter = frame->parent_iter;
      // A loop whose every Exit stayed dead (a loop in an untaken branch) hands deadness on.
      EntryVector none;
      for (int exit_id : frame->dead_exits) {
        ActivateNodes(impl_->items_[exit_id], true, parent, piter, &none, /*take=*/true, ready);
      }
      auto pit = parent->iterations.find(piter);
      if (pit != parent->iterations.end()) pit->second->outstanding_frame_count--;
      children_.erase(std::make_tuple(parent, piter, frame->static_index));
      frame = parent;
      frame_done = CleanupIterations(parent, piter, ready);
    }
  }

  void Finish() {
    absl::Status s;
    {
      mutex_lock lock(mu_);
      s = status_;
    }
    // Without control flow the root iteration is never cleaned up during the step (NodeDone).
    if (impl_->lock_free_ && s.ok()) {
      auto root = root_->iterations.find(0);
      if (root != root_->iterations.end()) RecycleIteration(0, std::move(root->second));
    }
    Executor::DoneCallback done = std::move(done_);
    delete this;
    done(s);
  }

  struct NodeRun {
    NodeRun() : inputs(TakeInputVector()) {}
    ~NodeRun() {
      ctx.reset();
      GiveInputVector(std::move(inputs));
    }
    std::vector<TensorValue> inputs;
    OpKernelContext::Params params;
    std::optional<OpKernelContext> ctx;
    int64_t start_ns = 0;  // when the kernel started, for Args::stats_collector
  };

  const ExecutorImpl* impl_;
  const Executor::Args args_;
  Executor::DoneCallback done_;
  std::atomic<int64_t> num_outstanding_{0};
  mutex mu_;
  absl::Status status_ ABSL_GUARDED_BY(mu_);
  // Whether status_ holds an error: read without the lock before each kernel call.
  std::atomic<bool> failed_{false};
  std::unique_ptr<FrameState> root_;
  std::map<std::tuple<FrameState*, int64_t, int>, std::unique_ptr<FrameState>> children_
      ABSL_GUARDED_BY(mu_);
};

void ExecutorImpl::RunAsync(const Args& args, DoneCallback done) {
  (new ExecutorState(this, args, std::move(done)))->Start();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Executor>> NewLocalExecutor(Device* device,
                                                           std::unique_ptr<const Graph> graph) {
  auto impl = std::make_unique<ExecutorImpl>(device, std::move(graph));
  SG_RETURN_IF_ERROR(impl->Initialize());
  return std::unique_ptr<Executor>(std::move(impl));
}

}  // namespace sg
