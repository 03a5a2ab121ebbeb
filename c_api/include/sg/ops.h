/* sg op definitions from C: what a custom-op library (SG_LoadLibrary, c_api.h) registers to add
 * an op type to sg, as TensorFlow's tensorflow/c/ops.h does for TensorFlow.
 *
 *   SG_OpDefinitionBuilder* b = SG_NewOpDefinitionBuilder("AddOne");
 *   SG_OpDefinitionBuilderAddInput(b, "x: T");
 *   SG_OpDefinitionBuilderAddOutput(b, "y: T");
 *   SG_OpDefinitionBuilderAddAttr(b, "T: {float, int32}");
 *   SG_OpDefinitionBuilderSetShapeInferenceFunction(b, SG_ShapeInferenceContextUnchangedShape);
 *   SG_RegisterOpDefinition(b, status);                        (b is consumed)
 *
 * Specs are TensorFlow's (and sg's own REGISTER_OP's, core/framework/op.h): inputs and outputs
 * "name: T" (a type attr), "name: float" (a fixed type), "name: N * T", "name: Tlist",
 * "name: Ref(T)"; attrs "name: type|int|float|bool|string|shape|tensor|func|list(...)",
 * "T: {float, int32}" (allowed types), "name: int >= 1", "... = default".
 *
 * Shape functions run while an operation is added to a graph (SG_FinishOperation, an import):
 * they read the inputs' shapes through an SG_ShapeInferenceContext and set the outputs' shapes
 * with shape handles. An op without one gives its outputs an unknown shape.
 *
 * Conventions are c_api.h's. Ownership: builders are consumed by SG_RegisterOpDefinition or
 * freed with SG_DeleteOpDefinitionBuilder, never both; shape and dimension handles are the
 * caller's (SG_DeleteShapeHandle / SG_DeleteDimensionHandle), including those that
 * SG_ShapeInferenceContextScalar and SG_ShapeInferenceContextVectorFromSize return. Contexts are
 * sg's and valid only during the call that receives them.
 * Threads: registration may run from any thread (the op registry is locked); a builder, a
 * context or a handle is used by one thread at a time. */
#ifndef SG_OPS_H_
#define SG_OPS_H_

#include <stddef.h>
#include <stdint.h>

#include "c_api.h" /* sg/c_api.h, beside this header */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct SG_OpDefinitionBuilder SG_OpDefinitionBuilder;
typedef struct SG_ShapeInferenceContext SG_ShapeInferenceContext;
/* A shape: unknown rank, or a rank with each dimension known or unknown. */
typedef struct SG_ShapeHandle SG_ShapeHandle;
/* One dimension: a size, or unknown. */
typedef struct SG_DimensionHandle SG_DimensionHandle;

/* ---- Op definitions ------------------------------------------------------------------------- */

/* Starts the definition of op type `op_name`, as TensorFlow's TF_NewOpDefinitionBuilder.
 * Ownership: consumed by SG_RegisterOpDefinition, or freed with SG_DeleteOpDefinitionBuilder.
 * Errors: an invalid or NULL name is reported by SG_RegisterOpDefinition. */
SG_CAPI_EXPORT extern SG_OpDefinitionBuilder* SG_NewOpDefinitionBuilder(const char* op_name);

/* Registers the op, as TensorFlow's TF_RegisterOpDefinition. During SG_LoadLibrary the op is
 * also recorded in the library's op list.
 * Ownership: `builder` is freed whatever the outcome.
 * Errors: SG_INVALID_ARGUMENT for a NULL builder, a bad name or a spec that does not parse (the
 * message names the op and the spec); SG_ALREADY_EXISTS when an op of that name is registered.
 * The registry is unchanged on error. */
SG_CAPI_EXPORT extern void SG_RegisterOpDefinition(SG_OpDefinitionBuilder* builder,
                                                   SG_Status* status);

/* Frees a builder that was not registered. NULL is a no-op. */
SG_CAPI_EXPORT extern void SG_DeleteOpDefinitionBuilder(SG_OpDefinitionBuilder* builder);

/* Add an attr, an input or an output from its spec (see the top of this file), in the order of
 * the calls, as TensorFlow's TF_OpDefinitionBuilderAddAttr / AddInput / AddOutput. The spec is
 * copied. Errors: a bad spec is reported by SG_RegisterOpDefinition; a NULL builder or spec is
 * ignored (a NULL spec is reported at registration). */
SG_CAPI_EXPORT extern void SG_OpDefinitionBuilderAddAttr(SG_OpDefinitionBuilder* builder,
                                                         const char* attr_spec);
