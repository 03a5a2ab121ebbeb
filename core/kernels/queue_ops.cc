// Queues: FIFOQueue and PaddingFIFOQueue (the V2 ops with DT_RESOURCE handles, the old ones with a
// reference to a string vector [container, name], FakeQueue turning the first into the second),
// and the ops that enqueue, dequeue, close and inspect them. A queue lives in the device's
// ResourceMgr, so it outlives steps: one step may wait in a dequeue until another enqueues.
//
// Waiting holds no thread. An enqueue or dequeue that cannot finish at once becomes an attempt
// on the queue's list; every change to the queue (an enqueue, a dequeue, a close) runs the
// attempts at the head of the lists until none makes progress, and a kernel's `done` runs when
// its attempt completes. Cancelling the step (an error elsewhere in it, the run's timeout,
// closing the session) fails its waiting attempts with CANCELLED, which is how a closed session
// wakes a blocked dequeue.
//
// Semantics follow TensorFlow's: a dequeue of n waits for n elements, taking them as they come;
// once the queue is closed it fails with OUT_OF_RANGE (DequeueUpTo gives what is left, if any)
// and puts back what it took. Enqueues on a closed queue fail with CANCELLED, and so does closing
// a closed queue (unless cancel_pending_enqueues). Close waits behind the enqueues already waiting for room unless
// cancel_pending_enqueues fails them. timeout_ms other than -1 is INVALID_ARGUMENT, as in
// TensorFlow, which never implemented it.
#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "core/framework/op_kernel.h"
#include "core/framework/session_state.h"
#include "core/kernels/element_copy.h"
#include "core/kernels/resource_handle_util.h"

namespace sg {
namespace {

using Tuple = std::vector<Tensor>;  // one queue element: a tensor per component

// What can cancel a waiting attempt: the step's cancellation and the session's close (either
// may be null).
struct Cancellers {
  CancellationManager* step = nullptr;
  CancellationManager* session = nullptr;
};

std::string DtypesString(const std::vector<DataType>& dtypes) {
  return absl::StrJoin(dtypes, ", ", [](std::string* out, DataType dt) {
    out->append(DataTypeString(dt));
  });
}

// Calls fn(T{}) with the type the elements of `dt` are moved as: DispatchByCopy's, and resource
// handles as themselves (a queue may hold any dtype).
template <typename Fn>
void DispatchElements(DataType dt, Fn&& fn) {
  if (dt == DT_RESOURCE) {
    fn(ResourceHandle{});
  } else {
    DispatchByCopy(dt, fn);
  }
}

// Copies `src` (any shape that fits inside `dst`'s element shape) into element `index` of the
// batch `dst` ([n] + element shape), leaving the rest of that element as it was.
void CopyIntoBatch(const Tensor& src, int64_t index, Tensor* dst) {
  const int rank = src.dims();
  const int64_t n = src.NumElements();
  if (n == 0) return;
  // Strides of one dst element; src is walked in order, dst by the same multi-index.
  std::vector<int64_t> dst_strides(rank, 1);
  for (int d = rank - 2; d >= 0; --d) dst_strides[d] = dst_strides[d + 1] * dst->dim_size(d + 2);
  const int64_t dst_elem = rank == 0 ? 1 : dst_strides[0] * dst->dim_size(1);
  const int64_t inner = rank == 0 ? 1 : src.dim_size(rank - 1);
  DispatchElements(src.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* from = static_cast<const T*>(src.raw_data());
    T* to = static_cast<T*>(dst->raw_data()) + index * dst_elem;
    std::vector<int64_t> idx(std::max(rank - 1, 0), 0);
    for (int64_t row = 0; row < n / inner; ++row) {
      int64_t off = 0;
      for (int d = 0; d + 1 < rank; ++d) off += idx[d] * dst_strides[d];
      std::copy(from + row * inner, from + (row + 1) * inner, to + off);
      for (int d = rank - 2; d >= 0; --d) {  // next row's multi-index
        if (++idx[d] < src.dim_size(d)) break;
        idx[d] = 0;
      }
    }
  });
}

// Element `index` of the batch `src` ([n] + shape) as a new tensor of `shape`.
absl::StatusOr<Tensor> SliceOfBatch(const Tensor& src, int64_t index, const TensorShape& shape) {
  SG_ASSIGN_OR_RETURN(Tensor t, Tensor::Allocate(src.dtype(), shape));
  const int64_t n = shape.num_elements();
  DispatchElements(src.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* from = static_cast<const T*>(src.raw_data()) + index * n;
    std::copy(from, from + n, static_cast<T*>(t.raw_data()));
  });
  return t;
}

