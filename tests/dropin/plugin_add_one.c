/* A custom-op library written in C against TensorFlow's tensorflow/c/ops.h and kernels.h: op
 * SgTestAddOne (x: T -> y: T, T in {float, int32}, y = x + 1, shape of x), with a kernel per type
 * that fails with INVALID_ARGUMENT naming its node on a negative element. It registers from a
 * constructor, as TF_LoadLibrary expects. Built with:
 *   -DPLUGIN_MODE=0   the op and its kernels (the default)
 *   -DPLUGIN_MODE=1   only the op again (a duplicate when loaded after mode 0)
 *   -DPLUGIN_MODE=2   only a kernel, for an op nobody registers
 *   -DSG_NAMES        against sg's own sg/ops.h and sg/kernels.h (SG_LoadLibrary) instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SG_NAMES
#include "sg/c_api.h"
#include "sg/kernels.h"
#include "sg/ops.h"
#define TF_Status SG_Status
#define TF_Tensor SG_Tensor
#define TF_DataType SG_DataType
#define TF_OpKernelConstruction SG_OpKernelConstruction
#define TF_OpKernelContext SG_OpKernelContext
#define TF_ShapeInferenceContext SG_ShapeInferenceContext
#define TF_ShapeHandle SG_ShapeHandle
#define TF_OpDefinitionBuilder SG_OpDefinitionBuilder
#define TF_KernelBuilder SG_KernelBuilder
#define TF_OK SG_OK
#define TF_INVALID_ARGUMENT SG_INVALID_ARGUMENT
#define TF_FLOAT SG_FLOAT
#define TF_INT32 SG_INT32
#define TF_NewStatus SG_NewStatus
#define TF_DeleteStatus SG_DeleteStatus
#define TF_SetStatus SG_SetStatus
#define TF_GetCode SG_GetCode
#define TF_Message SG_Message
#define TF_DeleteTensor SG_DeleteTensor
#define TF_TensorData SG_TensorData
#define TF_TensorElementCount SG_TensorElementCount
#define TF_TensorByteSize SG_TensorByteSize
#define TF_NumDims SG_NumDims
#define TF_Dim SG_Dim
#define TF_NewOpDefinitionBuilder SG_NewOpDefinitionBuilder
#define TF_OpDefinitionBuilderAddInput SG_OpDefinitionBuilderAddInput
#define TF_OpDefinitionBuilderAddOutput SG_OpDefinitionBuilderAddOutput
#define TF_OpDefinitionBuilderAddAttr SG_OpDefinitionBuilderAddAttr
#define TF_OpDefinitionBuilderSetShapeInferenceFunction SG_OpDefinitionBuilderSetShapeInferenceFunction
#define TF_RegisterOpDefinition SG_RegisterOpDefinition
#define TF_NewShapeHandle SG_NewShapeHandle
#define TF_DeleteShapeHandle SG_DeleteShapeHandle
#define TF_ShapeInferenceContextGetInput SG_ShapeInferenceContextGetInput
#define TF_ShapeInferenceContextSetOutput SG_ShapeInferenceContextSetOutput
#define TF_NewKernelBuilder SG_NewKernelBuilder
#define TF_KernelBuilder_TypeConstraint SG_KernelBuilder_TypeConstraint
#define TF_RegisterKernelBuilder SG_RegisterKernelBuilder
#define TF_OpKernelConstruction_GetAttrType SG_OpKernelConstruction_GetAttrType
#define TF_OpKernelConstruction_Failure SG_OpKernelConstruction_Failure
#define TF_OpKernelContext_Failure SG_OpKernelContext_Failure
#define TF_GetInput SG_GetInput
#define TF_AllocateOutput SG_AllocateOutput
#define NODE_NAME(ctx, len) SG_GetOpKernelName(ctx, len)
#else
/* TensorFlow's ops.h declares its handle structs without typedefs (C++ only); C11 allows a
 * typedef repeated, so these make it compile as C with either header set. */
typedef struct TF_OpDefinitionBuilder TF_OpDefinitionBuilder;
typedef struct TF_ShapeHandle TF_ShapeHandle;
typedef struct TF_ShapeInferenceContext TF_ShapeInferenceContext;
typedef struct TF_DimensionHandle TF_DimensionHandle;
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"
static const char* NodeName(TF_OpKernelContext* ctx, size_t* len) {
  TF_StringView v = TF_GetOpKernelName(ctx);
  *len = v.len;
  return v.data;
}
#define NODE_NAME(ctx, len) NodeName(ctx, len)
#endif

#ifndef PLUGIN_MODE
#define PLUGIN_MODE 0
#endif

static void Check(TF_Status* s, const char* what) {
  if (TF_GetCode(s) != TF_OK) fprintf(stderr, "plugin_add_one: %s: %s\n", what, TF_Message(s));
}

