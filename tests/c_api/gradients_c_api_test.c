/* SG_AddGradients / SG_AddGradientsWithPrefix from plain C99: values with and without initial
 * gradients, the prefix rules, an op without a gradient, a path with no gradient, and bad
 * arguments that must return errors (never crash). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sg/c_api.h"
#include "c_check.h"

static SG_Output Placeholder(SG_Graph* g, const char* name, SG_DataType dt, SG_Status* s) {
  int64_t dims[1] = {2};
  SG_OperationDescription* d = SG_NewOperation(g, "Placeholder", name);
  SG_Output out;
  SG_SetAttrType(d, "dtype", dt);
  SG_SetAttrShape(d, "shape", dims, 1);
  out.oper = SG_FinishOperation(d, s);
  out.index = 0;
  CHECK_CODE(s, SG_OK);
  return out;
}

static SG_Output Const2(SG_Graph* g, const char* name, float a, float b, SG_Status* s) {
  int64_t dims[1] = {2};
  SG_Tensor* t = SG_AllocateTensor(SG_FLOAT, dims, 1, 2 * sizeof(float));
  float* p = (float*)SG_TensorData(t);
  SG_OperationDescription* d = SG_NewOperation(g, "Const", name);
  SG_Output out;
  p[0] = a;
  p[1] = b;
  SG_SetAttrTensor(d, "value", t, s);
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  out.oper = SG_FinishOperation(d, s);
  out.index = 0;
  SG_DeleteTensor(t);
  CHECK_CODE(s, SG_OK);
  return out;
}

static SG_Output Unary(SG_Graph* g, const char* type, const char* name, SG_Output in,
                       SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, type, name);
  SG_Output out;
  SG_AddInput(d, in);
  out.oper = SG_FinishOperation(d, s);
  out.index = 0;
  CHECK_CODE(s, SG_OK);
  return out;
}

static SG_Output CastTo(SG_Graph* g, const char* name, SG_Output in, SG_DataType dt,
                        SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, "Cast", name);
  SG_Output out;
  SG_AddInput(d, in);
  SG_SetAttrType(d, "DstT", dt);
  out.oper = SG_FinishOperation(d, s);
  out.index = 0;
  CHECK_CODE(s, SG_OK);
  return out;
}

static SG_Output Binary(SG_Graph* g, const char* type, const char* name, SG_Output a,
                        SG_Output b, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, type, name);
  SG_Output out;
  SG_AddInput(d, a);
  SG_AddInput(d, b);
  out.oper = SG_FinishOperation(d, s);
  out.index = 0;
  CHECK_CODE(s, SG_OK);
  return out;
}

/* Runs `fetch` with x = {a, b} and returns its two values in `out`. */
static void Run2(SG_Graph* g, SG_Output x, SG_Output fetch, float a, float b, float* out) {
  SG_Status* s = SG_NewStatus();
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess = SG_NewSession(g, opts, s);
  int64_t dims[1] = {2};
  SG_Tensor* in = SG_AllocateTensor(SG_FLOAT, dims, 1, 2 * sizeof(float));
  SG_Tensor* result = NULL;
  ((float*)SG_TensorData(in))[0] = a;
  ((float*)SG_TensorData(in))[1] = b;
  CHECK_CODE(s, SG_OK);
  SG_SessionRun(sess, NULL, &x, &in, 1, &fetch, &result, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, SG_OK);
  if (result != NULL) {
    memcpy(out, SG_TensorData(result), 2 * sizeof(float));
    SG_DeleteTensor(result);
  }
  SG_DeleteTensor(in);
  SG_CloseSession(sess, s);
  SG_DeleteSession(sess, s);
  SG_DeleteSessionOptions(opts);
  SG_DeleteStatus(s);
}

