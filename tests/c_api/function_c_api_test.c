/* Functions built from C in plain C99 (SG_GraphToFunction and its siblings): x*2+1 made into a
 * function, copied into another graph and run there as an op and through PartitionedCall; the
 * FunctionDef's naming (args, ret, "node:out_arg:index" inputs); the round trip through
 * SG_FunctionToFunctionDef / SG_FunctionImportFunctionDef; function attrs; a gradient function;
 * and the errors bad arguments must give (never a crash). */
#include <stdio.h>
#include <string.h>

#include "sg/c_api.h"
#include "c_check.h"

static SG_Output Placeholder(SG_Graph* g, const char* name, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, "Placeholder", name);
  SG_Output out;
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  out.oper = SG_FinishOperation(d, s);
  out.index = 0;
  CHECK_CODE(s, SG_OK);
  return out;
}

static SG_Output Scalar(SG_Graph* g, const char* name, float v, SG_Status* s) {
  SG_Tensor* t = SG_AllocateTensor(SG_FLOAT, NULL, 0, sizeof(float));
  SG_OperationDescription* d = SG_NewOperation(g, "Const", name);
  SG_Output out;
  *(float*)SG_TensorData(t) = v;
  SG_SetAttrTensor(d, "value", t, s);
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  out.oper = SG_FinishOperation(d, s);
  out.index = 0;
  SG_DeleteTensor(t);
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

/* One input, one output: an op of type `type` (a function's name) on `in`. */
static SG_Output Call(SG_Graph* g, const char* type, const char* name, SG_Output in,
                      SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, type, name);
  SG_Output out;
  SG_AddInput(d, in);
  out.oper = SG_FinishOperation(d, s);
  out.index = 0;
  return out;
}

/* Runs `fetch` with `x` = {a, b} and returns its two values in `out`. */
static void Run2(SG_Graph* g, SG_Output x, SG_Output fetch, float a, float b, float* out) {
  SG_Status* s = SG_NewStatus();
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess = SG_NewSession(g, opts, s);
  int64_t dims[1] = {2};
  SG_Tensor* in = SG_AllocateTensor(SG_FLOAT, dims, 1, 2 * sizeof(float));
  SG_Tensor* result = NULL;
  ((float*)SG_TensorData(in))[0] = a;
  ((float*)SG_TensorData(in))[1] = b;
  out[0] = out[1] = -1000.0f;
  CHECK_CODE(s, SG_OK);
  SG_SessionRun(sess, NULL, &x, &in, 1, &fetch, &result, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, SG_OK);
  if (result != NULL) {
    CHECK(SG_TensorByteSize(result) == 2 * sizeof(float));
    memcpy(out, SG_TensorData(result), 2 * sizeof(float));
    SG_DeleteTensor(result);
  }
  SG_DeleteTensor(in);
  SG_CloseSession(sess, s);
  SG_DeleteSession(sess, s);
  SG_DeleteSessionOptions(opts);
  SG_DeleteStatus(s);
}

/* Whether `needle` (n bytes) occurs in the buffer. */
static int Contains(const SG_Buffer* b, const void* needle, size_t n) {
  size_t i;
  const char* data = (const char*)b->data;
  for (i = 0; i + n <= b->length; ++i) {
    if (memcmp(data + i, needle, n) == 0) return 1;
  }
  return 0;
}
static int ContainsString(const SG_Buffer* b, const char* s) { return Contains(b, s, strlen(s)); }

/* A length-delimited string field as protobuf encodes it: tag, length, bytes. */
static size_t Field(unsigned char* out, int field, const char* s) {
  size_t n = strlen(s);
  out[0] = (unsigned char)(field << 3 | 2);
  out[1] = (unsigned char)n;
  memcpy(out + 2, s, n);
  return n + 2;
}

