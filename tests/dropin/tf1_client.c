/* A client written as for TensorFlow 1.15's C API: strings go in and out of TF_STRING tensors
 * through TF_StringEncode / TF_StringDecode (an offset table, then varint-prefixed bytes), the
 * graph comes from TF_GraphImportGraphDef, and TF_NewSession / TF_SessionRun run it. Built with
 * `cc tf1_client.c $(pkg-config --cflags --libs tensorflow)` against sg's installed headers and
 * run with sg's libtensorflow.so.2 (tests/dropin/tf1_client_test.sh).
 *
 *   tf1_client TESTDATA_DIR
 *
 * Expected values are written down here or are TensorFlow's (digits_tf_probs.npy). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tensorflow/c/c_api.h>

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
  fprintf(stderr, "tf1_client: %s: %s\n", what, TF_Message(s));
  ++failures;
  return 0;
}

static void Free(void* data, size_t length) {
  (void)length;
  free(data);
}

static TF_Buffer* ReadFile(const char* dir, const char* name) {
  char path[4096];
  FILE* f;
  long size;
  TF_Buffer* b = TF_NewBuffer();
  void* data;
  sprintf(path, "%s/%s", dir, name);
  f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "tf1_client: cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = malloc((size_t)size);
  if (fread(data, 1, (size_t)size, f) != (size_t)size) exit(1);
  fclose(f);
  b->data = data;
  b->length = (size_t)size;
  b->data_deallocator = Free;
  return b;
}

/* A TF_STRING tensor of n strings, laid out as TensorFlow 1.x wants it. */
static TF_Tensor* EncodeStrings(const char* const* strings, const size_t* lengths, int64_t n,
                                TF_Status* s) {
  size_t total = (size_t)n * sizeof(uint64_t), offset = 0;
  int64_t i;
  TF_Tensor* t;
  char *base, *data;
  for (i = 0; i < n; ++i) total += TF_StringEncodedSize(lengths[i]);
  t = TF_AllocateTensor(TF_STRING, &n, 1, total);
  base = (char*)TF_TensorData(t);
  data = base + n * sizeof(uint64_t);
  for (i = 0; i < n; ++i) {
    ((uint64_t*)base)[i] = offset;
    offset += TF_StringEncode(strings[i], lengths[i], data + offset, total - offset, s);
    if (TF_GetCode(s) != TF_OK) return NULL;
  }
  return t;
}

/* String i of a TF_STRING tensor. */
static size_t DecodeString(const TF_Tensor* t, int64_t i, const char** out, TF_Status* s) {
  const char* base = (const char*)TF_TensorData(t);
  const int64_t n = TF_TensorElementCount(t);
  const size_t table = (size_t)n * sizeof(uint64_t);
  const uint64_t offset = ((const uint64_t*)base)[i];
  size_t len = 0;
  TF_StringDecode(base + table + offset, TF_TensorByteSize(t) - table - offset, out, &len, s);
  return len;
}

/* words:[3] string -> joined = StringJoin([words, words], "+"), lengths = StringLength(words);
 * built in one graph, exported with TF_GraphToGraphDef and imported into another under "copy". */
