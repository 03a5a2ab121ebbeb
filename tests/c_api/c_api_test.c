/* The C API from plain C99: tensors, strings, building a graph op by op and running it,
 * importing the digits classifier and comparing with TensorFlow's own probabilities.
 * Usage: c_api_test TESTDATA_DIR */
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"

static const char* testdata = ".";

#define CHECK_OK(s) CHECK_CODE(s, SG_OK)

/* ---- helpers -------------------------------------------------------------------------------- */

static int dealloc_calls = 0;
static void CountingFree(void* data, size_t len, void* arg) {
  (void)len;
  (void)arg;
  ++dealloc_calls;
  free(data);
}

static void* ReadFile(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  char* data;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = (char*)malloc(n > 0 ? (size_t)n : 1);
  if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return data;
}

/* A tiny .npy (v1.0, little-endian, C order) reader: returns the data and fills up to 4 dims. */
static void* ReadNpy(const char* path, const char* want_descr, int64_t* dims, int* ndims) {
  size_t len, header_len, payload;
  char* raw = (char*)ReadFile(path, &len);
  char *shape, *p, *out;
  int64_t count = 1;
  if (raw == NULL) return NULL;
  if (len < 10 || memcmp(raw, "\x93NUMPY", 6) != 0 || raw[6] != 1) {
    free(raw);
    return NULL;
  }
  header_len = (size_t)(unsigned char)raw[8] | ((size_t)(unsigned char)raw[9] << 8);
  if (10 + header_len > len || strstr(raw + 10, want_descr) == NULL) {
    free(raw);
    return NULL;
  }
  shape = strstr(raw + 10, "'shape': (");
  *ndims = 0;
  for (p = shape + 10; *p != ')' && *ndims < 4;) {
    dims[*ndims] = strtoll(p, &p, 10);
    count *= dims[(*ndims)++];
    while (*p == ',' || *p == ' ') ++p;
  }
  payload = len - 10 - header_len;
  out = (char*)malloc(payload > 0 ? payload : 1);
  memcpy(out, raw + 10 + header_len, payload);
  free(raw);
  (void)count;
  return out;
}

static char* Path(const char* name) {
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s/%s", testdata, name);
  return buf;
}

static SG_Operation* Placeholder(SG_Graph* g, const char* name, SG_DataType dt,
                                 const int64_t* dims, int ndims, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, "Placeholder", name);
  SG_SetAttrType(d, "dtype", dt);
  SG_SetAttrShape(d, "shape", dims, ndims);
  return SG_FinishOperation(d, s);
}

static SG_Operation* Const(SG_Graph* g, const char* name, SG_Tensor* value, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, "Const", name);
  SG_SetAttrTensor(d, "value", value, s);
  if (SG_GetCode(s) != SG_OK) return NULL;
  SG_SetAttrType(d, "dtype", SG_TensorType(value));
  return SG_FinishOperation(d, s);
}

static SG_Operation* Binary(SG_Graph* g, const char* op, const char* name, SG_Operation* a,
                            SG_Operation* b, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, op, name);
  SG_Output x = {a, 0}, y = {b, 0};
  SG_AddInput(d, x);
  SG_AddInput(d, y);
  return SG_FinishOperation(d, s);
}

static SG_Tensor* FloatTensor(const int64_t* dims, int ndims, const float* values) {
  int64_t n = 1;
  int i;
  SG_Tensor* t;
  for (i = 0; i < ndims; ++i) n *= dims[i];
  t = SG_AllocateTensor(SG_FLOAT, dims, ndims, (size_t)n * sizeof(float));
  if (t != NULL && n > 0) memcpy(SG_TensorData(t), values, (size_t)n * sizeof(float));
  return t;
}

/* ---- tests ---------------------------------------------------------------------------------- */

static void TestStatusAndBuffers(void) {
  SG_Status* s = SG_NewStatus();
  SG_Buffer* b;
  SG_Buffer copy;
  CHECK(SG_GetCode(s) == SG_OK);
  CHECK(strcmp(SG_Message(s), "") == 0);
  SG_SetStatus(s, SG_NOT_FOUND, "no such thing");
  CHECK(SG_GetCode(s) == SG_NOT_FOUND);
  CHECK(strcmp(SG_Message(s), "no such thing") == 0);
  SG_SetStatus(s, SG_OK, "");
  CHECK(SG_GetCode(s) == SG_OK);
  SG_DeleteStatus(s);

  b = SG_NewBufferFromString("abc", 3);
  copy = SG_GetBuffer(b);
  CHECK(copy.length == 3 && memcmp(copy.data, "abc", 3) == 0);
  SG_DeleteBuffer(b);
  SG_DeleteBuffer(NULL);
  CHECK(strcmp(SG_Version(), SG_VERSION_STRING) == 0);
  CHECK(SG_DataTypeSize(SG_FLOAT) == 4 && SG_DataTypeSize(SG_STRING) == 0);
  CHECK(SG_TensorAlignment() == 64);
  b = SG_GetAllOpList();
  CHECK(b != NULL && b->length > 1000);
  SG_DeleteBuffer(b);
}