/* The graph x*2+1: Placeholder "x", Const "two", Const "one", Mul "mul", AddV2 "add". */
typedef struct {
  SG_Graph* g;
  SG_Output x, two, one, mul, add;
} Body;

static Body MakeBody(SG_Status* s) {
  Body b;
  b.g = SG_NewGraph();
  b.x = Placeholder(b.g, "x", s);
  b.two = Scalar(b.g, "two", 2.0f, s);
  b.one = Scalar(b.g, "one", 1.0f, s);
  b.mul = Binary(b.g, "Mul", "mul", b.x, b.two, s);
  b.add = Binary(b.g, "AddV2", "add", b.mul, b.one, s);
  return b;
}

static SG_Function* XTimesTwoPlusOne(const Body* b, const char* name, SG_Status* s) {
  const char* out_names[1] = {"y"};
  SG_Function* f = SG_GraphToFunction(b->g, name, 0, -1, NULL, 1, &b->x, 1, &b->add, out_names,
                                      NULL, "x * 2 + 1", s);
  CHECK_CODE(s, SG_OK);
  CHECK(f != NULL);
  return f;
}

static void TestBuildCopyAndCall(void) {
  SG_Status* s = SG_NewStatus();
  Body b = MakeBody(s);
  SG_Function* f = XTimesTwoPlusOne(&b, "XTimesTwoPlusOne", s);
  SG_Graph* g2 = SG_NewGraph();
  SG_Buffer* def = SG_NewBuffer();
  SG_Output in, call, pcall;
  float out[2];
  SG_Function* got[3] = {NULL, NULL, NULL};
  unsigned char ret[64];
  size_t n;

  if (f == NULL) return;
  CHECK(strcmp(SG_FunctionName(f), "XTimesTwoPlusOne") == 0);
  /* The FunctionDef: body nodes keep their names; inputs are args or node:out_arg:index. */
  SG_FunctionToFunctionDef(f, def, s);
  CHECK_CODE(s, SG_OK);
  CHECK(ContainsString(def, "XTimesTwoPlusOne"));
  CHECK(ContainsString(def, "x * 2 + 1"));
  CHECK(ContainsString(def, "two:output:0")); /* Mul's second input */
  CHECK(ContainsString(def, "mul:z:0"));      /* AddV2's first input */
  CHECK(ContainsString(def, "one:output:0"));
  /* ret {"y": "add:z:0"}: a map entry of key (field 1) and value (field 2). */
  n = Field(ret, 1, "y");
  n += Field(ret + n, 2, "add:z:0");
  CHECK(Contains(def, ret, n));
  CHECK(!ContainsString(def, "Placeholder")); /* the input's placeholder is skipped */
  SG_DeleteBuffer(def);

  /* Copied into another graph, the function is an op type. */
  CHECK(SG_GraphNumFunctions(g2) == 0);
  SG_GraphCopyFunction(g2, f, NULL, s);
  CHECK_CODE(s, SG_OK);
  CHECK(SG_GraphNumFunctions(g2) == 1);
  SG_GraphCopyFunction(g2, f, NULL, s); /* the same function again: no change */
  CHECK_CODE(s, SG_OK);
  CHECK(SG_GraphNumFunctions(g2) == 1);
  SG_DeleteFunction(f); /* the graph keeps its copy */
  in = Placeholder(g2, "in", s);
  call = Call(g2, "XTimesTwoPlusOne", "call", in, s);
  CHECK_CODE(s, SG_OK);
  CHECK(call.oper != NULL && SG_OperationNumOutputs(call.oper) == 1);
  if (call.oper != NULL) {
    CHECK(SG_OperationOutputType(call) == SG_FLOAT);
    Run2(g2, in, call, 3.0f, -4.5f, out);
    CHECK(out[0] == 7.0f && out[1] == -8.0f);
  }
  /* And through PartitionedCall. */
  {
    SG_DataType types[1] = {SG_FLOAT};
    SG_OperationDescription* d = SG_NewOperation(g2, "PartitionedCall", "pcall");
    SG_AddInputList(d, &in, 1);
    SG_SetAttrTypeList(d, "Tin", types, 1);
    SG_SetAttrTypeList(d, "Tout", types, 1);
    SG_SetAttrFuncName(d, "f", "XTimesTwoPlusOne", strlen("XTimesTwoPlusOne"));
    pcall.oper = SG_FinishOperation(d, s);
    pcall.index = 0;
    CHECK_CODE(s, SG_OK);
    if (pcall.oper != NULL) {
      Run2(g2, in, pcall, 0.5f, 10.0f, out);
      CHECK(out[0] == 2.0f && out[1] == 21.0f);
    }
  }
  /* SG_GraphGetFunctions hands out copies. */
  CHECK(SG_GraphGetFunctions(g2, got, 3, s) == 1);
  CHECK_CODE(s, SG_OK);
  CHECK(got[0] != NULL && got[1] == NULL);
  if (got[0] != NULL) CHECK(strcmp(SG_FunctionName(got[0]), "XTimesTwoPlusOne") == 0);
  SG_DeleteFunction(got[0]);
  CHECK(SG_GraphGetFunctions(g2, got, 0, s) == 0);
  CHECK_CODE(s, SG_OK);

  SG_DeleteGraph(g2);
  SG_DeleteGraph(b.g);
  SG_DeleteStatus(s);
}

