/* A TensorFlow C client of op libraries: TF_LoadLibrary on the plugin_add_one.c builds named on
 * the command line, TF_GetOpList, a graph using SgTestAddOne, its values and its kernel's error.
 * Every value is checked against a hand computation (a failed check exits 1); the printout is
 * what tf_plugin_test.sh compares with TensorFlow's library.
 *   tf_plugin_client GOOD.so DUPLICATE.so UNKNOWN_OP_KERNEL.so [--core]
 * --core: only what TensorFlow and sg do alike (not the two bad libraries).
 * Built with -DSG_NAMES against sg/tf_c_api.h (TF_ names as #defines of the SG_ ones), it is
 * tests/c_api's client of SG_LoadLibrary over libsg. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SG_NAMES
#include "sg/tf_c_api.h"
#else
#include "tensorflow/c/c_api.h"
#endif

static int failures = 0;
#define EXPECT(cond)                                                         \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                            \
    }                                                                        \
  } while (0)

/* A varint at *p (below end); 0 and p unchanged on a malformed one. */
static int ReadVarint(const unsigned char** p, const unsigned char* end, unsigned long long* v) {
  const unsigned char* q = *p;
  int shift = 0;
  *v = 0;
  while (q < end && shift < 64) {
    *v |= (unsigned long long)(*q & 0x7f) << shift;
    if ((*q++ & 0x80) == 0) {
      *p = q;
      return 1;
    }
    shift += 7;
  }
  return 0;
}

/* Prints the names of the ops of a serialized OpList (field 1: OpDef, whose field 1 is name) and
 * returns how many there are; -1 when malformed. */
static int PrintOpNames(const void* data, size_t len) {
  const unsigned char* p = (const unsigned char*)data;
  const unsigned char* end = p + len;
  int n = 0;
  while (p < end) {
    unsigned long long key, size;
    const unsigned char* op_end;
    if (!ReadVarint(&p, end, &key) || (key & 7) != 2 || !ReadVarint(&p, end, &size) ||
        size > (unsigned long long)(end - p)) {
      return -1;
    }
    op_end = p + size;
    if (key >> 3 == 1) {
      const unsigned char* q = p;
      while (q < op_end) {
        unsigned long long k2, v2;
        if (!ReadVarint(&q, op_end, &k2)) return -1;
        if ((k2 & 7) == 0) {
          if (!ReadVarint(&q, op_end, &v2)) return -1;
        } else if ((k2 & 7) == 2) {
          if (!ReadVarint(&q, op_end, &v2) || v2 > (unsigned long long)(op_end - q)) return -1;
          if (k2 >> 3 == 1) printf("op list: %.*s\n", (int)v2, (const char*)q);
          q += v2;
        } else {
          return -1;
        }
      }
      ++n;
    }
    p = op_end;
  }
  return n;
}

static TF_Operation* Placeholder(TF_Graph* g, const char* name, TF_DataType type, TF_Status* s) {
  int64_t dims[1] = {3};
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", type);
  TF_SetAttrShape(d, "shape", dims, 1);
  return TF_FinishOperation(d, s);
}

static TF_Operation* AddOne(TF_Graph* g, const char* name, TF_Operation* x, TF_DataType type,
                            TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "SgTestAddOne", name);
  TF_Output in = {x, 0};
  TF_AddInput(d, in);
  TF_SetAttrType(d, "T", type);
  return TF_FinishOperation(d, s);
}

/* Runs `out` fed with `x` = value (3 elements); returns the result or NULL (status in s). */
static TF_Tensor* Run(TF_Session* sess, TF_Operation* x, TF_Operation* out, TF_DataType type,
                      const void* value, TF_Status* s) {
  int64_t dims[1] = {3};
  TF_Tensor* in = TF_AllocateTensor(type, dims, 1, 12);
  TF_Tensor* result = NULL;
  TF_Output feed = {x, 0}, fetch = {out, 0};
  memcpy(TF_TensorData(in), value, 12);
  TF_SessionRun(sess, NULL, &feed, &in, 1, &fetch, &result, 1, NULL, 0, NULL, s);
  TF_DeleteTensor(in);
  return result;
}

