// Op libraries: op definitions (sg/ops.h) and kernels (sg/kernels.h) registered from C, and
// SG_LoadLibrary, which dlopens a library whose static initializers make such registrations.
// Each C function converts and delegates to the op registry (core/framework/op.h) and the kernel
// registry (core/framework/op_kernel.h).
#include <dlfcn.h>

#include <cctype>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "c_api/include/sg/kernels.h"
#include "c_api/include/sg/ops.h"
#include "core/framework/op.h"
#include "core/framework/op_kernel.h"
#include "core/framework/shape_inference.h"
#include "core/framework/types.h"

namespace errors = sg::errors;
using sg::c_api::Guard;

struct SG_OpDefinitionBuilder {
  explicit SG_OpDefinitionBuilder(std::string name) : name(name), builder(std::move(name)) {}
  std::string name;
  sg::OpDefBuilder builder;
  bool commutative = false, aggregate = false, stateful = false, uninitialized_input = false;
  absl::Status deferred_error;  // a NULL spec, reported at registration
  void (*shape_fn)(SG_ShapeInferenceContext*, SG_Status*) = nullptr;
};

struct SG_ShapeHandle {
  sg::PartialTensorShape shape;
};
struct SG_DimensionHandle {
  int64_t value = -1;
};

struct SG_KernelBuilder {
  sg::KernelDefBuilder def{""};
  void* (*create)(SG_OpKernelConstruction*) = nullptr;
  void (*compute)(void*, SG_OpKernelContext*) = nullptr;
  void (*destroy)(void*) = nullptr;
  absl::Status deferred_error;  // a NULL op or device name
};

struct SG_Library {
  std::string op_list;  // serialized OpList
};

// SG_ShapeInferenceContext, SG_OpKernelConstruction and SG_OpKernelContext are never defined:
// each is the sg object of that role.
namespace {

sg::InferenceContext* ToCc(SG_ShapeInferenceContext* c) {
  return reinterpret_cast<sg::InferenceContext*>(c);
}
sg::OpKernelConstruction* ToCc(SG_OpKernelConstruction* c) {
  return reinterpret_cast<sg::OpKernelConstruction*>(c);
}
sg::OpKernelContext* ToCc(SG_OpKernelContext* c) {
  return reinterpret_cast<sg::OpKernelContext*>(c);
}

// What the library being loaded on this thread registered: registrations come from its static
// initializers, which dlopen runs on the loading thread.
struct LoadState {
  sg::OpList ops;
  std::vector<std::pair<std::string, std::string>> kernels;  // (kernel name, op)
  absl::Status first_error;
  void Note(const absl::Status& s) {
    if (first_error.ok() && !s.ok()) first_error = s;
  }
};
thread_local LoadState* current_load = nullptr;

// A kernel whose code is three C functions.
class CKernel final : public sg::OpKernel {
 public:
  CKernel(sg::OpKernelConstruction* ctx, const SG_KernelBuilder& b)
      : OpKernel(ctx), compute_(b.compute), destroy_(b.destroy) {
    if (b.create != nullptr) state_ = b.create(reinterpret_cast<SG_OpKernelConstruction*>(ctx));
  }
  ~CKernel() override {
    if (destroy_ != nullptr) destroy_(state_);
  }
  void Compute(sg::OpKernelContext* ctx) override {
    compute_(state_, reinterpret_cast<SG_OpKernelContext*>(ctx));
  }

 private:
  void (*const compute_)(void*, SG_OpKernelContext*);
  void (*const destroy_)(void*);
  void* state_ = nullptr;
};

// TensorFlow's rule for op type names: [A-Z][a-zA-Z0-9>_]*.
bool IsValidOpName(const std::string& name) {
  if (name.empty() || name[0] < 'A' || name[0] > 'Z') return false;
  for (char ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '>') return false;
  }
  return true;
}

absl::Status CheckInputIndex(sg::InferenceContext* c, int i) {
  if (i < 0 || i >= c->num_inputs()) {
    return errors::InvalidArgument("input index ", i, " is out of range [0, ", c->num_inputs(),
                                   ") for node '", c->node_def().name(), "'");
  }
  return absl::OkStatus();
}

