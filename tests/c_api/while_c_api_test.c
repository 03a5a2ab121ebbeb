/* While loops built from C (SG_NewWhile, SG_FinishWhile, SG_AbortWhile) and
 * SG_GraphRemoveFunction from plain C99: loop values and operation names, a nested loop,
 * SG_AddGradients through loops against hand computations, aborted loops, bad params that must
 * give SG_INVALID_ARGUMENT (never a crash) and leave the graph as it was, and function removal
 * seen by sessions. */
#include <stdio.h>
#include <string.h>

#include "sg/c_api.h"
#include "c_check.h"

static SG_Output Out(SG_Operation* op) {
  SG_Output o;
  o.oper = op;
  o.index = 0;
  return o;
}

static SG_Output Placeholder(SG_Graph* g, const char* name, SG_DataType dt, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, "Placeholder", name);
  SG_SetAttrType(d, "dtype", dt);
  SG_SetAttrShape(d, "shape", NULL, 0);
  return Out(SG_FinishOperation(d, s));
}

static SG_Output ScalarInt(SG_Graph* g, const char* name, int v, SG_Status* s) {
  SG_Tensor* t = SG_AllocateTensor(SG_INT32, NULL, 0, sizeof(int));
  SG_OperationDescription* d = SG_NewOperation(g, "Const", name);
  SG_Output out;
  memcpy(SG_TensorData(t), &v, sizeof v);
  SG_SetAttrTensor(d, "value", t, s);
  SG_SetAttrType(d, "dtype", SG_INT32);
  out = Out(SG_FinishOperation(d, s));
  SG_DeleteTensor(t);
  return out;
}

static SG_Output ScalarFloat(SG_Graph* g, const char* name, float v, SG_Status* s) {
  SG_Tensor* t = SG_AllocateTensor(SG_FLOAT, NULL, 0, sizeof(float));
  SG_OperationDescription* d = SG_NewOperation(g, "Const", name);
  SG_Output out;
  memcpy(SG_TensorData(t), &v, sizeof v);
  SG_SetAttrTensor(d, "value", t, s);
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  out = Out(SG_FinishOperation(d, s));
  SG_DeleteTensor(t);
  return out;
}

static SG_Output Binary(SG_Graph* g, const char* type, const char* name, SG_Output a,
                        SG_Output b, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, type, name);
  SG_AddInput(d, a);
  SG_AddInput(d, b);
  return Out(SG_FinishOperation(d, s));
}

static int NumOperations(SG_Graph* g) {
  size_t pos = 0;
  int n = 0;
  while (SG_GraphNextOperation(g, &pos) != NULL) ++n;
  return n;
}

/* Runs `fetches` (float or int32 scalars) with x fed `x0` in a new session; writes them as
 * doubles to `values` (-1 for a fetch that failed). */
static void Run(SG_Graph* g, SG_Output x, float x0, const SG_Output* fetches, int n,
                double* values, SG_Status* s) {
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess = SG_NewSession(g, opts, s);
  SG_Tensor* feed = SG_AllocateTensor(SG_FLOAT, NULL, 0, sizeof(float));
  SG_Tensor* results[4] = {NULL, NULL, NULL, NULL};
  int i;
  CHECK_CODE(s, SG_OK);
  memcpy(SG_TensorData(feed), &x0, sizeof x0);
  SG_SessionRun(sess, NULL, &x, &feed, 1, fetches, results, n, NULL, 0, NULL, s);
  CHECK_CODE(s, SG_OK);
  for (i = 0; i < n; ++i) {
    values[i] = -1;
    if (results[i] == NULL) continue;
    if (SG_TensorType(results[i]) == SG_FLOAT) {
      float f;
      memcpy(&f, SG_TensorData(results[i]), sizeof f);
      values[i] = f;
    } else if (SG_TensorType(results[i]) == SG_INT32) {
      int v;
      memcpy(&v, SG_TensorData(results[i]), sizeof v);
      values[i] = v;
    }
    SG_DeleteTensor(results[i]);
  }
  SG_DeleteTensor(feed);
  SG_CloseSession(sess, s);
  SG_DeleteSession(sess, s);
  SG_DeleteSessionOptions(opts);
}

