/* hello: load a GraphDef, feed one float tensor, fetch one tensor, print it.
 *
 *   hello GRAPH.pb INPUT OUTPUT [VALUE...]
 *   hello tests/testdata/digits_mlp.pb input probs      (feeds ones of the input's shape)
 *
 * Build: cc hello.c -o hello $(pkg-config --cflags --libs sg) */
#include <stdio.h>
#include <stdlib.h>

#include "sg/c_api.h"

static int Check(SG_Status* s, const char* what) {
  if (SG_GetCode(s) == SG_OK) return 0;
  fprintf(stderr, "hello: %s: %s\n", what, SG_Message(s));
  exit(1);
}

int main(int argc, char** argv) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Buffer* def;
  SG_Session* sess;
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Output in, out;
  SG_Tensor *x, *y = NULL;
  int64_t dims[8];
  int i, rank;
  int64_t n = 1;
  long size;
  char* bytes;
  FILE* f;
  if (argc < 4) {
    fprintf(stderr, "usage: hello GRAPH.pb INPUT OUTPUT [VALUE...]\n");
    return 2;
  }

  /* 1. Read the file and import it: binary .pb or text .pbtxt. */
  f = fopen(argv[1], "rb");
  if (f == NULL) return perror(argv[1]), 1;
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  rewind(f);
  bytes = malloc(size);
  if (fread(bytes, 1, size, f) != (size_t)size) return perror(argv[1]), 1;
  fclose(f);
  def = SG_NewBufferFromString(bytes, size);
  free(bytes);
  SG_GraphImportGraphDef(g, def, NULL, s);
  SG_DeleteBuffer(def);
  Check(s, "import");

  /* 2. Find the input and output operations. */
  in.oper = SG_GraphOperationByName(g, argv[2]);
  out.oper = SG_GraphOperationByName(g, argv[3]);
  in.index = out.index = 0;
  if (in.oper == NULL || out.oper == NULL) {
    fprintf(stderr, "hello: no operation '%s' or '%s'\n", argv[2], argv[3]);
    return 1;
  }

  /* 3. Make the input: the values given, as [1, n], or ones of the graph's shape (? -> 1). */
  if (argc > 4) {
    rank = 2;
    dims[0] = 1;
    dims[1] = argc - 4;
  } else {
    rank = SG_GraphGetTensorNumDims(g, in, s);
    Check(s, "input rank");
    if (rank < 0 || rank > 8) rank = 0;
    SG_GraphGetTensorShape(g, in, dims, rank, s);
    Check(s, "input shape");
  }
  for (i = 0; i < rank; ++i) {
    if (dims[i] < 0) dims[i] = 1;
    n *= dims[i];
  }
  x = SG_AllocateTensor(SG_FLOAT, dims, rank, n * sizeof(float));
  for (i = 0; i < n; ++i) ((float*)SG_TensorData(x))[i] = argc > 4 ? (float)atof(argv[4 + i]) : 1.0f;

  /* 4. Run: feed the input, fetch the output. */
  sess = SG_NewSession(g, opts, s);
  Check(s, "session");
  SG_SessionRun(sess, NULL, &in, &x, 1, &out, &y, 1, NULL, 0, NULL, s);
  Check(s, "run");

  /* 5. Print. */
  printf("%s:", argv[3]);
  for (i = 0; i < SG_TensorElementCount(y); ++i) printf(" %g", ((float*)SG_TensorData(y))[i]);
  printf("\n");

  SG_DeleteTensor(y);
  SG_DeleteTensor(x);
  SG_CloseSession(sess, s);
  SG_DeleteSession(sess, s);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
  return 0;
}
