/* A client written against TensorFlow's C API, with TF_ names only: the one sg-specific line is
 * the include. It must compile and pass unchanged with sg (tf_c_api.h, -lsg).
 *
 *   tf_style_client --digits TESTDATA_DIR     tests/testdata/digits_mlp.pb against TensorFlow's
 *                                             own probabilities (always there)
 *   tf_style_client --tf-graphs TF_GRAPHS_DIR real frozen graphs and a SavedModel from
 *                                             ../shared/testdata/tf_graphs; exits 77 (skipped)
 *                                             when the directory is absent */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sg/tf_c_api.h" /* with TensorFlow: #include "tensorflow/c/c_api.h" */

static int failures = 0;

#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "%s:%d: EXPECT failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

static int StatusOk(TF_Status* status, const char* what) {
  if (TF_GetCode(status) == TF_OK) return 1;
  fprintf(stderr, "tf_style_client: %s: %s (code %d)\n", what, TF_Message(status),
          (int)TF_GetCode(status));
  ++failures;
  return 0;
}

static void FreeBytes(void* data, size_t length) {
  (void)length;
  free(data);
}

static void FreeTensorData(void* data, size_t length, void* arg) {
  (void)length;
  (void)arg;
  free(data);
}

/* Reads a whole file into a TF_Buffer that frees the bytes itself; NULL if it cannot. */
static TF_Buffer* ReadBufferFromFile(const char* path) {
  FILE* f = fopen(path, "rb");
  TF_Buffer* buffer;
  void* data;
  long size;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = malloc(size > 0 ? (size_t)size : 1);
  if (fread(data, 1, (size_t)size, f) != (size_t)size) {
    fclose(f);
    free(data);
    return NULL;
  }
  fclose(f);
  buffer = TF_NewBuffer();
  buffer->data = data;
  buffer->length = (size_t)size;
  buffer->data_deallocator = FreeBytes;
  return buffer;
}

static TF_Graph* LoadGraph(const char* dir, const char* file, TF_Status* status) {
  char path[4096];
  TF_Graph* graph = TF_NewGraph();
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_Buffer* graph_def;
  snprintf(path, sizeof(path), "%s/%s", dir, file);
  graph_def = ReadBufferFromFile(path);
  if (graph_def == NULL) {
    fprintf(stderr, "tf_style_client: cannot read %s\n", path);
    ++failures;
    TF_DeleteImportGraphDefOptions(opts);
    TF_DeleteGraph(graph);
    return NULL;
  }
  TF_GraphImportGraphDef(graph, graph_def, opts, status);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(graph_def);
  if (!StatusOk(status, path)) {
    TF_DeleteGraph(graph);
    return NULL;
  }
  return graph;
}

static TF_Tensor* FloatTensor(const int64_t* dims, int num_dims, const float* values) {
  size_t count = 1, bytes;
  float* data;
  int i;
  for (i = 0; i < num_dims; ++i) count *= (size_t)dims[i];
  bytes = count * sizeof(float);
  data = (float*)malloc(bytes);
  memcpy(data, values, bytes);
  return TF_NewTensor(TF_FLOAT, dims, num_dims, data, bytes, FreeTensorData, NULL);
}

static TF_Output Out(TF_Graph* graph, const char* name) {
  TF_Output out;
  out.oper = TF_GraphOperationByName(graph, name);
  out.index = 0;
  if (out.oper == NULL) {
    fprintf(stderr, "tf_style_client: no operation %s\n", name);
    ++failures;
  }
  return out;
}

