/* tf_while_client: while loops built from C (TF_NewWhile, TF_FinishWhile, TF_AbortWhile),
 * TF_AddGradients through them, bad params, and TF_GraphRemoveFunction, written against
 * TensorFlow's C API only. Every value is checked against a hand computation; each result is
 * also printed, one per line, so that tf_while_test.sh can compare a run on TensorFlow's own
 * library with a run on sg's libtensorflow.so.2 line by line. Exits non-zero on a failed check.
 * With --no-gradients the gradients are not computed (TensorFlow's run of them fails). */
#include <stdio.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tf_check.h"

static TF_Output Out(TF_Operation* op) {
  TF_Output o;
  o.oper = op;
  o.index = 0;
  return o;
}

static TF_Output Placeholder(TF_Graph* g, const char* name, TF_DataType dt, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", dt);
  TF_SetAttrShape(d, "shape", NULL, 0);
  return Out(TF_FinishOperation(d, s));
}

static TF_Output ScalarInt(TF_Graph* g, const char* name, int v, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int));
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_Output out;
  memcpy(TF_TensorData(t), &v, sizeof v);
  TF_SetAttrTensor(d, "value", t, s);
  TF_SetAttrType(d, "dtype", TF_INT32);
  out = Out(TF_FinishOperation(d, s));
  TF_DeleteTensor(t);
  return out;
}

static TF_Output ScalarFloat(TF_Graph* g, const char* name, float v, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_Output out;
  memcpy(TF_TensorData(t), &v, sizeof v);
  TF_SetAttrTensor(d, "value", t, s);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  out = Out(TF_FinishOperation(d, s));
  TF_DeleteTensor(t);
  return out;
}

static TF_Output Binary(TF_Graph* g, const char* type, const char* name, TF_Output a,
                        TF_Output b, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInput(d, a);
  TF_AddInput(d, b);
  return Out(TF_FinishOperation(d, s));
}

static int NumOperations(TF_Graph* g) {
  size_t pos = 0;
  int n = 0;
  while (TF_GraphNextOperation(g, &pos) != NULL) ++n;
  return n;
}

/* Runs `fetches` (float or int32 scalars) with x fed `x0`; writes them as doubles to `values`. */
static void Run(TF_Graph* g, TF_Output x, float x0, const TF_Output* fetches, int n,
                double* values, TF_Status* s) {
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, opts, s);
  TF_Tensor* feed = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  TF_Tensor* results[4] = {NULL, NULL, NULL, NULL};
  int i;
  CHECK_CODE(s, TF_OK);
  memcpy(TF_TensorData(feed), &x0, sizeof x0);
  TF_SessionRun(sess, NULL, &x, &feed, 1, fetches, results, n, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < n; ++i) {
    values[i] = -1;
    if (results[i] == NULL) continue;
    if (TF_TensorType(results[i]) == TF_FLOAT) {
      float f;
      memcpy(&f, TF_TensorData(results[i]), sizeof f);
      values[i] = f;
    } else if (TF_TensorType(results[i]) == TF_INT32) {
      int v;
      memcpy(&v, TF_TensorData(results[i]), sizeof v);
      values[i] = v;
    }
    TF_DeleteTensor(results[i]);
  }
  TF_DeleteTensor(feed);
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(opts);
}

/* Starts the loop `while (i < limit) { i = i + 1; x = x OP x_or_2; }` in `g` over inputs[0]
 * (i) and inputs[1] (x): OP is Mul by a constant 2 (square 0) or by x itself (square 1). The
 * params are left for the caller to name and finish. TensorFlow reads `inputs` again in
 * TF_FinishWhile, so the array must live until then. */
static TF_WhileParams StartLoop(TF_Graph* g, TF_Output* inputs, int limit, int square,
                                TF_Status* s) {
  TF_WhileParams p = TF_NewWhile(g, inputs, 2, s);
  CHECK_CODE(s, TF_OK);
  if (TF_GetCode(s) != TF_OK) return p;
  p.cond_output = Binary(p.cond_graph, "Less", "less", p.cond_inputs[0],
                         ScalarInt(p.cond_graph, "limit", limit, s), s);
  CHECK_CODE(s, TF_OK);
  p.body_outputs[0] = Binary(p.body_graph, "AddV2", "next_i", p.body_inputs[0],
                             ScalarInt(p.body_graph, "one", 1, s), s);
  CHECK_CODE(s, TF_OK);
  p.body_outputs[1] =
      Binary(p.body_graph, "Mul", "next_x", p.body_inputs[1],
             square ? p.body_inputs[1] : ScalarFloat(p.body_graph, "two", 2.0f, s), s);
  CHECK_CODE(s, TF_OK);
  return p;
}