// WithRank / WithRankAtLeast / WithRankAtMost: `fits` says whether a known rank is allowed.
template <typename Fits>
void WithRankLike(const char* where, SG_ShapeInferenceContext* ctx, SG_ShapeHandle* handle,
                  int64_t rank, SG_ShapeHandle* result, SG_Status* status, const char* phrase,
                  Fits fits) {
  const bool exact = phrase[0] == '\0';
  Guard(where, status, [&]() -> absl::Status {
    if (ctx == nullptr || handle == nullptr || result == nullptr) {
      return errors::InvalidArgument(where, ": ctx, handle and result must not be NULL");
    }
    if (rank < 0) return errors::InvalidArgument(where, ": rank ", rank, " is negative");
    const sg::PartialTensorShape& s = handle->shape;
    if (s.unknown_rank()) {
      result->shape = exact ? sg::PartialTensorShape(std::vector<int64_t>(rank, -1))
                            : sg::PartialTensorShape();
      return absl::OkStatus();
    }
    if (!fits(s.dims())) {
      return errors::InvalidArgument("Shape ", s.DebugString(), " must have rank ", phrase,
                                     rank, " (node '", ToCc(ctx)->node_def().name(), "')");
    }
    result->shape = s;
    return absl::OkStatus();
  });
}

absl::Status GetConstructionAttr(const char* where, SG_OpKernelConstruction* ctx,
                                 const char* attr_name, const sg::AttrValue** value) {
  if (ctx == nullptr || attr_name == nullptr) {
    return errors::InvalidArgument(where, ": ctx and attr_name must not be NULL");
  }
  const auto& attrs = ToCc(ctx)->def().attr();
  auto it = attrs.find(attr_name);
  if (it == attrs.end()) {
    return errors::NotFound("No attr named '", attr_name, "' in NodeDef (node '",
                                   ToCc(ctx)->def().name(), "', op ", ToCc(ctx)->def().op(), ")");
  }
  *value = &it->second;
  return absl::OkStatus();
}

template <typename T, typename C>
void GetScalarAttr(const char* where, SG_OpKernelConstruction* ctx, const char* attr_name,
                   C* val, SG_Status* status) {
  Guard(where, status, [&]() -> absl::Status {
    if (ctx == nullptr || attr_name == nullptr || val == nullptr) {
      return errors::InvalidArgument(where, ": ctx, attr_name and val must not be NULL");
    }
    T v;
    SG_RETURN_IF_ERROR(ToCc(ctx)->GetAttr(attr_name, &v));
    *val = static_cast<C>(v);
    return absl::OkStatus();
  });
}

std::mutex load_mu;  // serialises SG_LoadLibrary
// The outcome of each library loaded, by dlopen handle: a library dlopen'd again runs no
// initializer again, so its op list (or its error) is what the first load found.
std::map<void*, absl::StatusOr<std::string>>* LoadedLibraries() {
  static auto* loaded = new std::map<void*, absl::StatusOr<std::string>>;
  return loaded;
}

}  // namespace