void ZeroFill(Tensor* t) {
  if (DataTypeIsPod(t->dtype()) && t->TotalBytes() > 0) {
    std::memset(t->raw_data(), 0, t->TotalBytes());
  }
}

class Queue final : public ResourceBase, public std::enable_shared_from_this<Queue> {
 public:
  // `done` of an attempt: its status and, for a dequeue, the elements taken.
  using Done = std::function<void(const absl::Status&, std::vector<Tuple>)>;

  Queue(std::string name, std::vector<DataType> dtypes, std::vector<PartialTensorShape> shapes,
        int64_t capacity, bool padding)
      : name_(std::move(name)),
        dtypes_(std::move(dtypes)),
        shapes_(std::move(shapes)),
        capacity_(capacity < 0 ? std::numeric_limits<int64_t>::max() : capacity),
        padding_(padding) {}

  std::string DebugString() const override { return absl::StrCat("FIFOQueue '", name_, "'"); }
  const std::string& name() const { return name_; }
  const std::vector<DataType>& dtypes() const { return dtypes_; }
  const std::vector<PartialTensorShape>& shapes() const { return shapes_; }
  int64_t capacity() const { return capacity_; }
  bool padding() const { return padding_; }

  // INVALID_ARGUMENT unless a queue of these attrs may share this one.
  absl::Status MatchesAttrs(const std::vector<DataType>& dtypes,
                            const std::vector<PartialTensorShape>& shapes, int64_t capacity,
                            bool padding) const {
    const int64_t cap = capacity < 0 ? std::numeric_limits<int64_t>::max() : capacity;
    bool same_shapes = shapes.size() == shapes_.size();
    for (size_t i = 0; same_shapes && i < shapes.size(); ++i) {
      same_shapes = shapes[i].DebugString() == shapes_[i].DebugString();
    }
    if (dtypes != dtypes_ || !same_shapes || cap != capacity_ || padding != padding_) {
      return errors::InvalidArgument("Shared queue '", name_, "' has component types ",
                                     DtypesString(dtypes_), ", capacity ", capacity_,
                                     " and other shapes or kind than requested (component "
                                     "types ", DtypesString(dtypes), ", capacity ", capacity,
                                     ")");
    }
    return absl::OkStatus();
  }

  // INVALID_ARGUMENT unless `tuple` has the queue's dtypes and (batched: after dim 0) shapes.
  absl::Status ValidateTuple(const Tuple& tuple, bool batched) const {
    if (tuple.size() != dtypes_.size()) {
      return errors::InvalidArgument("Wrong number of components in tuple. Expected ",
                                     dtypes_.size(), ", got ", tuple.size());
    }
    for (size_t i = 0; i < tuple.size(); ++i) {
      if (tuple[i].dtype() != dtypes_[i]) {
        return errors::InvalidArgument("Type mismatch in tuple component ", i, ". Expected ",
                                       DataTypeString(dtypes_[i]), ", got ",
                                       DataTypeString(tuple[i].dtype()));
      }
      TensorShape shape = tuple[i].shape();
      if (batched) {
        if (shape.dims() == 0) {
          return errors::InvalidArgument("Expected component ", i, " to be at least a vector "
                                         "(its dim 0 indexes the elements), got a scalar");
        }
        if (shape.dim_size(0) != tuple[0].dim_size(0)) {
          return errors::InvalidArgument("All components must have the same size in dim 0: "
                                         "component 0 has ", tuple[0].dim_size(0),
                                         ", component ", i, " has ", shape.dim_size(0));
        }
        shape.RemoveDim(0);
      }
      if (!shapes_.empty() && !shapes_[i].IsCompatibleWith(shape)) {
        return errors::InvalidArgument("Shape mismatch in tuple component ", i, ". Expected ",
                                       shapes_[i].DebugString(), ", got ", shape.DebugString());
      }
    }
    return absl::OkStatus();
  }