static void Strings(void) {
  static char long_word[300];
  const char* words[3];
  size_t lengths[3] = {2, 3, sizeof(long_word)};
  TF_Status* s = TF_NewStatus();
  TF_Graph* built = TF_NewGraph();
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d;
  TF_Operation* w;
  TF_Output list[2], feed, fetches[2];
  TF_Buffer* def = TF_NewBuffer();
  TF_ImportGraphDefOptions* opts;
  TF_SessionOptions* so = TF_NewSessionOptions();
  TF_Session* sess;
  TF_Tensor *in, *out[2] = {NULL, NULL};
  int i;

  memset(long_word, 'x', sizeof(long_word));
  words[0] = "sg";
  words[1] = "a\0b";
  words[2] = long_word;

  d = TF_NewOperation(built, "Placeholder", "words");
  TF_SetAttrType(d, "dtype", TF_STRING);
  w = TF_FinishOperation(d, s);
  if (!Ok(s, "Placeholder")) return;
  list[0].oper = list[1].oper = w;
  list[0].index = list[1].index = 0;
  d = TF_NewOperation(built, "StringJoin", "joined");
  TF_AddInputList(d, list, 2);
  TF_SetAttrString(d, "separator", "+", 1);
  TF_FinishOperation(d, s);
  if (!Ok(s, "StringJoin")) return;
  d = TF_NewOperation(built, "StringLength", "lengths");
  TF_AddInput(d, list[0]);
  TF_FinishOperation(d, s);
  if (!Ok(s, "StringLength")) return;
  TF_GraphToGraphDef(built, def, s);
  if (!Ok(s, "TF_GraphToGraphDef")) return;

  opts = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(opts, "copy");
  TF_GraphImportGraphDef(g, def, opts, s);
  if (!Ok(s, "TF_GraphImportGraphDef")) return;
  feed.oper = TF_GraphOperationByName(g, "copy/words");
  fetches[0].oper = TF_GraphOperationByName(g, "copy/joined");
  fetches[1].oper = TF_GraphOperationByName(g, "copy/lengths");
  EXPECT(feed.oper != NULL && fetches[0].oper != NULL && fetches[1].oper != NULL);
  feed.index = fetches[0].index = fetches[1].index = 0;

  sess = TF_NewSession(g, so, s);
  if (!Ok(s, "TF_NewSession")) return;
  in = EncodeStrings(words, lengths, 3, s);
  if (!Ok(s, "TF_StringEncode")) return;
  TF_SessionRun(sess, NULL, &feed, &in, 1, fetches, out, 2, NULL, 0, NULL, s);
  if (Ok(s, "TF_SessionRun(strings)")) {
    const char* got;
    const int32_t* n = (const int32_t*)TF_TensorData(out[1]);
    EXPECT(TF_TensorType(out[0]) == TF_STRING && TF_TensorElementCount(out[0]) == 3);
    EXPECT(DecodeString(out[0], 0, &got, s) == 5 && memcmp(got, "sg+sg", 5) == 0);
    EXPECT(DecodeString(out[0], 1, &got, s) == 7 && memcmp(got, "a\0b+a\0b", 7) == 0);
    EXPECT(DecodeString(out[0], 2, &got, s) == 601 && got[299] == 'x' && got[300] == '+' &&
           got[600] == 'x');
    Ok(s, "TF_StringDecode");
    EXPECT(TF_TensorType(out[1]) == TF_INT32 && n[0] == 2 && n[1] == 3 && n[2] == 300);
  }
  for (i = 0; i < 2; ++i) TF_DeleteTensor(out[i]);
  TF_DeleteTensor(in);
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(so);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
  TF_DeleteGraph(built);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* The float32 data of a .npy file (format 1.0, C order). */
static float* NpyFloats(const char* dir, const char* name) {
  TF_Buffer* b = ReadFile(dir, name);
  const unsigned char* p = (const unsigned char*)b->data;
  const size_t header = 10 + (size_t)(p[8] | (p[9] << 8));
  float* out = (float*)malloc(b->length - header);
  memcpy(out, p + header, b->length - header);
  TF_DeleteBuffer(b);
  return out;
}

/* tests/testdata/digits_mlp.pb, the first 8 test digits, against TensorFlow's probabilities. */
static void Digits(const char* testdata) {
  int64_t dims[2] = {8, 64};
  float* x = NpyFloats(testdata, "digits_test_x.npy");
  float* want = NpyFloats(testdata, "digits_tf_probs.npy");
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* def = ReadFile(testdata, "digits_mlp.pb");
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_SessionOptions* so = TF_NewSessionOptions();
  TF_Session* sess;
  TF_Output in, out;
  TF_Tensor *feed, *probs = NULL;
  int i;

  TF_GraphImportGraphDef(g, def, opts, s);
  if (!Ok(s, "TF_GraphImportGraphDef(digits_mlp.pb)")) return;
  in.oper = TF_GraphOperationByName(g, "input");
  out.oper = TF_GraphOperationByName(g, "probs");
  in.index = out.index = 0;
  sess = TF_NewSession(g, so, s);
  if (!Ok(s, "TF_NewSession")) return;
  feed = TF_AllocateTensor(TF_FLOAT, dims, 2, 8 * 64 * sizeof(float));
  memcpy(TF_TensorData(feed), x, 8 * 64 * sizeof(float));
  TF_SessionRun(sess, NULL, &in, &feed, 1, &out, &probs, 1, NULL, 0, NULL, s);
  if (Ok(s, "TF_SessionRun(digits)")) {
    const float* p = (const float*)TF_TensorData(probs);
    for (i = 0; i < 80; ++i) EXPECT(fabsf(p[i] - want[i]) <= 1e-5f);
  }
  TF_DeleteTensor(probs);
  TF_DeleteTensor(feed);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(so);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  free(x);
  free(want);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: tf1_client TESTDATA_DIR\n");
    return 2;
  }
  Strings();
  Digits(argv[1]);
  if (failures > 0) {
    fprintf(stderr, "tf1_client: %d failures\n", failures);
    return 1;
  }
  printf("tf1_client: ok\n");
  return 0;
}