/* Starts `while (i < limit) { i = i + 1; x = x * (square ? x : 2); }` over (i0, x) in `g`. */
static SG_WhileParams StartLoop(SG_Graph* g, SG_Output i0, SG_Output x, int limit, int square,
                                SG_Status* s) {
  SG_Output inputs[2];
  inputs[0] = i0;
  inputs[1] = x;
  SG_WhileParams p = SG_NewWhile(g, inputs, 2, s);
  CHECK_CODE(s, SG_OK);
  if (SG_GetCode(s) != SG_OK) return p;
  p.cond_output = Binary(p.cond_graph, "Less", "less", p.cond_inputs[0],
                         ScalarInt(p.cond_graph, "limit", limit, s), s);
  CHECK_CODE(s, SG_OK);
  p.body_outputs[0] = Binary(p.body_graph, "AddV2", "next_i", p.body_inputs[0],
                             ScalarInt(p.body_graph, "one", 1, s), s);
  CHECK_CODE(s, SG_OK);
  p.body_outputs[1] =
      Binary(p.body_graph, "Mul", "next_x", p.body_inputs[1],
             square ? p.body_inputs[1] : ScalarFloat(p.body_graph, "two", 2.0f, s), s);
  CHECK_CODE(s, SG_OK);
  return p;
}