  // Enqueues `elements` in order (as room allows), then calls done.
  void Enqueue(std::vector<Tuple> elements, Cancellers cm, Done done) {
    auto a = std::make_unique<Attempt>();
    a->kind = Attempt::kEnqueue;
    a->pending.assign(std::make_move_iterator(elements.begin()),
                      std::make_move_iterator(elements.end()));
    Start(std::move(a), cm, std::move(done));
  }

  // Takes n elements (fewer from a closed queue when allow_smaller), then calls done.
  void Dequeue(int64_t n, bool allow_smaller, Cancellers cm, Done done) {
    auto a = std::make_unique<Attempt>();
    a->kind = Attempt::kDequeue;
    a->requested = n;
    a->allow_smaller = allow_smaller;
    Start(std::move(a), cm, std::move(done));
  }

  void Close(bool cancel_pending_enqueues, Cancellers cm, Done done) {
    if (cancel_pending_enqueues) {
      // Closing a closed queue this way is no error.
      std::vector<Finished> finished;
      {
        absl::MutexLock lock(&mu_);
        closed_ = true;
        for (auto& a : enqueues_) finished.push_back(Finish(a.get(), AlreadyClosed()));
        enqueues_.clear();
        Flush(&finished);
      }
      RunFinished(std::move(finished));
      done(absl::OkStatus(), {});
      return;
    }
    // Behind the enqueues already waiting.
    auto a = std::make_unique<Attempt>();
    a->kind = Attempt::kClose;
    Start(std::move(a), cm, std::move(done));
  }

  int64_t size() {
    absl::MutexLock lock(&mu_);
    return static_cast<int64_t>(elements_.size());
  }
  bool closed() {
    absl::MutexLock lock(&mu_);
    return closed_;
  }

 private:
  using Registrations = std::vector<std::pair<CancellationManager*, CancellationManager::Token>>;
  struct Attempt {
    enum Kind { kEnqueue, kDequeue, kClose } kind;
    int64_t id = 0;
    Registrations registrations;
    Done done;
    std::deque<Tuple> pending;  // enqueue: still to add
    int64_t requested = 0;      // dequeue: how many
    bool allow_smaller = false;
    std::vector<Tuple> taken;   // dequeue: taken so far
  };
  // A completed attempt, its callback run after the lock is released.
  struct Finished {
    Done done;
    absl::Status status;
    std::vector<Tuple> taken;
    Registrations registrations;  // to deregister
  };
  enum class Result { kNoProgress, kProgress, kComplete };

  absl::Status AlreadyClosed() const {
    return errors::Cancelled("Queue '", name_, "' is already closed.");
  }

  static Finished Finish(Attempt* a, absl::Status status) {
    return Finished{std::move(a->done), std::move(status), std::move(a->taken),
                    std::move(a->registrations)};
  }

  static void RunFinished(std::vector<Finished> finished) {
    for (Finished& f : finished) {
      for (auto& [cm, token] : f.registrations) cm->DeregisterCallback(token);
      f.done(f.status, std::move(f.taken));
    }
  }

  void Start(std::unique_ptr<Attempt> a, Cancellers cancellers, Done done) {
    a->done = std::move(done);
    for (CancellationManager* cm : {cancellers.step, cancellers.session}) {
      if (cm != nullptr) a->registrations.emplace_back(cm, cm->NewToken());
    }
    const Registrations registrations = a->registrations;
    int64_t id;
    {
      absl::MutexLock lock(&mu_);
      id = a->id = next_id_++;
      (a->kind == Attempt::kDequeue ? dequeues_ : enqueues_).push_back(std::move(a));
    }
    // Registered before the first try, so that no cancellation falls between the two; when
    // another thread's flush completes the attempt first, the callback finds nothing.
    std::weak_ptr<Queue> weak = weak_from_this();
    for (auto& [cm, token] : registrations) {
      if (!cm->RegisterCallback(token, [weak, id] {
            if (auto q = weak.lock()) q->Cancel(id);
          })) {
        Cancel(id);
        return;
      }
    }
    std::vector<Finished> finished;
    {
      absl::MutexLock lock(&mu_);
      Flush(&finished);
    }
    RunFinished(std::move(finished));
  }