/* In a graph of its own: `while (x < limit) x = x * (square ? x : 2)` from x0; returns
 * d(x_final)/dx0 and sets *value to x_final. One loop variable: TensorFlow's gradient builder
 * waits for the gradients of all of a loop's Exits, so a counter no y depends on would stall it
 * (a failed CHECK). */
static double Gradient(float limit, int square, float x0, double* value, TF_Status* s) {
  TF_Graph* g = TF_NewGraph();
  TF_Output x = Placeholder(g, "x", TF_FLOAT, s);
  TF_Output out, fetches[2];
  double v[2] = {-1, -1};
  TF_WhileParams p = TF_NewWhile(g, &x, 1, s);
  CHECK_CODE(s, TF_OK);
  p.cond_output = Binary(p.cond_graph, "Less", "less", p.cond_inputs[0],
                         ScalarFloat(p.cond_graph, "limit", limit, s), s);
  p.body_outputs[0] =
      Binary(p.body_graph, "Mul", "next_x", p.body_inputs[0],
             square ? p.body_inputs[0] : ScalarFloat(p.body_graph, "two", 2.0f, s), s);
  CHECK_CODE(s, TF_OK);
  p.name = "loop";
  TF_FinishWhile(&p, s, &out);
  CHECK_CODE(s, TF_OK);
  fetches[0] = out;
  fetches[1] = x; /* fetchable should the gradient fail */
  TF_AddGradients(g, &out, 1, &x, 1, NULL, s, &fetches[1]);
  CHECK_CODE(s, TF_OK);
  Run(g, x, x0, fetches, 2, v, s);
  TF_DeleteGraph(g);
  *value = v[0];
  return v[1];
}