static void TestLoopValuesNamesAndGradients(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Output x = Placeholder(g, "x", SG_FLOAT, s);
  SG_Output i0 = ScalarInt(g, "i0", 0, s);
  SG_Output outs[2], sq[2], grads[2], fetches[4];
  double v[4];
  CHECK_CODE(s, SG_OK);

  SG_WhileParams p1 = StartLoop(g, i0, x, 10, 0, s);
  CHECK(p1.ninputs == 2 && p1.cond_graph != NULL && p1.body_graph != NULL && p1.name == NULL);
  CHECK(p1.body_outputs != NULL &&
        strcmp(SG_OperationName(p1.cond_inputs[1].oper), "cond_input1") == 0);
  CHECK(strcmp(SG_OperationName(p1.body_inputs[0].oper), "body_input0") == 0);
  p1.name = "loop";
  SG_FinishWhile(&p1, s, outs);
  CHECK_CODE(s, SG_OK);
  CHECK(strcmp(SG_OperationName(outs[0].oper), "loop/Exit") == 0);
  CHECK(strcmp(SG_OperationName(outs[1].oper), "loop/Exit_1") == 0);
  CHECK(SG_GraphOperationByName(g, "loop/cond/less") != NULL);
  CHECK(SG_GraphOperationByName(g, "loop/body/next_x") != NULL);
  CHECK(SG_GraphOperationByName(g, "loop/LoopCond") != NULL);
  CHECK(SG_OperationOutputType(outs[0]) == SG_INT32 && SG_OperationOutputType(outs[1]) == SG_FLOAT);
  /* (0, 1.5) doubled 10 times: (10, 1536). */
  Run(g, x, 1.5f, outs, 2, v, s);
  CHECK(v[0] == 10 && v[1] == 1536);
  Run(g, x, -0.25f, outs, 2, v, s);
  CHECK(v[0] == 10 && v[1] == -256);

  /* A second loop named "loop": refused (TensorFlow's error), nothing added. */
  {
    int before = NumOperations(g);
    SG_WhileParams again = StartLoop(g, i0, x, 3, 1, s);
    again.name = "loop";
    SG_FinishWhile(&again, s, sq);
    CHECK_CODE(s, SG_INVALID_ARGUMENT);
    CHECK_MESSAGE(s, "While loop with frame name 'loop' already exists");
    CHECK(NumOperations(g) == before);
  }
  /* A name an operation has already: scope squares_1. x squared 3 times: 1.5^8 = 25.62890625. */
  ScalarInt(g, "squares", 0, s);
  SG_WhileParams p2 = StartLoop(g, i0, x, 3, 1, s);
  p2.name = "squares";
  SG_FinishWhile(&p2, s, sq);
  CHECK_CODE(s, SG_OK);
  CHECK(strcmp(SG_OperationName(sq[1].oper), "squares_1/Exit_1") == 0);

  /* d(x * 2^10)/dx = 1024; d(x^8)/dx = 8 x^7 = 136.6875 at 1.5 and -8 * 2^-7 = -0.0625 at -0.5. */
  grads[0] = grads[1] = x; /* fetchable should a gradient fail */
  SG_AddGradients(g, &outs[1], 1, &x, 1, NULL, s, &grads[0]);
  CHECK_CODE(s, SG_OK);
  SG_AddGradients(g, &sq[1], 1, &x, 1, NULL, s, &grads[1]);
  CHECK_CODE(s, SG_OK);
  fetches[0] = sq[0];
  fetches[1] = sq[1];
  fetches[2] = grads[0];
  fetches[3] = grads[1];
  Run(g, x, 1.5f, fetches, 4, v, s);
  CHECK(v[0] == 3 && v[1] == 25.62890625 && v[2] == 1024 && v[3] == 136.6875);
  Run(g, x, -0.5f, fetches, 4, v, s);
  CHECK(v[0] == 3 && v[1] == 0.00390625 && v[2] == 1024 && v[3] == -0.0625);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

/* A loop whose body holds a loop: for (i < 3) { for (j < 2) x = x * 2; }: x * 2^6. */
static void TestNestedLoop(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Output x = Placeholder(g, "x", SG_FLOAT, s);
  SG_Output i0 = ScalarInt(g, "i0", 0, s);
  SG_Output inputs[2], outs[2], inner_outs[2];
  double v[2];
  inputs[0] = i0;
  inputs[1] = x;
  SG_WhileParams p3 = SG_NewWhile(g, inputs, 2, s);
  CHECK_CODE(s, SG_OK);
  p3.cond_output = Binary(p3.cond_graph, "Less", "less", p3.cond_inputs[0],
                         ScalarInt(p3.cond_graph, "limit", 3, s), s);
  p3.body_outputs[0] = Binary(p3.body_graph, "AddV2", "next_i", p3.body_inputs[0],
                             ScalarInt(p3.body_graph, "one", 1, s), s);
  SG_WhileParams q4 =
      StartLoop(p3.body_graph, ScalarInt(p3.body_graph, "j0", 0, s), p3.body_inputs[1], 2, 0, s);
  q4.name = "inner";
  SG_FinishWhile(&q4, s, inner_outs);
  CHECK_CODE(s, SG_OK);
  p3.body_outputs[1] = inner_outs[1];
  p3.name = "outer";
  SG_FinishWhile(&p3, s, outs);
  CHECK_CODE(s, SG_OK);
  CHECK(SG_GraphOperationByName(g, "outer/body/inner/Exit_1") != NULL);
  Run(g, x, 1.5f, outs, 2, v, s);
  CHECK(v[0] == 3 && v[1] == 96);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

static void TestAbortAndBadParams(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Output x = Placeholder(g, "x", SG_FLOAT, s);
  SG_Output i0 = ScalarInt(g, "i0", 0, s);
  SG_Output outs[2], keep[2];
  double v[2];
  int before = NumOperations(g);

  /* Aborted: nothing added, and the name stays free. */
  SG_WhileParams p5 = StartLoop(g, i0, x, 10, 0, s);
  p5.name = "loop";
  SG_AbortWhile(&p5);
  CHECK(NumOperations(g) == before);
  SG_AbortWhile(&p5); /* aborted already: a no-op */
  SG_AbortWhile(NULL);
  SG_WhileParams p6 = StartLoop(g, i0, x, 2, 0, s);
  p6.name = "loop";
  SG_FinishWhile(&p6, s, keep);
  CHECK_CODE(s, SG_OK);
  CHECK(strcmp(SG_OperationName(keep[1].oper), "loop/Exit_1") == 0);
  Run(g, x, 1.5f, keep, 2, v, s);
  CHECK(v[0] == 2 && v[1] == 6);
  /* Finished already: refused, nothing freed twice. */
  SG_FinishWhile(&p6, s, outs);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "must be created by a successful SG_NewWhile");

  before = NumOperations(g);
  SG_WhileParams p7 = SG_NewWhile(g, &x, 0, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(p7.cond_graph == NULL && p7.body_outputs == NULL);
  SG_WhileParams p8 = SG_NewWhile(NULL, &x, 1, s);
  CHECK(p8.cond_graph == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_WhileParams p9 = SG_NewWhile(g, NULL, 1, s);
  CHECK(p9.cond_graph == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  {
    SG_Output bad = {NULL, 0};
    SG_WhileParams p10 = SG_NewWhile(g, &bad, 1, s);
    CHECK(p10.cond_graph == NULL);
    CHECK_CODE(s, SG_INVALID_ARGUMENT);
    bad = x;
    bad.index = 3;
    SG_WhileParams p11 = SG_NewWhile(g, &bad, 1, s);
    CHECK(p11.cond_graph == NULL);
    CHECK_CODE(s, SG_INVALID_ARGUMENT);
  }
  SG_FinishWhile(NULL, s, outs);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);

  SG_WhileParams p12 = StartLoop(g, i0, x, 10, 0, s);
  p12.body_outputs[1].oper = NULL;
  p12.name = "bad";
  SG_FinishWhile(&p12, s, outs);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "`body_outputs[1]` field isn't set");

  SG_WhileParams p13 = StartLoop(g, i0, x, 10, 0, s);
  p13.cond_output.oper = NULL;
  p13.name = "bad";
  SG_FinishWhile(&p13, s, outs);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "`cond_output` field isn't set");

  SG_WhileParams p14 = StartLoop(g, i0, x, 10, 0, s);
  SG_FinishWhile(&p14, s, outs);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "`name` field is null");

  SG_WhileParams p15 = StartLoop(g, i0, x, 10, 0, s);
  p15.name = "";
  SG_FinishWhile(&p15, s, outs);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);

  SG_WhileParams p16 = StartLoop(g, i0, x, 10, 0, s);
  p16.name = "bad";
  SG_FinishWhile(&p16, s, NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);

  /* The body's float result for the int32 counter. */
  SG_WhileParams p17 = StartLoop(g, i0, x, 10, 0, s);
  p17.body_outputs[0] = p17.body_outputs[1];
  p17.name = "bad";
  SG_FinishWhile(&p17, s, outs);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "loop variable 0 is int32");

  /* A condition that is not bool, and one of another graph. */
  SG_WhileParams p18 = StartLoop(g, i0, x, 10, 0, s);
  p18.cond_output = p18.cond_inputs[0];
  p18.name = "bad";
  SG_FinishWhile(&p18, s, outs);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_WhileParams p19 = StartLoop(g, i0, x, 10, 0, s);
  p19.cond_output = p19.body_outputs[0];
  p19.name = "bad";
  SG_FinishWhile(&p19, s, outs);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);

  /* Copies of the params that SG_NewWhile did not make: refused, and the real ones still work. */
  SG_WhileParams p20 = StartLoop(g, i0, x, 10, 0, s);
  {
    SG_WhileParams more = {p20.ninputs + 1, p20.cond_graph,  p20.cond_inputs,  p20.cond_output,
                           p20.body_graph,  p20.body_inputs, p20.body_outputs, "forged"};
    SG_WhileParams none = {0,            p20.cond_graph,  p20.cond_inputs,  p20.cond_output,
                           p20.body_graph, p20.body_inputs, p20.body_outputs, "forged"};
    SG_WhileParams swapped = {p20.ninputs,    p20.body_graph,  p20.cond_inputs,  p20.cond_output,
                              p20.cond_graph, p20.body_inputs, p20.body_outputs, "forged"};
    SG_FinishWhile(&more, s, outs);
    CHECK_CODE(s, SG_INVALID_ARGUMENT);
    SG_FinishWhile(&none, s, outs);
    CHECK_CODE(s, SG_INVALID_ARGUMENT);
    SG_FinishWhile(&swapped, s, outs);
    CHECK_CODE(s, SG_INVALID_ARGUMENT);
    SG_AbortWhile(&more);
  }
  CHECK(NumOperations(g) == before);
  p20.name = "real";
  SG_FinishWhile(&p20, s, outs);
  CHECK_CODE(s, SG_OK);
  Run(g, x, 1.0f, outs, 2, v, s);
  CHECK(v[0] == 10 && v[1] == 1024);

  /* The outer graph deleted while a loop is open: it lives until the loop is aborted. */
  SG_WhileParams p21 = StartLoop(g, i0, x, 10, 0, s);
  SG_DeleteGraph(g);
  SG_AbortWhile(&p21);
  SG_DeleteStatus(s);
}