  // The waiting attempt `id`, or null; its list in *list when found.
  Attempt* FindLocked(int64_t id, std::list<std::unique_ptr<Attempt>>** list)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    for (auto* l : {&enqueues_, &dequeues_}) {
      for (auto& a : *l) {
        if (a->id == id) {
          if (list != nullptr) *list = l;
          return a.get();
        }
      }
    }
    return nullptr;
  }

  void Cancel(int64_t id) {
    std::vector<Finished> finished;
    {
      absl::MutexLock lock(&mu_);
      std::list<std::unique_ptr<Attempt>>* list = nullptr;
      Attempt* a = FindLocked(id, &list);
      if (a == nullptr) return;  // completed already
      PutBack(a);
      finished.push_back(Finish(a, errors::Cancelled(a->kind == Attempt::kDequeue
                                                         ? "Dequeue operation was cancelled"
                                                         : "Enqueue operation was cancelled")));
      list->remove_if([id](const std::unique_ptr<Attempt>& x) { return x->id == id; });
      Flush(&finished);
    }
    RunFinished(std::move(finished));
  }

  // Returns what a dequeue took to the front of the queue, in order.
  void PutBack(Attempt* a) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    for (auto it = a->taken.rbegin(); it != a->taken.rend(); ++it) {
      elements_.push_front(std::move(*it));
    }
    a->taken.clear();
  }

  Result RunEnqueue(Attempt* a) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (closed_) {
      a->pending.clear();
      return Result::kComplete;  // status set by the caller
    }
    if (a->kind == Attempt::kClose) {
      closed_ = true;
      return Result::kComplete;
    }
    Result r = Result::kNoProgress;
    while (!a->pending.empty() && static_cast<int64_t>(elements_.size()) < capacity_) {
      elements_.push_back(std::move(a->pending.front()));
      a->pending.pop_front();
      r = Result::kProgress;
    }
    return a->pending.empty() ? Result::kComplete : r;
  }

  // kComplete with *status set (OK or the failure).
  Result RunDequeue(Attempt* a, absl::Status* status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    Result r = Result::kNoProgress;
    while (static_cast<int64_t>(a->taken.size()) < a->requested && !elements_.empty()) {
      a->taken.push_back(std::move(elements_.front()));
      elements_.pop_front();
      r = Result::kProgress;
    }
    if (static_cast<int64_t>(a->taken.size()) == a->requested) return Result::kComplete;
    if (!closed_) return r;
    // Closed with too few: put back what was taken, then give what is left or fail.
    PutBack(a);
    if (a->allow_smaller && !elements_.empty()) {
      while (!elements_.empty()) {
        a->taken.push_back(std::move(elements_.front()));
        elements_.pop_front();
      }
      return Result::kComplete;
    }
    if (a->allow_smaller && !enqueues_.empty()) return Result::kNoProgress;
    *status = errors::OutOfRange("FIFOQueue '", name_, "' is closed and has insufficient "
                                 "elements (requested ", a->requested, ", current size ",
                                 elements_.size(), ")");
    return Result::kComplete;
  }

  // Runs the attempts at the heads of the lists until none progresses.
  void Flush(std::vector<Finished>* finished) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    bool progress = true;
    while (progress) {
      progress = false;
      if (!enqueues_.empty()) {
        Attempt* a = enqueues_.front().get();
        const bool was_closed = closed_;
        const Result r = RunEnqueue(a);
        if (r == Result::kComplete) {
          absl::Status s;
          if (was_closed) {
            s = a->kind == Attempt::kClose ? AlreadyClosed()
                                           : errors::Cancelled("Queue '", name_, "' is closed.");
          }
          finished->push_back(Finish(a, s));
          enqueues_.pop_front();
        }
        progress |= r != Result::kNoProgress;
      }
      if (!dequeues_.empty()) {
        Attempt* a = dequeues_.front().get();
        absl::Status s;
        const Result r = RunDequeue(a, &s);
        if (r == Result::kComplete) {
          finished->push_back(Finish(a, s));
          dequeues_.pop_front();
        }
        progress |= r != Result::kNoProgress;
      }
    }
  }

  const std::string name_;
  const std::vector<DataType> dtypes_;
  const std::vector<PartialTensorShape> shapes_;
  const int64_t capacity_;
  const bool padding_;
  absl::Mutex mu_;
  std::deque<Tuple> elements_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  int64_t next_id_ ABSL_GUARDED_BY(mu_) = 0;
  std::list<std::unique_ptr<Attempt>> enqueues_ ABSL_GUARDED_BY(mu_);  // and closes
  std::list<std::unique_ptr<Attempt>> dequeues_ ABSL_GUARDED_BY(mu_);
};