static void TestTensors(void) {
  int64_t dims[2] = {2, 3};
  float* data = NULL;
  SG_Tensor* t;
  int i;
  if (posix_memalign((void**)&data, 64, 64) != 0) {
    CHECK(0);
    return;
  }
  for (i = 0; i < 6; ++i) data[i] = (float)i;
  dealloc_calls = 0;
  t = SG_NewTensor(SG_FLOAT, dims, 2, data, 6 * sizeof(float), CountingFree, NULL);
  CHECK(t != NULL);
  CHECK(SG_TensorType(t) == SG_FLOAT);
  CHECK(SG_NumDims(t) == 2 && SG_Dim(t, 0) == 2 && SG_Dim(t, 1) == 3 && SG_Dim(t, 2) == -1);
  CHECK(SG_TensorByteSize(t) == 24 && SG_TensorElementCount(t) == 6);
  CHECK(SG_TensorData(t) == data && SG_TensorIsAligned(t));
  CHECK(dealloc_calls == 0);
  SG_DeleteTensor(t);
  CHECK(dealloc_calls == 1);

  /* Misaligned data is copied and released at once. */
  {
    const float want[6] = {0, 1, 2, 3, 4, 5};
    char* raw = (char*)malloc(64 + 1 + 6 * sizeof(float));
    char* odd = raw + 1;
    memcpy(odd, want, 6 * sizeof(float));
    t = SG_NewTensor(SG_FLOAT, dims, 2, odd, 6 * sizeof(float), NULL, NULL);
    CHECK(t != NULL && SG_TensorIsAligned(t) && SG_TensorData(t) != odd);
    CHECK(memcmp(SG_TensorData(t), want, 6 * sizeof(float)) == 0);
    SG_DeleteTensor(t);
    free(raw);
  }

  t = SG_AllocateTensor(SG_INT64, NULL, 0, 8);
  CHECK(t != NULL && SG_NumDims(t) == 0 && SG_TensorElementCount(t) == 1 && SG_TensorIsAligned(t));
  SG_DeleteTensor(t);
}

static void TestStrings(void) {
  SG_Status* s = SG_NewStatus();
  char buf[64];
  const char* out;
  size_t out_len, n;
  n = SG_StringEncode("hello", 5, buf, sizeof buf, s);
  CHECK_OK(s);
  CHECK(n == SG_StringEncodedSize(5) && n == 6);
  CHECK(SG_StringDecode(buf, n, &out, &out_len, s) == 6);
  CHECK_OK(s);
  CHECK(out_len == 5 && memcmp(out, "hello", 5) == 0);
  SG_StringEncode("hello", 5, buf, 3, s);
  CHECK(SG_GetCode(s) == SG_INVALID_ARGUMENT);
  SG_DeleteStatus(s);
}

