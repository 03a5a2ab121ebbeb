// OpKernel: the code that runs one node. A kernel is made once per node (OpKernelConstruction:
// attrs read, errors reported) and computed once per step (OpKernelContext: inputs in, outputs
// out). Errors are recorded on the context with OP_REQUIRES / OP_REQUIRES_OK, never thrown.
//
//   class MatMulOp final : public OpKernel {
//    public:
//     explicit MatMulOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
//       OP_REQUIRES_OK(ctx, ctx->GetAttr("transpose_a", &transpose_a_));
//     }
//     void Compute(OpKernelContext* ctx) override { ... }
//   };
//   REGISTER_KERNEL_BUILDER(Name("MatMul").Device(DEVICE_CPU).TypeConstraint<float>("T"),
//                           MatMulOp);
//
// Thread safety: Compute may run concurrently for different steps; kernels keep no per-step
// state in members (or guard it).
#ifndef SG_CORE_FRAMEWORK_OP_KERNEL_H_
#define SG_CORE_FRAMEWORK_OP_KERNEL_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/synchronization/mutex.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/cancellation.h"
#include "core/framework/device.h"
#include "core/framework/node_def_util.h"
#include "core/framework/rendezvous.h"
#include "core/framework/resource_mgr.h"
#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "core/proto/node_def.pb.h"
#include "core/proto/op_def.pb.h"
#include "core/util/cpu_isa.h"

namespace sg {

constexpr const char* DEVICE_CPU = "CPU";

class OpKernelConstruction;
class OpKernelContext;
class AsyncOpKernel;

// The arguments and return values of a step or a function call: _Arg and _Retval read and write
// them.
class CallFrameInterface {
 public:
  virtual ~CallFrameInterface() = default;
  virtual int num_args() const = 0;
  virtual int num_retvals() const = 0;
  virtual absl::Status GetArg(int index, Tensor* value) const = 0;
  virtual absl::Status SetRetval(int index, const Tensor& value) = 0;
};

class OpKernel {
 public:
  explicit OpKernel(OpKernelConstruction* ctx);
  virtual ~OpKernel();
  virtual void Compute(OpKernelContext* ctx) = 0;
  virtual AsyncOpKernel* AsAsync() { return nullptr; }
  // Cheap kernels (Identity, Const, control flow) run inline on the executor's thread.
  virtual bool IsExpensive() const { return expensive_; }

  const NodeDef& def() const { return *def_; }
  const std::string& name() const { return def_->name(); }
  const std::string& type_string() const { return def_->op(); }
  int num_inputs() const { return static_cast<int>(input_types_.size()); }
  int num_outputs() const { return static_cast<int>(output_types_.size()); }
  DataType input_type(int i) const { return input_types_[i]; }
  DataType output_type(int i) const { return output_types_[i]; }

 protected:
  void set_expensive(bool e) { expensive_ = e; }

 private:
  std::shared_ptr<const NodeDef> def_;
  std::vector<DataType> input_types_, output_types_;
  bool expensive_ = true;
};

class AsyncOpKernel : public OpKernel {
 public:
  using OpKernel::OpKernel;
  using DoneCallback = std::function<void()>;
  // Must call `done` exactly once, after the outputs (or an error) are set.
  virtual void ComputeAsync(OpKernelContext* ctx, DoneCallback done) = 0;
  AsyncOpKernel* AsAsync() override { return this; }
  // Blocks until ComputeAsync finishes.
  void Compute(OpKernelContext* ctx) override;
};

class OpKernelConstruction {
 public:
  // `tensor_attrs` (may be null; borrowed for the construction only) are the node's tensor attrs
  // held decoded beside its NodeDef (TensorAttrs, node_def_util.h).
  OpKernelConstruction(Device* device, std::shared_ptr<const NodeDef> def, const OpDef* op_def,
                       std::vector<DataType> input_types, std::vector<DataType> output_types,
                       const TensorAttrs* tensor_attrs = nullptr);