// ---- making queues ---------------------------------------------------------------------------

// FIFOQueue(V2) and PaddingFIFOQueue(V2): find or create the queue, output its handle.
class QueueOp final : public OpKernel {
 public:
  explicit QueueOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), padding_(absl::StartsWith(ctx->def().op(), "Padding")) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("component_types", &dtypes_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shapes", &shapes_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("capacity", &capacity_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("container", &container_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shared_name", &shared_name_));
    if (padding_) {
      OP_REQUIRES(ctx, shapes_.size() == dtypes_.size(),
                  errors::InvalidArgument("Shapes must be provided for all components, but "
                                          "received ", dtypes_.size(), " dtypes and ",
                                          shapes_.size(), " shapes. (node '", name(), "')"));
      for (const PartialTensorShape& s : shapes_) {
        OP_REQUIRES(ctx, !s.unknown_rank(),
                    errors::InvalidArgument("shape ", s.DebugString(), " must have known rank "
                                            "(node '", name(), "')"));
      }
    } else {
      OP_REQUIRES(ctx, shapes_.empty() || shapes_.size() == dtypes_.size(),
                  errors::InvalidArgument("Expected ", dtypes_.size(), " shapes, got ",
                                          shapes_.size(), " (node '", name(), "')"));
      for (const PartialTensorShape& s : shapes_) {
        OP_REQUIRES(ctx, s.IsFullyDefined(),
                    errors::InvalidArgument("Shape ", s.DebugString(), " is not fully defined "
                                            "(node '", name(), "')"));
      }
    }
    // A node without a shared_name is one queue per session (TensorFlow's kernels are per
    // session too; sg makes a kernel per run signature, so the name cannot be per kernel).
    if (shared_name_.empty()) shared_name_ = name();
    if (container_.empty()) container_ = ResourceMgr::kDefaultContainer;
    if (IsRefType(ctx->output_type(0))) {
      handle_ = Tensor(DT_STRING, TensorShape({2}));
      handle_.data<tstring>()[0] = container_;
      handle_.data<tstring>()[1] = shared_name_;
    }
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<Queue> queue;
    OP_REQUIRES_OK(ctx, ctx->resource_manager()->LookupOrCreate<Queue>(
                            container_, shared_name_, &queue, [this](std::shared_ptr<Queue>* q) {
                              *q = std::make_shared<Queue>(shared_name_, dtypes_, shapes_,
                                                           capacity_, padding_);
                              return absl::OkStatus();
                            }));
    OP_REQUIRES_OK(ctx, queue->MatchesAttrs(dtypes_, shapes_, capacity_, padding_));
    if (IsRefType(output_type(0))) {
      ctx->set_output_ref(0, &mu_, &handle_);
      return;
    }
    ResourceHandle h;
    if (ctx->device() != nullptr) h.device = ctx->device()->name();
    h.container = container_;
    h.name = shared_name_;
    h.type_name = "QueueInterface";
    OP_REQUIRES_OK(ctx, SetResourceHandleOutput(ctx, 0, std::move(h)));
  }

 private:
  const bool padding_;
  std::vector<DataType> dtypes_;
  std::vector<PartialTensorShape> shapes_;
  int64_t capacity_;
  std::string container_, shared_name_;
  absl::Mutex mu_;
  Tensor handle_ ABSL_GUARDED_BY(mu_);  // the old ops' [container, name], never changed
};
REGISTER_KERNEL_BUILDER(Name("FIFOQueueV2").Device(DEVICE_CPU), QueueOp);
REGISTER_KERNEL_BUILDER(Name("FIFOQueue").Device(DEVICE_CPU), QueueOp);
REGISTER_KERNEL_BUILDER(Name("PaddingFIFOQueueV2").Device(DEVICE_CPU), QueueOp);
REGISTER_KERNEL_BUILDER(Name("PaddingFIFOQueue").Device(DEVICE_CPU), QueueOp);