SG_CAPI_EXPORT extern void SG_OpDefinitionBuilderAddInput(SG_OpDefinitionBuilder* builder,
                                                          const char* input_spec);
SG_CAPI_EXPORT extern void SG_OpDefinitionBuilderAddOutput(SG_OpDefinitionBuilder* builder,
                                                           const char* output_spec);

/* The OpDef's flags (is_commutative, is_aggregate, is_stateful, allows_uninitialized_input), as
 * TensorFlow's TF_OpDefinitionBuilderSetIs*. All false by default. A NULL builder is ignored. */
SG_CAPI_EXPORT extern void SG_OpDefinitionBuilderSetIsCommutative(SG_OpDefinitionBuilder* builder,
                                                                  unsigned char is_commutative);
SG_CAPI_EXPORT extern void SG_OpDefinitionBuilderSetIsAggregate(SG_OpDefinitionBuilder* builder,
                                                                unsigned char is_aggregate);
SG_CAPI_EXPORT extern void SG_OpDefinitionBuilderSetIsStateful(SG_OpDefinitionBuilder* builder,
                                                               unsigned char is_stateful);
SG_CAPI_EXPORT extern void SG_OpDefinitionBuilderSetAllowsUninitializedInput(
    SG_OpDefinitionBuilder* builder, unsigned char allows_uninitialized_input);

/* Marks the op deprecated from GraphDef version `version` on, `explanation` saying what to use
 * instead, as TensorFlow's TF_OpDefinitionBuilderDeprecated. A NULL builder is ignored. */
SG_CAPI_EXPORT extern void SG_OpDefinitionBuilderDeprecated(SG_OpDefinitionBuilder* builder,
                                                            int version, const char* explanation);

/* Sets the op's shape function, as TensorFlow's TF_OpDefinitionBuilderSetShapeInferenceFunction.
 * sg calls it with a context valid during the call and a status set to SG_OK; an error the
 * function leaves in the status fails the SG_FinishOperation (or import) that added the
 * operation, with that code and message. Threads: it may be called from any thread, for
 * several operations at once. A NULL builder is ignored; a NULL function means none. */
SG_CAPI_EXPORT extern void SG_OpDefinitionBuilderSetShapeInferenceFunction(
    SG_OpDefinitionBuilder* builder,
    void (*shape_inference_func)(SG_ShapeInferenceContext* ctx, SG_Status* status));

/* ---- Shape inference ------------------------------------------------------------------------ */

/* The number of inputs of the operation whose shapes are inferred (a list input counts each of
 * its tensors), as TensorFlow's TF_ShapeInferenceContextNumInputs. */
SG_CAPI_EXPORT extern int64_t SG_ShapeInferenceContextNumInputs(SG_ShapeInferenceContext* ctx);

/* A new handle holding an unknown shape, as TensorFlow's TF_NewShapeHandle.
 * Ownership: the caller's; SG_DeleteShapeHandle frees it. */
SG_CAPI_EXPORT extern SG_ShapeHandle* SG_NewShapeHandle(void);

/* Sets `handle` to the shape of input `i`, as TensorFlow's TF_ShapeInferenceContextGetInput.
 * Errors: SG_INVALID_ARGUMENT when i is out of [0, NumInputs) or an argument is NULL. */
SG_CAPI_EXPORT extern void SG_ShapeInferenceContextGetInput(SG_ShapeInferenceContext* ctx, int i,
                                                            SG_ShapeHandle* handle,
                                                            SG_Status* status);

/* Sets output `i`'s shape to `handle`'s (copied), as TensorFlow's
 * TF_ShapeInferenceContextSetOutput.
 * Errors: SG_INVALID_ARGUMENT when i is out of range or an argument is NULL. */
SG_CAPI_EXPORT extern void SG_ShapeInferenceContextSetOutput(SG_ShapeInferenceContext* ctx, int i,
                                                             SG_ShapeHandle* handle,
                                                             SG_Status* status);

/* Sets every output's shape to unknown, as TensorFlow's TF_ShapeInferenceContextSetUnknownShape.
 * Errors: SG_INVALID_ARGUMENT for a NULL context. */
SG_CAPI_EXPORT extern void SG_ShapeInferenceContextSetUnknownShape(SG_ShapeInferenceContext* ctx,
                                                                   SG_Status* status);

/* A ready-made shape function: every output has input 0's shape (TensorFlow's UnchangedShape);
 * SG_INVALID_ARGUMENT for an op without inputs. Pass it to
 * SG_OpDefinitionBuilderSetShapeInferenceFunction. sg's own; TensorFlow's C API has none. */