  template <typename T>
  absl::Status GetAttr(absl::string_view name, T* value) const {
    absl::Status s = ::sg::GetAttr(def_->attr(), name, value);
    if (!s.ok()) {
      return absl::Status(s.code(), absl::StrCat(s.message(), " (node '", def_->name(),
                                                 "', op ", def_->op(), ")"));
    }
    return s;
  }
  // A tensor attr: the node's decoded Tensor when it has one (shared, not copied: a kernel must
  // not write into it, as into any input), otherwise decoded from the NodeDef. Errors as above.
  absl::Status GetAttr(absl::string_view name, Tensor* value) const;
  bool HasAttr(absl::string_view name) const {
    return def_->attr().contains(std::string(name)) ||
           (tensor_attrs_ != nullptr && tensor_attrs_->count(name) > 0);
  }

  const NodeDef& def() const { return *def_; }
  const OpDef* op_def() const { return op_def_; }
  Device* device() const { return device_; }
  int num_inputs() const { return static_cast<int>(input_types_.size()); }
  int num_outputs() const { return static_cast<int>(output_types_.size()); }
  DataType input_type(int i) const { return input_types_[i]; }
  DataType output_type(int i) const { return output_types_[i]; }

  void SetStatus(const absl::Status& s) {
    if (status_.ok()) status_ = s;
  }
  void CtxFailure(const absl::Status& s) { SetStatus(s); }
  const absl::Status& status() const { return status_; }

 private:
  friend class OpKernel;
  Device* device_;
  std::shared_ptr<const NodeDef> def_;
  const OpDef* op_def_;
  std::vector<DataType> input_types_, output_types_;
  const TensorAttrs* tensor_attrs_;
  absl::Status status_;
};

// An input or output slot: a value, or a reference to a variable's tensor and its mutex.
struct TensorValue {
  Tensor value;
  Tensor* ref = nullptr;
  absl::Mutex* ref_mu = nullptr;
  bool is_ref() const { return ref != nullptr; }
  // The value, or (for a reference) a snapshot taken under the variable's lock.
  Tensor Get() const;
};

class OpKernelContext {
 public:
  struct Params {
    Device* device = nullptr;
    OpKernel* op_kernel = nullptr;
    std::vector<TensorValue>* inputs = nullptr;
    bool is_input_dead = false;
    Rendezvous* rendezvous = nullptr;
    int64_t step_id = 0;
    FrameAndIter frame_iter;
    CancellationManager* cancellation_manager = nullptr;
    CallFrameInterface* call_frame = nullptr;
    ResourceMgr* step_resources = nullptr;  // per-step state (TensorArrays)
    // Schedules a closure on the inter-op pool.
    std::function<void(std::function<void()>)> runner;
  };

  explicit OpKernelContext(Params* params);

  int num_inputs() const { return static_cast<int>(params_->inputs->size()); }
  int num_outputs() const { return static_cast<int>(outputs_.size()); }
  // Input i. For an input the OpDef declares as a reference, this is a snapshot of the variable.
  const Tensor& input(int i) const { return (*params_->inputs)[i].value; }
  // Input i for writing in place, when this kernel holds the only reference to its buffer (as
  // TensorFlow's forward_input): nullptr for a reference input or a buffer another tensor shares.
  // The tensor stays the context's (valid during this Compute); call it from the kernel's own
  // thread only, as input(). i must be in [0, num_inputs()).
  Tensor* input_if_unique(int i) const {
    TensorValue& v = (*params_->inputs)[i];
    return !v.is_ref() && v.value.RefCountIsOne() ? &v.value : nullptr;
  }
  DataType input_dtype(int i) const { return params_->op_kernel->input_type(i); }
  DataType expected_output_dtype(int i) const { return params_->op_kernel->output_type(i); }
  bool input_is_ref(int i) const { return (*params_->inputs)[i].is_ref(); }
  // For reference inputs: the variable's mutex and tensor; lock the mutex before touching it.
  absl::Mutex* input_ref_mutex(int i) const { return (*params_->inputs)[i].ref_mu; }
  Tensor* mutable_input_ref(int i) const { return (*params_->inputs)[i].ref; }
  // Passes reference input `in` through as reference output `out` (Assign, Identity on refs).
  void forward_ref_input_to_ref_output(int in, int out);