// A queue's resource handle as the old ops' string handle.
class FakeQueueOp final : public OpKernel {
 public:
  explicit FakeQueueOp(OpKernelConstruction* ctx) : OpKernel(ctx) { set_expensive(false); }

  void Compute(OpKernelContext* ctx) override {
    const ResourceHandle* h = nullptr;
    OP_REQUIRES_OK(ctx, ResourceHandleFromInput(ctx, 0, &h));
    {
      absl::MutexLock lock(&mu_);
      Tensor t(DT_STRING, TensorShape({2}));
      t.data<tstring>()[0] = h->container;
      t.data<tstring>()[1] = h->name;
      handle_ = std::move(t);
    }
    ctx->set_output_ref(0, &mu_, &handle_);
  }

 private:
  absl::Mutex mu_;
  Tensor handle_ ABSL_GUARDED_BY(mu_);
};
REGISTER_KERNEL_BUILDER(Name("FakeQueue").Device(DEVICE_CPU), FakeQueueOp);

// ---- using queues ----------------------------------------------------------------------------

// The queue named by input 0: a resource handle, or (the old ops) a string vector
// [container, name].
absl::Status LookupQueue(OpKernelContext* ctx, std::shared_ptr<Queue>* queue) {
  std::string container, name;
  SG_RETURN_IF_ERROR(ResourceNameFromInput(ctx, 0, "queue", &container, &name));
  return ctx->resource_manager()->Lookup<Queue>(container, name, queue);
}

// The kernels that may wait: the queue looked up, then Run (which must call done).
class QueueAsyncOp : public AsyncOpKernel {
 public:
  explicit QueueAsyncOp(OpKernelConstruction* ctx) : AsyncOpKernel(ctx) {
    if (ctx->HasAttr("timeout_ms")) {
      int64_t timeout_ms;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("timeout_ms", &timeout_ms));
      OP_REQUIRES(ctx, timeout_ms == -1,
                  errors::InvalidArgument("Timeout not supported yet: timeout_ms must be -1, "
                                          "got ", timeout_ms, " (node '", name(), "')"));
    }
    set_expensive(false);
  }

  void ComputeAsync(OpKernelContext* ctx, DoneCallback done) final {
    std::shared_ptr<Queue> queue;
    OP_REQUIRES_OK_ASYNC(ctx, LookupQueue(ctx, &queue), done);
    Run(ctx, queue, std::move(done));
  }

 protected:
  virtual void Run(OpKernelContext* ctx, const std::shared_ptr<Queue>& queue,
                   DoneCallback done) = 0;

  // The step's cancellation and the session's close.
  // (The session outlives its runs, and so its SessionState.)
  static Cancellers CancellersOf(OpKernelContext* ctx) {
    std::shared_ptr<SessionState> state = FindSessionState(ctx->resource_manager());
    return Cancellers{ctx->cancellation_manager(),
                      state != nullptr ? state->close_cancellation() : nullptr};
  }

  // The Done of an attempt that records a failure on ctx and then calls done. It keeps the queue
  // alive while the attempt waits, even if a Reset drops the queue from its container, so that a
  // cancellation still finds the attempt.
  static Queue::Done Finish(OpKernelContext* ctx, std::shared_ptr<Queue> queue,
                            DoneCallback done) {
    return [ctx, queue = std::move(queue), done = std::move(done)](const absl::Status& s,
                                                                   std::vector<Tuple>) {
      ctx->SetStatus(s);
      done();
    };
  }
};

class EnqueueOp final : public QueueAsyncOp {
 public:
  explicit EnqueueOp(OpKernelConstruction* ctx)
      : QueueAsyncOp(ctx), many_(absl::StrContains(ctx->def().op(), "Many")) {}