static void AddOneShape(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  TF_ShapeHandle* h = TF_NewShapeHandle();
  TF_ShapeInferenceContextGetInput(ctx, 0, h, status);
  if (TF_GetCode(status) == TF_OK) TF_ShapeInferenceContextSetOutput(ctx, 0, h, status);
  TF_DeleteShapeHandle(h);
}

typedef struct {
  TF_DataType type;
} AddOneState;

static void* AddOneCreate(TF_OpKernelConstruction* ctx) {
  AddOneState* state = (AddOneState*)malloc(sizeof *state);
  TF_Status* s = TF_NewStatus();
  TF_OpKernelConstruction_GetAttrType(ctx, "T", &state->type, s);
  if (TF_GetCode(s) != TF_OK) TF_OpKernelConstruction_Failure(ctx, s);
  TF_DeleteStatus(s);
  return state;
}

static void AddOneDelete(void* state) { free(state); }

static void Fail(TF_OpKernelContext* ctx, TF_Status* s, const char* what, double value) {
  char message[256];
  size_t len = 0;
  const char* name = NODE_NAME(ctx, &len);
  snprintf(message, sizeof message, "SgTestAddOne node '%.*s': %s %g", (int)len, name, what,
           value);
  TF_SetStatus(s, TF_INVALID_ARGUMENT, message);
  TF_OpKernelContext_Failure(ctx, s);
}

static void AddOneCompute(void* state_ptr, TF_OpKernelContext* ctx) {
  AddOneState* state = (AddOneState*)state_ptr;
  TF_Status* s = TF_NewStatus();
  TF_Tensor* x = NULL;
  TF_Tensor* y = NULL;
  int64_t dims[8];
  int ndims, i;
  int64_t n, k;
  TF_GetInput(ctx, 0, &x, s);
  if (TF_GetCode(s) != TF_OK) {
    TF_OpKernelContext_Failure(ctx, s);
    TF_DeleteStatus(s);
    return;
  }
  ndims = TF_NumDims(x);
  for (i = 0; i < ndims && i < 8; ++i) dims[i] = TF_Dim(x, i);
  n = TF_TensorElementCount(x);
  if (state->type == TF_INT32) {
    const int32_t* in = (const int32_t*)TF_TensorData(x);
    for (k = 0; k < n; ++k) {
      if (in[k] < 0) {
        Fail(ctx, s, "has a negative input", in[k]);
        goto done;
      }
    }
  } else {
    const float* in = (const float*)TF_TensorData(x);
    for (k = 0; k < n; ++k) {
      if (in[k] < 0) {
        Fail(ctx, s, "has a negative input", in[k]);
        goto done;
      }
    }
  }
  y = TF_AllocateOutput(ctx, 0, state->type, dims, ndims, TF_TensorByteSize(x), s);
  if (TF_GetCode(s) != TF_OK) {
    TF_OpKernelContext_Failure(ctx, s);
    goto done;
  }
  if (state->type == TF_INT32) {
    const int32_t* in = (const int32_t*)TF_TensorData(x);
    int32_t* out = (int32_t*)TF_TensorData(y);
    for (k = 0; k < n; ++k) out[k] = in[k] + 1;
  } else {
    const float* in = (const float*)TF_TensorData(x);
    float* out = (float*)TF_TensorData(y);
    for (k = 0; k < n; ++k) out[k] = in[k] + 1.0f;
  }
done:
  TF_DeleteTensor(y);
  TF_DeleteTensor(x);
  TF_DeleteStatus(s);
}

static void RegisterKernel(const char* op, TF_DataType type, const char* name) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* k =
      TF_NewKernelBuilder(op, "CPU", AddOneCreate, AddOneCompute, AddOneDelete);
  TF_KernelBuilder_TypeConstraint(k, "T", type, s);
  Check(s, "type constraint");
  TF_RegisterKernelBuilder(name, k, s);
  Check(s, name);
  TF_DeleteStatus(s);
}

__attribute__((constructor)) static void RegisterAddOne(void) {
  if (PLUGIN_MODE == 0 || PLUGIN_MODE == 1) {
    TF_Status* s = TF_NewStatus();
    TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("SgTestAddOne");
    TF_OpDefinitionBuilderAddInput(b, "x: T");
    TF_OpDefinitionBuilderAddOutput(b, "y: T");
    TF_OpDefinitionBuilderAddAttr(b, "T: {float, int32}");
    TF_OpDefinitionBuilderSetShapeInferenceFunction(b, AddOneShape);
    TF_RegisterOpDefinition(b, s);
    Check(s, "SgTestAddOne");
    TF_DeleteStatus(s);
  }
  if (PLUGIN_MODE == 0) {
    RegisterKernel("SgTestAddOne", TF_FLOAT, "SgTestAddOneFloat");
    RegisterKernel("SgTestAddOne", TF_INT32, "SgTestAddOneInt32");
  }
  if (PLUGIN_MODE == 2) RegisterKernel("SgTestNoSuchOp", TF_FLOAT, "SgTestNoSuchOpFloat");
}