SG_CAPI_EXPORT extern void SG_ShapeInferenceContextUnchangedShape(SG_ShapeInferenceContext* ctx,
                                                                  SG_Status* status);

/* New handles for a scalar and for a vector of `size` elements, as TensorFlow's
 * TF_ShapeInferenceContextScalar / VectorFromSize. Ownership: the caller's (SG_DeleteShapeHandle). */
SG_CAPI_EXPORT extern SG_ShapeHandle* SG_ShapeInferenceContextScalar(SG_ShapeInferenceContext* ctx);
SG_CAPI_EXPORT extern SG_ShapeHandle* SG_ShapeInferenceContextVectorFromSize(
    SG_ShapeInferenceContext* ctx, size_t size);

/* Reads the type attr `attr_name` of the operation into *val, as TensorFlow's
 * TF_ShapeInferenceContext_GetAttrType.
 * Errors (*val untouched): SG_NOT_FOUND when the attr is missing; SG_INVALID_ARGUMENT when it is
 * not a type. */
SG_CAPI_EXPORT extern void SG_ShapeInferenceContext_GetAttrType(SG_ShapeInferenceContext* ctx,
                                                                const char* attr_name,
                                                                SG_DataType* val,
                                                                SG_Status* status);

/* The rank of `handle`'s shape (-1 when unknown) and whether it is known (1) or not (0), as
 * TensorFlow's TF_ShapeInferenceContextRank / RankKnown. */
SG_CAPI_EXPORT extern int64_t SG_ShapeInferenceContextRank(SG_ShapeInferenceContext* ctx,
                                                           SG_ShapeHandle* handle);
SG_CAPI_EXPORT extern int SG_ShapeInferenceContextRankKnown(SG_ShapeInferenceContext* ctx,
                                                            SG_ShapeHandle* handle);

/* Sets `result` to `handle`'s shape given that its rank is exactly / at least / at most `rank`
 * (an unknown rank becomes `rank` unknown dimensions for WithRank, stays unknown otherwise), as
 * TensorFlow's TF_ShapeInferenceContextWithRank / WithRankAtLeast / WithRankAtMost.
 * Errors: SG_INVALID_ARGUMENT when the known rank does not fit (result untouched). */
SG_CAPI_EXPORT extern void SG_ShapeInferenceContextWithRank(SG_ShapeInferenceContext* ctx,
                                                            SG_ShapeHandle* handle, int64_t rank,
                                                            SG_ShapeHandle* result,
                                                            SG_Status* status);
SG_CAPI_EXPORT extern void SG_ShapeInferenceContextWithRankAtLeast(SG_ShapeInferenceContext* ctx,
                                                                   SG_ShapeHandle* handle,
                                                                   int64_t rank,
                                                                   SG_ShapeHandle* result,
                                                                   SG_Status* status);
SG_CAPI_EXPORT extern void SG_ShapeInferenceContextWithRankAtMost(SG_ShapeInferenceContext* ctx,
                                                                  SG_ShapeHandle* handle,
                                                                  int64_t rank,
                                                                  SG_ShapeHandle* result,
                                                                  SG_Status* status);

/* Sets `result` to dimension `i` of `shape_handle` (negative i counts from the end), unknown when
 * the rank is unknown or i is out of range, as TensorFlow's TF_ShapeInferenceContextDim. */
SG_CAPI_EXPORT extern void SG_ShapeInferenceContextDim(SG_ShapeInferenceContext* ctx,
                                                       SG_ShapeHandle* shape_handle, int64_t i,
                                                       SG_DimensionHandle* result);

/* A new unknown dimension, as TensorFlow's TF_NewDimensionHandle. Ownership: the caller's. */
SG_CAPI_EXPORT extern SG_DimensionHandle* SG_NewDimensionHandle(void);
/* Whether the dimension's size is known (1) or not (0), and its size (-1 when unknown), as
 * TensorFlow's TF_DimensionHandleValueKnown / TF_DimensionHandleValue. */
SG_CAPI_EXPORT extern int SG_DimensionHandleValueKnown(SG_DimensionHandle* dim_handle);
SG_CAPI_EXPORT extern int64_t SG_DimensionHandleValue(SG_DimensionHandle* dim_handle);

/* Free handles. NULL is a no-op. */
SG_CAPI_EXPORT extern void SG_DeleteShapeHandle(SG_ShapeHandle* handle);
SG_CAPI_EXPORT extern void SG_DeleteDimensionHandle(SG_DimensionHandle* handle);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SG_OPS_H_ */