 protected:
  void Run(OpKernelContext* ctx, const std::shared_ptr<Queue>& queue,
           DoneCallback done) override {
    Tuple tuple;
    for (int i = 1; i < ctx->num_inputs(); ++i) tuple.push_back(ctx->input(i));
    OP_REQUIRES_OK_ASYNC(ctx, queue->ValidateTuple(tuple, many_), done);
    std::vector<Tuple> elements;
    if (!many_) {
      elements.push_back(std::move(tuple));
    } else {
      const int64_t n = tuple[0].dim_size(0);
      elements.resize(n);
      for (size_t c = 0; c < tuple.size(); ++c) {
        TensorShape shape = tuple[c].shape();
        shape.RemoveDim(0);
        for (int64_t i = 0; i < n; ++i) {
          auto t = SliceOfBatch(tuple[c], i, shape);
          OP_REQUIRES_OK_ASYNC(ctx, t.status(), done);
          elements[i].push_back(*std::move(t));
        }
      }
      if (n == 0) {  // nothing to wait for, closed or not
        done();
        return;
      }
    }
    queue->Enqueue(std::move(elements), CancellersOf(ctx),
                   Finish(ctx, queue, std::move(done)));
  }

 private:
  const bool many_;
};
REGISTER_KERNEL_BUILDER(Name("QueueEnqueueV2").Device(DEVICE_CPU), EnqueueOp);
REGISTER_KERNEL_BUILDER(Name("QueueEnqueue").Device(DEVICE_CPU), EnqueueOp);
REGISTER_KERNEL_BUILDER(Name("QueueEnqueueManyV2").Device(DEVICE_CPU), EnqueueOp);
REGISTER_KERNEL_BUILDER(Name("QueueEnqueueMany").Device(DEVICE_CPU), EnqueueOp);

absl::Status CheckOutputDtypes(OpKernelContext* ctx, const Queue& queue) {
  std::vector<DataType> want;
  for (int i = 0; i < ctx->num_outputs(); ++i) want.push_back(ctx->expected_output_dtype(i));
  if (want != queue.dtypes()) {
    return errors::InvalidArgument("node '", ctx->op_kernel().name(), "' dequeues ",
                                   DtypesString(want), " from queue '", queue.name(),
                                   "' of component types ", DtypesString(queue.dtypes()));
  }
  return absl::OkStatus();
}

// Stacks `elements` into output c of each component: [n] + the element shape, which for a
// padding queue is the largest of each dim (the queue's where it is known), padded with zeros.
absl::Status StackOutputs(OpKernelContext* ctx, const Queue& queue,
                          const std::vector<Tuple>& elements) {
  const int64_t n = static_cast<int64_t>(elements.size());
  for (size_t c = 0; c < queue.dtypes().size(); ++c) {
    TensorShape element;
    if (n > 0 && !queue.padding()) {
      element = elements[0][c].shape();
    } else {
      const PartialTensorShape& declared = queue.shapes()[c];
      for (int d = 0; d < declared.dims(); ++d) {
        int64_t size = std::max<int64_t>(declared.dim_size(d), 0);
        for (const Tuple& t : elements) size = std::max(size, t[c].dim_size(d));
        element.AddDim(size);
      }
    }
    TensorShape shape = element;
    shape.InsertDim(0, n);
    Tensor* out;
    SG_RETURN_IF_ERROR(ctx->allocate_output(static_cast<int>(c), shape, &out));
    if (queue.padding()) ZeroFill(out);
    for (int64_t i = 0; i < n; ++i) CopyIntoBatch(elements[i][c], i, out);
  }
  return absl::OkStatus();
}

class DequeueOp final : public QueueAsyncOp {
 public:
  explicit DequeueOp(OpKernelConstruction* ctx)
      : QueueAsyncOp(ctx),
        many_(absl::StrContains(ctx->def().op(), "Many") ||
              absl::StrContains(ctx->def().op(), "UpTo")),
        up_to_(absl::StrContains(ctx->def().op(), "UpTo")) {}