  // Allocates output i; INVALID_ARGUMENT-free: RESOURCE_EXHAUSTED when memory runs out.
  absl::Status allocate_output(int i, const TensorShape& shape, Tensor** out);
  absl::Status allocate_temp(DataType dtype, const TensorShape& shape, Tensor* out);
  // Sets output i to share `value`'s buffer. Its dtype must be the output's.
  void set_output(int i, const Tensor& value);
  void set_output_ref(int i, absl::Mutex* mu, Tensor* ref);
  // Reuses input `in`'s buffer for output `out` when nothing else holds it and dtype and size
  // fit; otherwise allocates. Returns the output through `out_tensor`.
  absl::Status forward_input_or_allocate_output(int in, int out, const TensorShape& shape,
                                                Tensor** out_tensor);
  const TensorValue& output_value(int i) const { return outputs_[i]; }
  // Output i moved out of the context, for the executor once the kernel has returned (or called
  // its done callback): output_value(i) is empty afterwards, has_output(i) unchanged.
  TensorValue release_output(int i) { return std::move(outputs_[i]); }
  bool has_output(int i) const { return has_output_[i]; }
  // A kernel (_Recv) that receives a dead tensor sets this; all outputs are then dead.
  bool* is_output_dead() { return &is_output_dead_; }

  void SetStatus(const absl::Status& s) {
    if (status_.ok() && !s.ok()) status_ = s;
  }
  void CtxFailure(const absl::Status& s) { SetStatus(s); }
  const absl::Status& status() const { return status_; }

  const OpKernel& op_kernel() const { return *params_->op_kernel; }
  Device* device() const { return params_->device; }
  ResourceMgr* resource_manager() const { return params_->device->resource_manager(); }
  ResourceMgr* step_resources() const { return params_->step_resources; }
  const Eigen::ThreadPoolDevice& eigen_cpu_device() const {
    return *params_->device->eigen_cpu_device();
  }
  Rendezvous* rendezvous() const { return params_->rendezvous; }
  int64_t step_id() const { return params_->step_id; }
  FrameAndIter frame_iter() const { return params_->frame_iter; }
  bool is_input_dead() const { return params_->is_input_dead; }
  CancellationManager* cancellation_manager() const { return params_->cancellation_manager; }
  CallFrameInterface* call_frame() const { return params_->call_frame; }
  const std::function<void(std::function<void()>)>& runner() const { return params_->runner; }

