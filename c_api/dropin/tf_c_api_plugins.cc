// Op libraries (tensorflow/c/ops.h, kernels.h, TF_LoadLibrary in c_api.h): each TF_ function is
// the SG_ one of sg/ops.h, sg/kernels.h and c_api.h. Every TF_ handle of these headers is the
// SG_ handle of the same object; TF_StringView results are built from SG_'s (pointer, length).
#include "c_api/dropin/tf_handles.h"
#include "c_api/include/sg/kernels.h"
#include "c_api/include/sg/ops.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"

namespace {

template <typename Sg, typename Tf>
Sg* As(Tf* p) {
  return reinterpret_cast<Sg*>(p);
}
SG_OpDefinitionBuilder* ToSg(TF_OpDefinitionBuilder* p) { return As<SG_OpDefinitionBuilder>(p); }
SG_ShapeInferenceContext* ToSg(TF_ShapeInferenceContext* p) {
  return As<SG_ShapeInferenceContext>(p);
}
SG_ShapeHandle* ToSg(TF_ShapeHandle* p) { return As<SG_ShapeHandle>(p); }
SG_DimensionHandle* ToSg(TF_DimensionHandle* p) { return As<SG_DimensionHandle>(p); }
SG_KernelBuilder* ToSg(TF_KernelBuilder* p) { return As<SG_KernelBuilder>(p); }
SG_OpKernelConstruction* ToSg(TF_OpKernelConstruction* p) {
  return As<SG_OpKernelConstruction>(p);
}
SG_OpKernelContext* ToSg(TF_OpKernelContext* p) { return As<SG_OpKernelContext>(p); }
using sg::dropin::ToSg;
using sg::dropin::ToTf;

}  // namespace