extern "C" {

// ---- Op definitions -------------------------------------------------------------------------

SG_OpDefinitionBuilder* SG_NewOpDefinitionBuilder(const char* op_name) {
  return sg::c_api::GuardValue<SG_OpDefinitionBuilder*>(nullptr, [&] {
    auto* b = new SG_OpDefinitionBuilder(op_name == nullptr ? "" : op_name);
    if (op_name == nullptr) {
      b->deferred_error = errors::InvalidArgument("SG_NewOpDefinitionBuilder: op_name is NULL");
    }
    return b;
  });
}

void SG_DeleteOpDefinitionBuilder(SG_OpDefinitionBuilder* builder) { delete builder; }

void SG_RegisterOpDefinition(SG_OpDefinitionBuilder* builder, SG_Status* status) {
  Guard("SG_RegisterOpDefinition", status, [&]() -> absl::Status {
    std::unique_ptr<SG_OpDefinitionBuilder> b(builder);
    absl::Status s = [&]() -> absl::Status {
      if (b == nullptr) return errors::InvalidArgument("SG_RegisterOpDefinition: builder is NULL");
      SG_RETURN_IF_ERROR(b->deferred_error);
      if (!IsValidOpName(b->name)) {
        return errors::InvalidArgument("SG_RegisterOpDefinition: '", b->name,
                                       "' is not a valid op name (want [A-Z][a-zA-Z0-9>_]*)");
      }
      if (b->commutative) b->builder.SetIsCommutative();
      if (b->aggregate) b->builder.SetIsAggregate();
      if (b->stateful) b->builder.SetIsStateful();
      if (b->uninitialized_input) b->builder.SetAllowsUninitializedInput();
      if (auto* fn = b->shape_fn) {
        b->builder.SetShapeFn([fn](sg::InferenceContext* c) -> absl::Status {
          SG_Status st;
          fn(reinterpret_cast<SG_ShapeInferenceContext*>(c), &st);
          return st.status;
        });
      }
      auto data = std::make_unique<sg::OpRegistrationData>();
      SG_RETURN_IF_ERROR(b->builder.Finalize(data.get()));
      sg::OpDef def = data->op_def;
      SG_RETURN_IF_ERROR(sg::OpRegistry::Global()->Register(std::move(data)));
      if (current_load != nullptr) *current_load->ops.add_op() = std::move(def);
      return absl::OkStatus();
    }();
    if (current_load != nullptr) current_load->Note(s);
    return s;
  });
}

void SG_OpDefinitionBuilderAddAttr(SG_OpDefinitionBuilder* builder, const char* attr_spec) {
  if (builder == nullptr) return;
  if (attr_spec == nullptr) {
    builder->deferred_error.Update(errors::InvalidArgument("op ", builder->name, ": NULL attr spec"));
    return;
  }
  builder->builder.Attr(attr_spec);
}

void SG_OpDefinitionBuilderAddInput(SG_OpDefinitionBuilder* builder, const char* input_spec) {
  if (builder == nullptr) return;
  if (input_spec == nullptr) {
    builder->deferred_error.Update(errors::InvalidArgument("op ", builder->name, ": NULL input spec"));
    return;
  }
  builder->builder.Input(input_spec);
}

void SG_OpDefinitionBuilderAddOutput(SG_OpDefinitionBuilder* builder, const char* output_spec) {
  if (builder == nullptr) return;
  if (output_spec == nullptr) {
    builder->deferred_error.Update(
        errors::InvalidArgument("op ", builder->name, ": NULL output spec"));
    return;
  }
  builder->builder.Output(output_spec);
}

void SG_OpDefinitionBuilderSetIsCommutative(SG_OpDefinitionBuilder* builder,
                                            unsigned char is_commutative) {
  if (builder != nullptr) builder->commutative = is_commutative != 0;
}
void SG_OpDefinitionBuilderSetIsAggregate(SG_OpDefinitionBuilder* builder,
                                          unsigned char is_aggregate) {
  if (builder != nullptr) builder->aggregate = is_aggregate != 0;
}
void SG_OpDefinitionBuilderSetIsStateful(SG_OpDefinitionBuilder* builder,
                                         unsigned char is_stateful) {
  if (builder != nullptr) builder->stateful = is_stateful != 0;
}
void SG_OpDefinitionBuilderSetAllowsUninitializedInput(SG_OpDefinitionBuilder* builder,
                                                       unsigned char allows_uninitialized_input) {
  if (builder != nullptr) builder->uninitialized_input = allows_uninitialized_input != 0;
}

void SG_OpDefinitionBuilderDeprecated(SG_OpDefinitionBuilder* builder, int version,
                                      const char* explanation) {
  if (builder == nullptr) return;
  builder->builder.Deprecated(version, explanation == nullptr ? "" : explanation);
}

void SG_OpDefinitionBuilderSetShapeInferenceFunction(
    SG_OpDefinitionBuilder* builder,
    void (*shape_inference_func)(SG_ShapeInferenceContext* ctx, SG_Status* status)) {
  if (builder != nullptr) builder->shape_fn = shape_inference_func;
}

// ---- Shape inference ------------------------------------------------------------------------

int64_t SG_ShapeInferenceContextNumInputs(SG_ShapeInferenceContext* ctx) {
  return ctx == nullptr ? 0 : ToCc(ctx)->num_inputs();
}

SG_ShapeHandle* SG_NewShapeHandle(void) {
  return sg::c_api::GuardValue<SG_ShapeHandle*>(nullptr, [] { return new SG_ShapeHandle; });
}

void SG_ShapeInferenceContextGetInput(SG_ShapeInferenceContext* ctx, int i,
                                      SG_ShapeHandle* handle, SG_Status* status) {
  Guard("SG_ShapeInferenceContextGetInput", status, [&]() -> absl::Status {
    if (ctx == nullptr || handle == nullptr) {
      return errors::InvalidArgument(
          "SG_ShapeInferenceContextGetInput: ctx and handle must not be NULL");
    }
    SG_RETURN_IF_ERROR(CheckInputIndex(ToCc(ctx), i));
    handle->shape = ToCc(ctx)->input(i);
    return absl::OkStatus();
  });
}

void SG_ShapeInferenceContextSetOutput(SG_ShapeInferenceContext* ctx, int i,
                                       SG_ShapeHandle* handle, SG_Status* status) {
  Guard("SG_ShapeInferenceContextSetOutput", status, [&]() -> absl::Status {
    if (ctx == nullptr || handle == nullptr) {
      return errors::InvalidArgument(
          "SG_ShapeInferenceContextSetOutput: ctx and handle must not be NULL");
    }
    sg::InferenceContext* c = ToCc(ctx);
    if (i < 0 || i >= c->num_outputs()) {
      return errors::InvalidArgument("output index ", i, " is out of range [0, ",
                                     c->num_outputs(), ") for node '", c->node_def().name(), "'");
    }
    c->set_output(i, handle->shape);
    return absl::OkStatus();
  });
}

void SG_ShapeInferenceContextSetUnknownShape(SG_ShapeInferenceContext* ctx, SG_Status* status) {
  Guard("SG_ShapeInferenceContextSetUnknownShape", status, [&]() -> absl::Status {
    if (ctx == nullptr) {
      return errors::InvalidArgument("SG_ShapeInferenceContextSetUnknownShape: ctx is NULL");
    }
    for (int i = 0; i < ToCc(ctx)->num_outputs(); ++i) {
      ToCc(ctx)->set_output(i, sg::PartialTensorShape());
    }
    return absl::OkStatus();
  });
}

void SG_ShapeInferenceContextUnchangedShape(SG_ShapeInferenceContext* ctx, SG_Status* status) {
  Guard("SG_ShapeInferenceContextUnchangedShape", status, [&]() -> absl::Status {
    if (ctx == nullptr) {
      return errors::InvalidArgument("SG_ShapeInferenceContextUnchangedShape: ctx is NULL");
    }
    sg::InferenceContext* c = ToCc(ctx);
    SG_RETURN_IF_ERROR(CheckInputIndex(c, 0));
    for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, c->input(0));
    return absl::OkStatus();
  });
}

