#include "core/framework/op_kernel.h"

#include "absl/strings/str_join.h"
#include "absl/synchronization/notification.h"
#include "core/framework/node_def_util.h"

namespace sg {

OpKernel::OpKernel(OpKernelConstruction* ctx)
    : def_(ctx->def_), input_types_(ctx->input_types_), output_types_(ctx->output_types_) {}

OpKernel::~OpKernel() = default;

void AsyncOpKernel::Compute(OpKernelContext* ctx) {
  absl::Notification n;
  ComputeAsync(ctx, [&n]() { n.Notify(); });
  n.WaitForNotification();
}

OpKernelConstruction::OpKernelConstruction(Device* device, std::shared_ptr<const NodeDef> def,
                                           const OpDef* op_def, std::vector<DataType> input_types,
                                           std::vector<DataType> output_types,
                                           const TensorAttrs* tensor_attrs)
    : device_(device),
      def_(std::move(def)),
      op_def_(op_def),
      input_types_(std::move(input_types)),
      output_types_(std::move(output_types)),
      tensor_attrs_(tensor_attrs) {}

absl::Status OpKernelConstruction::GetAttr(absl::string_view name, Tensor* value) const {
  if (tensor_attrs_ != nullptr) {
    auto it = tensor_attrs_->find(name);
    if (it != tensor_attrs_->end()) {
      *value = it->second;
      return absl::OkStatus();
    }
  }
  absl::Status s = ::sg::GetAttr(def_->attr(), name, value);
  if (!s.ok()) {
    return absl::Status(s.code(), absl::StrCat(s.message(), " (node '", def_->name(), "', op ",
                                               def_->op(), ")"));
  }
  return s;
}

Tensor TensorValue::Get() const {
  if (ref == nullptr) return value;
  absl::ReaderMutexLock lock(ref_mu);
  return *ref;
}

OpKernelContext::OpKernelContext(Params* params)
    : params_(params),
      outputs_(params->op_kernel->num_outputs()),
      has_output_(params->op_kernel->num_outputs(), false) {}

void OpKernelContext::forward_ref_input_to_ref_output(int in, int out) {
  const TensorValue& v = (*params_->inputs)[in];
  if (v.is_ref()) {
    set_output_ref(out, v.ref_mu, v.ref);
  } else {
    set_output(out, v.value);
  }
}

absl::Status OpKernelContext::allocate_output(int i, const TensorShape& shape, Tensor** out) {
  DataType dt = BaseType(expected_output_dtype(i));
  auto t = Tensor::Allocate(dt, shape);
  if (!t.ok()) {
    return errors::Annotate(t.status(), absl::StrCat("node '", op_kernel().name(), "': "));
  }
  outputs_[i] = TensorValue{*std::move(t)};
  has_output_[i] = true;
  *out = &outputs_[i].value;
  return absl::OkStatus();
}

absl::Status OpKernelContext::allocate_temp(DataType dtype, const TensorShape& shape,
                                            Tensor* out) {
  auto t = Tensor::Allocate(dtype, shape);
  if (!t.ok()) {
    return errors::Annotate(t.status(), absl::StrCat("node '", op_kernel().name(), "': "));
  }
  *out = *std::move(t);
  return absl::OkStatus();
}

void OpKernelContext::set_output(int i, const Tensor& value) {
  outputs_[i] = TensorValue{value};
  has_output_[i] = true;
}

void OpKernelContext::set_output_ref(int i, absl::Mutex* mu, Tensor* ref) {
  outputs_[i] = TensorValue{Tensor(), ref, mu};
  has_output_[i] = true;
}

absl::Status OpKernelContext::forward_input_or_allocate_output(int in, int out,
                                                               const TensorShape& shape,
                                                               Tensor** out_tensor) {
  const TensorValue& v = (*params_->inputs)[in];
  // The executor moves each input out of its slot into the inputs vector, so a use count of 1
  // means nobody else (another consumer, a Const kernel, a caller's feed) can see the buffer.
  if (!v.is_ref() && v.value.buffer() && v.value.buffer().use_count() == 1 &&
      v.value.dtype() == BaseType(expected_output_dtype(out)) &&
      v.value.NumElements() == shape.num_elements() && DataTypeIsPod(v.value.dtype()) ) {
    Tensor t;
    t.CopyFrom(v.value, shape);
    set_output(out, t);
    *out_tensor = &outputs_[out].value;
    return absl::OkStatus();
  }
  return allocate_output(out, shape, out_tensor);
}

// ---- Kernel registry ----

KernelRegistry* KernelRegistry::Global() {
  static KernelRegistry* registry = new KernelRegistry;
  return registry;
}

// The registrations of the kernels compiled for x86-64-v3 and -v4 (op_kernel.h): the linker
// gathers their addresses into sections sg_kernels_v3 and sg_kernels_v4 and marks the ends with
// these symbols. Weak: a build without those copies (SG_NATIVE, sanitizers) has neither section.
extern "C" {
extern void (*const __start_sg_kernels_v3[])() __attribute__((weak, visibility("hidden")));
extern void (*const __stop_sg_kernels_v3[])() __attribute__((weak, visibility("hidden")));
extern void (*const __start_sg_kernels_v4[])() __attribute__((weak, visibility("hidden")));
extern void (*const __stop_sg_kernels_v4[])() __attribute__((weak, visibility("hidden")));
}

namespace {

// Runs, from baseline code, the registrations of the copy for the selected level only.
struct DispatchedKernelRegistrar {
  DispatchedKernelRegistrar() {
    void (*const* begin)() = nullptr;
    void (*const* end)() = nullptr;
    switch (SelectedCpuIsaLevel()) {
      case 3: begin = __start_sg_kernels_v3; end = __stop_sg_kernels_v3; break;
      case 4: begin = __start_sg_kernels_v4; end = __stop_sg_kernels_v4; break;
      default: break;
    }
    if (begin == nullptr || end == nullptr) return;
    for (auto* p = begin; p != end; ++p) (*p)();
  }
};
DispatchedKernelRegistrar dispatched_kernel_registrar;

}  // namespace

void KernelRegistry::Register(const KernelDefBuilder& def, KernelFactory factory) {
  absl::MutexLock lock(&mu_);
  kernels_.emplace(def.op_, Entry{def, std::move(factory)});
}

bool KernelRegistry::HasKernel(absl::string_view op) const {
  absl::MutexLock lock(&mu_);
  return kernels_.find(op) != kernels_.end();
}

std::vector<KernelDefBuilder> KernelRegistry::Kernels(absl::string_view op) const {
  absl::MutexLock lock(&mu_);
  std::vector<KernelDefBuilder> defs;
  auto begin = op.empty() ? kernels_.begin() : kernels_.lower_bound(op);
  auto end = op.empty() ? kernels_.end() : kernels_.upper_bound(op);
  for (auto it = begin; it != end; ++it) defs.push_back(it->second.def);
  return defs;
}

const KernelRegistry::Entry* KernelRegistry::Find(const std::string& device_type,
                                                  const NodeDef& node) const {
  const Entry* best = nullptr;
  auto range = kernels_.equal_range(node.op());
  for (auto it = range.first; it != range.second; ++it) {
    const Entry& e = it->second;
    if (e.def.device_ != device_type) continue;
    bool match = true;
    for (const auto& c : e.def.constraints_) {
      auto a = node.attr().find(c.attr);
      if (a == node.attr().end()) {
        match = false;
        break;
      }
      std::vector<DataType> types;
      if (a->second.value_case() == AttrValue::kType) {
        types.push_back(a->second.type());
      } else {
        for (int t : a->second.list().type()) types.push_back(static_cast<DataType>(t));
      }
      for (DataType t : types) {
        if (std::find(c.allowed.begin(), c.allowed.end(), t) == c.allowed.end()) match = false;
      }
    }
    if (match && (best == nullptr || e.def.priority_ > best->def.priority_)) best = &e;
  }
  return best;
}

bool KernelRegistry::HasKernelFor(const std::string& device_type, const NodeDef& node) const {
  absl::MutexLock lock(&mu_);
  return Find(device_type, node) != nullptr;
}

absl::Status KernelRegistry::CreateKernel(Device* device, const std::string& device_type,
                                          std::shared_ptr<const NodeDef> node,
                                          const OpDef* op_def,
                                          std::unique_ptr<OpKernel>* kernel,
                                          const TensorAttrs* tensor_attrs) const {
  const Entry* best;
  {
    absl::MutexLock lock(&mu_);
    best = Find(device_type, *node);
  }
  if (best == nullptr) {
    std::vector<std::string> attrs;
    for (const auto& kv : node->attr()) {
      if (kv.second.value_case() == AttrValue::kType) {
        attrs.push_back(absl::StrCat(kv.first, "=", DataTypeString(kv.second.type())));
      }
    }
    return errors::NotFound("No registered kernel for op ", node->op(), " on ", device_type,
                            " with attrs {", absl::StrJoin(attrs, ", "), "} (node '",
                            node->name(), "')");
  }
  std::vector<DataType> in, out;
  SG_RETURN_IF_ERROR(InOutTypesForNode(*node, *op_def, &in, &out));
  OpKernelConstruction construction(device, node, op_def, std::move(in), std::move(out),
                                    tensor_attrs);
  std::unique_ptr<OpKernel> k(best->factory(&construction));
  if (!construction.status().ok()) return construction.status();
  *kernel = std::move(k);
  return absl::OkStatus();
}

}  // namespace sg
