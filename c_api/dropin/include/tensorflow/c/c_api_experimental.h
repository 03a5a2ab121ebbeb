/* sg's copy of the non-eager part of TensorFlow 2.21's tensorflow/c/c_api_experimental.h: config
 * helpers, checkpoint reading, op queries and shape lists. The eager (TFE_) declarations are left
 * out: sg has no eager runtime. sg has no XLA either: the XLA switches below are accepted and
 * change nothing (their getters report off). */
#ifndef TENSORFLOW_C_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_C_C_API_EXPERIMENTAL_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- XLA (no effect in sg) ---------------------------------------------------------------- */

TF_CAPI_EXPORT extern void TF_EnableXLACompilation(TF_SessionOptions* options,
                                                   unsigned char enable);
/* The setters return the previous setting (0 in sg). */
TF_CAPI_EXPORT unsigned char TF_SetXlaEnableLazyCompilation(unsigned char enable);
TF_CAPI_EXPORT unsigned char TF_SetTfXlaCpuGlobalJit(unsigned char enable);
TF_CAPI_EXPORT void TF_SetXlaAutoJitMode(const char* mode);
TF_CAPI_EXPORT unsigned char TF_GetXlaAutoJitEnabled(void);
TF_CAPI_EXPORT void TF_SetXlaMinClusterSize(int size);
TF_CAPI_EXPORT unsigned char TF_GetXlaConstantFoldingDisabled(void);
TF_CAPI_EXPORT void TF_SetXlaConstantFoldingDisabled(unsigned char should_enable);

/* ---- Serialized configs ------------------------------------------------------------------- */

/* A serialized ConfigProto with `num_cpu_devices` CPU devices (for TF_SetConfig); freed with
 * TF_DeleteBuffer. sg has neither XLA nor GPUs: the first two flags are not recorded. */
TF_CAPI_EXPORT extern TF_Buffer* TF_CreateConfig(unsigned char enable_xla_compilation,
                                                 unsigned char gpu_memory_allow_growth,
                                                 unsigned int num_cpu_devices);

/* A serialized RunOptions asking for a full trace (step stats in the run metadata) or none. */
TF_CAPI_EXPORT extern TF_Buffer* TF_CreateRunOptions(unsigned char enable_full_trace);

/* The graph (or function) as human-readable text, malloc'd: the caller free()s it; *len is its
 * length. sg has no TF_Function: TF_FunctionDebugString returns NULL. */
TF_CAPI_EXPORT extern const char* TF_GraphDebugString(TF_Graph* graph, size_t* len);
TF_CAPI_EXPORT extern char* TF_FunctionDebugString(TF_Function* func, size_t* len);

/* TensorFlow's test helpers over FIFO queues named by id: not implemented by sg
 * (TF_UNIMPLEMENTED). */