 private:
  Params* params_;
  absl::InlinedVector<TensorValue, 2> outputs_;
  absl::InlinedVector<bool, 2> has_output_;
  bool is_output_dead_ = false;
  absl::Status status_;
};

// Records `status` on the context with the node's name and returns from the caller when
// `cond` fails.
#define OP_REQUIRES(CTX, COND, STATUS)                                         \
  do {                                                                         \
    if (!(COND)) {                                                             \
      (CTX)->CtxFailure(STATUS);                                               \
      return;                                                                  \
    }                                                                          \
  } while (0)
#define OP_REQUIRES_OK(CTX, ...)                                               \
  do {                                                                         \
    ::absl::Status sg_op_status_ = (__VA_ARGS__);                              \
    if (!sg_op_status_.ok()) {                                                 \
      (CTX)->CtxFailure(sg_op_status_);                                        \
      return;                                                                  \
    }                                                                          \
  } while (0)
#define OP_REQUIRES_ASYNC(CTX, COND, STATUS, DONE)                             \
  do {                                                                         \
    if (!(COND)) {                                                             \
      (CTX)->CtxFailure(STATUS);                                               \
      (DONE)();                                                                \
      return;                                                                  \
    }                                                                          \
  } while (0)
#define OP_REQUIRES_OK_ASYNC(CTX, STATUS, DONE)                                \
  do {                                                                         \
    ::absl::Status sg_op_status_ = (STATUS);                                   \
    if (!sg_op_status_.ok()) {                                                 \
      (CTX)->CtxFailure(sg_op_status_);                                        \
      (DONE)();                                                                \
      return;                                                                  \
    }                                                                          \
  } while (0)

// ---- Kernel registry ------------------------------------------------------------------------

using KernelFactory = std::function<OpKernel*(OpKernelConstruction*)>;

class KernelDefBuilder {
 public:
  explicit KernelDefBuilder(const char* op) : op_(op) {}
  KernelDefBuilder& Device(const char* type) {
    device_ = type;
    return *this;
  }
  template <typename T>
  KernelDefBuilder& TypeConstraint(const char* attr) {
    constraints_.push_back({attr, {DataTypeToEnum<T>::value}});
    return *this;
  }
  KernelDefBuilder& TypeConstraint(const char* attr, std::vector<DataType> allowed) {
    constraints_.push_back({attr, std::move(allowed)});
    return *this;
  }
  // From a constant array: lists of dtypes a kernel file keeps as `constexpr DataType k[] =`,
  // which need no static initializer (a file compiled per x86-64 level may have none).
  template <size_t N>
  KernelDefBuilder& TypeConstraint(const char* attr, const DataType (&allowed)[N]) {
    return TypeConstraint(attr, std::vector<DataType>(allowed, allowed + N));
  }
  // Recorded for the kernel list (SG_GetAllRegisteredKernels) and TensorFlow familiarity; sg's
  // CPU devices keep everything in host memory whatever it says.
  KernelDefBuilder& HostMemory(const char* arg) {
    host_memory_args_.push_back(arg);
    return *this;
  }
  KernelDefBuilder& Priority(int p) {
    priority_ = p;
    return *this;
  }

  struct Constraint {
    std::string attr;
    std::vector<DataType> allowed;
  };
  std::string op_;
  std::string device_ = DEVICE_CPU;
  std::vector<Constraint> constraints_;
  std::vector<std::string> host_memory_args_;
  int priority_ = 0;
  // For a kernel compiled once per x86-64 level (KernelRegistrar below), the level of the copy
  // that registered; 0 for every other kernel.
  int isa_level_ = 0;
};

class KernelRegistry {
 public:
  static KernelRegistry* Global();
  void Register(const KernelDefBuilder& def, KernelFactory factory);
  // Makes the kernel for `node` on a device of `device_type`; `tensor_attrs` (may be null, read
  // during the call only) are the node's tensor attrs held beside the NodeDef (a graph Node's
  // tensor_attrs()). NOT_FOUND "No registered kernel for op X with attrs ..." when none
  // matches; the constructor's error otherwise.
  absl::Status CreateKernel(Device* device, const std::string& device_type,
                            std::shared_ptr<const NodeDef> node, const OpDef* op_def,
                            std::unique_ptr<OpKernel>* kernel,
                            const TensorAttrs* tensor_attrs = nullptr) const;
  bool HasKernel(absl::string_view op) const;
  // Whether CreateKernel would find a kernel for `node` on a device of `device_type` (its
  // constructor may still fail).
  bool HasKernelFor(const std::string& device_type, const NodeDef& node) const;
  // The registrations of op `op` (of every op when `op` is empty), by op name, each op's in the
  // order they were registered: what TensorFlow's KernelList reports.
  std::vector<KernelDefBuilder> Kernels(absl::string_view op = {}) const;