extern "C" {

// ---- c_api.h ----------------------------------------------------------------------------------

TF_Library* TF_LoadLibrary(const char* library_filename, TF_Status* status) {
  return ToTf(SG_LoadLibrary(library_filename, ToSg(status)));
}
TF_Buffer TF_GetOpList(TF_Library* lib_handle) {
  return sg::dropin::ToTfValue(SG_GetOpList(ToSg(lib_handle)));
}
void TF_DeleteLibraryHandle(TF_Library* lib_handle) { SG_DeleteLibraryHandle(ToSg(lib_handle)); }

// ---- ops.h ------------------------------------------------------------------------------------

TF_OpDefinitionBuilder* TF_NewOpDefinitionBuilder(const char* op_name) {
  return reinterpret_cast<TF_OpDefinitionBuilder*>(SG_NewOpDefinitionBuilder(op_name));
}
void TF_RegisterOpDefinition(TF_OpDefinitionBuilder* builder, TF_Status* status) {
  SG_RegisterOpDefinition(ToSg(builder), ToSg(status));
}
void TF_DeleteOpDefinitionBuilder(TF_OpDefinitionBuilder* builder) {
  SG_DeleteOpDefinitionBuilder(ToSg(builder));
}
void TF_OpDefinitionBuilderAddAttr(TF_OpDefinitionBuilder* builder, const char* attr_spec) {
  SG_OpDefinitionBuilderAddAttr(ToSg(builder), attr_spec);
}
void TF_OpDefinitionBuilderAddInput(TF_OpDefinitionBuilder* builder, const char* input_spec) {
  SG_OpDefinitionBuilderAddInput(ToSg(builder), input_spec);
}
void TF_OpDefinitionBuilderAddOutput(TF_OpDefinitionBuilder* builder, const char* output_spec) {
  SG_OpDefinitionBuilderAddOutput(ToSg(builder), output_spec);
}
void TF_OpDefinitionBuilderSetIsCommutative(TF_OpDefinitionBuilder* builder, bool is_commutative) {
  SG_OpDefinitionBuilderSetIsCommutative(ToSg(builder), is_commutative);
}
void TF_OpDefinitionBuilderSetIsAggregate(TF_OpDefinitionBuilder* builder, bool is_aggregate) {
  SG_OpDefinitionBuilderSetIsAggregate(ToSg(builder), is_aggregate);
}
void TF_OpDefinitionBuilderSetIsStateful(TF_OpDefinitionBuilder* builder, bool is_stateful) {
  SG_OpDefinitionBuilderSetIsStateful(ToSg(builder), is_stateful);
}
void TF_OpDefinitionBuilderSetAllowsUninitializedInput(TF_OpDefinitionBuilder* builder,
                                                       bool allows_uninitialized_input) {
  SG_OpDefinitionBuilderSetAllowsUninitializedInput(ToSg(builder), allows_uninitialized_input);
}
void TF_OpDefinitionBuilderDeprecated(TF_OpDefinitionBuilder* builder, int version,
                                      const char* explanation) {
  SG_OpDefinitionBuilderDeprecated(ToSg(builder), version, explanation);
}
void TF_OpDefinitionBuilderSetShapeInferenceFunction(
    TF_OpDefinitionBuilder* builder,
    void (*shape_inference_func)(TF_ShapeInferenceContext* ctx, TF_Status* status)) {
  // The handles are the same objects, so the function's type differs only in its handles' names.
  SG_OpDefinitionBuilderSetShapeInferenceFunction(
      ToSg(builder),
      reinterpret_cast<void (*)(SG_ShapeInferenceContext*, SG_Status*)>(shape_inference_func));
}
int64_t TF_ShapeInferenceContextNumInputs(TF_ShapeInferenceContext* ctx) {
  return SG_ShapeInferenceContextNumInputs(ToSg(ctx));
}
TF_ShapeHandle* TF_NewShapeHandle(void) {
  return reinterpret_cast<TF_ShapeHandle*>(SG_NewShapeHandle());
}
void TF_ShapeInferenceContextGetInput(TF_ShapeInferenceContext* ctx, int i, TF_ShapeHandle* handle,
                                      TF_Status* status) {
  SG_ShapeInferenceContextGetInput(ToSg(ctx), i, ToSg(handle), ToSg(status));
}
void TF_ShapeInferenceContextSetOutput(TF_ShapeInferenceContext* ctx, int i,
                                       TF_ShapeHandle* handle, TF_Status* status) {
  SG_ShapeInferenceContextSetOutput(ToSg(ctx), i, ToSg(handle), ToSg(status));
}
TF_ShapeHandle* TF_ShapeInferenceContextScalar(TF_ShapeInferenceContext* ctx) {
  return reinterpret_cast<TF_ShapeHandle*>(SG_ShapeInferenceContextScalar(ToSg(ctx)));
}
TF_ShapeHandle* TF_ShapeInferenceContextVectorFromSize(TF_ShapeInferenceContext* ctx,
                                                       size_t size) {
  return reinterpret_cast<TF_ShapeHandle*>(SG_ShapeInferenceContextVectorFromSize(ToSg(ctx), size));
}
TF_DimensionHandle* TF_NewDimensionHandle(void) {
  return reinterpret_cast<TF_DimensionHandle*>(SG_NewDimensionHandle());
}
void TF_ShapeInferenceContext_GetAttrType(TF_ShapeInferenceContext* ctx, const char* attr_name,
                                          TF_DataType* val, TF_Status* status) {
  SG_ShapeInferenceContext_GetAttrType(ToSg(ctx), attr_name, ToSg(val), ToSg(status));
}
int64_t TF_ShapeInferenceContextRank(TF_ShapeInferenceContext* ctx, TF_ShapeHandle* handle) {
  return SG_ShapeInferenceContextRank(ToSg(ctx), ToSg(handle));
}
int TF_ShapeInferenceContextRankKnown(TF_ShapeInferenceContext* ctx, TF_ShapeHandle* handle) {
  return SG_ShapeInferenceContextRankKnown(ToSg(ctx), ToSg(handle));
}
void TF_ShapeInferenceContextWithRank(TF_ShapeInferenceContext* ctx, TF_ShapeHandle* handle,
                                      int64_t rank, TF_ShapeHandle* result, TF_Status* status) {
  SG_ShapeInferenceContextWithRank(ToSg(ctx), ToSg(handle), rank, ToSg(result), ToSg(status));
}
void TF_ShapeInferenceContextWithRankAtLeast(TF_ShapeInferenceContext* ctx,
                                             TF_ShapeHandle* handle, int64_t rank,
                                             TF_ShapeHandle* result, TF_Status* status) {
  SG_ShapeInferenceContextWithRankAtLeast(ToSg(ctx), ToSg(handle), rank, ToSg(result),
                                          ToSg(status));
}
void TF_ShapeInferenceContextWithRankAtMost(TF_ShapeInferenceContext* ctx, TF_ShapeHandle* handle,
                                            int64_t rank, TF_ShapeHandle* result,
                                            TF_Status* status) {
  SG_ShapeInferenceContextWithRankAtMost(ToSg(ctx), ToSg(handle), rank, ToSg(result),
                                         ToSg(status));
}
void TF_ShapeInferenceContextDim(TF_ShapeInferenceContext* ctx, TF_ShapeHandle* shape_handle,
                                 int64_t i, TF_DimensionHandle* result) {
  SG_ShapeInferenceContextDim(ToSg(ctx), ToSg(shape_handle), i, ToSg(result));
}
void TF_ShapeInferenceContextSetUnknownShape(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  SG_ShapeInferenceContextSetUnknownShape(ToSg(ctx), ToSg(status));
}
int TF_DimensionHandleValueKnown(TF_DimensionHandle* dim_handle) {
  return SG_DimensionHandleValueKnown(ToSg(dim_handle));
}
int64_t TF_DimensionHandleValue(TF_DimensionHandle* dim_handle) {
  return SG_DimensionHandleValue(ToSg(dim_handle));
}
void TF_DeleteShapeHandle(TF_ShapeHandle* handle) { SG_DeleteShapeHandle(ToSg(handle)); }
void TF_DeleteDimensionHandle(TF_DimensionHandle* handle) {
  SG_DeleteDimensionHandle(ToSg(handle));
}

// ---- kernels.h --------------------------------------------------------------------------------

TF_KernelBuilder* TF_NewKernelBuilder(const char* op_name, const char* device_name,
                                      void* (*create_func)(TF_OpKernelConstruction*),
                                      void (*compute_func)(void*, TF_OpKernelContext*),
                                      void (*delete_func)(void*)) {
  // As for shape functions: the TF_ and SG_ handles are the same objects.
  return reinterpret_cast<TF_KernelBuilder*>(SG_NewKernelBuilder(
      op_name, device_name, reinterpret_cast<void* (*)(SG_OpKernelConstruction*)>(create_func),
      reinterpret_cast<void (*)(void*, SG_OpKernelContext*)>(compute_func), delete_func));
}
void TF_KernelBuilder_TypeConstraint(TF_KernelBuilder* kernel_builder, const char* attr_name,
                                     const TF_DataType type, TF_Status* status) {
  SG_KernelBuilder_TypeConstraint(ToSg(kernel_builder), attr_name,
                                  sg::dropin::ToSgValue(type), ToSg(status));
}
void TF_KernelBuilder_HostMemory(TF_KernelBuilder* kernel_builder, const char* arg_name) {
  SG_KernelBuilder_HostMemory(ToSg(kernel_builder), arg_name);
}
void TF_KernelBuilder_Priority(TF_KernelBuilder* kernel_builder, int32_t priority_number) {
  SG_KernelBuilder_Priority(ToSg(kernel_builder), priority_number);
}
void TF_RegisterKernelBuilder(const char* kernel_name, TF_KernelBuilder* builder,
                              TF_Status* status) {
  SG_RegisterKernelBuilder(kernel_name, ToSg(builder), ToSg(status));
}
void TF_DeleteKernelBuilder(TF_KernelBuilder* builder) { SG_DeleteKernelBuilder(ToSg(builder)); }
int TF_NumInputs(TF_OpKernelContext* ctx) { return SG_NumInputs(ToSg(ctx)); }
int TF_NumOutputs(TF_OpKernelContext* ctx) { return SG_NumOutputs(ToSg(ctx)); }
void TF_GetInput(TF_OpKernelContext* ctx, int i, TF_Tensor** tensor, TF_Status* status) {
  SG_GetInput(ToSg(ctx), i, ToSg(tensor), ToSg(status));
}
TF_DataType TF_InputDatatype(TF_OpKernelContext* ctx, int index) {
  return sg::dropin::ToTfValue(SG_InputDatatype(ToSg(ctx), index));
}
void TF_SetOutput(TF_OpKernelContext* ctx, int i, const TF_Tensor* tensor, TF_Status* status) {
  SG_SetOutput(ToSg(ctx), i, ToSg(tensor), ToSg(status));
}
void TF_OpKernelConstruction_Failure(TF_OpKernelConstruction* ctx, TF_Status* status) {
  SG_OpKernelConstruction_Failure(ToSg(ctx), ToSg(status));
}
void TF_OpKernelContext_Failure(TF_OpKernelContext* ctx, TF_Status* status) {
  SG_OpKernelContext_Failure(ToSg(ctx), ToSg(status));
}
TF_DataType TF_ExpectedOutputDataType(TF_OpKernelContext* ctx, int i) {
  return sg::dropin::ToTfValue(SG_ExpectedOutputDataType(ToSg(ctx), i));
}
int64_t TF_StepId(TF_OpKernelContext* ctx) { return SG_StepId(ToSg(ctx)); }
TF_StringView TF_GetOpKernelName(TF_OpKernelContext* ctx) {
  TF_StringView v;
  v.data = SG_GetOpKernelName(ToSg(ctx), &v.len);
  return v;
}
void TF_OpKernelConstruction_GetAttrSize(TF_OpKernelConstruction* ctx, const char* attr_name,
                                         int32_t* list_size, int32_t* total_size,
                                         TF_Status* status) {
  SG_OpKernelConstruction_GetAttrSize(ToSg(ctx), attr_name, list_size, total_size, ToSg(status));
}
void TF_OpKernelConstruction_GetAttrType(TF_OpKernelConstruction* ctx, const char* attr_name,
                                         TF_DataType* val, TF_Status* status) {
  SG_OpKernelConstruction_GetAttrType(ToSg(ctx), attr_name, ToSg(val), ToSg(status));
}
void TF_OpKernelConstruction_GetAttrInt32(TF_OpKernelConstruction* ctx, const char* attr_name,
                                          int32_t* val, TF_Status* status) {
  SG_OpKernelConstruction_GetAttrInt32(ToSg(ctx), attr_name, val, ToSg(status));
}
void TF_OpKernelConstruction_GetAttrInt64(TF_OpKernelConstruction* ctx, const char* attr_name,
                                          int64_t* val, TF_Status* status) {
  SG_OpKernelConstruction_GetAttrInt64(ToSg(ctx), attr_name, val, ToSg(status));
}
void TF_OpKernelConstruction_GetAttrFloat(TF_OpKernelConstruction* ctx, const char* attr_name,
                                          float* val, TF_Status* status) {
  SG_OpKernelConstruction_GetAttrFloat(ToSg(ctx), attr_name, val, ToSg(status));
}
void TF_OpKernelConstruction_GetAttrBool(TF_OpKernelConstruction* ctx, const char* attr_name,
                                         TF_Bool* val, TF_Status* status) {
  SG_OpKernelConstruction_GetAttrBool(ToSg(ctx), attr_name, val, ToSg(status));
}
void TF_OpKernelConstruction_GetAttrString(TF_OpKernelConstruction* ctx, const char* attr_name,
                                           char* val, size_t max_length, TF_Status* status) {
  SG_OpKernelConstruction_GetAttrString(ToSg(ctx), attr_name, val, max_length, ToSg(status));
}
bool TF_OpKernelConstruction_HasAttr(TF_OpKernelConstruction* ctx, const char* attr_name,
                                     TF_Status* status) {
  return SG_OpKernelConstruction_HasAttr(ToSg(ctx), attr_name, ToSg(status)) != 0;
}
TF_StringView TF_OpKernelConstruction_GetName(TF_OpKernelConstruction* ctx) {
  TF_StringView v;
  v.data = SG_OpKernelConstruction_GetName(ToSg(ctx), &v.len);
  return v;
}
TF_Tensor* TF_AllocateOutput(TF_OpKernelContext* context, int index, TF_DataType dtype,
                             const int64_t* dims, int num_dims, size_t len, TF_Status* status) {
  return ToTf(SG_AllocateOutput(ToSg(context), index, sg::dropin::ToSgValue(dtype), dims,
                                num_dims, len, ToSg(status)));
}

}  // extern "C"
