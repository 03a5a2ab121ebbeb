/* A TensorFlow C client compiled against TensorFlow 2.21's OWN headers (the PyPI wheel's
 * tensorflow/include) and linked to sg's libtensorflow.so.2: the declarations, struct layouts and
 * enum values it was compiled with are TensorFlow's, the code it runs is sg's.
 *
 *   tf_headers_client TESTDATA_DIR
 *
 * Expected values are written down here or come from TensorFlow (digits_tf_probs.npy, and the
 * checkpoint values TensorFlow's reader gives for tests/testdata/digits_saved_model). Exits 1 on
 * the first group of failures, printing each. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"

static int failures = 0;

#define EXPECT(cond)                                                             \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "%s:%d: EXPECT failed: %s\n", __FILE__, __LINE__, #cond);  \
      ++failures;                                                                \
    }                                                                            \
  } while (0)

static int Ok(TF_Status* s, const char* what) {
  if (TF_GetCode(s) == TF_OK) return 1;
  fprintf(stderr, "tf_headers_client: %s: %s (code %d)\n", what, TF_Message(s), (int)TF_GetCode(s));
  ++failures;
  return 0;
}

static void FreeBytes(void* data, size_t length) {
  (void)length;
  free(data);
}

static TF_Buffer* ReadFile(const char* dir, const char* name) {
  char path[4096];
  FILE* f;
  long size;
  void* data;
  TF_Buffer* b;
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "tf_headers_client: cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = malloc(size > 0 ? (size_t)size : 1);
  if (fread(data, 1, (size_t)size, f) != (size_t)size) exit(1);
  fclose(f);
  b = TF_NewBuffer();
  b->data = data;
  b->length = (size_t)size;
  b->data_deallocator = FreeBytes;
  return b;
}

/* The float32 data of a .npy file (format 1.0, C order); *count elements. */
static float* ReadNpyFloats(const char* dir, const char* name, size_t* count) {
  TF_Buffer* b = ReadFile(dir, name);
  const unsigned char* p = (const unsigned char*)b->data;
  size_t header = 10 + (size_t)(p[8] | (p[9] << 8));
  float* out;
  EXPECT(b->length > 10 && memcmp(p, "\x93NUMPY", 6) == 0 && p[6] == 1);
  EXPECT(strstr((const char*)p + 10, "'<f4'") != NULL);
  *count = (b->length - header) / sizeof(float);
  out = (float*)malloc(*count * sizeof(float));
  memcpy(out, p + header, *count * sizeof(float));
  TF_DeleteBuffer(b);
  return out;
}

static void NoFree(void* data, size_t len, void* arg) {
  (void)data;
  (void)len;
  (void)arg;
}

static TF_Operation* Placeholder(TF_Graph* g, const char* name, TF_DataType dtype, int64_t n,
                                 TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", dtype);
  TF_SetAttrShape(d, "shape", &n, 1);
  return TF_FinishOperation(d, s);
}

static TF_Operation* FloatConst(TF_Graph* g, const char* name, const float* v, int64_t n,
                                TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, &n, 1, (size_t)n * sizeof(float));
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_Operation* op;
  memcpy(TF_TensorData(t), v, (size_t)n * sizeof(float));
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrTensor(d, "value", t, s);
  op = TF_FinishOperation(d, s);
  TF_DeleteTensor(t);
  return op;
}

static TF_Operation* Binary(TF_Graph* g, const char* type, const char* name, TF_Output a,
                            TF_Output b, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInput(d, a);
  TF_AddInput(d, b);
  return TF_FinishOperation(d, s);
}