/* A string tensor goes through a session (Placeholder -> Identity) and comes back equal. */
static void TestStringRoundTrip(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  const char* words[3] = {"", "sg", "a longer string with\0 a NUL"};
  size_t lens[3] = {0, 2, 27};
  int64_t dims[1] = {3};
  SG_Tensor *in, *out = NULL;
  SG_Operation *x, *id;
  SG_OperationDescription* d;
  SG_Session* sess;
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Output fx, fid;
  int i;
  in = SG_NewStringTensor(dims, 1, words, lens, 3, s);
  CHECK_OK(s);
  x = Placeholder(g, "x", SG_STRING, dims, 1, s);
  CHECK_OK(s);
  d = SG_NewOperation(g, "Identity", "id");
  fx.oper = x;
  fx.index = 0;
  SG_AddInput(d, fx);
  id = SG_FinishOperation(d, s);
  CHECK_OK(s);
  sess = SG_NewSession(g, opts, s);
  CHECK_OK(s);
  if (sess != NULL) {
    fid.oper = id;
    fid.index = 0;
    SG_SessionRun(sess, NULL, &fx, &in, 1, &fid, &out, 1, NULL, 0, NULL, s);
    CHECK_OK(s);
    CHECK(out != NULL && SG_TensorType(out) == SG_STRING && SG_Dim(out, 0) == 3);
    /* The session's result has the same bytes as the fed tensor. */
    CHECK(out != NULL && SG_TensorByteSize(out) == SG_TensorByteSize(in) &&
          memcmp(SG_TensorData(out), SG_TensorData(in), SG_TensorByteSize(in)) == 0);
    for (i = 0; out != NULL && i < 3; ++i) {
      const char* str = NULL;
      size_t len = 0;
      SG_StringTensorGet(out, i, &str, &len, s);
      CHECK_OK(s);
      CHECK(len == lens[i] && (len == 0 || memcmp(str, words[i], len) == 0));
    }
    SG_DeleteTensor(out);
    SG_CloseSession(sess, s);
    SG_DeleteSession(sess, s);
  }
  SG_DeleteTensor(in);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

/* sum = x + c; prod = sum @ c, with x a [2,2] Placeholder and c a Const. */
static void TestBuildAndRun(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  int64_t dims[2] = {2, 2}, shape[2];
  float cv[4] = {1, 2, 3, 4}, xv[4] = {10, 20, 30, 40};
  SG_Tensor* c = FloatTensor(dims, 2, cv);
  SG_Tensor* xt = FloatTensor(dims, 2, xv);
  SG_Operation *x, *k, *sum, *prod;
  SG_Output feeds[1], fetches[3];
  SG_Tensor* results[3] = {NULL, NULL, NULL};
  SG_Input consumers[4];
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess;
  SG_DataType dt;
  int64_t i64;
  int i;

  x = Placeholder(g, "x", SG_FLOAT, dims, 2, s);
  CHECK_OK(s);
  k = Const(g, "c", c, s);
  CHECK_OK(s);
  sum = Binary(g, "AddV2", "sum", x, k, s);
  CHECK_OK(s);
  prod = Binary(g, "MatMul", "prod", sum, k, s);
  CHECK_OK(s);
  if (prod == NULL) goto done;

  /* Introspection. */
  CHECK(strcmp(SG_OperationName(sum), "sum") == 0);
  CHECK(strcmp(SG_OperationOpType(prod), "MatMul") == 0);
  CHECK(SG_OperationNumInputs(prod) == 2 && SG_OperationNumOutputs(prod) == 1);
  fetches[0].oper = sum;
  fetches[0].index = 0;
  CHECK(SG_OperationOutputType(fetches[0]) == SG_FLOAT);
  {
    SG_Input in = {prod, 0};
    SG_Output src = SG_OperationInput(in);
    CHECK(src.oper == sum && src.index == 0);
  }
  fetches[1].oper = k;
  fetches[1].index = 0;
  CHECK(SG_OperationOutputNumConsumers(fetches[1]) == 2);
  CHECK(SG_OperationOutputConsumers(fetches[1], consumers, 4) == 2);
  CHECK(SG_GraphOperationByName(g, "prod") == prod);
  CHECK(SG_GraphOperationByName(g, "nope") == NULL);
  {
    size_t pos = 0;
    int n = 0;
    while (SG_GraphNextOperation(g, &pos) != NULL) ++n;
    CHECK(n == 4);
  }
  SG_OperationGetAttrType(prod, "T", &dt, s);
  CHECK_OK(s);
  CHECK(dt == SG_FLOAT);
  {
    unsigned char ta = 1;
    SG_OperationGetAttrBool(prod, "transpose_a", &ta, s);
    CHECK_OK(s);
    CHECK(ta == 0);
  }
  SG_OperationGetAttrInt(prod, "T", &i64, s);
  CHECK(SG_GetCode(s) == SG_INVALID_ARGUMENT);
  {
    SG_AttrMetadata m = SG_OperationGetAttrMetadata(x, "shape", s);
    CHECK_OK(s);
    CHECK(m.type == SG_ATTR_SHAPE && m.is_list == 0 && m.total_size == 2);
  }
  /* Shape inference ran when the operation was finished. */
  fetches[2].oper = prod;
  fetches[2].index = 0;
  CHECK(SG_GraphGetTensorNumDims(g, fetches[2], s) == 2);
  SG_GraphGetTensorShape(g, fetches[2], shape, 2, s);
  CHECK_OK(s);
  CHECK(shape[0] == 2 && shape[1] == 2);

  /* Run: fetch sum, prod, and sum again. */
  sess = SG_NewSession(g, opts, s);
  CHECK_OK(s);
  if (sess == NULL) goto done;
  feeds[0].oper = x;
  feeds[0].index = 0;
  fetches[1] = fetches[2];
  fetches[2] = fetches[0];
  SG_SessionRun(sess, NULL, feeds, &xt, 1, fetches, results, 3, NULL, 0, NULL, s);
  CHECK_OK(s);
  if (results[0] != NULL && results[1] != NULL && results[2] != NULL) {
    const float* sv = (const float*)SG_TensorData(results[0]);
    const float* pv = (const float*)SG_TensorData(results[1]);
    const float want_sum[4] = {11, 22, 33, 44};
    /* [[11,22],[33,44]] @ [[1,2],[3,4]] */
    const float want_prod[4] = {77, 110, 165, 242};
    for (i = 0; i < 4; ++i) CHECK(sv[i] == want_sum[i]);
    for (i = 0; i < 4; ++i) CHECK(pv[i] == want_prod[i]);
    CHECK(memcmp(SG_TensorData(results[2]), sv, 16) == 0);
  }
  for (i = 0; i < 3; ++i) SG_DeleteTensor(results[i]);

  /* An operation added after the first run is sent to the session on the next one. */
  {
    SG_Operation* twice = Binary(g, "AddV2", "twice", prod, prod, s);
    SG_Output f = {twice, 0};
    SG_Tensor* r = NULL;
    CHECK_OK(s);
    SG_SessionRun(sess, NULL, feeds, &xt, 1, &f, &r, 1, NULL, 0, NULL, s);
    CHECK_OK(s);
    CHECK(r != NULL && ((const float*)SG_TensorData(r))[3] == 484);
    SG_DeleteTensor(r);
  }
  {
    SG_DeviceList* devs = SG_SessionListDevices(sess, s);
    CHECK_OK(s);
    CHECK(SG_DeviceListCount(devs) >= 1);
    if (SG_DeviceListCount(devs) >= 1) {
      CHECK(strcmp(SG_DeviceListType(devs, 0, s), "CPU") == 0);
      CHECK_OK(s);
    }
    SG_DeleteDeviceList(devs);
  }
  /* A partial run: declare x -> sum, then feed and fetch. */
  {
    const char* handle = NULL;
    SG_Output f = {sum, 0};
    SG_Tensor* r = NULL;
    SG_SessionPRunSetup(sess, feeds, 1, &f, 1, NULL, 0, &handle, s);
    CHECK_OK(s);
    CHECK(handle != NULL);
    SG_SessionPRun(sess, handle, feeds, &xt, 1, &f, &r, 1, NULL, 0, s);
    CHECK_OK(s);
    CHECK(r != NULL && ((const float*)SG_TensorData(r))[0] == 11);
    SG_DeleteTensor(r);
    SG_DeletePRunHandle(handle);
  }
  /* Run options and metadata go through as serialized protos. */
  {
    SG_Buffer* meta = SG_NewBuffer();
    /* RunOptions{timeout_in_ms: 60000}: field 2, varint. */
    const unsigned char opts_bytes[4] = {0x10, 0xe0, 0xd4, 0x03};
    SG_Buffer* run_opts = SG_NewBufferFromString(opts_bytes, sizeof opts_bytes);
    SG_Output f = {sum, 0};
    SG_Tensor* r = NULL;
    SG_SessionRun(sess, run_opts, feeds, &xt, 1, &f, &r, 1, NULL, 0, meta, s);
    CHECK_OK(s);
    CHECK(r != NULL);
    SG_DeleteTensor(r);
    SG_DeleteBuffer(run_opts);
    SG_DeleteBuffer(meta);
  }
  SG_Reset(opts, NULL, 0, s);
  CHECK_OK(s);
  /* The graph lives on while the session uses it. */
  SG_DeleteGraph(g);
  g = NULL;
  {
    SG_Tensor* r = NULL;
    SG_Output f = {prod, 0};
    SG_SessionRun(sess, NULL, feeds, &xt, 1, &f, &r, 1, NULL, 0, NULL, s);
    CHECK_OK(s);
    SG_DeleteTensor(r);
  }
  SG_CloseSession(sess, s);
  CHECK_OK(s);
  SG_DeleteSession(sess, s);
  CHECK_OK(s);
done:
  SG_DeleteTensor(c);
  SG_DeleteTensor(xt);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

/* digits_mlp.pb: the first 40 test samples give TensorFlow's probabilities. */
static void TestDigits(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  size_t len;
  void* bytes = ReadFile(Path("digits_mlp.pb"), &len);
  int64_t xdims[4], pdims[4], batch_dims[2];
  int xn = 0, pn = 0, i;
  float* x = (float*)ReadNpy(Path("digits_test_x.npy"), "'<f4'", xdims, &xn);
  float* probs = (float*)ReadNpy(Path("digits_tf_probs.npy"), "'<f4'", pdims, &pn);
  SG_Buffer* def;
  SG_ImportGraphDefOptions* io = SG_NewImportGraphDefOptions();
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess;
  SG_Output in, out;
  SG_Tensor *batch, *result = NULL;
  const int n = 40;
  CHECK(bytes != NULL && x != NULL && probs != NULL);
  if (bytes == NULL || x == NULL || probs == NULL) goto done;
  CHECK(xn == 2 && xdims[0] == 360 && xdims[1] == 64 && pdims[1] == 10);
  def = SG_NewBufferFromString(bytes, len);
  SG_ImportGraphDefOptionsAddReturnOutput(io, "probs", 0);
  {
    SG_ImportGraphDefResults* r = SG_GraphImportGraphDefWithResults(g, def, io, s);
    SG_Output* outs;
    int nout = 0;
    CHECK_OK(s);
    SG_ImportGraphDefResultsReturnOutputs(r, &nout, &outs);
    CHECK(nout == 1 && outs[0].oper == SG_GraphOperationByName(g, "probs"));
    SG_DeleteImportGraphDefResults(r);
  }
  SG_DeleteBuffer(def);
  in.oper = SG_GraphOperationByName(g, "input");
  in.index = 0;
  out.oper = SG_GraphOperationByName(g, "probs");
  out.index = 0;
  CHECK(in.oper != NULL && out.oper != NULL);
  if (in.oper == NULL || out.oper == NULL) goto done;
  CHECK(SG_OperationOutputType(in) == SG_FLOAT);
  batch_dims[0] = n;
  batch_dims[1] = 64;
  batch = FloatTensor(batch_dims, 2, x);
  SG_SetIntraOpParallelismThreads(opts, 1, s);
  CHECK_OK(s);
  sess = SG_NewSession(g, opts, s);
  CHECK_OK(s);
  if (sess != NULL) {
    SG_SessionRun(sess, NULL, &in, &batch, 1, &out, &result, 1, NULL, 0, NULL, s);
    CHECK_OK(s);
    CHECK(result != NULL && SG_Dim(result, 0) == n && SG_Dim(result, 1) == 10);
    if (result != NULL) {
      const float* p = (const float*)SG_TensorData(result);
      float worst = 0;
      for (i = 0; i < n * 10; ++i) {
        float d = fabsf(p[i] - probs[i]);
        if (d > worst) worst = d;
      }
      CHECK(worst < 1e-5f);
    }
    SG_DeleteTensor(result);
    SG_DeleteSession(sess, s);
    CHECK_OK(s);
  }
  SG_DeleteTensor(batch);

  /* Export, re-import under a prefix, and find the copy. */
  {
    SG_Buffer* exported = SG_NewBuffer();
    SG_ImportGraphDefOptions* io2 = SG_NewImportGraphDefOptions();
    SG_GraphToGraphDef(g, exported, s);
    CHECK_OK(s);
    SG_ImportGraphDefOptionsSetPrefix(io2, "copy");
    SG_GraphImportGraphDef(g, exported, io2, s);
    CHECK_OK(s);
    CHECK(SG_GraphOperationByName(g, "copy/probs") != NULL);
    /* Importing again without a prefix clashes. */
    SG_GraphImportGraphDef(g, exported, NULL, s);
    CHECK(SG_GetCode(s) == SG_INVALID_ARGUMENT);
    SG_DeleteImportGraphDefOptions(io2);
    SG_DeleteBuffer(exported);
  }
done:
  free(bytes);
  free(x);
  free(probs);
  SG_DeleteImportGraphDefOptions(io);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

int main(int argc, char** argv) {
  if (argc > 1) testdata = argv[1];
  TestStatusAndBuffers();
  TestTensors();
  TestStrings();
  TestBuildAndRun();
  TestStringRoundTrip();
  TestDigits();
  if (failures) {
    fprintf(stderr, "c_api_test: %d check(s) failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
