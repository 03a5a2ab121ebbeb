/* The messages a TensorFlow client reads from sg's libtensorflow.so.2 name TensorFlow's functions
 * and types (TF_X), never the SG_ ones sg's C API writes (c_api/dropin/tf_messages.cc). Each case
 * calls a TF_ function wrongly and compares the whole message with the one written here; names
 * that are not TensorFlow's (an operation the client named "SG_...") and messages the client sets
 * itself stay as they are. Exits 1 after printing every mismatch. */
#include <stdio.h>
#include <string.h>

#include "tensorflow/c/c_api.h"

static int failures = 0;

static void ExpectMessage(const char* what, TF_Status* s, TF_Code code, const char* message) {
  if (TF_GetCode(s) != code || strcmp(TF_Message(s), message) != 0) {
    fprintf(stderr, "%s: got code %d \"%s\", expected code %d \"%s\"\n", what, (int)TF_GetCode(s),
            TF_Message(s), (int)code, message);
    ++failures;
  } else {
    printf("%s: %s\n", what, TF_Message(s));
  }
}

int main(void) {
  TF_Status* s = TF_NewStatus();

  if (strcmp(TF_Message(NULL), "TF_Message: NULL status") != 0) {
    fprintf(stderr, "TF_Message(NULL): \"%s\"\n", TF_Message(NULL));
    ++failures;
  }

  TF_Buffer* kernels = TF_GetRegisteredKernelsForOp(NULL, s);
  ExpectMessage("TF_GetRegisteredKernelsForOp(NULL)", s, TF_INVALID_ARGUMENT,
                "TF_GetRegisteredKernelsForOp: name is NULL");
  if (kernels != NULL) TF_DeleteBuffer(kernels);

  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_SetConfig(options, NULL, 5, s);
  ExpectMessage("TF_SetConfig(NULL, 5)", s, TF_INVALID_ARGUMENT,
                "TF_SetConfig: proto is NULL but proto_len is 5");

  TF_SessionRun(NULL, NULL, NULL, NULL, 0, NULL, NULL, 0, NULL, 0, NULL, s);
  ExpectMessage("TF_SessionRun(NULL session)", s, TF_INVALID_ARGUMENT,
                "TF_SessionRun: session is NULL");

  int64_t value = 0;
  TF_OperationGetAttrInt(NULL, "N", &value, s);
  ExpectMessage("TF_OperationGetAttrInt(NULL)", s, TF_INVALID_ARGUMENT,
                "TF_OperationGetAttrInt: oper is NULL");

  /* An operation the client named with an SG_ prefix that is no TensorFlow name. */
  TF_Graph* graph = TF_NewGraph();
  TF_OperationDescription* desc = TF_NewOperation(graph, "Placeholder", "SG_NotATensorFlowName");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_Operation* op = TF_FinishOperation(desc, s);
  if (TF_GetCode(s) != TF_OK || op == NULL) {
    fprintf(stderr, "Placeholder: %s\n", TF_Message(s));
    return 1;
  }
  TF_OperationGetAttrInt(op, "nope", &value, s);
  ExpectMessage("TF_OperationGetAttrInt(no such attr)", s, TF_NOT_FOUND,
                "Operation 'SG_NotATensorFlowName' has no attr named 'nope'");
  /* A message naming a type, mid-sentence. */
  char byte = 1;
  TF_Buffer* full = TF_NewBufferFromString(&byte, 1);
  TF_OperationGetAttrValueProto(op, "dtype", full, s);
  ExpectMessage("TF_OperationGetAttrValueProto(non-empty buffer)", s, TF_INVALID_ARGUMENT,
                "Passing non-empty TF_Buffer is invalid (TF_OperationGetAttrValueProto)");
  TF_DeleteBuffer(full);

  /* The client's own message is its own. */
  TF_SetStatus(s, TF_INVALID_ARGUMENT, "SG_SessionRun, as the client wrote it");
  ExpectMessage("TF_SetStatus", s, TF_INVALID_ARGUMENT, "SG_SessionRun, as the client wrote it");

  TF_DeleteGraph(graph);
  TF_DeleteSessionOptions(options);
  TF_DeleteStatus(s);
  if (failures > 0) {
    fprintf(stderr, "tf_messages_client: %d failures\n", failures);
    return 1;
  }
  printf("tf_messages_client: passed\n");
  return 0;
}