/* One session run over `graph`; returns 1 when it succeeded. */
static int Run(TF_Graph* graph, const TF_Output* inputs, TF_Tensor* const* input_values,
               int ninputs, const TF_Output* outputs, TF_Tensor** output_values, int noutputs,
               const TF_Operation* const* targets, int ntargets, TF_Status* status) {
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(graph, opts, status);
  int ok = 0;
  TF_DeleteSessionOptions(opts);
  if (!StatusOk(status, "TF_NewSession")) return 0;
  if (ntargets > 0) { /* e.g. an init op first, in its own step */
    TF_SessionRun(session, NULL, NULL, NULL, 0, NULL, NULL, 0, targets, ntargets, NULL, status);
    if (!StatusOk(status, "TF_SessionRun (targets)")) goto done;
  }
  TF_SessionRun(session, NULL, inputs, input_values, ninputs, outputs, output_values, noutputs,
                NULL, 0, NULL, status);
  ok = StatusOk(status, "TF_SessionRun");
done:
  TF_CloseSession(session, status);
  TF_DeleteSession(session, status);
  return ok && StatusOk(status, "TF_DeleteSession");
}

static int Near(float got, float want, float rel) {
  return fabsf(got - want) <= rel * (fabsf(want) > 1 ? fabsf(want) : 1);
}

/* ---- tests/testdata: digits_mlp.pb against TensorFlow's probabilities ----------------------- */

/* Reads a float32 .npy (format 1.0, C order); returns the data and the element count. */
static float* ReadNpyFloats(const char* path, size_t* count) {
  TF_Buffer* raw = ReadBufferFromFile(path);
  const unsigned char* bytes;
  size_t header, payload;
  float* values;
  if (raw == NULL || raw->length < 10) return NULL;
  bytes = (const unsigned char*)raw->data;
  header = 10 + (size_t)bytes[8] + ((size_t)bytes[9] << 8);
  if (memcmp(bytes, "\x93NUMPY", 6) != 0 || header > raw->length) return NULL;
  payload = raw->length - header;
  values = (float*)malloc(payload);
  memcpy(values, bytes + header, payload);
  *count = payload / sizeof(float);
  TF_DeleteBuffer(raw);
  return values;
}

static void Digits(const char* testdata) {
  enum { kRows = 360, kPixels = 64, kClasses = 10 };
  char path[4096];
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = LoadGraph(testdata, "digits_mlp.pb", status);
  size_t nx = 0, np = 0;
  float *x, *want;
  TF_Output input, fetches[2];
  TF_Tensor* feed;
  TF_Tensor* results[2] = {NULL, NULL};
  int64_t dims[2] = {kRows, kPixels};
  int i, j, mismatches = 0;
  snprintf(path, sizeof(path), "%s/digits_test_x.npy", testdata);
  x = ReadNpyFloats(path, &nx);
  snprintf(path, sizeof(path), "%s/digits_tf_probs.npy", testdata);
  want = ReadNpyFloats(path, &np);
  EXPECT(x != NULL && nx == kRows * kPixels);
  EXPECT(want != NULL && np == kRows * kClasses);
  if (graph == NULL || x == NULL || want == NULL || nx != kRows * kPixels ||
      np != kRows * kClasses) {
    return;
  }

  input = Out(graph, "input");
  EXPECT(TF_OperationOutputType(input) == TF_FLOAT);
  EXPECT(TF_GraphGetTensorNumDims(graph, input, status) == 2);
  fetches[0] = Out(graph, "probs");
  fetches[1] = Out(graph, "logits");
  feed = FloatTensor(dims, 2, x);
  if (Run(graph, &input, &feed, 1, fetches, results, 2, NULL, 0, status)) {
    const float* probs = (const float*)TF_TensorData(results[0]);
    EXPECT(TF_TensorType(results[0]) == TF_FLOAT);
    EXPECT(TF_NumDims(results[0]) == 2 && TF_Dim(results[0], 0) == kRows &&
           TF_Dim(results[0], 1) == kClasses);
    EXPECT(TF_TensorByteSize(results[1]) == kRows * kClasses * sizeof(float));
    for (i = 0; i < kRows; ++i) {
      for (j = 0; j < kClasses; ++j) {
        if (fabsf(probs[i * kClasses + j] - want[i * kClasses + j]) > 1e-4f) ++mismatches;
      }
    }
    EXPECT(mismatches == 0);
    printf("digits_mlp.pb: %d rows, %d probabilities off TensorFlow's by more than 1e-4\n", kRows,
           mismatches);
  }
  for (i = 0; i < 2; ++i) TF_DeleteTensor(results[i]);
  TF_DeleteTensor(feed);
  free(x);
  free(want);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
}