SG_ShapeHandle* SG_ShapeInferenceContextScalar(SG_ShapeInferenceContext* ctx) {
  return sg::c_api::GuardValue<SG_ShapeHandle*>(
      nullptr, [] { return new SG_ShapeHandle{sg::PartialTensorShape::Scalar()}; });
}

SG_ShapeHandle* SG_ShapeInferenceContextVectorFromSize(SG_ShapeInferenceContext* ctx,
                                                       size_t size) {
  return sg::c_api::GuardValue<SG_ShapeHandle*>(nullptr, [size] {
    return new SG_ShapeHandle{sg::PartialTensorShape({static_cast<int64_t>(size)})};
  });
}

void SG_ShapeInferenceContext_GetAttrType(SG_ShapeInferenceContext* ctx, const char* attr_name,
                                          SG_DataType* val, SG_Status* status) {
  Guard("SG_ShapeInferenceContext_GetAttrType", status, [&]() -> absl::Status {
    if (ctx == nullptr || attr_name == nullptr || val == nullptr) {
      return errors::InvalidArgument(
          "SG_ShapeInferenceContext_GetAttrType: ctx, attr_name and val must not be NULL");
    }
    sg::DataType t;
    SG_RETURN_IF_ERROR(ToCc(ctx)->GetAttr(attr_name, &t));
    *val = static_cast<SG_DataType>(t);
    return absl::OkStatus();
  });
}

int64_t SG_ShapeInferenceContextRank(SG_ShapeInferenceContext* ctx, SG_ShapeHandle* handle) {
  return handle == nullptr ? -1 : handle->shape.dims();
}

int SG_ShapeInferenceContextRankKnown(SG_ShapeInferenceContext* ctx, SG_ShapeHandle* handle) {
  return handle != nullptr && !handle->shape.unknown_rank();
}

void SG_ShapeInferenceContextWithRank(SG_ShapeInferenceContext* ctx, SG_ShapeHandle* handle,
                                      int64_t rank, SG_ShapeHandle* result, SG_Status* status) {
  WithRankLike("SG_ShapeInferenceContextWithRank", ctx, handle, rank, result, status, "",
               [rank](int64_t r) { return r == rank; });
}
void SG_ShapeInferenceContextWithRankAtLeast(SG_ShapeInferenceContext* ctx,
                                             SG_ShapeHandle* handle, int64_t rank,
                                             SG_ShapeHandle* result, SG_Status* status) {
  WithRankLike("SG_ShapeInferenceContextWithRankAtLeast", ctx, handle, rank, result, status,
               "at least ", [rank](int64_t r) { return r >= rank; });
}
void SG_ShapeInferenceContextWithRankAtMost(SG_ShapeInferenceContext* ctx, SG_ShapeHandle* handle,
                                            int64_t rank, SG_ShapeHandle* result,
                                            SG_Status* status) {
  WithRankLike("SG_ShapeInferenceContextWithRankAtMost", ctx, handle, rank, result, status,
               "at most ", [rank](int64_t r) { return r <= rank; });
}

void SG_ShapeInferenceContextDim(SG_ShapeInferenceContext* ctx, SG_ShapeHandle* shape_handle,
                                 int64_t i, SG_DimensionHandle* result) {
  if (result == nullptr) return;
  result->value = -1;
  if (shape_handle == nullptr || shape_handle->shape.unknown_rank()) return;
  const int64_t rank = shape_handle->shape.dims();
  if (i < 0) i += rank;
  if (i >= 0 && i < rank) result->value = shape_handle->shape.dim_size(static_cast<int>(i));
}