 protected:
  void Run(OpKernelContext* ctx, const std::shared_ptr<Queue>& queue,
           DoneCallback done) override {
    OP_REQUIRES_OK_ASYNC(ctx, CheckOutputDtypes(ctx, *queue), done);
    int64_t n = 1;
    if (many_) {
      const Tensor& t = ctx->input(1);
      OP_REQUIRES_ASYNC(ctx, t.dims() == 0,
                        errors::InvalidArgument("n must be a scalar, got shape ",
                                                t.shape().DebugString()),
                        done);
      n = t.data<int32_t>()[0];
      OP_REQUIRES_ASYNC(ctx, n >= 0,
                        errors::InvalidArgument("DequeueMany requested ", n, " < 0 elements"),
                        done);
      bool shaped = !queue->shapes().empty();
      for (const PartialTensorShape& s : queue->shapes()) {
        shaped = shaped && (queue->padding() || s.IsFullyDefined());
      }
      OP_REQUIRES_ASYNC(ctx, shaped,
                        errors::InvalidArgument("FIFOQueue's DequeueMany and DequeueUpTo "
                                                "require the components to have specified "
                                                "shapes (queue '", queue->name(), "')"),
                        done);
      if (n == 0) {
        OP_REQUIRES_OK_ASYNC(ctx, StackOutputs(ctx, *queue, {}), done);
        done();
        return;
      }
    }
    queue->Dequeue(n, up_to_, CancellersOf(ctx),
                   [ctx, keep = queue, many = many_, done = std::move(done)](
                       const absl::Status& s, std::vector<Tuple> elements) {
                     if (!s.ok()) {
                       ctx->SetStatus(s);
                     } else if (many) {
                       ctx->SetStatus(StackOutputs(ctx, *keep, elements));
                     } else {
                       for (size_t c = 0; c < elements[0].size(); ++c) {
                         ctx->set_output(static_cast<int>(c), elements[0][c]);
                       }
                     }
                     done();
                   });
  }

 private:
  const bool many_, up_to_;
};
REGISTER_KERNEL_BUILDER(Name("QueueDequeueV2").Device(DEVICE_CPU), DequeueOp);
REGISTER_KERNEL_BUILDER(Name("QueueDequeue").Device(DEVICE_CPU), DequeueOp);
REGISTER_KERNEL_BUILDER(Name("QueueDequeueManyV2").Device(DEVICE_CPU), DequeueOp);
REGISTER_KERNEL_BUILDER(Name("QueueDequeueMany").Device(DEVICE_CPU), DequeueOp);
REGISTER_KERNEL_BUILDER(Name("QueueDequeueUpToV2").Device(DEVICE_CPU), DequeueOp);
REGISTER_KERNEL_BUILDER(Name("QueueDequeueUpTo").Device(DEVICE_CPU), DequeueOp);

class CloseOp final : public QueueAsyncOp {
 public:
  explicit CloseOp(OpKernelConstruction* ctx) : QueueAsyncOp(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("cancel_pending_enqueues", &cancel_pending_enqueues_));
  }

 protected:
  void Run(OpKernelContext* ctx, const std::shared_ptr<Queue>& queue,
           DoneCallback done) override {
    queue->Close(cancel_pending_enqueues_, CancellersOf(ctx),
                 Finish(ctx, queue, std::move(done)));
  }

 private:
  bool cancel_pending_enqueues_;
};
REGISTER_KERNEL_BUILDER(Name("QueueCloseV2").Device(DEVICE_CPU), CloseOp);
REGISTER_KERNEL_BUILDER(Name("QueueClose").Device(DEVICE_CPU), CloseOp);

// QueueSize and QueueIsClosed: never wait.
class QueueInfoOp final : public OpKernel {
 public:
  explicit QueueInfoOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), size_(absl::StartsWith(ctx->def().op(), "QueueSize")) {
    set_expensive(false);
  }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<Queue> queue;
    OP_REQUIRES_OK(ctx, LookupQueue(ctx, &queue));
    if (size_) {
      ctx->set_output(0, Tensor::Scalar<int32_t>(static_cast<int32_t>(queue->size())));
    } else {
      ctx->set_output(0, Tensor::Scalar<bool>(queue->closed()));
    }
  }

 private:
  const bool size_;
};
REGISTER_KERNEL_BUILDER(Name("QueueSizeV2").Device(DEVICE_CPU), QueueInfoOp);
REGISTER_KERNEL_BUILDER(Name("QueueSize").Device(DEVICE_CPU), QueueInfoOp);
REGISTER_KERNEL_BUILDER(Name("QueueIsClosedV2").Device(DEVICE_CPU), QueueInfoOp);
REGISTER_KERNEL_BUILDER(Name("QueueIsClosed").Device(DEVICE_CPU), QueueInfoOp);

}  // namespace
}  // namespace sg