int main(int argc, char** argv) {
  TF_Status* s = TF_NewStatus();
  TF_Library* lib;
  TF_Buffer ops;
  TF_Graph* g;
  TF_Operation *xi, *yi, *xf, *yf;
  TF_SessionOptions* so;
  TF_Session* sess;
  TF_Tensor* r;
  int core = argc > 4 && strcmp(argv[4], "--core") == 0;
  if (argc < 4) {
    fprintf(stderr, "usage: %s GOOD.so DUPLICATE.so UNKNOWN_OP_KERNEL.so [--core]\n", argv[0]);
    return 2;
  }

  /* A library that is not there. */
  lib = TF_LoadLibrary("/nonexistent/libsg_no_such_plugin.so", s);
  printf("missing library: code %d, names the file: %d\n", (int)TF_GetCode(s),
         strstr(TF_Message(s), "libsg_no_such_plugin.so") != NULL);
  EXPECT(lib == NULL && TF_GetCode(s) == TF_NOT_FOUND);

  /* The library, its op list, and loading it again. */
  lib = TF_LoadLibrary(argv[1], s);
  printf("load: code %d\n", (int)TF_GetCode(s));
  EXPECT(TF_GetCode(s) == TF_OK && lib != NULL);
  if (lib == NULL) {
    fprintf(stderr, "%s\n", TF_Message(s));
    return 1;
  }
  ops = TF_GetOpList(lib);
  EXPECT(PrintOpNames(ops.data, ops.length) == 1);
  TF_DeleteLibraryHandle(lib);
  lib = TF_LoadLibrary(argv[1], s);
  EXPECT(TF_GetCode(s) == TF_OK && lib != NULL);
  ops = TF_GetOpList(lib);
  printf("loaded again: code %d, ", (int)TF_GetCode(s));
  EXPECT(PrintOpNames(ops.data, ops.length) == 1);
  TF_DeleteLibraryHandle(lib);

  /* A graph using the op: shapes from its shape function, values from its kernels. */
  g = TF_NewGraph();
  xi = Placeholder(g, "xi", TF_INT32, s);
  yi = AddOne(g, "add_one_int", xi, TF_INT32, s);
  EXPECT(TF_GetCode(s) == TF_OK);
  xf = Placeholder(g, "xf", TF_FLOAT, s);
  yf = AddOne(g, "add_one_float", xf, TF_FLOAT, s);
  EXPECT(TF_GetCode(s) == TF_OK);
  {
    TF_Output o = {yf, 0};
    int64_t dim = -2;
    int n = TF_GraphGetTensorNumDims(g, o, s);
    TF_GraphGetTensorShape(g, o, &dim, 1, s);
    printf("add_one_float: %d dims, [%lld], type %d\n", n, (long long)dim,
           (int)TF_OperationOutputType(o));
    EXPECT(n == 1 && dim == 3 && TF_OperationOutputType(o) == TF_FLOAT);
  }
  /* An op whose T is not in {float, int32}. */
  {
    TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", "xd");
    TF_Output in;
    TF_SetAttrType(d, "dtype", TF_DOUBLE);
    in.oper = TF_FinishOperation(d, s);
    in.index = 0;
    d = TF_NewOperation(g, "SgTestAddOne", "add_one_double");
    TF_AddInput(d, in);
    TF_SetAttrType(d, "T", TF_DOUBLE);
    EXPECT(TF_FinishOperation(d, s) == NULL);
    printf("T=double: code %d\n", (int)TF_GetCode(s));
    EXPECT(TF_GetCode(s) == TF_INVALID_ARGUMENT);
  }

  so = TF_NewSessionOptions();
  sess = TF_NewSession(g, so, s);
  EXPECT(TF_GetCode(s) == TF_OK);
  {
    const int32_t in[3] = {1, 2, 40};
    r = Run(sess, xi, yi, TF_INT32, in, s);
    EXPECT(TF_GetCode(s) == TF_OK && r != NULL);
    if (r != NULL) {
      const int32_t* v = (const int32_t*)TF_TensorData(r);
      printf("add_one_int([1, 2, 40]) = [%d, %d, %d]\n", v[0], v[1], v[2]);
      EXPECT(v[0] == 2 && v[1] == 3 && v[2] == 41);
      TF_DeleteTensor(r);
    }
  }
  {
    const float in[3] = {0.5f, 2.25f, 0.0f};
    r = Run(sess, xf, yf, TF_FLOAT, in, s);
    EXPECT(TF_GetCode(s) == TF_OK && r != NULL);
    if (r != NULL) {
      const float* v = (const float*)TF_TensorData(r);
      printf("add_one_float([0.5, 2.25, 0]) = [%g, %g, %g]\n", v[0], v[1], v[2]);
      EXPECT(v[0] == 1.5f && v[1] == 3.25f && v[2] == 1.0f);
      TF_DeleteTensor(r);
    }
  }
  {
    const int32_t in[3] = {4, -3, 1};
    r = Run(sess, xi, yi, TF_INT32, in, s);
    printf("add_one_int([4, -3, 1]): code %d, names the node: %d, the value: %d\n",
           (int)TF_GetCode(s), strstr(TF_Message(s), "'add_one_int'") != NULL,
           strstr(TF_Message(s), "negative input -3") != NULL);
    EXPECT(r == NULL && TF_GetCode(s) == TF_INVALID_ARGUMENT);
    EXPECT(strstr(TF_Message(s), "SgTestAddOne node 'add_one_int': has a negative input -3"));
  }
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);

  if (!core) {
    /* A second library registering the same op; a kernel for an op nobody registers. */
    lib = TF_LoadLibrary(argv[2], s);
    printf("duplicate op: code %d (%s)\n", (int)TF_GetCode(s), TF_Message(s));
    EXPECT(lib == NULL && TF_GetCode(s) == TF_ALREADY_EXISTS &&
           strstr(TF_Message(s), "SgTestAddOne") != NULL);
    lib = TF_LoadLibrary(argv[3], s);
    printf("kernel of an unknown op: code %d (%s)\n", (int)TF_GetCode(s), TF_Message(s));
    EXPECT(lib == NULL && TF_GetCode(s) == TF_NOT_FOUND &&
           strstr(TF_Message(s), "SgTestNoSuchOp") != NULL);
  }
  TF_DeleteStatus(s);
  if (failures != 0) {
    fprintf(stderr, "tf_plugin_client: %d checks failed\n", failures);
    return 1;
  }
  printf("tf_plugin_client: all checks passed\n");
  return 0;
}
