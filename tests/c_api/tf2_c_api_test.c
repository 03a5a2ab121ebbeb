/* The small TensorFlow 2.x C API functions from plain C99: SG_TryEvaluateConstant,
 * SG_ImportGraphDefOptionsSetUniquifyNames / SetUniquifyPrefix, SG_GetAllRegisteredKernels /
 * SG_GetRegisteredKernelsForOp (the KernelList read back with a small protobuf reader written
 * here) and SG_TensorFlowVersion, then a TensorFlow 2.x style client written with TF_ names only
 * (sg/tf_c_api.h with SG_TF2_STRINGS): TF_TString tensors in and out of a session.
 * The expected import names are those TensorFlow 2.21's own TF_GraphImportGraphDefWithResults
 * gives for the same graphs and options (run through the wheel's libtensorflow_cc.so.2).
 * Usage: c_api_tf2_test */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SG_TF2_STRINGS
#include "sg/c_api.h"
#include "sg/tf_c_api.h"
#include "c_check.h"
#include "pb_reader.h"

/* ---- graph building ------------------------------------------------------------------------- */

static SG_Output Out(SG_Operation* op, int index) {
  SG_Output o;
  o.oper = op;
  o.index = index;
  return o;
}

static SG_Operation* ScalarConst(SG_Graph* g, const char* name, SG_DataType dtype,
                                 const void* value, size_t size, SG_Status* s) {
  SG_Tensor* t = SG_AllocateTensor(dtype, NULL, 0, size);
  SG_OperationDescription* d = SG_NewOperation(g, "Const", name);
  SG_Operation* op;
  memcpy(SG_TensorData(t), value, size);
  SG_SetAttrType(d, "dtype", dtype);
  SG_SetAttrTensor(d, "value", t, s);
  op = SG_FinishOperation(d, s);
  SG_DeleteTensor(t);
  return op;
}

static SG_Operation* FloatConst(SG_Graph* g, const char* name, float v, SG_Status* s) {
  return ScalarConst(g, name, SG_FLOAT, &v, sizeof(v), s);
}

static SG_Operation* Unary(SG_Graph* g, const char* type, const char* name, SG_Output in,
                           SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, type, name);
  SG_AddInput(d, in);
  return SG_FinishOperation(d, s);
}

static SG_Operation* Binary(SG_Graph* g, const char* type, const char* name, SG_Output a,
                            SG_Output b, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, type, name);
  SG_AddInput(d, a);
  SG_AddInput(d, b);
  return SG_FinishOperation(d, s);
}

/* ---- SG_TryEvaluateConstant ----------------------------------------------------------------- */

/* Evaluates `o`: returns the result (or NULL), checking the return value agrees with it. */
static SG_Tensor* Evaluate(SG_Graph* g, SG_Output o, SG_Status* s) {
  SG_Tensor* result = (SG_Tensor*)(uintptr_t)1; /* must be overwritten */
  unsigned char ok = SG_TryEvaluateConstant(g, o, &result, s);
  CHECK((ok != 0) == (result != NULL));
  return result;
}

static int NumOperations(SG_Graph* g) {
  size_t pos = 0;
  int n = 0;
  while (SG_GraphNextOperation(g, &pos) != NULL) ++n;
  return n;
}

