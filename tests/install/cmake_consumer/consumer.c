/* Built against an installed sg through find_package(sg) and sg::sg: builds z = x + y in code
 * with TensorFlow's names (sg/tf_c_api.h, installed beside c_api.h), runs it, checks z. */
#include <stdio.h>
#include <string.h>

#include "sg/tf_c_api.h"

static TF_Operation* ScalarConst(TF_Graph* g, const char* name, float v, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_Operation* op;
  memcpy(TF_TensorData(t), &v, sizeof v);
  TF_SetAttrTensor(d, "value", t, s);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  op = TF_FinishOperation(d, s);
  TF_DeleteTensor(t);
  return op;
}

int main(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Output x, y, z;
  TF_OperationDescription* d;
  TF_Session* sess;
  TF_Tensor* result = NULL;
  float got = 0;
  x.oper = ScalarConst(g, "x", 40.0f, s);
  y.oper = ScalarConst(g, "y", 2.0f, s);
  x.index = y.index = z.index = 0;
  d = TF_NewOperation(g, "Add", "z");
  TF_AddInput(d, x);
  TF_AddInput(d, y);
  z.oper = TF_FinishOperation(d, s);
  if (TF_GetCode(s) != TF_OK) return fprintf(stderr, "consumer: build: %s\n", TF_Message(s)), 1;
  sess = TF_NewSession(g, opts, s);
  if (TF_GetCode(s) != TF_OK) return fprintf(stderr, "consumer: session: %s\n", TF_Message(s)), 1;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &z, &result, 1, NULL, 0, NULL, s);
  if (TF_GetCode(s) != TF_OK) return fprintf(stderr, "consumer: run: %s\n", TF_Message(s)), 1;
  got = *(const float*)TF_TensorData(result);
  printf("consumer: sg %s (built against %s): 40 + 2 = %g\n", SG_Version(), SG_VERSION_STRING,
         got);
  TF_DeleteTensor(result);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(opts);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return got == 42.0f && strcmp(SG_Version(), SG_VERSION_STRING) == 0 ? 0 : 1;
}