/* ---- ../shared/testdata/tf_graphs: real frozen graphs, plus operations built on them -------- */

/* tf2onnx's linear regression: pred = W.X + b (published: X=5 -> 2.1193342). Then a Mul by a
 * Const is built on top of `pred`, so the graph grows after import. */
static void Regression(const char* dir) {
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = LoadGraph(dir, "tf2onnx_regression_frozen.pb", status);
  TF_OperationDescription* desc;
  TF_Tensor* two;
  TF_Tensor* feed;
  TF_Tensor* results[2] = {NULL, NULL};
  TF_Output input, fetches[2];
  float two_value = 2.0f, x = 5.0f;
  int64_t dims[1] = {1};
  if (graph == NULL) return;

  input = Out(graph, "X");
  fetches[0] = Out(graph, "pred");
  two = FloatTensor(NULL, 0, &two_value);
  desc = TF_NewOperation(graph, "Const", "two");
  TF_SetAttrTensor(desc, "value", two, status);
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  fetches[1].oper = TF_FinishOperation(desc, status);
  fetches[1].index = 0;
  StatusOk(status, "Const two");
  desc = TF_NewOperation(graph, "Mul", "pred_times_two");
  TF_AddInput(desc, fetches[0]);
  TF_AddInput(desc, fetches[1]);
  fetches[1].oper = TF_FinishOperation(desc, status);
  if (!StatusOk(status, "Mul pred_times_two")) return;
  EXPECT(strcmp(TF_OperationOpType(fetches[1].oper), "Mul") == 0);
  EXPECT(TF_OperationNumInputs(fetches[1].oper) == 2);

  feed = FloatTensor(dims, 1, &x);
  if (Run(graph, &input, &feed, 1, fetches, results, 2, NULL, 0, status)) {
    float pred = *(const float*)TF_TensorData(results[0]);
    float doubled = *(const float*)TF_TensorData(results[1]);
    EXPECT(Near(pred, 2.1193342f, 1e-5f));
    EXPECT(Near(doubled, 2 * 2.1193342f, 1e-5f));
    printf("tf2onnx_regression_frozen.pb: X=5 -> pred %.7f, built Mul -> %.7f\n", pred, doubled);
  }
  TF_DeleteTensor(results[0]);
  TF_DeleteTensor(results[1]);
  TF_DeleteTensor(feed);
  TF_DeleteTensor(two);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
}

/* tensorflow/rust's multiplication graph (producer 9): a=[1,2,3], b=[4,5,6] -> c=[4,10,18]. */
static void Multiplication(const char* dir) {
  static const float a[3] = {1, 2, 3}, b[3] = {4, 5, 6}, want[3] = {4, 10, 18};
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = LoadGraph(dir, "tfrust_multiplication.pb", status);
  TF_Output inputs[2], output;
  TF_Tensor* feeds[2];
  TF_Tensor* result = NULL;
  int64_t dims[1] = {3};
  int i;
  if (graph == NULL) return;
  inputs[0] = Out(graph, "a");
  inputs[1] = Out(graph, "b");
  output = Out(graph, "c");
  feeds[0] = FloatTensor(dims, 1, a);
  feeds[1] = FloatTensor(dims, 1, b);
  if (Run(graph, inputs, feeds, 2, &output, &result, 1, NULL, 0, status)) {
    EXPECT(TF_TensorElementCount(result) == 3);
    for (i = 0; i < 3; ++i) EXPECT(((const float*)TF_TensorData(result))[i] == want[i]);
    printf("tfrust_multiplication.pb: [1,2,3]*[4,5,6] -> [%g,%g,%g]\n",
           ((const float*)TF_TensorData(result))[0], ((const float*)TF_TensorData(result))[1],
           ((const float*)TF_TensorData(result))[2]);
  }
  TF_DeleteTensor(result);
  TF_DeleteTensor(feeds[0]);
  TF_DeleteTensor(feeds[1]);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
}