SG_DimensionHandle* SG_NewDimensionHandle(void) {
  return sg::c_api::GuardValue<SG_DimensionHandle*>(nullptr, [] { return new SG_DimensionHandle; });
}
int SG_DimensionHandleValueKnown(SG_DimensionHandle* dim_handle) {
  return dim_handle != nullptr && dim_handle->value >= 0;
}
int64_t SG_DimensionHandleValue(SG_DimensionHandle* dim_handle) {
  return dim_handle == nullptr ? -1 : dim_handle->value;
}
void SG_DeleteShapeHandle(SG_ShapeHandle* handle) { delete handle; }
void SG_DeleteDimensionHandle(SG_DimensionHandle* handle) { delete handle; }

// ---- Kernel registration --------------------------------------------------------------------

SG_KernelBuilder* SG_NewKernelBuilder(const char* op_name, const char* device_name,
                                      void* (*create_func)(SG_OpKernelConstruction*),
                                      void (*compute_func)(void*, SG_OpKernelContext*),
                                      void (*delete_func)(void*)) {
  return sg::c_api::GuardValue<SG_KernelBuilder*>(nullptr, [&] {
    auto* b = new SG_KernelBuilder;
    if (op_name == nullptr || device_name == nullptr) {
      b->deferred_error =
          errors::InvalidArgument("SG_NewKernelBuilder: op_name and device_name must not be NULL");
    } else {
      b->def.op_ = op_name;
      b->def.device_ = device_name;
    }
    b->create = create_func;
    b->compute = compute_func;
    b->destroy = delete_func;
    return b;
  });
}

void SG_DeleteKernelBuilder(SG_KernelBuilder* builder) { delete builder; }

void SG_KernelBuilder_TypeConstraint(SG_KernelBuilder* kernel_builder, const char* attr_name,
                                     SG_DataType type, SG_Status* status) {
  Guard("SG_KernelBuilder_TypeConstraint", status, [&]() -> absl::Status {
    if (kernel_builder == nullptr || attr_name == nullptr) {
      return errors::InvalidArgument(
          "SG_KernelBuilder_TypeConstraint: kernel_builder and attr_name must not be NULL");
    }
    const int t = static_cast<int>(type);
    if (!sg::DataType_IsValid(t) || t == 0 || t >= 100) {
      return errors::InvalidArgument("SG_KernelBuilder_TypeConstraint: ", t,
                                     " is not a data type");
    }
    kernel_builder->def.TypeConstraint(attr_name, {static_cast<sg::DataType>(t)});
    return absl::OkStatus();
  });
}

void SG_KernelBuilder_HostMemory(SG_KernelBuilder* kernel_builder, const char* arg_name) {
  if (kernel_builder == nullptr || arg_name == nullptr) return;
  kernel_builder->def.host_memory_args_.push_back(arg_name);
}

void SG_KernelBuilder_Priority(SG_KernelBuilder* kernel_builder, int32_t priority_number) {
  if (kernel_builder != nullptr) kernel_builder->def.Priority(priority_number);
}

void SG_RegisterKernelBuilder(const char* kernel_name, SG_KernelBuilder* builder,
                              SG_Status* status) {
  Guard("SG_RegisterKernelBuilder", status, [&]() -> absl::Status {
    std::unique_ptr<SG_KernelBuilder> b(builder);
    absl::Status s = [&]() -> absl::Status {
      if (b == nullptr || kernel_name == nullptr) {
        return errors::InvalidArgument(
            "SG_RegisterKernelBuilder: kernel_name and builder must not be NULL");
      }
      SG_RETURN_IF_ERROR(b->deferred_error);
      if (b->compute == nullptr) {
        return errors::InvalidArgument("SG_RegisterKernelBuilder: kernel '", kernel_name,
                                       "' for op ", b->def.op_, " has no compute function");
      }
      if (current_load == nullptr && sg::OpRegistry::Global()->LookUp(b->def.op_) == nullptr) {
        return errors::NotFound("Op type not registered '", b->def.op_, "' (kernel '",
                                kernel_name, "')");
      }
      if (current_load != nullptr) current_load->kernels.emplace_back(kernel_name, b->def.op_);
      auto shared = std::make_shared<SG_KernelBuilder>(*b);
      sg::KernelRegistry::Global()->Register(
          shared->def, [shared](sg::OpKernelConstruction* ctx) -> sg::OpKernel* {
            return new CKernel(ctx, *shared);
          });
      return absl::OkStatus();
    }();
    if (current_load != nullptr) current_load->Note(s);
    return s;
  });
}