int main(int argc, char** argv) {
  /* "--no-gradients" for TensorFlow's library: its C++ gradient of these loops builds a
   * backprop frame whose Merge has inputs from two frames, and the run fails. */
  const int gradients = !(argc > 1 && strcmp(argv[1], "--no-gradients") == 0);
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Output x = Placeholder(g, "x", TF_FLOAT, s);
  TF_Output i0 = ScalarInt(g, "i0", 0, s);
  TF_Output in[2], outs[2], sq[2], fetches[4];
  double v[4];
  int before;
  CHECK_CODE(s, TF_OK);
  in[0] = i0;
  in[1] = x;

  /* Loop 1: while (i < 10) { i = i + 1; x = x * 2; } from (0, 1.5): (10, 1.5 * 2^10 = 1536). */
  TF_WhileParams p1 = StartLoop(g, in, 10, 0, s);
  p1.name = "loop";
  TF_FinishWhile(&p1, s, outs);
  CHECK_CODE(s, TF_OK);
  printf("loop outputs: %s:%d %s:%d\n", TF_OperationName(outs[0].oper), outs[0].index,
         TF_OperationName(outs[1].oper), outs[1].index);
  printf("loop output types: %d %d\n", (int)TF_OperationOutputType(outs[0]),
         (int)TF_OperationOutputType(outs[1]));
  CHECK(TF_OperationOutputType(outs[0]) == TF_INT32);
  CHECK(TF_OperationOutputType(outs[1]) == TF_FLOAT);
  Run(g, x, 1.5f, outs, 2, v, s);
  printf("loop values: %g %g\n", v[0], v[1]);
  CHECK(v[0] == 10 && v[1] == 1536);

  /* Loop 2, whose name is an operation's already (scope squares_1): x squared 3 times: x^8,
   * 1.5^8 = 25.62890625. (Another loop named "loop" is an error; TensorFlow leaves its
   * operations behind then, so it is not tried here.) */
  ScalarInt(g, "squares", 0, s);
  TF_WhileParams p2 = StartLoop(g, in, 3, 1, s);
  p2.name = "squares";
  TF_FinishWhile(&p2, s, sq);
  CHECK_CODE(s, TF_OK);
  printf("second loop outputs: %s %s\n", TF_OperationName(sq[0].oper),
         TF_OperationName(sq[1].oper));

  fetches[0] = sq[0];
  fetches[1] = sq[1];
  Run(g, x, 1.5f, fetches, 2, v, s);
  printf("second loop values: %g %g\n", v[0], v[1]);
  CHECK(v[0] == 3 && v[1] == 25.62890625);

  /* Gradients: 1.5 doubled while below 1000: 1536 = 1.5 * 2^10, d/dx = 2^10 = 1024; squared
   * while below 100: 1.5^16 = 656.84..., d/dx = 16 * 1.5^15 = 7006.30224609375 (exact in
   * float: every factor is a power of 3 over a power of 2 below 2^24). */
  if (gradients) {
    v[2] = Gradient(1000, 0, 1.5f, &v[0], s);
    v[3] = Gradient(100, 1, 1.5f, &v[1], s);
    printf("gradient loops: %g %g\n", v[0], v[1]);
    printf("gradients: %.17g %.17g\n", v[2], v[3]);
    CHECK(v[0] == 1536 && v[1] > 656.8408 && v[1] < 656.8409);
    CHECK(v[2] == 1024 && v[3] == 7006.30224609375);
  }

  /* TF_AbortWhile: nothing is added, and the graph still runs and takes a new loop. */
  before = NumOperations(g);
  TF_WhileParams p3 = StartLoop(g, in, 10, 0, s);
  TF_AbortWhile(&p3);
  printf("operations added by an aborted loop: %d\n", NumOperations(g) - before);
  CHECK(NumOperations(g) == before);
  TF_WhileParams p4 = StartLoop(g, in, 2, 0, s);
  p4.name = "after_abort";
  TF_FinishWhile(&p4, s, outs);
  CHECK_CODE(s, TF_OK);
  printf("after abort: %s\n", TF_OperationName(outs[1].oper));
  Run(g, x, 1.5f, outs, 2, v, s);
  printf("after abort values: %g %g\n", v[0], v[1]);
  CHECK(v[0] == 2 && v[1] == 6);

  /* Bad params: an error, never a crash, and the graph unchanged. */
  {
    before = NumOperations(g);
    TF_WhileParams p5 = TF_NewWhile(g, &x, 0, s);
    CHECK(p5.cond_graph == NULL);
    printf("no inputs: %d\n", (int)TF_GetCode(s));
    CHECK_CODE(s, TF_INVALID_ARGUMENT);

    /* A body output left unset: the params are freed all the same. */
    TF_WhileParams p6 = StartLoop(g, in, 10, 0, s);
    p6.body_outputs[1].oper = NULL;
    p6.name = "missing_body_output";
    TF_FinishWhile(&p6, s, outs);
    printf("missing body output: %d\n", (int)TF_GetCode(s));
    CHECK_CODE(s, TF_INVALID_ARGUMENT);

    /* The condition left unset. */
    TF_WhileParams p7 = StartLoop(g, in, 10, 0, s);
    p7.cond_output.oper = NULL;
    p7.name = "missing_cond";
    TF_FinishWhile(&p7, s, outs);
    printf("missing cond output: %d\n", (int)TF_GetCode(s));
    CHECK_CODE(s, TF_INVALID_ARGUMENT);

    /* A NULL name. */
    TF_WhileParams p8 = StartLoop(g, in, 10, 0, s);
    TF_FinishWhile(&p8, s, outs);
    printf("missing name: %d\n", (int)TF_GetCode(s));
    CHECK_CODE(s, TF_INVALID_ARGUMENT);

    /* A copy of the params with another ninputs is refused (and the real ones still work). */
    TF_WhileParams p9 = StartLoop(g, in, 10, 0, s);
    {
      TF_WhileParams forged = {0,           p9.cond_graph,  p9.cond_inputs,  p9.cond_output,
                               p9.body_graph, p9.body_inputs, p9.body_outputs, "forged"};
      TF_FinishWhile(&forged, s, outs);
      printf("mismatched ninputs: %d\n", (int)TF_GetCode(s));
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
    }
    TF_AbortWhile(&p9);
    printf("operations added by bad params: %d\n", NumOperations(g) - before);
    CHECK(NumOperations(g) == before);
  }

  /* TF_GraphRemoveFunction: the count drops by one; removing it again is an error. */
  {
    TF_Graph* fg = TF_NewGraph();
    TF_Output a = Placeholder(fg, "a", TF_FLOAT, s);
    TF_Output b = Binary(fg, "Mul", "b", a, a, s);
    TF_Function* f = TF_GraphToFunction(fg, "SquareFn", 0, -1, NULL, 1, &a, 1, &b, NULL, NULL,
                                        NULL, s);
    int n0;
    CHECK_CODE(s, TF_OK);
    n0 = TF_GraphNumFunctions(g);
    TF_GraphCopyFunction(g, f, NULL, s);
    CHECK_CODE(s, TF_OK);
    printf("functions: %d", TF_GraphNumFunctions(g) - n0);
    TF_GraphRemoveFunction(g, "SquareFn", s);
    CHECK_CODE(s, TF_OK);
    printf(" %d", TF_GraphNumFunctions(g) - n0);
    CHECK(TF_GraphNumFunctions(g) == n0);
    TF_GraphRemoveFunction(g, "SquareFn", s);
    printf(" (again: %d)\n", (int)TF_GetCode(s));
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_DeleteFunction(f);
    TF_DeleteGraph(fg);
  }

  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  if (failures != 0) fprintf(stderr, "tf_while_client: %d checks failed\n", failures);
  return failures == 0 ? 0 : 1;
}