/* fazibear's variables graph: run `init`, then c = a * b = 30 (published). */
static void Variables(const char* dir) {
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = LoadGraph(dir, "fazibear_mul_vars.pb", status);
  const TF_Operation* init;
  TF_Output output;
  TF_Tensor* result = NULL;
  if (graph == NULL) return;
  init = TF_GraphOperationByName(graph, "init");
  output = Out(graph, "c");
  EXPECT(init != NULL);
  if (Run(graph, NULL, NULL, 0, &output, &result, 1, &init, 1, status)) {
    EXPECT(*(const float*)TF_TensorData(result) == 30.0f);
    printf("fazibear_mul_vars.pb: after init, c = %g\n", *(const float*)TF_TensorData(result));
  }
  TF_DeleteTensor(result);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
}

/* TensorFlow Serving's half_plus_two SavedModel (TF 1.14, variables restored): y = 0.5 x + 2
 * (published: x = [1, 2, 3] -> [2.5, 3, 3.5]). */
static void SavedModel(const char* dir) {
  static const float x[3] = {1, 2, 3}, want[3] = {2.5f, 3.0f, 3.5f};
  char export_dir[4096];
  const char* tags[1] = {"serve"};
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = TF_NewGraph();
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Buffer* meta_graph_def = TF_NewBuffer();
  TF_Session* session;
  TF_Output input, output;
  TF_Tensor* feed;
  TF_Tensor* result = NULL;
  int64_t dims[2] = {3, 1};
  int i;
  snprintf(export_dir, sizeof(export_dir), "%s/tfserving_half_plus_two_cpu", dir);
  session = TF_LoadSessionFromSavedModel(opts, NULL, export_dir, tags, 1, graph, meta_graph_def,
                                         status);
  TF_DeleteSessionOptions(opts);
  if (!StatusOk(status, "TF_LoadSessionFromSavedModel")) return;
  EXPECT(meta_graph_def->length > 0);
  input = Out(graph, "x");
  output = Out(graph, "y");
  feed = FloatTensor(dims, 2, x);
  TF_SessionRun(session, NULL, &input, &feed, 1, &output, &result, 1, NULL, 0, NULL, status);
  if (StatusOk(status, "TF_SessionRun (SavedModel)")) {
    for (i = 0; i < 3; ++i) EXPECT(((const float*)TF_TensorData(result))[i] == want[i]);
    printf("tfserving_half_plus_two_cpu: x=[1,2,3] -> y=[%g,%g,%g]\n",
           ((const float*)TF_TensorData(result))[0], ((const float*)TF_TensorData(result))[1],
           ((const float*)TF_TensorData(result))[2]);
  }
  TF_DeleteTensor(result);
  TF_DeleteTensor(feed);
  TF_CloseSession(session, status);
  TF_DeleteSession(session, status);
  TF_DeleteBuffer(meta_graph_def);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
}

int main(int argc, char** argv) {
  struct stat st;
  if (argc != 3 || (strcmp(argv[1], "--digits") != 0 && strcmp(argv[1], "--tf-graphs") != 0)) {
    fprintf(stderr, "usage: tf_style_client --digits TESTDATA_DIR | --tf-graphs TF_GRAPHS_DIR\n");
    return 2;
  }
  if (strcmp(argv[1], "--digits") == 0) {
    Digits(argv[2]);
  } else {
    if (stat(argv[2], &st) != 0 || !S_ISDIR(st.st_mode)) {
      printf("tf_style_client: SKIPPED: %s is absent (the shared TensorFlow graphs are not here)\n",
             argv[2]);
      return 77;
    }
    Regression(argv[2]);
    Multiplication(argv[2]);
    Variables(argv[2]);
    SavedModel(argv[2]);
  }
  if (failures > 0) {
    fprintf(stderr, "tf_style_client: %d failures\n", failures);
    return 1;
  }
  printf("tf_style_client: ok\n");
  return 0;
}