// ---- Kernel construction --------------------------------------------------------------------

void SG_OpKernelConstruction_Failure(SG_OpKernelConstruction* ctx, SG_Status* status) {
  if (ctx == nullptr || status == nullptr || status->status.ok()) return;
  ToCc(ctx)->CtxFailure(status->status);
}

void SG_OpKernelConstruction_GetAttrType(SG_OpKernelConstruction* ctx, const char* attr_name,
                                         SG_DataType* val, SG_Status* status) {
  GetScalarAttr<sg::DataType>("SG_OpKernelConstruction_GetAttrType", ctx, attr_name, val, status);
}
void SG_OpKernelConstruction_GetAttrInt32(SG_OpKernelConstruction* ctx, const char* attr_name,
                                          int32_t* val, SG_Status* status) {
  GetScalarAttr<int32_t>("SG_OpKernelConstruction_GetAttrInt32", ctx, attr_name, val, status);
}
void SG_OpKernelConstruction_GetAttrInt64(SG_OpKernelConstruction* ctx, const char* attr_name,
                                          int64_t* val, SG_Status* status) {
  GetScalarAttr<int64_t>("SG_OpKernelConstruction_GetAttrInt64", ctx, attr_name, val, status);
}
void SG_OpKernelConstruction_GetAttrFloat(SG_OpKernelConstruction* ctx, const char* attr_name,
                                          float* val, SG_Status* status) {
  GetScalarAttr<float>("SG_OpKernelConstruction_GetAttrFloat", ctx, attr_name, val, status);
}
void SG_OpKernelConstruction_GetAttrBool(SG_OpKernelConstruction* ctx, const char* attr_name,
                                         unsigned char* val, SG_Status* status) {
  GetScalarAttr<bool>("SG_OpKernelConstruction_GetAttrBool", ctx, attr_name, val, status);
}

void SG_OpKernelConstruction_GetAttrString(SG_OpKernelConstruction* ctx, const char* attr_name,
                                           char* val, size_t max_length, SG_Status* status) {
  Guard("SG_OpKernelConstruction_GetAttrString", status, [&]() -> absl::Status {
    if (ctx == nullptr || attr_name == nullptr || (val == nullptr && max_length > 0)) {
      return errors::InvalidArgument(
          "SG_OpKernelConstruction_GetAttrString: ctx, attr_name and val must not be NULL");
    }
    std::string v;
    SG_RETURN_IF_ERROR(ToCc(ctx)->GetAttr(attr_name, &v));
    if (v.size() > max_length) {
      return errors::InvalidArgument("attr '", attr_name, "' of node '", ToCc(ctx)->def().name(),
                                     "' has ", v.size(), " bytes, more than max_length ",
                                     max_length);
    }
    if (!v.empty()) std::memcpy(val, v.data(), v.size());
    return absl::OkStatus();
  });
}

void SG_OpKernelConstruction_GetAttrSize(SG_OpKernelConstruction* ctx, const char* attr_name,
                                         int32_t* list_size, int32_t* total_size,
                                         SG_Status* status) {
  Guard("SG_OpKernelConstruction_GetAttrSize", status, [&]() -> absl::Status {
    const sg::AttrValue* v = nullptr;
    SG_RETURN_IF_ERROR(
        GetConstructionAttr("SG_OpKernelConstruction_GetAttrSize", ctx, attr_name, &v));
    if (list_size == nullptr || total_size == nullptr) {
      return errors::InvalidArgument(
          "SG_OpKernelConstruction_GetAttrSize: list_size and total_size must not be NULL");
    }
    int32_t list = -1, total = -1;
    if (v->has_list()) {
      const auto& l = v->list();
      list = l.s_size() + l.i_size() + l.f_size() + l.b_size() + l.type_size() + l.shape_size() +
             l.tensor_size() + l.func_size();
      if (l.s_size() > 0) {
        total = 0;
        for (const auto& s : l.s()) total += static_cast<int32_t>(s.size());
      }
    } else if (v->value_case() == sg::AttrValue::kS) {
      total = static_cast<int32_t>(v->s().size());
    } else if (v->value_case() == sg::AttrValue::kShape) {
      total = v->shape().unknown_rank() ? -1 : v->shape().dim_size();
    }
    *list_size = list;
    *total_size = total;
    return absl::OkStatus();
  });
}