static int StartsWith(const char* s, const char* prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void TestValuesAndPrefixes(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Output x = Placeholder(g, "x", SG_FLOAT, s);
  SG_Output y = Binary(g, "Mul", "y", x, x, s);   /* y = x * x */
  SG_Output w = Const2(g, "w", 1.0f, 10.0f, s);
  SG_Output dy = {NULL, 0};
  float v[2] = {0, 0};

  /* Without initial gradients: d(sum x*x)/dx = 2x. */
  SG_AddGradients(g, &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_OK);
  CHECK(dy.oper != NULL && StartsWith(SG_OperationName(dy.oper), "gradients/"));
  Run2(g, x, dy, 3.0f, -1.0f, v);
  CHECK(fabsf(v[0] - 6.0f) < 1e-6f && fabsf(v[1] + 2.0f) < 1e-6f);

  /* With an initial gradient w: 2x * w, under the next default prefix. */
  SG_AddGradients(g, &y, 1, &x, 1, &w, s, &dy);
  CHECK_CODE(s, SG_OK);
  CHECK(dy.oper != NULL && StartsWith(SG_OperationName(dy.oper), "gradients_1/"));
  Run2(g, x, dy, 3.0f, -1.0f, v);
  CHECK(fabsf(v[0] - 6.0f) < 1e-6f && fabsf(v[1] + 20.0f) < 1e-6f);

  /* An explicit prefix, once; a second use, or a node's name, is SG_INVALID_ARGUMENT. */
  SG_AddGradientsWithPrefix(g, "mine", &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_OK);
  CHECK(dy.oper != NULL && StartsWith(SG_OperationName(dy.oper), "mine/"));
  SG_AddGradientsWithPrefix(g, "mine", &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradientsWithPrefix(g, "y", &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(strstr(SG_Message(s), "conflicts with existing node") != NULL);
  /* A NULL prefix is SG_AddGradients. */
  SG_AddGradientsWithPrefix(g, NULL, &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_OK);
  CHECK(dy.oper != NULL && StartsWith(SG_OperationName(dy.oper), "gradients_2/"));

  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

/* A session that already ran the forward graph runs the gradients added afterwards (the new
 * operations only read existing ones, so the session extends itself). */
static void TestSessionSeesGradientsAddedLater(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Output x = Placeholder(g, "x", SG_FLOAT, s);
  SG_Output y = Unary(g, "Exp", "y", x, s);
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess = SG_NewSession(g, opts, s);
  int64_t dims[1] = {2};
  SG_Tensor* in = SG_AllocateTensor(SG_FLOAT, dims, 1, 2 * sizeof(float));
  SG_Tensor* out = NULL;
  SG_Output dy = {NULL, 0};
  ((float*)SG_TensorData(in))[0] = 0.0f;
  ((float*)SG_TensorData(in))[1] = 1.0f;
  SG_SessionRun(sess, NULL, &x, &in, 1, &y, &out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, SG_OK);
  if (out != NULL) SG_DeleteTensor(out);
  out = NULL;
  SG_AddGradients(g, &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_OK);
  SG_SessionRun(sess, NULL, &x, &in, 1, &dy, &out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, SG_OK);
  if (out != NULL) {
    const float* v = (const float*)SG_TensorData(out);
    CHECK(fabsf(v[0] - 1.0f) < 1e-6f && fabsf(v[1] - 2.7182817f) < 1e-5f);
    SG_DeleteTensor(out);
  }
  SG_DeleteTensor(in);
  SG_CloseSession(sess, s);
  SG_DeleteSession(sess, s);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

static void TestNoGradient(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Output x = Placeholder(g, "x", SG_FLOAT, s);
  /* TruncateMod has no gradient (TensorFlow registers none either). */
  SG_Output erf = Binary(g, "TruncateMod", "truncmod", x, x, s);
  SG_Output through_int = CastTo(g, "back", CastTo(g, "to_int", x, SG_INT32, s), SG_FLOAT, s);
  SG_Output dy = {NULL, 0};
  size_t pos = 0;
  int before = 0, after = 0;
  while (SG_GraphNextOperation(g, &pos) != NULL) ++before;

  /* TruncateMod has no gradient function: SG_NOT_FOUND naming it; nothing is added. */
  SG_AddGradients(g, &erf, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_NOT_FOUND);
  CHECK(strstr(SG_Message(s), "TruncateMod") != NULL &&
        strstr(SG_Message(s), "'truncmod'") != NULL);
  pos = 0;
  while (SG_GraphNextOperation(g, &pos) != NULL) ++after;
  CHECK(after == before);

  /* Only an integer path from x to y: TensorFlow's NoGradient, {NULL, -1}. */
  dy.oper = (SG_Operation*)&dy;
  SG_AddGradients(g, &through_int, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_OK);
  CHECK(dy.oper == NULL && dy.index == -1);

  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

static void TestBadArguments(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Graph* other = SG_NewGraph();
  SG_Output x = Placeholder(g, "x", SG_FLOAT, s);
  SG_Output z = Placeholder(g, "z", SG_FLOAT, s);
  SG_Output stranger = Placeholder(other, "s", SG_FLOAT, s);
  SG_Output y = Unary(g, "Neg", "y", x, s);
  SG_Output bad_index = x;
  SG_Output null_oper = {NULL, 0};
  SG_Output dy = {NULL, 0};
  bad_index.index = 5;

  SG_AddGradients(NULL, &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradients(g, &y, 0, &x, 1, NULL, s, &dy);       /* ny = 0 */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradients(g, NULL, 1, &x, 1, NULL, s, &dy);     /* y NULL */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradients(g, &y, 1, NULL, 1, NULL, s, &dy);     /* x NULL */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradients(g, &y, 1, &x, 1, NULL, s, NULL);      /* dy NULL */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradients(g, &y, -1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradients(g, &y, 1, &x, -1, NULL, s, &dy);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradients(g, &null_oper, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradients(g, &y, 1, &null_oper, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradients(g, &y, 1, &bad_index, 1, NULL, s, &dy);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradients(g, &y, 1, &stranger, 1, NULL, s, &dy); /* x not in the graph */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_AddGradients(g, &y, 1, &z, 1, NULL, s, &dy);        /* x that y does not depend on */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(strstr(SG_Message(s), "unreachable") != NULL);
  SG_AddGradients(g, &y, 1, &x, 1, &stranger, s, &dy);   /* initial gradient of another graph */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(dy.oper == NULL); /* untouched on every error */
  /* nx = 0 is allowed: nothing to compute, dy not read. */
  SG_AddGradients(g, &y, 1, NULL, 0, NULL, s, NULL);
  CHECK_CODE(s, SG_OK);

  SG_DeleteGraph(other);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

int main(void) {
  TestValuesAndPrefixes();
  TestSessionSeesGradientsAddedLater();
  TestNoGradient();
  TestBadArguments();
  if (failures != 0) {
    fprintf(stderr, "gradients_c_api_test: %d failure(s)\n", failures);
    return 1;
  }
  printf("gradients_c_api_test: ok\n");
  return 0;
}
