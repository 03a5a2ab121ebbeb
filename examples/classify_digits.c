/* classify_digits: run the digits classifier on its held-out set through the C API, in batches,
 * and print the accuracy and the median latency of one batch.
 *
 *   classify_digits digits_mlp.pb digits_test_x.npy digits_test_y.npy [BATCH]
 *
 * The .npy files are NumPy v1.0, C order: x float32 [N, 64], y int32 [N]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sg/c_api.h"

static void Die(const char* what, const char* why) {
  fprintf(stderr, "classify_digits: %s: %s\n", what, why);
  exit(1);
}

static char* ReadFile(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  char* data;
  if (f == NULL) Die(path, "cannot open");
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  rewind(f);
  data = malloc(*len ? *len : 1);
  if (fread(data, 1, *len, f) != *len) Die(path, "cannot read");
  fclose(f);
  return data;
}

/* Returns the data of a v1.0 .npy with dtype `descr`; fills its first dim (the sample count). */
static char* ReadNpy(const char* path, const char* descr, size_t elem, long* rows, long* cols) {
  size_t len, header;
  char* raw = ReadFile(path, &len);
  char* shape;
  char* data;
  if (len < 10 || memcmp(raw, "\x93NUMPY\x01", 7) != 0) Die(path, "not a .npy v1.0 file");
  header = (size_t)(unsigned char)raw[8] | (size_t)(unsigned char)raw[9] << 8;
  if (10 + header > len || strstr(raw + 10, descr) == NULL) Die(path, "unexpected dtype");
  shape = strstr(raw + 10, "'shape': (");
  if (shape == NULL) Die(path, "no shape");
  *rows = strtol(shape + 10, &shape, 10);
  *cols = *shape == ',' && shape[1] == ' ' && shape[2] != ')' ? strtol(shape + 2, NULL, 10) : 1;
  if ((size_t)(*rows * *cols) * elem != len - 10 - header) Die(path, "size does not match shape");
  data = malloc(len - 10 - header);
  memcpy(data, raw + 10 + header, len - 10 - header);
  free(raw);
  return data;
}

static int CompareDoubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess;
  SG_Buffer* def;
  SG_Output in, out;
  size_t len;
  char* bytes;
  float* x;
  int* y;
  long n, features, ny, one, batch, start;
  int correct = 0, nbatches = 0;
  double* micros;
  if (argc < 4) {
    fprintf(stderr, "usage: classify_digits GRAPH.pb X.npy Y.npy [BATCH]\n");
    return 2;
  }
  batch = argc > 4 ? atol(argv[4]) : 32;
  if (batch < 1) Die("BATCH", "must be >= 1");

  bytes = ReadFile(argv[1], &len);
  def = SG_NewBufferFromString(bytes, len);
  free(bytes);
  SG_GraphImportGraphDef(g, def, NULL, s);
  SG_DeleteBuffer(def);
  if (SG_GetCode(s) != SG_OK) Die(argv[1], SG_Message(s));
  x = (float*)ReadNpy(argv[2], "'<f4'", sizeof(float), &n, &features);
  y = (int*)ReadNpy(argv[3], "'<i4'", sizeof(int), &ny, &one);
  if (ny != n) Die(argv[3], "label count differs from the sample count");

  in.oper = SG_GraphOperationByName(g, "input");
  out.oper = SG_GraphOperationByName(g, "probs");
  in.index = out.index = 0;
  if (in.oper == NULL || out.oper == NULL) Die(argv[1], "no 'input' or 'probs' operation");
  sess = SG_NewSession(g, opts, s);
  if (SG_GetCode(s) != SG_OK) Die("session", SG_Message(s));

  micros = malloc(sizeof(double) * (n / batch + 1));
  for (start = 0; start < n; start += batch) {
    long rows = n - start < batch ? n - start : batch, r;
    int64_t dims[2];
    SG_Tensor *t, *probs = NULL;
    struct timespec t0, t1;
    dims[0] = rows;
    dims[1] = features;
    t = SG_AllocateTensor(SG_FLOAT, dims, 2, rows * features * sizeof(float));
    memcpy(SG_TensorData(t), x + start * features, rows * features * sizeof(float));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    SG_SessionRun(sess, NULL, &in, &t, 1, &out, &probs, 1, NULL, 0, NULL, s);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (SG_GetCode(s) != SG_OK) Die("run", SG_Message(s));
    if (rows == batch) {
      micros[nbatches++] = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
    }
    for (r = 0; r < rows; ++r) {
      const float* p = (const float*)SG_TensorData(probs) + r * SG_Dim(probs, 1);
      int best = 0, k;
      for (k = 1; k < SG_Dim(probs, 1); ++k) {
        if (p[k] > p[best]) best = k;
      }
      correct += best == y[start + r];
    }
    SG_DeleteTensor(probs);
    SG_DeleteTensor(t);
  }
  printf("accuracy: %d/%ld = %.5f\n", correct, n, (double)correct / n);
  if (nbatches > 0) {
    qsort(micros, nbatches, sizeof(double), CompareDoubles);
    printf("median latency per batch of %ld: %.1f us (%d batches)\n", batch, micros[nbatches / 2],
           nbatches);
  }

  free(micros);
  free(x);
  free(y);
  SG_CloseSession(sess, s);
  SG_DeleteSession(sess, s);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
  return 0;
}