unsigned char SG_OpKernelConstruction_HasAttr(SG_OpKernelConstruction* ctx, const char* attr_name,
                                              SG_Status* status) {
  unsigned char has = 0;
  Guard("SG_OpKernelConstruction_HasAttr", status, [&]() -> absl::Status {
    if (ctx == nullptr || attr_name == nullptr) {
      return errors::InvalidArgument(
          "SG_OpKernelConstruction_HasAttr: ctx and attr_name must not be NULL");
    }
    has = ToCc(ctx)->HasAttr(attr_name) ? 1 : 0;
    return absl::OkStatus();
  });
  return has;
}

const char* SG_OpKernelConstruction_GetName(SG_OpKernelConstruction* ctx, size_t* len) {
  if (ctx == nullptr) {
    if (len != nullptr) *len = 0;
    return "";
  }
  const std::string& name = ToCc(ctx)->def().name();
  if (len != nullptr) *len = name.size();
  return name.c_str();
}

// ---- Kernel computation ---------------------------------------------------------------------

int SG_NumInputs(SG_OpKernelContext* ctx) { return ctx == nullptr ? 0 : ToCc(ctx)->num_inputs(); }
int SG_NumOutputs(SG_OpKernelContext* ctx) {
  return ctx == nullptr ? 0 : ToCc(ctx)->num_outputs();
}

void SG_GetInput(SG_OpKernelContext* ctx, int i, SG_Tensor** tensor, SG_Status* status) {
  Guard("SG_GetInput", status, [&]() -> absl::Status {
    if (ctx == nullptr || tensor == nullptr) {
      return errors::InvalidArgument("SG_GetInput: ctx and tensor must not be NULL");
    }
    sg::OpKernelContext* c = ToCc(ctx);
    if (i < 0 || i >= c->num_inputs()) {
      return errors::OutOfRange("input index ", i, " is out of range [0, ", c->num_inputs(),
                                ") for node '", c->op_kernel().name(), "'");
    }
    SG_ASSIGN_OR_RETURN(SG_Tensor * t,
                        sg::c_api::FromTensor(c->input(i), SG_STRING_LAYOUT_TSTRING));
    t->owns_memory = false;  // the input's buffer is sg's: never handed out for reuse
    *tensor = t;
    return absl::OkStatus();
  });
}

SG_DataType SG_InputDatatype(SG_OpKernelContext* ctx, int index) {
  if (ctx == nullptr || index < 0 || index >= ToCc(ctx)->num_inputs()) {
    return static_cast<SG_DataType>(0);
  }
  return static_cast<SG_DataType>(sg::BaseType(ToCc(ctx)->input_dtype(index)));
}

SG_DataType SG_ExpectedOutputDataType(SG_OpKernelContext* ctx, int i) {
  if (ctx == nullptr || i < 0 || i >= ToCc(ctx)->num_outputs()) {
    return static_cast<SG_DataType>(0);
  }
  return static_cast<SG_DataType>(sg::BaseType(ToCc(ctx)->expected_output_dtype(i)));
}

void SG_SetOutput(SG_OpKernelContext* ctx, int i, const SG_Tensor* tensor, SG_Status* status) {
  Guard("SG_SetOutput", status, [&]() -> absl::Status {
    if (ctx == nullptr || tensor == nullptr) {
      return errors::InvalidArgument("SG_SetOutput: ctx and tensor must not be NULL");
    }
    sg::OpKernelContext* c = ToCc(ctx);
    if (i < 0 || i >= c->num_outputs()) {
      return errors::OutOfRange("output index ", i, " is out of range [0, ", c->num_outputs(),
                                ") for node '", c->op_kernel().name(), "'");
    }
    const sg::DataType want = sg::BaseType(c->expected_output_dtype(i));
    if (tensor->dtype != want) {
      return errors::InvalidArgument("output ", i, " of node '", c->op_kernel().name(),
                                     "' must be ", sg::DataTypeString(want), ", not ",
                                     sg::DataTypeString(tensor->dtype));
    }
    SG_ASSIGN_OR_RETURN(sg::Tensor value, sg::c_api::ToTensor(*tensor));
    c->set_output(i, value);
    return absl::OkStatus();
  });
}