 private:
  struct Entry {
    KernelDefBuilder def;
    KernelFactory factory;
  };
  // The registration of highest priority matching `node` on `device_type`, or nullptr.
  const Entry* Find(const std::string& device_type, const NodeDef& node) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  mutable absl::Mutex mu_;
  std::multimap<std::string, Entry, std::less<>> kernels_ ABSL_GUARDED_BY(mu_);
};

// A kernel file compiled once per x86-64 level (cmake/SgDispatch.cmake) is built with
// SG_KERNEL_DISPATCHED defined, and its copy for level L above the baseline also with
// SG_KERNEL_ISA=L (registered through a section, below). The baseline copy's registrars pass
// level 2 and register only when 2 is the level chosen at run time (core/util/cpu_isa.h), so
// exactly one copy's kernels are in the registry. Other files pass 0: always registered.
#if defined(SG_KERNEL_DISPATCHED)
#define SG_KERNEL_REGISTRAR_ISA_ 2
#else
#define SG_KERNEL_REGISTRAR_ISA_ 0
#endif

struct KernelRegistrar {
  KernelRegistrar(const KernelDefBuilder& def, KernelFactory factory, int isa_level = 0) {
    if (isa_level != 0 && isa_level != SelectedCpuIsaLevel()) return;
    KernelDefBuilder registered = def;
    registered.isa_level_ = isa_level;
    KernelRegistry::Global()->Register(registered, std::move(factory));
  }
};

inline KernelDefBuilder Name(const char* op) { return KernelDefBuilder(op); }

#define SG_REGISTER_KERNEL_CONCAT_(a, b) a##b
#if defined(SG_KERNEL_ISA)
// A copy compiled for a higher level than the baseline must run nothing before the level is
// known (its code may not run on this CPU at all). So each registration is a function, and only
// its address goes into section sg_kernels_vL, which op_kernel.cc's baseline code walks when
// level L is the selected one. cmake/SgLocalizeObject.cmake checks that the copy's static
// initializers (iostream's, from Abseil's headers) use no vector registers.
#define SG_KERNEL_SECTION_STR_(level) #level
#define SG_KERNEL_SECTION_(level) "sg_kernels_v" SG_KERNEL_SECTION_STR_(level)
#define SG_REGISTER_KERNEL_UNIQ_(ctr, builder, ...)                                          \
  static void SG_REGISTER_KERNEL_CONCAT_(sg_register_kernel_, ctr)() {                       \
    ::sg::KernelRegistrar(                                                                   \
        ::sg::builder,                                                                       \
        [](::sg::OpKernelConstruction* ctx) -> ::sg::OpKernel* {                             \
          return new __VA_ARGS__(ctx);                                                       \
        },                                                                                   \
        SG_KERNEL_ISA);                                                                      \
  }                                                                                          \
  __attribute__((section(SG_KERNEL_SECTION_(SG_KERNEL_ISA)), used)) static void (             \
      *const SG_REGISTER_KERNEL_CONCAT_(sg_kernel_registration_, ctr))() =                   \
      &SG_REGISTER_KERNEL_CONCAT_(sg_register_kernel_, ctr)
#else
#define SG_REGISTER_KERNEL_UNIQ_(ctr, builder, ...)                                          \
  static ::sg::KernelRegistrar SG_REGISTER_KERNEL_CONCAT_(sg_kernel_registrar_, ctr)         \
      __attribute__((unused)) = ::sg::KernelRegistrar(                                       \
          ::sg::builder,                                                                     \
          [](::sg::OpKernelConstruction* ctx) -> ::sg::OpKernel* {                           \
            return new __VA_ARGS__(ctx);                                                     \
          },                                                                                 \
          SG_KERNEL_REGISTRAR_ISA_)
#endif
#define SG_REGISTER_KERNEL_UNIQ_HELPER_(ctr, builder, ...) \
  SG_REGISTER_KERNEL_UNIQ_(ctr, builder, __VA_ARGS__)
// REGISTER_KERNEL_BUILDER(Name("Op").Device(DEVICE_CPU).TypeConstraint<float>("T"), Kernel);
// The kernel class may be a template instance with commas: the rest of the arguments are used.
#define REGISTER_KERNEL_BUILDER(builder, ...) \
  SG_REGISTER_KERNEL_UNIQ_HELPER_(__COUNTER__, builder, __VA_ARGS__)

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_OP_KERNEL_H_