TF_CAPI_EXPORT extern TF_Tensor* TF_DequeueNamedTensor(TF_Session* session, int tensor_id,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern void TF_EnqueueNamedTensor(TF_Session* session, int tensor_id,
                                                 TF_Tensor* tensor, TF_Status* status);

/* Sets TF_INTERNAL with message `errMsg`. */
TF_CAPI_EXPORT extern void TF_MakeInternalErrorStatus(TF_Status* status, const char* errMsg);

/* ---- Checkpoints (TensorFlow's V2 format: <prefix>.index and data shards) ----------------- */

typedef struct TF_CheckpointReader TF_CheckpointReader;

/* Opens checkpoint `filename` (its prefix, e.g. "model.ckpt-1000"); NULL and an error when it
 * cannot be read. Freed with TF_DeleteCheckpointReader. */
TF_CAPI_EXPORT extern TF_CheckpointReader* TF_NewCheckpointReader(const char* filename,
                                                                  TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteCheckpointReader(TF_CheckpointReader* reader);
/* 1 when the checkpoint holds variable `name`. */
TF_CAPI_EXPORT extern int TF_CheckpointReaderHasTensor(TF_CheckpointReader* reader,
                                                       const char* name);
/* The name of variable `index` (in name order), owned by the reader. */
TF_CAPI_EXPORT extern const char* TF_CheckpointReaderGetVariable(TF_CheckpointReader* reader,
                                                                 int index);
/* The number of variables. */
TF_CAPI_EXPORT extern int TF_CheckpointReaderSize(TF_CheckpointReader* reader);
TF_CAPI_EXPORT extern TF_DataType TF_CheckpointReaderGetVariableDataType(
    TF_CheckpointReader* reader, const char* name);
/* Writes the dims of variable `name` into dims[0..num_dims). */
TF_CAPI_EXPORT extern void TF_CheckpointReaderGetVariableShape(TF_CheckpointReader* reader,
                                                               const char* name, int64_t* dims,
                                                               int num_dims, TF_Status* status);
TF_CAPI_EXPORT extern int TF_CheckpointReaderGetVariableNumDims(TF_CheckpointReader* reader,
                                                                const char* name);
/* The value of variable `name`, a new tensor the caller deletes. */
TF_CAPI_EXPORT extern TF_Tensor* TF_CheckpointReaderGetTensor(TF_CheckpointReader* reader,
                                                              const char* name,
                                                              TF_Status* status);

/* ---- Kernel queries ----------------------------------------------------------------------- */

/* Attrs of an op, to ask whether a kernel exists for them (TF_AttrBuilderCheckCanRunOnDevice). */
typedef struct TF_AttrBuilder TF_AttrBuilder;
TF_CAPI_EXPORT extern TF_AttrBuilder* TF_NewAttrBuilder(const char* op_name);
TF_CAPI_EXPORT extern void TF_DeleteAttrBuilder(TF_AttrBuilder* builder);
TF_CAPI_EXPORT extern void TF_AttrBuilderSetType(TF_AttrBuilder* builder, const char* attr_name,
                                                 TF_DataType value);
TF_CAPI_EXPORT extern void TF_AttrBuilderSetTypeList(TF_AttrBuilder* builder,
                                                     const char* attr_name,
                                                     const TF_DataType* values, int num_values);
/* TF_OK when a kernel for the op and attrs is registered for `device_type` ("CPU"). */
TF_CAPI_EXPORT extern void TF_AttrBuilderCheckCanRunOnDevice(TF_AttrBuilder* builder,
                                                             const char* device_type,
                                                             TF_Status* status);

/* The attr giving the length of list input `input_index` of op `op_name` ("N"...); an error when
 * that input is not a list of one type. */
TF_CAPI_EXPORT extern const char* TF_GetNumberAttrForOpListInput(const char* op_name,
                                                                 int input_index,
                                                                 TF_Status* status);

/* 1 when op type `op_type` is stateful, 0 when not; an error for an unknown op. */
TF_CAPI_EXPORT extern int TF_OpIsStateful(const char* op_type, TF_Status* status);

/* TensorFlow's process initialisation (flags, logging): nothing to do in sg. */
TF_CAPI_EXPORT void TF_InitMain(const char* usage, int* argc, char*** argv);

/* A TCP port nobody listens on now (aborts when none can be found). */
TF_CAPI_EXPORT int TF_PickUnusedPortOrDie(void);

/* ---- Shape and dtype lists ---------------------------------------------------------------- */

/* num_dims -1: unknown rank. */
struct TF_ShapeAndType {
  int num_dims;
  int64_t* dims;
  TF_DataType dtype;
};
typedef struct TF_ShapeAndType TF_ShapeAndType;

struct TF_ShapeAndTypeList {
  int num_items;
  TF_ShapeAndType* items;
};
typedef struct TF_ShapeAndTypeList TF_ShapeAndTypeList;

/* A list of `num_shapes` items (rank 0, dtype 0); freed with TF_DeleteShapeAndTypeList. */
TF_CAPI_EXPORT extern TF_ShapeAndTypeList* TF_NewShapeAndTypeList(int num_shapes);
/* Item `index` gets a copy of dims[0..num_dims). */
TF_CAPI_EXPORT extern void TF_ShapeAndTypeListSetShape(TF_ShapeAndTypeList* shape_list,
                                                       int index, const int64_t* dims,
                                                       int num_dims);
TF_CAPI_EXPORT extern void TF_ShapeAndTypeListSetUnknownShape(TF_ShapeAndTypeList* shape_list,
                                                              int index);
TF_CAPI_EXPORT extern void TF_ShapeAndTypeListSetDtype(TF_ShapeAndTypeList* shape_list,
                                                       int index, TF_DataType dtype);
TF_CAPI_EXPORT extern void TF_DeleteShapeAndTypeList(TF_ShapeAndTypeList* shape_list);
/* Deletes each list and the array (which must come from malloc). */
TF_CAPI_EXPORT extern void TF_DeleteShapeAndTypeListArray(TF_ShapeAndTypeList** shape_list_array,
                                                          int num_items);

/* sg does not validate colocation constraints at import: a no-op. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetValidateColocationConstraints(
    TF_ImportGraphDefOptions* opts, unsigned char enable);

/* Device plugins: not implemented by sg (TF_UNIMPLEMENTED). */
TF_CAPI_EXPORT extern TF_Library* TF_LoadPluggableDeviceLibrary(const char* library_filename,
                                                                TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeletePluggableDeviceLibraryHandle(TF_Library* lib_handle);

/* Removes function `func_name` from the graph's library (sg/c_api.h: SG_GraphRemoveFunction). */
TF_CAPI_EXPORT extern void TF_GraphRemoveFunction(TF_Graph* g, const char* func_name,
                                                  TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_C_API_EXPERIMENTAL_H_ */
