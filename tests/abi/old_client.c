/* An old client: compiled against tests/abi/baseline/c_api.h (the header as it was when the ABI
 * baseline was taken), linked to and run with the library being built. It must keep working
 * unchanged for as long as the SONAME stays libsg.so.1: it builds a graph op by op, runs it,
 * imports the digits classifier and runs it, and reads the value structs by their members.
 * Usage: old_client TESTDATA_DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_api.h" /* the baseline copy: -I tests/abi/baseline */

#define SG_ABI_LAYOUT_BASELINE /* pins of structs newer than the baseline are skipped */
#include "abi_layout.h"

static int failures = 0;

#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "%s:%d: EXPECT failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

static int Ok(SG_Status* s, const char* what) {
  if (SG_GetCode(s) == SG_OK) return 1;
  fprintf(stderr, "old_client: %s: %d %s\n", what, (int)SG_GetCode(s), SG_Message(s));
  ++failures;
  return 0;
}

static SG_Operation* Placeholder(SG_Graph* g, const char* name, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, "Placeholder", name);
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  return SG_FinishOperation(d, s);
}

static SG_Operation* Const2x2(SG_Graph* g, const char* name, const float* v, SG_Status* s) {
  int64_t dims[2] = {2, 2};
  SG_Tensor* t = SG_AllocateTensor(SG_FLOAT, dims, 2, 4 * sizeof(float));
  SG_OperationDescription* d = SG_NewOperation(g, "Const", name);
  SG_Operation* op;
  memcpy(SG_TensorData(t), v, 4 * sizeof(float));
  SG_SetAttrTensor(d, "value", t, s);
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  op = SG_FinishOperation(d, s);
  SG_DeleteTensor(t);
  return op;
}

static SG_Operation* Binary(SG_Graph* g, const char* type, const char* name, SG_Output a,
                            SG_Output b, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, type, name);
  SG_AddInput(d, a);
  SG_AddInput(d, b);
  return SG_FinishOperation(d, s);
}

/* y = x . w + b, built op by op, fed x, fetched y. */
static void BuiltGraph(void) {
  static const float w[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, x[4] = {1, 0, 0, 1};
  static const float want[4] = {11, 22, 33, 44};
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess;
  SG_Output feeds[1], fetches[1], mm[2], add[2];
  SG_Tensor *in, *out = NULL;
  int64_t dims[2] = {2, 2};
  int i;

  feeds[0].oper = Placeholder(g, "x", s);
  feeds[0].index = 0;
  mm[0] = feeds[0];
  mm[1].oper = Const2x2(g, "w", w, s);
  mm[1].index = 0;
  add[0].oper = Binary(g, "MatMul", "xw", mm[0], mm[1], s);
  add[0].index = 0;
  add[1].oper = Const2x2(g, "b", b, s);
  add[1].index = 0;
  fetches[0].oper = Binary(g, "Add", "y", add[0], add[1], s);
  fetches[0].index = 0;
  if (!Ok(s, "build") || fetches[0].oper == NULL) return;
  EXPECT(strcmp(SG_OperationOpType(fetches[0].oper), "Add") == 0);
  EXPECT(SG_OperationNumInputs(fetches[0].oper) == 2);

  in = SG_AllocateTensor(SG_FLOAT, dims, 2, sizeof(x));
  memcpy(SG_TensorData(in), x, sizeof(x));
  sess = SG_NewSession(g, opts, s);
  if (Ok(s, "new session")) {
    SG_SessionRun(sess, NULL, feeds, &in, 1, fetches, &out, 1, NULL, 0, NULL, s);
    if (Ok(s, "run") && out != NULL) {
      EXPECT(SG_TensorType(out) == SG_FLOAT);
      EXPECT(SG_NumDims(out) == 2 && SG_Dim(out, 0) == 2 && SG_Dim(out, 1) == 2);
      for (i = 0; i < 4; ++i) EXPECT(((const float*)SG_TensorData(out))[i] == want[i]);
    }
    SG_DeleteTensor(out);
    SG_CloseSession(sess, s);
    SG_DeleteSession(sess, s);
    Ok(s, "close");
  }
  SG_DeleteTensor(in);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

/* The digits classifier: a batch of constant images gives rows of probabilities. Also reads a
 * GraphDef back through SG_Buffer's members. */
static void ImportedGraph(const char* testdata) {
  char path[4096];
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Buffer *def, *back = SG_NewBuffer();
  SG_Session* sess;
  SG_Output in, out;
  SG_Tensor *x, *y = NULL;
  int64_t dims[2] = {3, 64};
  char* bytes;
  long n;
  int i, j;
  FILE* f;

  snprintf(path, sizeof(path), "%s/digits_mlp.pb", testdata);
  f = fopen(path, "rb");
  if (f == NULL) {
    perror(path);
    ++failures;
    return;
  }
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  rewind(f);
  bytes = (char*)malloc((size_t)n);
  EXPECT(fread(bytes, 1, (size_t)n, f) == (size_t)n);
  fclose(f);
  def = SG_NewBufferFromString(bytes, (size_t)n);
  free(bytes);
  EXPECT(def->length == (size_t)n && def->data != NULL && def->data_deallocator != NULL);
  SG_GraphImportGraphDef(g, def, NULL, s);
  SG_DeleteBuffer(def);
  if (!Ok(s, "import digits_mlp.pb")) return;
  SG_GraphToGraphDef(g, back, s);
  Ok(s, "graph to graphdef");
  EXPECT(back->data != NULL && back->length > 1000);
  SG_DeleteBuffer(back);

  in.oper = SG_GraphOperationByName(g, "input");
  out.oper = SG_GraphOperationByName(g, "probs");
  in.index = out.index = 0;
  EXPECT(in.oper != NULL && out.oper != NULL);
  x = SG_AllocateTensor(SG_FLOAT, dims, 2, 3 * 64 * sizeof(float));
  for (i = 0; i < 3 * 64; ++i) ((float*)SG_TensorData(x))[i] = (float)((i * 7) % 17) / 16.0f;
  sess = SG_NewSession(g, opts, s);
  if (Ok(s, "new session")) {
    SG_SessionRun(sess, NULL, &in, &x, 1, &out, &y, 1, NULL, 0, NULL, s);
    if (Ok(s, "run digits") && y != NULL) {
      EXPECT(SG_NumDims(y) == 2 && SG_Dim(y, 0) == 3 && SG_Dim(y, 1) == 10);
      for (i = 0; i < 3; ++i) {
        float sum = 0;
        for (j = 0; j < 10; ++j) sum += ((const float*)SG_TensorData(y))[i * 10 + j];
        EXPECT(fabsf(sum - 1.0f) < 1e-4f);
      }
    }
    SG_DeleteTensor(y);
    SG_DeleteSession(sess, s);
  }
  SG_DeleteTensor(x);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

int main(int argc, char** argv) {
  printf("old_client: compiled against sg %s, running with %s\n", SG_VERSION_STRING, SG_Version());
  BuiltGraph();
  ImportedGraph(argc > 1 ? argv[1] : ".");
  if (failures > 0) {
    fprintf(stderr, "old_client: %d failures\n", failures);
    return 1;
  }
  printf("old_client: ok\n");
  return 0;
}
