/* tf_function_client OUT_DIR: builds functions with TensorFlow's C API (TF_GraphToFunction...),
 * writes each FunctionDef to OUT_DIR/<case>.pb and runs one of them in another graph (3, -4.5 ->
 * 7, -8). Compiled against TensorFlow 2.21's own headers and run once on TensorFlow's library and
 * once on sg's libtensorflow.so.2, so that tf_function_oracle_test.sh can compare the two sets of
 * FunctionDefs. */
#include <stdio.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tf_check.h"

#define CHECK_OK(s) CHECK_CODE(s, TF_OK)

static TF_Output Placeholder(TF_Graph* g, const char* name, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_Output out;
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  out.oper = TF_FinishOperation(d, s);
  out.index = 0;
  CHECK_OK(s);
  return out;
}

static TF_Output ShapedPlaceholder(TF_Graph* g, const char* name, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_Output out;
  int64_t dims[2] = {2, -1};
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", dims, 2);
  out.oper = TF_FinishOperation(d, s);
  out.index = 0;
  CHECK_OK(s);
  return out;
}

static TF_Output Scalar(TF_Graph* g, const char* name, float v, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_Output out;
  *(float*)TF_TensorData(t) = v;
  TF_SetAttrTensor(d, "value", t, s);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  out.oper = TF_FinishOperation(d, s);
  out.index = 0;
  TF_DeleteTensor(t);
  CHECK_OK(s);
  return out;
}

static TF_Output Binary(TF_Graph* g, const char* type, const char* name, TF_Output a,
                        TF_Output b, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_Output out;
  TF_AddInput(d, a);
  TF_AddInput(d, b);
  out.oper = TF_FinishOperation(d, s);
  out.index = 0;
  CHECK_OK(s);
  return out;
}

static void Write(const char* dir, const char* name, TF_Function* f, TF_Status* s) {
  char path[1024];
  TF_Buffer* buf = TF_NewBuffer();
  FILE* out;
  TF_FunctionToFunctionDef(f, buf, s);
  CHECK_OK(s);
  snprintf(path, sizeof(path), "%s/%s.pb", dir, name);
  out = fopen(path, "wb");
  CHECK(out != NULL);
  if (out != NULL) {
    CHECK(fwrite(buf->data, 1, buf->length, out) == buf->length);
    fclose(out);
  }
  TF_DeleteBuffer(buf);
}

int main(int argc, char** argv) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Output x, two, one, mul, add, in, call, k, add2, outs[2], y;
  TF_Function* f;
  const char* y_name[1] = {"y"};
  const char* mul_name[1] = {"mul"};
  const char* done_name[1] = {"done"};
  const TF_Operation* body[2];
  const TF_Operation* ctl[1];
  if (argc != 2) {
    fprintf(stderr, "usage: tf_function_client OUT_DIR\n");
    return 2;
  }
  x = Placeholder(g, "x", s);
  two = Scalar(g, "two", 2.0f, s);
  one = Scalar(g, "one", 1.0f, s);
  mul = Binary(g, "Mul", "mul", x, two, s);
  add = Binary(g, "AddV2", "add", mul, one, s);

  /* affine: every operation but the input's placeholder; a named result; a description. */
  f = TF_GraphToFunction(g, "XTimesTwoPlusOne", 0, -1, NULL, 1, &x, 1, &add, y_name, NULL,
                         "x * 2 + 1", s);
  CHECK_OK(s);
  if (f == NULL) return 1;
  Write(argv[1], "affine", f, s);
  {
    TF_Graph* g2 = TF_NewGraph();
    TF_SessionOptions* opts = TF_NewSessionOptions();
    TF_Session* sess;
    TF_OperationDescription* d;
    int64_t dims[1] = {2};
    TF_Tensor* feed = TF_AllocateTensor(TF_FLOAT, dims, 1, 2 * sizeof(float));
    TF_Tensor* result = NULL;
    TF_GraphCopyFunction(g2, f, NULL, s);
    CHECK_OK(s);
    CHECK(TF_GraphNumFunctions(g2) == 1);
    in = Placeholder(g2, "in", s);
    d = TF_NewOperation(g2, "XTimesTwoPlusOne", "call");
    TF_AddInput(d, in);
    call.oper = TF_FinishOperation(d, s);
    call.index = 0;
    CHECK_OK(s);
    sess = TF_NewSession(g2, opts, s);
    CHECK_OK(s);
    ((float*)TF_TensorData(feed))[0] = 3.0f;
    ((float*)TF_TensorData(feed))[1] = -4.5f;
    TF_SessionRun(sess, NULL, &in, &feed, 1, &call, &result, 1, NULL, 0, NULL, s);
    CHECK_OK(s);
    CHECK(result != NULL && ((float*)TF_TensorData(result))[0] == 7.0f &&
          ((float*)TF_TensorData(result))[1] == -8.0f);
    if (result != NULL) TF_DeleteTensor(result);
    TF_DeleteTensor(feed);
    TF_CloseSession(sess, s);
    TF_DeleteSession(sess, s);
    TF_DeleteSessionOptions(opts);
    TF_DeleteGraph(g2);
  }
  TF_DeleteFunction(f);

  /* results: a result name that is also a body node's name (the node is renamed). */
  f = TF_GraphToFunction(g, "Renamed", 0, -1, NULL, 1, &x, 1, &add, mul_name, NULL, NULL, s);
  CHECK_OK(s);
  if (f != NULL) Write(argv[1], "renamed", f, s);
  TF_DeleteFunction(f);

  /* control: a control output. */
  ctl[0] = mul.oper;
  f = TF_GraphToFunctionWithControlOutputs(g, "WithControl", 0, -1, NULL, 1, &x, 1, &add, NULL,
                                           1, ctl, done_name, NULL, NULL, s);
  CHECK_OK(s);
  if (f != NULL) Write(argv[1], "control", f, s);
  TF_DeleteFunction(f);

  /* generated: an explicit body, generated names, an input that is also a result, an input of
   * a known shape. */
  y = ShapedPlaceholder(g, "9In/Put", s);
  k = Scalar(g, "k", 3.0f, s);
  add2 = Binary(g, "AddV2", "add2", y, k, s);
  body[0] = k.oper;
  body[1] = add2.oper;
  outs[0] = add2;
  outs[1] = y;
  f = TF_GraphToFunction(g, "Generated", 0, 2, body, 1, &y, 2, outs, NULL, NULL, NULL, s);
  CHECK_OK(s);
  if (f != NULL) Write(argv[1], "generated", f, s);
  TF_DeleteFunction(f);

  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  if (failures != 0) return 1;
  printf("tf_function_client: ok\n");
  return 0;
}
