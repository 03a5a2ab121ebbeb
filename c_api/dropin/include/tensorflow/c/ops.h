/* sg's copy of TensorFlow 2.21's tensorflow/c/ops.h: op types defined from C by an op library
 * (TF_LoadLibrary). Every function is sg's SG_ function of the same name in sg/ops.h, where its
 * ownership, errors and threads are documented; the semantics are TensorFlow's. This header
 * declares the subset sg implements (builder, registration, the shape functions' basics). Unlike
 * TensorFlow's, it typedefs its handle structs, so it compiles as C too.
 *
 *   TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("AddOne");
 *   TF_OpDefinitionBuilderAddInput(b, "x: T");
 *   TF_OpDefinitionBuilderAddOutput(b, "y: T");
 *   TF_OpDefinitionBuilderAddAttr(b, "T: {float, int32}");
 *   TF_RegisterOpDefinition(b, status);                        (b is consumed) */
#ifndef TENSORFLOW_C_OPS_H_
#define TENSORFLOW_C_OPS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TF_DimensionHandle TF_DimensionHandle;
typedef struct TF_OpDefinitionBuilder TF_OpDefinitionBuilder;
typedef struct TF_ShapeHandle TF_ShapeHandle;
typedef struct TF_ShapeInferenceContext TF_ShapeInferenceContext;

/* ---- Op definitions: consumed by TF_RegisterOpDefinition or freed with the delete ---------- */
TF_CAPI_EXPORT extern TF_OpDefinitionBuilder* TF_NewOpDefinitionBuilder(const char* op_name);
/* ALREADY_EXISTS for a name registered before; INVALID_ARGUMENT for a spec that does not parse. */
TF_CAPI_EXPORT extern void TF_RegisterOpDefinition(TF_OpDefinitionBuilder* builder,
                                                   TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteOpDefinitionBuilder(TF_OpDefinitionBuilder* builder);
/* Specs as in REGISTER_OP: "T: {float, int32}", "x: T", "n: int >= 1 = 2". */
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderAddAttr(TF_OpDefinitionBuilder* builder,
                                                         const char* attr_spec);
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderAddInput(TF_OpDefinitionBuilder* builder,
                                                          const char* input_spec);
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderAddOutput(TF_OpDefinitionBuilder* builder,
                                                           const char* output_spec);
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetIsCommutative(TF_OpDefinitionBuilder* builder,
                                                                  bool is_commutative);
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetIsAggregate(TF_OpDefinitionBuilder* builder,
                                                                bool is_aggregate);
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetIsStateful(TF_OpDefinitionBuilder* builder,
                                                               bool is_stateful);
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetAllowsUninitializedInput(
    TF_OpDefinitionBuilder* builder, bool allows_uninitialized_input);
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderDeprecated(TF_OpDefinitionBuilder* builder,
                                                            int version, const char* explanation);
/* Called when an operation of the op is added to a graph; an error it leaves in `status` fails
 * that addition. */
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetShapeInferenceFunction(
    TF_OpDefinitionBuilder* builder,
    void (*shape_inference_func)(TF_ShapeInferenceContext* ctx, TF_Status* status));

/* ---- Shape inference: handles are the caller's, contexts sg's ------------------------------ */
TF_CAPI_EXPORT extern int64_t TF_ShapeInferenceContextNumInputs(TF_ShapeInferenceContext* ctx);
TF_CAPI_EXPORT extern TF_ShapeHandle* TF_NewShapeHandle(void);
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextGetInput(TF_ShapeInferenceContext* ctx, int i,
                                                            TF_ShapeHandle* handle,
                                                            TF_Status* status);
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextSetOutput(TF_ShapeInferenceContext* ctx, int i,
                                                             TF_ShapeHandle* handle,
                                                             TF_Status* status);
TF_CAPI_EXPORT extern TF_ShapeHandle* TF_ShapeInferenceContextScalar(TF_ShapeInferenceContext* ctx);
TF_CAPI_EXPORT extern TF_ShapeHandle* TF_ShapeInferenceContextVectorFromSize(
    TF_ShapeInferenceContext* ctx, size_t size);
TF_CAPI_EXPORT extern TF_DimensionHandle* TF_NewDimensionHandle(void);
TF_CAPI_EXPORT extern void TF_ShapeInferenceContext_GetAttrType(TF_ShapeInferenceContext* ctx,
                                                                const char* attr_name,
                                                                TF_DataType* val,
                                                                TF_Status* status);
TF_CAPI_EXPORT extern int64_t TF_ShapeInferenceContextRank(TF_ShapeInferenceContext* ctx,
                                                           TF_ShapeHandle* handle);
TF_CAPI_EXPORT extern int TF_ShapeInferenceContextRankKnown(TF_ShapeInferenceContext* ctx,
                                                            TF_ShapeHandle* handle);
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextWithRank(TF_ShapeInferenceContext* ctx,
                                                            TF_ShapeHandle* handle, int64_t rank,
                                                            TF_ShapeHandle* result,
                                                            TF_Status* status);
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextWithRankAtLeast(TF_ShapeInferenceContext* ctx,
                                                                   TF_ShapeHandle* handle,
                                                                   int64_t rank,
                                                                   TF_ShapeHandle* result,
                                                                   TF_Status* status);
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextWithRankAtMost(TF_ShapeInferenceContext* ctx,
                                                                  TF_ShapeHandle* handle,
                                                                  int64_t rank,
                                                                  TF_ShapeHandle* result,
                                                                  TF_Status* status);
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextDim(TF_ShapeInferenceContext* ctx,
                                                       TF_ShapeHandle* shape_handle, int64_t i,
                                                       TF_DimensionHandle* result);
/* Every output gets an unknown shape. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextSetUnknownShape(TF_ShapeInferenceContext* ctx,
                                                                   TF_Status* status);
TF_CAPI_EXPORT extern int TF_DimensionHandleValueKnown(TF_DimensionHandle* dim_handle);
TF_CAPI_EXPORT extern int64_t TF_DimensionHandleValue(TF_DimensionHandle* dim_handle);
TF_CAPI_EXPORT extern void TF_DeleteShapeHandle(TF_ShapeHandle* handle);
TF_CAPI_EXPORT extern void TF_DeleteDimensionHandle(TF_DimensionHandle* handle);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TENSORFLOW_C_OPS_H_ */