static SG_Function* SquareFunction(const char* name, SG_Status* s) {
  SG_Graph* fg = SG_NewGraph();
  SG_Output a = Placeholder(fg, "a", SG_FLOAT, s);
  SG_Output b = Binary(fg, "Mul", "b", a, a, s);
  SG_Function* f = SG_GraphToFunction(fg, name, 0, -1, NULL, 1, &a, 1, &b, NULL, NULL, NULL, s);
  CHECK_CODE(s, SG_OK);
  SG_DeleteGraph(fg);
  return f;
}

static void TestRemoveFunction(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Output x = Placeholder(g, "x", SG_FLOAT, s);
  SG_Function* sq = SquareFunction("SquareFn", s);
  SG_Function* cube = SquareFunction("CubeFn", s); /* a square too, under another name */
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess;
  SG_OperationDescription* d;
  SG_Output call;
  SG_Tensor* feed = SG_AllocateTensor(SG_FLOAT, NULL, 0, sizeof(float));
  SG_Tensor* result = NULL;
  float three = 3;

  SG_GraphCopyFunction(g, sq, NULL, s);
  CHECK_CODE(s, SG_OK);
  SG_GraphCopyFunction(g, cube, NULL, s);
  CHECK_CODE(s, SG_OK);
  CHECK(SG_GraphNumFunctions(g) == 2);
  SG_GraphRemoveFunction(g, "CubeFn", s);
  CHECK_CODE(s, SG_OK);
  CHECK(SG_GraphNumFunctions(g) == 1);
  SG_GraphRemoveFunction(g, "CubeFn", s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "Tried to remove non-existent function 'CubeFn'.");
  SG_GraphRemoveFunction(NULL, "CubeFn", s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_GraphRemoveFunction(g, NULL, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);

  /* A session made before; then Square is removed and Cube (another body) takes its place with
   * the same count of functions: the session must still be given the new library. */
  sess = SG_NewSession(g, opts, s);
  CHECK_CODE(s, SG_OK);
  memcpy(SG_TensorData(feed), &three, sizeof three);
  SG_SessionRun(sess, NULL, &x, &feed, 1, &x, &result, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, SG_OK);
  SG_DeleteTensor(result);
  result = NULL;
  SG_GraphRemoveFunction(g, "SquareFn", s);
  CHECK_CODE(s, SG_OK);
  SG_GraphCopyFunction(g, cube, NULL, s);
  CHECK_CODE(s, SG_OK);
  CHECK(SG_GraphNumFunctions(g) == 1);
  d = SG_NewOperation(g, "CubeFn", "call");
  SG_AddInput(d, x);
  call = Out(SG_FinishOperation(d, s));
  CHECK_CODE(s, SG_OK);
  SG_SessionRun(sess, NULL, &x, &feed, 1, &call, &result, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, SG_OK);
  CHECK(result != NULL && *(float*)SG_TensorData(result) == 9);
  SG_DeleteTensor(result);

  /* A function an operation uses stays. */
  SG_GraphRemoveFunction(g, "CubeFn", s);
  CHECK_CODE(s, SG_FAILED_PRECONDITION);
  CHECK_MESSAGE(s, "operation 'call' uses it");
  CHECK(SG_GraphNumFunctions(g) == 1);

  SG_CloseSession(sess, s);
  SG_DeleteSession(sess, s);
  SG_DeleteSessionOptions(opts);
  SG_DeleteTensor(feed);
  SG_DeleteFunction(sq);
  SG_DeleteFunction(cube);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

int main(void) {
  TestLoopValuesNamesAndGradients();
  TestNestedLoop();
  TestAbortAndBadParams();
  TestRemoveFunction();
  if (failures != 0) fprintf(stderr, "while_c_api_test: %d checks failed\n", failures);
  return failures == 0 ? 0 : 1;
}