SG_Tensor* SG_AllocateOutput(SG_OpKernelContext* context, int index, SG_DataType dtype,
                             const int64_t* dims, int num_dims, size_t len, SG_Status* status) {
  SG_Tensor* result = nullptr;
  Guard("SG_AllocateOutput", status, [&]() -> absl::Status {
    if (context == nullptr) return errors::InvalidArgument("SG_AllocateOutput: context is NULL");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(dims, num_dims, "SG_AllocateOutput: dims"));
    sg::OpKernelContext* c = ToCc(context);
    if (index < 0 || index >= c->num_outputs()) {
      return errors::OutOfRange("output index ", index, " is out of range [0, ",
                                c->num_outputs(), ") for node '", c->op_kernel().name(), "'");
    }
    const sg::DataType want = sg::BaseType(c->expected_output_dtype(index));
    if (static_cast<int>(dtype) != static_cast<int>(want)) {
      return errors::InvalidArgument("output ", index, " of node '", c->op_kernel().name(),
                                     "' is ", sg::DataTypeString(want), ", not dtype ",
                                     static_cast<int>(dtype));
    }
    if (want == sg::DT_STRING || !sg::DataTypeIsPod(want)) {
      return errors::Unimplemented("SG_AllocateOutput: output ", index, " of node '",
                                   c->op_kernel().name(), "' is ", sg::DataTypeString(want),
                                   ", which C cannot allocate in place (use SG_SetOutput)");
    }
    std::vector<int64_t> d(dims, dims + num_dims);
    for (int64_t v : d) {
      if (v < 0) return errors::InvalidArgument("SG_AllocateOutput: dim ", v, " is negative");
    }
    SG_ASSIGN_OR_RETURN(sg::TensorShape shape, sg::TensorShape::Build(d));
    const size_t bytes = static_cast<size_t>(shape.num_elements()) * sg::DataTypeSize(want);
    if (len != bytes) {
      return errors::InvalidArgument("SG_AllocateOutput: len ", len, " is not the ", bytes,
                                     " bytes of a ", sg::DataTypeString(want), " tensor of shape ",
                                     shape.DebugString());
    }
    sg::Tensor* out = nullptr;
    SG_RETURN_IF_ERROR(c->allocate_output(index, shape, &out));
    SG_ASSIGN_OR_RETURN(result, sg::c_api::FromTensor(*out));
    result->owns_memory = false;
    return absl::OkStatus();
  });
  return result;
}

void SG_OpKernelContext_Failure(SG_OpKernelContext* ctx, SG_Status* status) {
  if (ctx == nullptr || status == nullptr || status->status.ok()) return;
  ToCc(ctx)->CtxFailure(status->status);
}

int64_t SG_StepId(SG_OpKernelContext* ctx) { return ctx == nullptr ? 0 : ToCc(ctx)->step_id(); }

const char* SG_GetOpKernelName(SG_OpKernelContext* ctx, size_t* len) {
  if (ctx == nullptr) {
    if (len != nullptr) *len = 0;
    return "";
  }
  const std::string& name = ToCc(ctx)->op_kernel().name();
  if (len != nullptr) *len = name.size();
  return name.c_str();
}

// ---- Libraries ------------------------------------------------------------------------------

SG_Library* SG_LoadLibrary(const char* library_filename, SG_Status* status) {
  SG_Library* result = nullptr;
  Guard("SG_LoadLibrary", status, [&]() -> absl::Status {
    if (library_filename == nullptr) {
      return errors::InvalidArgument("SG_LoadLibrary: library_filename is NULL");
    }
    std::lock_guard<std::mutex> lock(load_mu);
    LoadState state;
    current_load = &state;
    void* handle = dlopen(library_filename, RTLD_NOW | RTLD_LOCAL);
    current_load = nullptr;
    if (handle == nullptr) {
      const char* why = dlerror();
      return errors::NotFound("SG_LoadLibrary: cannot load '", library_filename,
                              "': ", why == nullptr ? "dlopen failed" : why);
    }
    auto* loaded = LoadedLibraries();
    auto it = loaded->find(handle);
    if (it == loaded->end()) {
      absl::Status s = state.first_error;
      for (const auto& [kernel, op] : state.kernels) {
        if (!s.ok()) break;
        if (sg::OpRegistry::Global()->LookUp(op) == nullptr) {
          s = errors::NotFound("Op type not registered '", op, "' (kernel '", kernel,
                               "' of library '", library_filename, "')");
        }
      }
      absl::StatusOr<std::string> outcome =
          s.ok() ? absl::StatusOr<std::string>(state.ops.SerializeAsString())
                 : absl::StatusOr<std::string>(s);
      it = loaded->emplace(handle, std::move(outcome)).first;
    } else {
      dlclose(handle);  // one reference is enough: the library is never unloaded
    }
    if (!it->second.ok()) {
      return errors::Annotate(it->second.status(),
                              absl::StrCat("SG_LoadLibrary: '", library_filename, "': "));
    }
    result = new SG_Library{*it->second};
    return absl::OkStatus();
  });
  return result;
}

SG_Buffer SG_GetOpList(SG_Library* lib_handle) {
  if (lib_handle == nullptr) return SG_Buffer{nullptr, 0, nullptr};
  return SG_Buffer{lib_handle->op_list.data(), lib_handle->op_list.size(), nullptr};
}

void SG_DeleteLibraryHandle(SG_Library* lib_handle) { delete lib_handle; }

}  // extern "C"