/* x:[3] + [10, 20, 30] = y, built from C, run by TF_SessionRun and by the deprecated API. */
static void GraphBuiltFromC(void) {
  static const float c_values[3] = {10, 20, 30};
  float x_values[3] = {1, 2, 3};
  int64_t dims[1] = {3}, shape[1] = {0};
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation *x, *c, *y;
  TF_Output in, out, inputs[2];
  TF_Tensor *feed, *result = NULL;
  TF_SessionOptions* so;
  TF_Session* sess;
  TF_Buffer *graph_def, *run_options, *run_metadata;
  TF_AttrMetadata meta;
  char name[16];
  size_t pos = 0;
  int count = 0;

  x = Placeholder(g, "x", TF_FLOAT, 3, s);
  if (!Ok(s, "Placeholder")) return;
  c = FloatConst(g, "c", c_values, 3, s);
  if (!Ok(s, "Const")) return;
  in.oper = x;
  in.index = 0;
  out.oper = c;
  out.index = 0;
  y = Binary(g, "AddV2", "y", in, out, s);
  if (!Ok(s, "AddV2")) return;
  while (TF_GraphNextOperation(g, &pos) != NULL) ++count;
  EXPECT(count == 3);

  /* Reading the graph back: struct returns, attr names, all inputs. */
  meta = TF_OperationGetAttrMetadata(c, "dtype", s);
  EXPECT(Ok(s, "TF_OperationGetAttrMetadata") && meta.is_list == 0 && meta.list_size == -1 &&
         meta.type == TF_ATTR_TYPE && meta.total_size == -1);
  EXPECT(TF_OperationGetNumAttrs(c) == 2); /* dtype, value */
  EXPECT(TF_OperationGetAttrNameLength(c, 0) == 5 && TF_OperationGetAttrNameLength(c, 1) == 5);
  memset(name, 0, sizeof(name));
  TF_OperationGetAttrName(c, 1, name, s);
  EXPECT(Ok(s, "TF_OperationGetAttrName") && strcmp(name, "value") == 0);
  TF_OperationGetAttrName(c, 2, name, s);
  EXPECT(TF_GetCode(s) == TF_OUT_OF_RANGE);
  TF_OperationAllInputs(y, inputs, 2);
  EXPECT(inputs[0].oper == x && inputs[0].index == 0 && inputs[1].oper == c);
  out.oper = y;
  EXPECT(TF_GraphGetTensorNumDims(g, out, s) == 1);
  TF_GraphGetTensorShape(g, out, shape, 1, s);
  EXPECT(Ok(s, "TF_GraphGetTensorShape") && shape[0] == 3);
  EXPECT(TF_OperationOutputType(out) == TF_FLOAT);
  EXPECT(TF_GraphNumFunctions(g) == 0);

  /* TF_SessionRun with a config and run options from c_api_experimental.h. */
  so = TF_NewSessionOptions();
  {
    TF_Buffer* config = TF_CreateConfig(0, 0, 1);
    TF_SetConfig(so, config->data, config->length, s);
    Ok(s, "TF_SetConfig(TF_CreateConfig)");
    TF_DeleteBuffer(config);
  }
  sess = TF_NewSession(g, so, s);
  if (!Ok(s, "TF_NewSession")) return;
  feed = TF_NewTensor(TF_FLOAT, dims, 1, x_values, sizeof(x_values), NoFree, NULL);
  run_options = TF_CreateRunOptions(1);
  run_metadata = TF_NewBuffer();
  TF_SessionRun(sess, run_options, &in, &feed, 1, &out, &result, 1, NULL, 0, run_metadata, s);
  if (Ok(s, "TF_SessionRun") && result != NULL) {
    const float* r = (const float*)TF_TensorData(result);
    EXPECT(TF_TensorType(result) == TF_FLOAT && TF_NumDims(result) == 1 && TF_Dim(result, 0) == 3);
    EXPECT(r[0] == 11 && r[1] == 22 && r[2] == 33);
    EXPECT(TF_TensorIsAligned(result));
    EXPECT(run_metadata->length > 0); /* a full trace has step stats */
  }
  TF_DeleteTensor(result);
  TF_DeleteBuffer(run_options);
  TF_DeleteBuffer(run_metadata);

  /* Bad input is an error, not a crash. */
  TF_SessionRun(NULL, NULL, &in, &feed, 1, &out, &result, 1, NULL, 0, NULL, s);
  EXPECT(TF_GetCode(s) == TF_INVALID_ARGUMENT && result == NULL);

  /* The same graph through the deprecated API: a GraphDef and tensor names. */
  graph_def = TF_NewBuffer();
  TF_GraphToGraphDef(g, graph_def, s);
  if (Ok(s, "TF_GraphToGraphDef")) {
    TF_DeprecatedSession* old = TF_NewDeprecatedSession(so, s);
    const char* feed_names[1] = {"x:0"};
    const char* fetch_names[1] = {"y:0"};
    TF_Tensor* fetched = NULL;
    if (Ok(s, "TF_NewDeprecatedSession")) {
      TF_DeviceList* devices;
      TF_ExtendGraph(old, graph_def->data, graph_def->length, s);
      Ok(s, "TF_ExtendGraph");
      TF_Run(old, NULL, feed_names, &feed, 1, fetch_names, &fetched, 1, NULL, 0, NULL, s);
      if (Ok(s, "TF_Run") && fetched != NULL) {
        const float* r = (const float*)TF_TensorData(fetched);
        EXPECT(r[0] == 11 && r[1] == 22 && r[2] == 33);
      }
      TF_DeleteTensor(fetched);
      devices = TF_DeprecatedSessionListDevices(old, s);
      EXPECT(Ok(s, "TF_DeprecatedSessionListDevices") && TF_DeviceListCount(devices) >= 1);
      if (devices != NULL) {
        EXPECT(strcmp(TF_DeviceListType(devices, 0, s), "CPU") == 0);
      }
      TF_DeleteDeviceList(devices);
      TF_CloseDeprecatedSession(old, s);
      Ok(s, "TF_CloseDeprecatedSession");
      TF_DeleteDeprecatedSession(old, s);
    }
  }
  TF_DeleteBuffer(graph_def);
  TF_DeleteTensor(feed);
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  Ok(s, "TF_DeleteSession");
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* tests/testdata/digits_mlp.pb against TensorFlow's own probabilities. */
static void DigitsClassifier(const char* testdata) {
  enum { kRows = 16 };
  size_t nx, np, i;
  float* x = ReadNpyFloats(testdata, "digits_test_x.npy", &nx);
  float* want = ReadNpyFloats(testdata, "digits_tf_probs.npy", &np);
  int64_t dims[2] = {kRows, 64};
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* def = ReadFile(testdata, "digits_mlp.pb");
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefResults* results;
  TF_SessionOptions* so = TF_NewSessionOptions();
  TF_Session* sess;
  TF_Output in, *returned = NULL;
  TF_Tensor *feed, *probs = NULL;
  int nreturned = 0;

  TF_ImportGraphDefOptionsSetPrefix(opts, "digits");
  TF_ImportGraphDefOptionsAddReturnOutput(opts, "probs", 0);
  results = TF_GraphImportGraphDefWithResults(g, def, opts, s);
  if (!Ok(s, "TF_GraphImportGraphDefWithResults")) return;
  TF_ImportGraphDefResultsReturnOutputs(results, &nreturned, &returned);
  EXPECT(nreturned == 1 && strcmp(TF_OperationName(returned[0].oper), "digits/probs") == 0);
  in.oper = TF_GraphOperationByName(g, "digits/input");
  in.index = 0;
  EXPECT(in.oper != NULL);
  sess = TF_NewSession(g, so, s);
  if (!Ok(s, "TF_NewSession")) return;
  feed = TF_NewTensor(TF_FLOAT, dims, 2, x, kRows * 64 * sizeof(float), NoFree, NULL);
  TF_SessionRun(sess, NULL, &in, &feed, 1, returned, &probs, 1, NULL, 0, NULL, s);
  if (Ok(s, "TF_SessionRun(digits)") && probs != NULL) {
    const float* p = (const float*)TF_TensorData(probs);
    float worst = 0;
    EXPECT(TF_Dim(probs, 0) == kRows && TF_Dim(probs, 1) == 10);
    for (i = 0; i < kRows * 10; ++i) {
      float d = fabsf(p[i] - want[i]);
      if (d > worst) worst = d;
    }
    if (worst > 1e-5f) fprintf(stderr, "digits: max |sg - TensorFlow| = %g\n", worst);
    EXPECT(worst <= 1e-5f);
  }
  TF_DeleteTensor(probs);
  TF_DeleteTensor(feed);
  TF_DeleteImportGraphDefResults(results);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  free(x);
  free(want);
}

/* The digits SavedModel's checkpoint, as TensorFlow's reader lists it. */
static void CheckpointReader(const char* testdata) {
  static const char* const names[4] = {"hidden/b", "hidden/w", "out/b", "out/w"};
  /* tf.train.load_checkpoint(...).get_tensor("hidden/b")[:4] */
  static const float hidden_b[4] = {-0.07654008f, 0.05868324f, 0.0308347f, 0.14294907f};
  char path[4096];
  TF_Status* s = TF_NewStatus();
  TF_CheckpointReader* r;
  int64_t dims[2] = {0, 0};
  int i;
  snprintf(path, sizeof(path), "%s/digits_saved_model/variables/variables", testdata);
  r = TF_NewCheckpointReader(path, s);
  if (!Ok(s, "TF_NewCheckpointReader")) return;
  EXPECT(TF_CheckpointReaderSize(r) == 4);
  for (i = 0; i < 4; ++i) {
    const char* v = TF_CheckpointReaderGetVariable(r, i);
    EXPECT(v != NULL && strcmp(v, names[i]) == 0);
  }
  EXPECT(TF_CheckpointReaderHasTensor(r, "out/w") == 1 && TF_CheckpointReaderHasTensor(r, "x") == 0);
  EXPECT(TF_CheckpointReaderGetVariableDataType(r, "hidden/w") == TF_FLOAT);
  EXPECT(TF_CheckpointReaderGetVariableNumDims(r, "hidden/w") == 2);
  TF_CheckpointReaderGetVariableShape(r, "out/w", dims, 2, s);
  EXPECT(Ok(s, "TF_CheckpointReaderGetVariableShape") && dims[0] == 64 && dims[1] == 10);
  {
    TF_Tensor* t = TF_CheckpointReaderGetTensor(r, "hidden/b", s);
    if (Ok(s, "TF_CheckpointReaderGetTensor") && t != NULL) {
      const float* v = (const float*)TF_TensorData(t);
      EXPECT(TF_TensorElementCount(t) == 64);
      for (i = 0; i < 4; ++i) EXPECT(fabsf(v[i] - hidden_b[i]) < 1e-7f);
    }
    TF_DeleteTensor(t);
  }
  TF_CheckpointReaderGetTensor(r, "missing", s);
  EXPECT(TF_GetCode(s) == TF_NOT_FOUND);
  TF_DeleteCheckpointReader(r);
  TF_DeleteStatus(s);
}

static void CollectPayload(const char* key, const char* value, void* capture) {
  char* out = (char*)capture;
  strcat(out, key);
  strcat(out, "=");
  strcat(out, value);
  strcat(out, ";");
}

/* Statuses, tensors from protos and shapes, registry queries, shape lists, unimplemented calls. */
static void SmallerFunctions(void) {
  /* A TensorProto: dtype DT_FLOAT, shape [2], float_val {1.5, -2} (packed). */
  static const unsigned char tensor_proto[] = {0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02,
                                               0x2a, 0x08, 0x00, 0x00, 0xc0, 0x3f, 0x00, 0x00,
                                               0x00, 0xc0};
  TF_Status* s = TF_NewStatus();
  char payloads[256] = "";
  int64_t dims[2] = {2, 3}, new_dims[2] = {3, 2}, bad_dims[1] = {4};
  TF_Tensor* t;
  TF_ShapeAndTypeList* list;

  TF_SetStatus(s, TF_INVALID_ARGUMENT, "bad");
  TF_SetPayload(s, "k", "v");
  TF_ForEachPayload(s, CollectPayload, payloads);
  EXPECT(strcmp(payloads, "k=v;") == 0 && strcmp(TF_Message(s), "bad") == 0);
  TF_SetStatusFromIOError(s, ENOENT, "opening x");
  EXPECT(TF_GetCode(s) == TF_NOT_FOUND && strstr(TF_Message(s), "opening x") != NULL);
  TF_MakeInternalErrorStatus(s, "boom");
  EXPECT(TF_GetCode(s) == TF_INTERNAL && strcmp(TF_Message(s), "boom") == 0);

  t = TF_AllocateTensor(TF_FLOAT, dims, 2, 6 * sizeof(float));
  TF_SetShape(t, new_dims, 2);
  EXPECT(TF_Dim(t, 0) == 3 && TF_Dim(t, 1) == 2);
  TF_SetShape(t, bad_dims, 1); /* 4 elements do not fit 6: ignored */
  EXPECT(TF_NumDims(t) == 2 && TF_Dim(t, 0) == 3);
  {
    TF_Buffer* proto = TF_NewBufferFromString(tensor_proto, sizeof(tensor_proto));
    TF_TensorFromProto(proto, t, s);
    if (Ok(s, "TF_TensorFromProto")) {
      const float* v = (const float*)TF_TensorData(t);
      EXPECT(TF_NumDims(t) == 1 && TF_Dim(t, 0) == 2 && v[0] == 1.5f && v[1] == -2.0f);
    }
    TF_DeleteBuffer(proto);
  }
  TF_DeleteTensor(t);
  EXPECT(TF_TensorDefaultAlignment() >= 16);
  EXPECT(TF_DataTypeSize(TF_DOUBLE) == 8 && TF_DataTypeSize(TF_STRING) == 0);

  EXPECT(TF_OpIsStateful("VariableV2", s) == 1 && Ok(s, "TF_OpIsStateful"));
  EXPECT(TF_OpIsStateful("AddV2", s) == 0 && Ok(s, "TF_OpIsStateful"));
  TF_OpIsStateful("NoSuchOp", s);
  EXPECT(TF_GetCode(s) == TF_NOT_FOUND);
  {
    const char* n = TF_GetNumberAttrForOpListInput("AddN", 0, s);
    EXPECT(Ok(s, "TF_GetNumberAttrForOpListInput") && n != NULL && strcmp(n, "N") == 0);
  }
  EXPECT(TF_PickUnusedPortOrDie() > 0);

  list = TF_NewShapeAndTypeList(2);
  TF_ShapeAndTypeListSetShape(list, 0, dims, 2);
  TF_ShapeAndTypeListSetDtype(list, 0, TF_INT64);
  TF_ShapeAndTypeListSetUnknownShape(list, 1);
  EXPECT(list->num_items == 2 && list->items[0].num_dims == 2 && list->items[0].dims != dims &&
         list->items[0].dims[1] == 3 && list->items[0].dtype == TF_INT64 &&
         list->items[1].num_dims == -1);
  TF_DeleteShapeAndTypeList(list);

  {
    TF_Buffer* ops = TF_GetAllOpList();
    EXPECT(ops != NULL && ops->length > 1000);
    TF_DeleteBuffer(ops);
  }

  /* Functions built from C: a NULL graph is an argument error (sg's; TensorFlow crashes). */
  EXPECT(TF_GraphToFunction(NULL, "f", 0, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, NULL, s) == NULL);
  EXPECT(TF_GetCode(s) == TF_INVALID_ARGUMENT);
  TF_GraphRemoveFunction(NULL, "f", s);
  EXPECT(TF_GetCode(s) == TF_INVALID_ARGUMENT);
  /* An op library that is not there: NOT_FOUND with dlopen's reason, as TensorFlow's. */
  EXPECT(TF_LoadLibrary("libnothing.so", s) == NULL);
  EXPECT(TF_GetCode(s) == TF_NOT_FOUND && strstr(TF_Message(s), "libnothing.so") != NULL);
  /* What sg does not implement still links, and says so by name. */
  EXPECT(TF_LoadPluggableDeviceLibrary("libnothing.so", s) == NULL);
  EXPECT(TF_GetCode(s) == TF_UNIMPLEMENTED &&
         strstr(TF_Message(s), "TF_LoadPluggableDeviceLibrary") != NULL);
  TF_DeleteStatus(s);
}

/* A TensorFlow 2.x client's strings: TF_TString elements written with TF_StringInit/Copy, fed to
 * StringJoin, and the fetch read back as TF_TStrings (one small, one heap-allocated element);
 * then TF_Version, constant evaluation and the kernel lists. This program calls none of
 * TensorFlow 1.x's string functions, so the library keeps the 2.x layout. */
static void Tf2Strings(void) {
  static const char kLong[] = "a string longer than the small-string capacity of 22 bytes";
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* in = Placeholder(g, "s", TF_STRING, 2, s);
  Ok(s, "Placeholder s");
  TF_Output parts[2] = {{in, 0}, {in, 0}};
  TF_OperationDescription* d = TF_NewOperation(g, "StringJoin", "join");
  TF_AddInputList(d, parts, 2);
  TF_SetAttrString(d, "separator", "+", 1);
  TF_Operation* join = TF_FinishOperation(d, s);
  Ok(s, "StringJoin");

  int64_t dims[1] = {2};
  TF_Tensor* feed = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  EXPECT(feed != NULL && sizeof(TF_TString) == 24);
  TF_TString* elems = (TF_TString*)TF_TensorData(feed);
  TF_StringInit(&elems[0]);
  TF_StringInit(&elems[1]);
  TF_StringCopy(&elems[0], "ab", 2);
  TF_StringCopy(&elems[1], kLong, strlen(kLong));
  EXPECT(TF_StringGetType(&elems[0]) == TF_TSTR_SMALL && TF_StringGetSize(&elems[0]) == 2);
  EXPECT(TF_StringGetType(&elems[1]) == TF_TSTR_LARGE &&
         TF_StringGetSize(&elems[1]) == strlen(kLong));

  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, opts, s);
  Ok(s, "TF_NewSession");
  TF_Output feeds[1] = {{in, 0}}, fetches[1] = {{join, 0}};
  TF_Tensor* out = NULL;
  TF_SessionRun(sess, NULL, feeds, &feed, 1, fetches, &out, 1, NULL, 0, NULL, s);
  if (Ok(s, "TF_SessionRun StringJoin") && out != NULL) {
    EXPECT(TF_TensorType(out) == TF_STRING && TF_TensorElementCount(out) == 2);
    EXPECT(TF_TensorByteSize(out) == 2 * sizeof(TF_TString));
    const TF_TString* got = (const TF_TString*)TF_TensorData(out);
    char want[160];
    snprintf(want, sizeof want, "%s+%s", kLong, kLong);
    EXPECT(TF_StringGetSize(&got[0]) == 5 &&
           memcmp(TF_StringGetDataPointer(&got[0]), "ab+ab", 5) == 0);
    EXPECT(TF_StringGetSize(&got[1]) == strlen(want) &&
           memcmp(TF_StringGetDataPointer(&got[1]), want, strlen(want)) == 0);
    TF_DeleteTensor(out);
  }
  TF_StringDealloc(&elems[0]);
  TF_StringDealloc(&elems[1]);
  TF_DeleteTensor(feed);
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(opts);

  EXPECT(TF_Version() != NULL && strncmp(TF_Version(), "2.21", 4) == 0);
  /* 1.5 * 2 from constants alone. */
  float a = 1.5f, b = 2.0f;
  TF_Operation* ca = FloatConst(g, "ca", &a, 1, s);
  TF_Operation* cb = FloatConst(g, "cb", &b, 1, s);
  TF_Operation* mul = Binary(g, "Mul", "cmul", (TF_Output){ca, 0}, (TF_Output){cb, 0}, s);
  Ok(s, "constant Mul");
  TF_Tensor* value = NULL;
  EXPECT(TF_TryEvaluateConstant(g, (TF_Output){mul, 0}, &value, s) == 1);
  if (Ok(s, "TF_TryEvaluateConstant") && value != NULL) {
    EXPECT(*(const float*)TF_TensorData(value) == 3.0f);
    TF_DeleteTensor(value);
  }
  TF_Buffer* kernels = TF_GetRegisteredKernelsForOp("MatMul", s);
  if (Ok(s, "TF_GetRegisteredKernelsForOp") && kernels != NULL) {
    EXPECT(kernels->length > 0);  /* a serialized KernelList naming MatMul on CPU */
    TF_DeleteBuffer(kernels);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: tf_headers_client TESTDATA_DIR\n");
    return 2;
  }
  GraphBuiltFromC();
  DigitsClassifier(argv[1]);
  CheckpointReader(argv[1]);
  SmallerFunctions();
  Tf2Strings();
  if (failures > 0) {
    fprintf(stderr, "tf_headers_client: %d failures\n", failures);
    return 1;
  }
  printf("tf_headers_client: ok\n");
  return 0;
}