static void TestTryEvaluateConstant(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Graph* other = SG_NewGraph();
  const int64_t x_dims[2] = {2, 3};
  SG_OperationDescription* d;
  SG_Operation *a, *b, *sum, *x, *x_plus, *shape, *size, *rank, *two, *doubled, *unknown,
      *unknown_shape, *var, *read, *nan_const, *checked, *other_op, *values, *unique;
  SG_Tensor* r;
  int ops_before;
  const float nan = (float)NAN;
  const int32_t two_i = 2;

  a = FloatConst(g, "a", 2.0f, s);
  b = FloatConst(g, "b", 3.0f, s);
  sum = Binary(g, "AddV2", "sum", Out(a, 0), Out(b, 0), s);
  d = SG_NewOperation(g, "Placeholder", "x");
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  SG_SetAttrShape(d, "shape", x_dims, 2);
  x = SG_FinishOperation(d, s);
  x_plus = Binary(g, "AddV2", "x_plus", Out(x, 0), Out(a, 0), s);
  shape = Unary(g, "Shape", "shape", Out(x, 0), s);
  size = Unary(g, "Size", "size", Out(x, 0), s);
  rank = Unary(g, "Rank", "rank", Out(x, 0), s);
  two = ScalarConst(g, "two", SG_INT32, &two_i, sizeof(two_i), s);
  doubled = Binary(g, "Mul", "doubled", Out(shape, 0), Out(two, 0), s);
  d = SG_NewOperation(g, "Placeholder", "unknown");
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  unknown = SG_FinishOperation(d, s);
  unknown_shape = Unary(g, "Shape", "unknown_shape", Out(unknown, 0), s);
  d = SG_NewOperation(g, "VariableV2", "var");
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  SG_SetAttrShape(d, "shape", NULL, 0);
  var = SG_FinishOperation(d, s);
  read = Unary(g, "Identity", "read", Out(var, 0), s);
  nan_const = FloatConst(g, "nan", nan, s);
  d = SG_NewOperation(g, "CheckNumerics", "checked");
  SG_AddInput(d, Out(nan_const, 0));
  SG_SetAttrString(d, "message", "not a number", 12);
  checked = SG_FinishOperation(d, s);
  {
    const int64_t dims[1] = {4};
    const int32_t v[4] = {7, 1, 7, 3};
    SG_Tensor* t = SG_AllocateTensor(SG_INT32, dims, 1, sizeof(v));
    memcpy(SG_TensorData(t), v, sizeof(v));
    d = SG_NewOperation(g, "Const", "values");
    SG_SetAttrType(d, "dtype", SG_INT32);
    SG_SetAttrTensor(d, "value", t, s);
    values = SG_FinishOperation(d, s);
    SG_DeleteTensor(t);
  }
  unique = Unary(g, "Unique", "unique", Out(values, 0), s);
  other_op = FloatConst(other, "a", 1.0f, s);
  CHECK_CODE(s, SG_OK);
  if (unique == NULL || other_op == NULL || checked == NULL) return;
  ops_before = NumOperations(g);

  /* Computed from constants. */
  r = Evaluate(g, Out(sum, 0), s);
  CHECK_CODE(s, SG_OK);
  CHECK(r != NULL && SG_TensorType(r) == SG_FLOAT && SG_NumDims(r) == 0 &&
        *(const float*)SG_TensorData(r) == 5.0f);
  SG_DeleteTensor(r);
  r = Evaluate(g, Out(a, 0), s); /* a Const itself */
  CHECK(r != NULL && *(const float*)SG_TensorData(r) == 2.0f);
  SG_DeleteTensor(r);
  /* A second output: Unique's indexes. */
  r = Evaluate(g, Out(unique, 1), s);
  CHECK_CODE(s, SG_OK);
  if (r != NULL) {
    const int32_t* idx = (const int32_t*)SG_TensorData(r);
    CHECK(SG_TensorType(r) == SG_INT32 && SG_TensorElementCount(r) == 4);
    CHECK(idx[0] == 0 && idx[1] == 1 && idx[2] == 0 && idx[3] == 2);
  }
  SG_DeleteTensor(r);

  /* Shapes known statically, even of a placeholder, and what is computed from them. */
  r = Evaluate(g, Out(shape, 0), s);
  CHECK_CODE(s, SG_OK);
  CHECK(r != NULL && SG_TensorType(r) == SG_INT32 && SG_TensorElementCount(r) == 2 &&
        ((const int32_t*)SG_TensorData(r))[0] == 2 && ((const int32_t*)SG_TensorData(r))[1] == 3);
  SG_DeleteTensor(r);
  r = Evaluate(g, Out(size, 0), s);
  CHECK(r != NULL && *(const int32_t*)SG_TensorData(r) == 6);
  SG_DeleteTensor(r);
  r = Evaluate(g, Out(rank, 0), s);
  CHECK(r != NULL && *(const int32_t*)SG_TensorData(r) == 2);
  SG_DeleteTensor(r);
  r = Evaluate(g, Out(doubled, 0), s);
  CHECK_CODE(s, SG_OK);
  CHECK(r != NULL && ((const int32_t*)SG_TensorData(r))[0] == 4 &&
        ((const int32_t*)SG_TensorData(r))[1] == 6);
  SG_DeleteTensor(r);

  /* Not constant: 0, no result, no error. */
  CHECK(Evaluate(g, Out(x_plus, 0), s) == NULL);
  CHECK_CODE(s, SG_OK);
  CHECK(Evaluate(g, Out(x, 0), s) == NULL);
  CHECK_CODE(s, SG_OK);
  CHECK(Evaluate(g, Out(unknown_shape, 0), s) == NULL);
  CHECK_CODE(s, SG_OK);
  CHECK(Evaluate(g, Out(read, 0), s) == NULL);
  CHECK_CODE(s, SG_OK);

  /* CheckNumerics is stateful (as in TensorFlow, to be checked on every run): not constant. */
  CHECK(Evaluate(g, Out(checked, 0), s) == NULL);
  CHECK_CODE(s, SG_OK);

  /* A kernel that fails on the constants: 0 and its error. */
  {
    const int32_t zero_i = 0;
    SG_Operation* zero = ScalarConst(g, "zero", SG_INT32, &zero_i, sizeof(zero_i), s);
    SG_Operation* div = Binary(g, "FloorDiv", "div", Out(two, 0), Out(zero, 0), s);
    CHECK_CODE(s, SG_OK);
    CHECK(Evaluate(g, Out(div, 0), s) == NULL);
    CHECK_CODE(s, SG_INVALID_ARGUMENT);
    CHECK_MESSAGE(s, "Integer division by zero");
    ops_before += 2;
  }

  /* Bad arguments. */
  CHECK(Evaluate(g, Out(sum, 1), s) == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(Evaluate(g, Out(sum, -1), s) == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(Evaluate(g, Out(NULL, 0), s) == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(Evaluate(g, Out(other_op, 0), s) == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(Evaluate(NULL, Out(sum, 0), s) == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_TryEvaluateConstant(g, Out(sum, 0), NULL, s) == 0);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);

  /* The graph is not changed. */
  CHECK(NumOperations(g) == ops_before);

  /* Strings come in the graph's layout. */
  {
    const char* word = "constant";
    size_t len = 8;
    SG_Tensor* t = SG_NewStringTensor(NULL, 0, &word, &len, 1, s);
    SG_Operation* c;
    SG_Operation* joined;
    SG_Output parts[2];
    d = SG_NewOperation(g, "Const", "word");
    SG_SetAttrType(d, "dtype", SG_STRING);
    SG_SetAttrTensor(d, "value", t, s);
    c = SG_FinishOperation(d, s);
    SG_DeleteTensor(t);
    parts[0] = Out(c, 0);
    parts[1] = Out(c, 0);
    d = SG_NewOperation(g, "StringJoin", "joined");
    SG_AddInputList(d, parts, 2);
    SG_SetAttrString(d, "separator", " ", 1);
    joined = SG_FinishOperation(d, s);
    CHECK_CODE(s, SG_OK);
    r = Evaluate(g, Out(joined, 0), s);
    CHECK(r != NULL && SG_TensorStringLayout(r) == SG_STRING_LAYOUT_ENCODED);
    SG_DeleteTensor(r);
    SG_GraphSetStringLayout(g, SG_STRING_LAYOUT_TSTRING, s);
    r = Evaluate(g, Out(joined, 0), s);
    CHECK(r != NULL && SG_TensorStringLayout(r) == SG_STRING_LAYOUT_TSTRING);
    if (r != NULL) {
      const SG_TString* e = (const SG_TString*)SG_TensorData(r);
      CHECK(SG_StringGetType(e) == SG_TSTR_SMALL && SG_StringGetSize(e) == 17 &&
            memcmp(SG_StringGetDataPointer(e), "constant constant", 17) == 0);
    }
    SG_DeleteTensor(r);
  }

  SG_DeleteGraph(other);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

/* ---- uniquified imports --------------------------------------------------------------------- */

/* A text GraphDef of float Consts (input "") and Identities (input their source). */
static SG_Buffer* GraphDef(const char* const* names, const char* const* inputs, int n) {
  static char text[4096];
  size_t used = 0;
  int i;
  text[0] = '\0';
  for (i = 0; i < n; ++i) {
    if (inputs[i][0] == '\0') {
      used += (size_t)sprintf(text + used,
                              "node { name: '%s' op: 'Const' "
                              "attr { key: 'dtype' value { type: DT_FLOAT } } "
                              "attr { key: 'value' value { tensor { dtype: DT_FLOAT "
                              "tensor_shape {} float_val: 1 } } } }\n",
                              names[i]);
    } else {
      used += (size_t)sprintf(text + used,
                              "node { name: '%s' op: 'Identity' input: '%s' "
                              "attr { key: 'T' value { type: DT_FLOAT } } }\n",
                              names[i], inputs[i]);
    }
  }
  return SG_NewBufferFromString(text, used);
}

/* Imports into `g`; returns the status code. */
static int Import(SG_Graph* g, const char* const* names, const char* const* inputs, int n,
                  const char* prefix, int uniquify_names, int uniquify_prefix,
                  const char* return_name, const char** returned) {
  SG_Status* s = SG_NewStatus();
  SG_Buffer* def = GraphDef(names, inputs, n);
  SG_ImportGraphDefOptions* opts = SG_NewImportGraphDefOptions();
  SG_ImportGraphDefResults* results;
  int code;
  if (prefix != NULL) SG_ImportGraphDefOptionsSetPrefix(opts, prefix);
  SG_ImportGraphDefOptionsSetUniquifyNames(opts, (unsigned char)uniquify_names);
  SG_ImportGraphDefOptionsSetUniquifyPrefix(opts, (unsigned char)uniquify_prefix);
  if (return_name != NULL) SG_ImportGraphDefOptionsAddReturnOutput(opts, return_name, 0);
  results = SG_GraphImportGraphDefWithResults(g, def, opts, s);
  code = (int)SG_GetCode(s);
  if (results != NULL && returned != NULL) {
    int num = 0;
    SG_Output* outs = NULL;
    SG_ImportGraphDefResultsReturnOutputs(results, &num, &outs);
    *returned = num == 1 ? SG_OperationName(outs[0].oper) : "";
  }
  SG_DeleteImportGraphDefResults(results);
  SG_DeleteImportGraphDefOptions(opts);
  SG_DeleteBuffer(def);
  SG_DeleteStatus(s);
  return code;
}

/* A graph holding float Consts "a" and "s/b" (so "s" is a scope), and `extra` if not NULL. */
static SG_Graph* Existing(const char* extra) {
  const char* names[3] = {"a", "s/b", NULL};
  const char* inputs[3] = {"", "", ""};
  SG_Graph* g = SG_NewGraph();
  names[2] = extra;
  CHECK(Import(g, names, inputs, extra != NULL ? 3 : 2, NULL, 0, 0, NULL, NULL) == SG_OK);
  return g;
}

/* Operation `name` exists and, when `input` is not NULL, reads operation `input`. */
static void CheckOp(SG_Graph* g, const char* name, const char* input, int line) {
  SG_Operation* op = SG_GraphOperationByName(g, name);
  if (op == NULL) {
    fprintf(stderr, "%s:%d: no operation '%s'\n", __FILE__, line, name);
    ++failures;
    return;
  }
  if (input != NULL) {
    SG_Input in;
    SG_Output src;
    in.oper = op;
    in.index = 0;
    src = SG_OperationInput(in);
    if (strcmp(SG_OperationName(src.oper), input) != 0) {
      fprintf(stderr, "%s:%d: '%s' reads '%s', wanted '%s'\n", __FILE__, line, name,
              SG_OperationName(src.oper), input);
      ++failures;
    }
  }
}
#define CHECK_OP(g, name, input) CheckOp((g), (name), (input), __LINE__)

static void TestUniquifyNames(void) {
  const char* ab_names[2] = {"a", "b"};
  const char* ab_inputs[2] = {"", "a"};
  const char* returned = NULL;
  SG_Graph* g;

  /* "a" is taken: the imported one is "a_1", and b reads it; return names are the GraphDef's. */
  g = Existing(NULL);
  CHECK(Import(g, ab_names, ab_inputs, 2, NULL, 1, 0, "a", &returned) == SG_OK);
  CHECK(returned != NULL && strcmp(returned, "a_1") == 0);
  CHECK_OP(g, "a_1", NULL);
  CHECK_OP(g, "b", "a_1");
  CHECK(NumOperations(g) == 4);
  /* Without uniquify_names the clash fails the import, which leaves the graph as it was. */
  CHECK(Import(g, ab_names, ab_inputs, 2, NULL, 0, 0, NULL, NULL) == SG_INVALID_ARGUMENT);
  CHECK(NumOperations(g) == 4);
  SG_DeleteGraph(g);

  /* "a_1" is the GraphDef's own, so the renamed "a" becomes "a_2". */
  {
    const char* names[3] = {"a", "a_1", "c"};
    const char* inputs[3] = {"", "", "a"};
    g = Existing(NULL);
    CHECK(Import(g, names, inputs, 3, NULL, 1, 0, "a", &returned) == SG_OK);
    CHECK(returned != NULL && strcmp(returned, "a_2") == 0);
    CHECK_OP(g, "a_2", NULL);
    CHECK_OP(g, "a_1", NULL);
    CHECK_OP(g, "c", "a_2");
    SG_DeleteGraph(g);
  }

  /* A name that is a scope of the graph ("s" of "s/b") is taken too. */
  {
    const char* names[1] = {"s"};
    const char* inputs[1] = {""};
    g = Existing(NULL);
    CHECK(Import(g, names, inputs, 1, NULL, 1, 0, NULL, NULL) == SG_OK);
    CHECK_OP(g, "s_1", NULL);
    CHECK(SG_GraphOperationByName(g, "s") == NULL);
    SG_DeleteGraph(g);
  }

  /* With a prefix: each prefixed name is uniquified ("s/b" is taken). */
  {
    const char* names[2] = {"b", "c"};
    const char* inputs[2] = {"", "b"};
    g = Existing(NULL);
    CHECK(Import(g, names, inputs, 2, "s", 1, 0, NULL, NULL) == SG_OK);
    CHECK_OP(g, "s/b_1", NULL);
    CHECK_OP(g, "s/c", "s/b_1");
    SG_DeleteGraph(g);
  }
}

static void TestUniquifyPrefix(void) {
  const char* ab_names[2] = {"a", "b"};
  const char* ab_inputs[2] = {"", "a"};
  const char* x_names[1] = {"x"};
  const char* x_inputs[1] = {""};
  SG_Graph* g;

  /* The scope "s" is taken: the prefix becomes "s_1". */
  g = Existing(NULL);
  CHECK(Import(g, ab_names, ab_inputs, 2, "s", 0, 1, NULL, NULL) == SG_OK);
  CHECK_OP(g, "s_1/a", NULL);
  CHECK_OP(g, "s_1/b", "s_1/a");
  SG_DeleteGraph(g);
  /* ... or "s_2" when "s_1" is a node; uniquify_names has nothing more to do. */
  g = Existing("s_1");
  CHECK(Import(g, ab_names, ab_inputs, 2, "s", 1, 1, NULL, NULL) == SG_OK);
  CHECK_OP(g, "s_2/a", NULL);
  CHECK_OP(g, "s_2/b", "s_2/a");
  SG_DeleteGraph(g);
  /* A prefix that is a node's name; a trailing '/' is the same prefix. */
  g = Existing(NULL);
  CHECK(Import(g, x_names, x_inputs, 1, "a", 0, 1, NULL, NULL) == SG_OK);
  CHECK_OP(g, "a_1/x", NULL);
  CHECK(Import(g, x_names, x_inputs, 1, "a/", 0, 1, NULL, NULL) == SG_OK);
  CHECK_OP(g, "a_2/x", NULL);
  /* A free prefix is kept. */
  CHECK(Import(g, x_names, x_inputs, 1, "p", 0, 1, NULL, NULL) == SG_OK);
  CHECK_OP(g, "p/x", NULL);
  SG_DeleteGraph(g);
}

/* ---- kernel lists --------------------------------------------------------------------------- */

/* One KernelDef, as read. */
typedef struct Kernel {
  char op[64], device[16], constraint[16], host_memory[64];
  int types[32], num_types, num_constraints, priority;
} Kernel;


/* The types of a ListValue (field 6, packed or one per field). */
static void ReadTypes(Reader list, Kernel* k) {
  int field, wire;
  uint64_t v;
  Reader sub;
  while (NextField(&list, &field, &wire, &v, &sub)) {
    if (field != 6) continue;
    if (wire == 2) {
      while (sub.p < sub.end && ReadVarint(&sub, &v) && k->num_types < 32) {
        k->types[k->num_types++] = (int)v;
      }
    } else if (k->num_types < 32) {
      k->types[k->num_types++] = (int)v;
    }
  }
}

/* KernelDef: op = 1, device_type = 2, constraint = 3 (AttrConstraint: name = 1,
 * allowed_values = 2, an AttrValue whose list = 1), host_memory_arg = 4, priority = 6. */
static void ReadKernel(Reader r, Kernel* k) {
  int field, wire;
  uint64_t v;
  Reader sub, c, attr;
  memset(k, 0, sizeof(*k));
  while (NextField(&r, &field, &wire, &v, &sub)) {
    if (field == 1) CopyString(sub, k->op, sizeof(k->op));
    if (field == 2) CopyString(sub, k->device, sizeof(k->device));
    if (field == 6) k->priority = (int)v;
    if (field == 4) { /* joined with ',' */
      size_t used = strlen(k->host_memory);
      if (used > 0 && used + 1 < sizeof(k->host_memory)) k->host_memory[used++] = ',';
      CopyString(sub, k->host_memory + used, sizeof(k->host_memory) - used);
    }
    if (field != 3) continue;
    ++k->num_constraints;
    c = sub;
    while (NextField(&c, &field, &wire, &v, &sub)) {
      if (field == 1) CopyString(sub, k->constraint, sizeof(k->constraint));
      if (field != 2) continue;
      attr = sub;
      while (NextField(&attr, &field, &wire, &v, &sub)) {
        if (field == 1 && wire == 2) ReadTypes(sub, k);
      }
    }
  }
}

/* Reads the kernels of a KernelList buffer into `out` (at most `max`); returns how many. */
static int ReadKernelList(const SG_Buffer* buf, Kernel* out, int max) {
  Reader r, sub;
  int field, wire, n = 0;
  uint64_t v;
  if (buf == NULL) return -1;
  r.p = (const unsigned char*)buf->data;
  r.end = r.p + buf->length;
  while (NextField(&r, &field, &wire, &v, &sub)) {
    if (field != 1 || wire != 2) continue;
    if (n < max) ReadKernel(sub, &out[n]);
    ++n;
  }
  return n;
}

static void TestKernelLists(void) {
  SG_Status* s = SG_NewStatus();
  static Kernel kernels[4096];
  SG_Buffer* buf;
  int n, i, saw_matmul = 0, sorted = 1, has_float;

  /* StringJoin: one CPU kernel without constraints (TensorFlow's list says the same). */
  buf = SG_GetRegisteredKernelsForOp("StringJoin", s);
  CHECK_CODE(s, SG_OK);
  n = ReadKernelList(buf, kernels, 4096);
  CHECK(n == 1);
  CHECK(strcmp(kernels[0].op, "StringJoin") == 0 && strcmp(kernels[0].device, "CPU") == 0 &&
        kernels[0].num_constraints == 0 && kernels[0].priority == 0 &&
        kernels[0].host_memory[0] == '\0');
  SG_DeleteBuffer(buf);

  /* FusedBatchNorm: float only. MaxPoolV2: its window args in host memory, a type list. */
  buf = SG_GetRegisteredKernelsForOp("FusedBatchNorm", s);
  n = ReadKernelList(buf, kernels, 4096);
  CHECK(n == 1 && strcmp(kernels[0].constraint, "T") == 0 && kernels[0].num_types == 1 &&
        kernels[0].types[0] == SG_FLOAT);
  SG_DeleteBuffer(buf);
  buf = SG_GetRegisteredKernelsForOp("MaxPoolV2", s);
  n = ReadKernelList(buf, kernels, 4096);
  CHECK(n == 1 && strcmp(kernels[0].host_memory, "ksize,strides") == 0);
  has_float = 0;
  for (i = 0; n == 1 && i < kernels[0].num_types; ++i) has_float |= kernels[0].types[i] == SG_FLOAT;
  CHECK(has_float && kernels[0].num_types > 1);
  SG_DeleteBuffer(buf);

  /* An op without kernels, or no op: an empty list. */
  buf = SG_GetRegisteredKernelsForOp("NoSuchOp", s);
  CHECK_CODE(s, SG_OK);
  CHECK(buf != NULL && buf->length == 0);
  SG_DeleteBuffer(buf);
  buf = SG_GetRegisteredKernelsForOp("", s);
  CHECK(buf != NULL && buf->length == 0);
  SG_DeleteBuffer(buf);
  CHECK(SG_GetRegisteredKernelsForOp(NULL, s) == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);

  /* Everything: hundreds of kernels, by op name. */
  buf = SG_GetAllRegisteredKernels(s);
  CHECK_CODE(s, SG_OK);
  n = ReadKernelList(buf, kernels, 4096);
  CHECK(n > 300 && n <= 4096);
  for (i = 0; i < n && i < 4096; ++i) {
    saw_matmul |= strcmp(kernels[i].op, "MatMul") == 0;
    if (i > 0 && strcmp(kernels[i - 1].op, kernels[i].op) > 0) sorted = 0;
    if (strcmp(kernels[i].device, "CPU") != 0) sorted = 0;
  }
  CHECK(saw_matmul && sorted);
  SG_DeleteBuffer(buf);
  SG_DeleteStatus(s);
}

/* ---- versions ------------------------------------------------------------------------------- */

static void TestVersions(void) {
  CHECK(strcmp(SG_TensorFlowVersion(), "2.21.0") == 0);
  CHECK(strcmp(SG_TensorFlowVersion(), SG_TENSORFLOW_VERSION_STRING) == 0);
  CHECK(strcmp(TF_Version(), "2.21.0") == 0);
  CHECK(strcmp(SG_Version(), SG_VERSION_STRING) == 0);
}

/* ---- a TensorFlow 2.x client, TF_ names only ------------------------------------------------ */

static void TestTensorFlow2Client(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", "in");
  TF_Operation* in;
  TF_Operation* out;
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* sess;
  const int64_t dims[1] = {2};
  TF_Tensor* feed = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  TF_Tensor* result = NULL;
  TF_TString* strings = (TF_TString*)TF_TensorData(feed);
  TF_Output input, output;
  const char* big = "TF_TString holds this one out of line";
  TF_SetAttrType(d, "dtype", TF_STRING);
  in = TF_FinishOperation(d, s);
  d = TF_NewOperation(g, "Identity", "out");
  input.oper = in;
  input.index = 0;
  TF_AddInput(d, input);
  out = TF_FinishOperation(d, s);
  CHECK(TF_GetCode(s) == TF_OK);
  TF_StringInit(&strings[0]);
  TF_StringInit(&strings[1]);
  TF_StringCopy(&strings[0], "small", 5);
  TF_StringCopy(&strings[1], big, strlen(big));
  CHECK(TF_StringGetType(&strings[1]) == TF_TSTR_LARGE);
  sess = TF_NewSession(g, opts, s);
  output.oper = out;
  output.index = 0;
  TF_SessionRun(sess, NULL, &input, &feed, 1, &output, &result, 1, NULL, 0, NULL, s);
  CHECK(TF_GetCode(s) == TF_OK);
  if (result != NULL) {
    const TF_TString* got = (const TF_TString*)TF_TensorData(result);
    CHECK(TF_TensorType(result) == TF_STRING && TF_TensorElementCount(result) == 2);
    CHECK(TF_TensorByteSize(result) == 2 * sizeof(TF_TString));
    CHECK(TF_StringGetSize(&got[0]) == 5 &&
          memcmp(TF_StringGetDataPointer(&got[0]), "small", 5) == 0);
    CHECK(TF_StringGetType(&got[1]) == TF_TSTR_LARGE && TF_StringGetSize(&got[1]) == strlen(big) &&
          memcmp(TF_StringGetDataPointer(&got[1]), big, strlen(big)) == 0);
    CHECK(TF_TensorMaybeMove(result) == result);
  }
  TF_DeleteTensor(result);
  TF_DeleteTensor(feed);
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(opts);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

int main(void) {
  TestTryEvaluateConstant();
  TestUniquifyNames();
  TestUniquifyPrefix();
  TestKernelLists();
  TestVersions();
  TestTensorFlow2Client();
  if (failures > 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("tf2_c_api_test: all checks passed\n");
  return 0;
}