static void TestRoundTripAndAttrs(void) {
  SG_Status* s = SG_NewStatus();
  Body b = MakeBody(s);
  SG_Function* f = XTimesTwoPlusOne(&b, "Affine", s);
  SG_Function* back;
  SG_Buffer* def = SG_NewBuffer();
  SG_Buffer* def2 = SG_NewBuffer();
  SG_Buffer* attr = SG_NewBuffer();
  /* AttrValue{b: true}: field 5, varint 1. */
  const unsigned char true_attr[2] = {0x28, 0x01};
  SG_Graph* g2 = SG_NewGraph();
  SG_Output in, call;
  float out[2];

  if (f == NULL) return;
  SG_FunctionSetAttrValueProto(f, "_noinline", true_attr, sizeof(true_attr), s);
  CHECK_CODE(s, SG_OK);
  SG_FunctionGetAttrValueProto(f, "_noinline", attr, s);
  CHECK_CODE(s, SG_OK);
  CHECK(attr->length == 2 && memcmp(attr->data, true_attr, 2) == 0);
  SG_DeleteBuffer(attr);
  attr = SG_NewBuffer();
  SG_FunctionGetAttrValueProto(f, "_missing", attr, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(attr->data == NULL);
  SG_FunctionSetAttrValueProto(f, "_bad", "\xff\xff\xff", 3, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);

  SG_FunctionToFunctionDef(f, def, s);
  CHECK_CODE(s, SG_OK);
  back = SG_FunctionImportFunctionDef(def->data, def->length, s);
  CHECK_CODE(s, SG_OK);
  CHECK(back != NULL);
  if (back != NULL) {
    CHECK(strcmp(SG_FunctionName(back), "Affine") == 0);
    SG_FunctionToFunctionDef(back, def2, s);
    CHECK_CODE(s, SG_OK);
    CHECK(def2->length == def->length && memcmp(def2->data, def->data, def->length) == 0);
    SG_GraphCopyFunction(g2, back, NULL, s);
    CHECK_CODE(s, SG_OK);
    in = Placeholder(g2, "in", s);
    call = Call(g2, "Affine", "call", in, s);
    CHECK_CODE(s, SG_OK);
    if (call.oper != NULL) {
      Run2(g2, in, call, 1.0f, 2.0f, out);
      CHECK(out[0] == 3.0f && out[1] == 5.0f);
    }
  }
  SG_DeleteFunction(back);
  SG_DeleteFunction(f);
  SG_DeleteBuffer(def);
  SG_DeleteBuffer(def2);
  SG_DeleteBuffer(attr);
  SG_DeleteGraph(g2);
  SG_DeleteGraph(b.g);
  SG_DeleteStatus(s);
}

/* Names made by sg: argument names normalized from operation names, outputs unnamed. */
static void TestGeneratedNamesAndHash(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Output x = Placeholder(g, "9In/Put", s);
  SG_Output k = Scalar(g, "k", 3.0f, s);
  SG_Output add = Binary(g, "AddV2", "add", x, k, s);
  SG_Output outs[2];
  SG_Buffer* def = SG_NewBuffer();
  const SG_Operation* body[2];
  SG_Function* f;
  unsigned char ret[64];
  size_t n;

  outs[0] = add;
  outs[1] = x; /* an input that is also an output returns the argument */
  body[0] = k.oper;
  body[1] = add.oper;
  f = SG_GraphToFunction(g, "Named", 1, 2, body, 1, &x, 2, outs, NULL, NULL, NULL, s);
  CHECK_CODE(s, SG_OK);
  CHECK(f != NULL);
  if (f != NULL) {
    /* With the hash: "Named_" and 16 hex digits. */
    CHECK(strncmp(SG_FunctionName(f), "Named_", 6) == 0 && strlen(SG_FunctionName(f)) == 22);
    SG_FunctionToFunctionDef(f, def, s);
    CHECK_CODE(s, SG_OK);
    CHECK(ContainsString(def, "in_put_0"));   /* the argument: "9In/Put" normalized, made */
                                              /* unique against the result named first */
    n = Field(ret, 1, "add");                 /* results are named before body nodes, */
    n += Field(ret + n, 2, "add_0:z:0");      /* which are renamed when their name is taken */
    CHECK(Contains(def, ret, n));
    n = Field(ret, 1, "in_put");              /* the second output returns the argument */
    n += Field(ret + n, 2, "in_put_0");
    CHECK(Contains(def, ret, n));
  }
  SG_DeleteFunction(f);
  SG_DeleteBuffer(def);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

static void TestGradient(void) {
  SG_Status* s = SG_NewStatus();
  Body b = MakeBody(s);
  SG_Function* f = XTimesTwoPlusOne(&b, "F", s);
  SG_Function* grad = NULL;
  SG_Function* other = NULL;
  SG_Graph* gg = SG_NewGraph();
  SG_Graph* g2 = SG_NewGraph();
  SG_Buffer* def = SG_NewBuffer();
  unsigned char gd[64];
  size_t n;
  {
    /* dx = dy * 2 (inputs x, dy), and another function to be refused as a second gradient. */
    SG_Output x = Placeholder(gg, "x", s);
    SG_Output dy = Placeholder(gg, "dy", s);
    SG_Output two = Scalar(gg, "two", 2.0f, s);
    SG_Output dx = Binary(gg, "Mul", "dx", dy, two, s);
    SG_Output ins[2];
    const char* names[1] = {"dx"};
    ins[0] = x;
    ins[1] = dy;
    grad = SG_GraphToFunction(gg, "FGrad", 0, -1, NULL, 2, ins, 1, &dx, names, NULL, NULL, s);
    CHECK_CODE(s, SG_OK);
    other = SG_GraphToFunction(gg, "OtherGrad", 0, -1, NULL, 2, ins, 1, &dx, names, NULL, NULL,
                               s);
    CHECK_CODE(s, SG_OK);
  }
  SG_GraphCopyFunction(g2, f, grad, s);
  CHECK_CODE(s, SG_OK);
  CHECK(SG_GraphNumFunctions(g2) == 2);
  SG_GraphCopyFunction(g2, f, grad, s); /* again: nothing changes */
  CHECK_CODE(s, SG_OK);
  SG_GraphCopyFunction(g2, f, other, s); /* F already has the gradient FGrad */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_GraphNumFunctions(g2) == 2); /* OtherGrad was not added */
  SG_GraphToGraphDef(g2, def, s);
  CHECK_CODE(s, SG_OK);
  /* The library's GradientDef {function_name: "F", gradient_func: "FGrad"}. */
  n = Field(gd, 1, "F");
  n += Field(gd + n, 2, "FGrad");
  CHECK(Contains(def, gd, n));
  SG_DeleteFunction(f);
  SG_DeleteFunction(grad);
  SG_DeleteFunction(other);
  SG_DeleteBuffer(def);
  SG_DeleteGraph(gg);
  SG_DeleteGraph(g2);
  SG_DeleteGraph(b.g);
  SG_DeleteStatus(s);
}

static void TestErrors(void) {
  SG_Status* s = SG_NewStatus();
  Body b = MakeBody(s);
  Body other = MakeBody(s);
  SG_Function* f = XTimesTwoPlusOne(&b, "Dup", s);
  SG_Function* f2;
  SG_Graph* g2 = SG_NewGraph();
  SG_Output ins[2];
  SG_Output bad;
  const char* dup_names[2] = {"y", "y"};
  const SG_Operation* only_add[1];
  SG_Buffer* full = SG_NewBuffer();
  SG_Function* funcs[1];

  /* A different function under a name already in the graph. */
  SG_GraphCopyFunction(g2, f, NULL, s);
  CHECK_CODE(s, SG_OK);
  f2 = SG_GraphToFunction(b.g, "Dup", 0, -1, NULL, 1, &b.x, 1, &b.mul, NULL, NULL, NULL, s);
  CHECK_CODE(s, SG_OK);
  SG_GraphCopyFunction(g2, f2, NULL, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(strstr(SG_Message(s), "Dup") != NULL);
  SG_DeleteFunction(f2);
  /* A function named as a registered op. */
  f2 = SG_GraphToFunction(b.g, "MatMul", 0, -1, NULL, 1, &b.x, 1, &b.add, NULL, NULL, NULL, s);
  CHECK_CODE(s, SG_OK);
  SG_GraphCopyFunction(g2, f2, NULL, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_DeleteFunction(f2);
  CHECK(SG_GraphNumFunctions(g2) == 1);

  /* An output not in the body and not an input. */
  only_add[0] = b.add.oper;
  CHECK(SG_GraphToFunction(b.g, "G", 0, 1, only_add, 1, &b.x, 1, &b.mul, NULL, NULL, NULL, s) ==
        NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  /* A body input that is neither an argument nor made by the body (add needs mul). */
  CHECK(SG_GraphToFunction(b.g, "G", 0, 1, only_add, 1, &b.x, 1, &b.add, NULL, NULL, NULL, s) ==
        NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(strstr(SG_Message(s), "mul:0") != NULL);
  /* Missing outputs (NULL with a positive count). */
  CHECK(SG_GraphToFunction(b.g, "G", 0, -1, NULL, 0, NULL, 1, NULL, NULL, NULL, NULL, s) ==
        NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  /* The same input twice. */
  ins[0] = b.x;
  ins[1] = b.x;
  CHECK(SG_GraphToFunction(b.g, "G", 0, -1, NULL, 2, ins, 1, &b.add, NULL, NULL, NULL, s) ==
        NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  /* Duplicate output names. */
  ins[0] = b.add;
  ins[1] = b.mul;
  CHECK(SG_GraphToFunction(b.g, "G", 0, -1, NULL, 1, &b.x, 2, ins, dup_names, NULL, NULL, s) ==
        NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  /* An operation of another graph, an output index out of range. */
  CHECK(SG_GraphToFunction(b.g, "G", 0, -1, NULL, 1, &other.x, 1, &b.add, NULL, NULL, NULL, s) ==
        NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  bad = b.add;
  bad.index = 3;
  CHECK(SG_GraphToFunction(b.g, "G", 0, -1, NULL, 1, &b.x, 1, &bad, NULL, NULL, NULL, s) == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  /* NULL arguments. */
  CHECK(SG_GraphToFunction(NULL, "G", 0, -1, NULL, 1, &b.x, 1, &b.add, NULL, NULL, NULL, s) ==
        NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_GraphToFunction(b.g, NULL, 0, -1, NULL, 1, &b.x, 1, &b.add, NULL, NULL, NULL, s) ==
        NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_GraphToFunction(b.g, "G", 0, 2, NULL, 1, &b.x, 1, &b.add, NULL, NULL, NULL, s) ==
        NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_GraphToFunction(b.g, "G", 0, -2, NULL, 1, &b.x, 1, &b.add, NULL, NULL, NULL, s) ==
        NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_GraphToFunctionWithControlOutputs(b.g, "G", 0, -1, NULL, 1, &b.x, 1, &b.add, NULL, 1,
                                             NULL, NULL, NULL, NULL, s) == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_FunctionName(NULL) == NULL);
  SG_FunctionToFunctionDef(NULL, full, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_FunctionToFunctionDef(f, NULL, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_FunctionToFunctionDef(f, full, s);
  CHECK_CODE(s, SG_OK);
  SG_FunctionToFunctionDef(f, full, s); /* a buffer that holds data already */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_FunctionImportFunctionDef(NULL, 5, s) == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_FunctionImportFunctionDef("\xff\xff\xff\xff", 4, s) == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_FunctionImportFunctionDef(NULL, 0, s) == NULL); /* an empty FunctionDef: no name */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_FunctionSetAttrValueProto(NULL, "a", "", 0, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_FunctionSetAttrValueProto(f, NULL, "", 0, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_FunctionGetAttrValueProto(f, "a", NULL, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_GraphCopyFunction(NULL, f, NULL, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_GraphCopyFunction(g2, NULL, NULL, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_GraphNumFunctions(NULL) == 0);
  CHECK(SG_GraphGetFunctions(NULL, funcs, 1, s) == 0);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_GraphGetFunctions(g2, NULL, 1, s) == 0);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_GraphGetFunctions(g2, funcs, -1, s) == 0);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_DeleteFunction(NULL);

  SG_DeleteFunction(f);
  SG_DeleteBuffer(full);
  SG_DeleteGraph(g2);
  SG_DeleteGraph(b.g);
  SG_DeleteGraph(other.g);
  SG_DeleteStatus(s);
}

/* A control output: recorded in the signature and control_ret. */
static void TestControlOutputs(void) {
  SG_Status* s = SG_NewStatus();
  Body b = MakeBody(s);
  const SG_Operation* ctl[1];
  const char* ctl_names[1] = {"done"};
  SG_Buffer* def = SG_NewBuffer();
  SG_Function* f;
  unsigned char entry[64];
  size_t n;
  ctl[0] = b.mul.oper;
  f = SG_GraphToFunctionWithControlOutputs(b.g, "WithControl", 0, -1, NULL, 1, &b.x, 1, &b.add,
                                           NULL, 1, ctl, ctl_names, NULL, NULL, s);
  CHECK_CODE(s, SG_OK);
  if (f != NULL) {
    SG_FunctionToFunctionDef(f, def, s);
    CHECK_CODE(s, SG_OK);
    n = Field(entry, 1, "done");
    n += Field(entry + n, 2, "mul");
    CHECK(Contains(def, entry, n));
  }
  SG_DeleteFunction(f);
  SG_DeleteBuffer(def);
  SG_DeleteGraph(b.g);
  SG_DeleteStatus(s);
}

int main(void) {
  TestBuildCopyAndCall();
  TestRoundTripAndAttrs();
  TestGeneratedNamesAndHash();
  TestGradient();
  TestErrors();
  TestControlOutputs();
  if (failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("function_c_api_test: all checks passed\n");
  return 0;
}
