/* train_digits: build the digits classifier (64 -> 64 ReLU -> 10), add its gradients with
 * SG_AddGradients, train it with Adam on the training split, and print its held-out accuracy;
 * everything through the C API, as a TensorFlow C API program would (TF_AddGradients).
 *
 *   train_digits DATA_DIR [CHECKPOINT_PREFIX]
 *
 * DATA_DIR holds tests/testdata's digits files (NumPy v1.0 .npy, C order): digits_train_x.npy
 * (float32 [N, 64]) and digits_train_y.npy (int32 [N]), the held-out digits_test_x.npy and
 * digits_test_y.npy, and what TensorFlow's own training of this model started from and fed:
 * digits_train_init.npy (float32 [4810]: hidden/w, hidden/b, out/w, out/b end to end) and
 * digits_train_batches.npy (int32 [600, 64]: the rows each step takes). With a checkpoint
 * prefix it also saves the trained variables there (SaveV2, TensorFlow's V2 checkpoint format;
 * keys hidden/w, hidden/b, out/w, out/b, as tests/testdata/digits_mlp.pb's variables).
 * Hyperparameters are those TensorFlow trained digits_mlp.pb with: Adam (learning rate 0.005,
 * beta1 0.9, beta2 0.999, epsilon 1e-8), 600 steps of 64 samples. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sg/c_api.h"

#define HIDDEN 64
#define CLASSES 10
#define STEPS 600
#define BATCH 64

static SG_Status* status;

static void Check(const char* what) {
  if (SG_GetCode(status) != SG_OK) {
    fprintf(stderr, "train_digits: %s: %s\n", what, SG_Message(status));
    exit(1);
  }
}

static void Die(const char* what, const char* why) {
  fprintf(stderr, "train_digits: %s: %s\n", what, why);
  exit(1);
}

/* Returns the data of a v1.0 .npy with dtype `descr`; fills its dims (cols is 1 for a vector). */
static void* ReadNpy(const char* path, const char* descr, size_t elem, long* rows, long* cols) {
  FILE* f = fopen(path, "rb");
  char head[10];
  char* header;
  char* shape;
  void* data;
  size_t hlen;
  if (f == NULL) Die(path, "cannot open");
  if (fread(head, 1, 10, f) != 10 || memcmp(head, "\x93NUMPY\x01", 7) != 0) {
    Die(path, "not a .npy v1.0 file");
  }
  hlen = (size_t)(unsigned char)head[8] | (size_t)(unsigned char)head[9] << 8;
  header = calloc(hlen + 1, 1);
  if (fread(header, 1, hlen, f) != hlen || strstr(header, descr) == NULL) {
    Die(path, "unexpected dtype");
  }
  shape = strstr(header, "'shape': (");
  if (shape == NULL) Die(path, "no shape");
  *rows = strtol(shape + 10, &shape, 10);
  *cols = *shape == ',' && shape[1] == ' ' && shape[2] != ')' ? strtol(shape + 2, NULL, 10) : 1;
  free(header);
  data = malloc((size_t)(*rows * *cols) * elem + 1);
  if (fread(data, elem, (size_t)(*rows * *cols), f) != (size_t)(*rows * *cols)) {
    Die(path, "size does not match shape");
  }
  fclose(f);
  return data;
}

/* ---- building the graph ---------------------------------------------------------------- */

static SG_Output Out(SG_Operation* op) {
  SG_Output o;
  o.oper = op;
  o.index = 0;
  return o;
}

static SG_Output Placeholder(SG_Graph* g, const char* name, SG_DataType dtype) {
  SG_OperationDescription* d = SG_NewOperation(g, "Placeholder", name);
  SG_SetAttrType(d, "dtype", dtype);
  return Out(SG_FinishOperation(d, status));
}

static SG_Output Const(SG_Graph* g, const char* name, SG_DataType dtype, const int64_t* dims,
                       int rank, const void* data, size_t bytes) {
  SG_Tensor* t = SG_AllocateTensor(dtype, dims, rank, bytes);
  SG_OperationDescription* d = SG_NewOperation(g, "Const", name);
  SG_Output o;
  memcpy(SG_TensorData(t), data, bytes);
  SG_SetAttrTensor(d, "value", t, status);
  SG_SetAttrType(d, "dtype", dtype);
  o = Out(SG_FinishOperation(d, status));
  SG_DeleteTensor(t);
  Check(name);
  return o;
}

static SG_Output Scalar(SG_Graph* g, const char* name, float v) {
  return Const(g, name, SG_FLOAT, NULL, 0, &v, sizeof v);
}

static SG_Output Op1(SG_Graph* g, const char* type, const char* name, SG_Output a) {
  SG_OperationDescription* d = SG_NewOperation(g, type, name);
  SG_AddInput(d, a);
  return Out(SG_FinishOperation(d, status));
}

static SG_Output Op2(SG_Graph* g, const char* type, const char* name, SG_Output a, SG_Output b) {
  SG_OperationDescription* d = SG_NewOperation(g, type, name);
  SG_AddInput(d, a);
  SG_AddInput(d, b);
  return Out(SG_FinishOperation(d, status));
}

/* A variable (VariableV2) of `shape`, its initializer (Assign of `init`) and its value (an
 * Identity named NAME/read, which the gradients are taken with respect to). */
typedef struct {
  SG_Output var, read;
  SG_Operation* assign;
} Variable;

static Variable NewVariable(SG_Graph* g, const char* name, const int64_t* dims, int rank,
                            const float* init) {
  Variable v;
  char buf[64];
  SG_OperationDescription* d = SG_NewOperation(g, "VariableV2", name);
  size_t n = 1;
  int i;
  for (i = 0; i < rank; ++i) n *= (size_t)dims[i];
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  SG_SetAttrShape(d, "shape", dims, rank);
  v.var = Out(SG_FinishOperation(d, status));
  Check(name);
  snprintf(buf, sizeof buf, "%s/initial_value", name);
  {
    SG_Output value = Const(g, buf, SG_FLOAT, dims, rank, init, n * sizeof(float));
    snprintf(buf, sizeof buf, "%s/Assign", name);
    v.assign = Op2(g, "Assign", buf, v.var, value).oper;
  }
  snprintf(buf, sizeof buf, "%s/read", name);
  v.read = Op1(g, "Identity", buf, v.var);
  Check(name);
  return v;
}

int main(int argc, char** argv) {
  SG_Graph* g;
  SG_Session* sess;
  SG_SessionOptions* opts;
  float *xtr, *xte, *init_values;
  int32_t *ytr, *yte, *batches;
  long ntr, nte, features, rows, one, i, step;
  int64_t w1_dims[2] = {64, HIDDEN}, b1_dims[1] = {HIDDEN}, w2_dims[2] = {HIDDEN, CLASSES},
          b2_dims[1] = {CLASSES};
  static float zeros[64 * HIDDEN];
  char path[4096];
  Variable vars[4], m[4], v[4];
  const char* names[4] = {"hidden/w", "hidden/b", "out/w", "out/b"};
  const int64_t* dims[4] = {w1_dims, b1_dims, w2_dims, b2_dims};
  const int ranks[4] = {2, 1, 2, 1};
  SG_Output x, labels, beta1_power, beta2_power, h, logits, xent, loss, axis;
  SG_Output lr, beta1, beta2, epsilon;
  SG_Output reads[4], grads[4];
  SG_Operation *apply[4], *init_ops[12];
  int correct = 0;
  int32_t zero_axis = 0;

  if (argc < 2) {
    fprintf(stderr, "usage: train_digits DATA_DIR [CHECKPOINT_PREFIX]\n");
    return 2;
  }
#define DATA(name) (snprintf(path, sizeof path, "%s/%s", argv[1], name), path)
  xtr = ReadNpy(DATA("digits_train_x.npy"), "'<f4'", sizeof(float), &ntr, &features);
  if (features != 64) Die(path, "expected 64 features");
  ytr = ReadNpy(DATA("digits_train_y.npy"), "'<i4'", sizeof(int32_t), &rows, &one);
  if (rows != ntr) Die(path, "label count differs from the sample count");
  xte = ReadNpy(DATA("digits_test_x.npy"), "'<f4'", sizeof(float), &nte, &features);
  if (features != 64) Die(path, "expected 64 features");
  yte = ReadNpy(DATA("digits_test_y.npy"), "'<i4'", sizeof(int32_t), &rows, &one);
  if (rows != nte) Die(path, "label count differs from the sample count");
  init_values = ReadNpy(DATA("digits_train_init.npy"), "'<f4'", sizeof(float), &rows, &one);
  if (rows != 64 * HIDDEN + HIDDEN + HIDDEN * CLASSES + CLASSES) Die(path, "unexpected size");
  batches = ReadNpy(DATA("digits_train_batches.npy"), "'<i4'", sizeof(int32_t), &rows, &one);
  if (rows != STEPS || one != BATCH) Die(path, "expected [600, 64]");
  for (i = 0; i < STEPS * BATCH; ++i) {
    if (batches[i] < 0 || batches[i] >= ntr) Die(path, "a row outside the training split");
  }
#undef DATA

  status = SG_NewStatus();
  g = SG_NewGraph();
  x = Placeholder(g, "input", SG_FLOAT);
  labels = Placeholder(g, "labels", SG_INT32);
  beta1_power = Placeholder(g, "beta1_power", SG_FLOAT);
  beta2_power = Placeholder(g, "beta2_power", SG_FLOAT);
  Check("placeholders");

  /* TensorFlow's initial values (He initialization, zero biases), end to end in the file. */
  {
    const float* init[4] = {init_values, init_values + 64 * HIDDEN,
                            init_values + 64 * HIDDEN + HIDDEN,
                            init_values + 64 * HIDDEN + HIDDEN + HIDDEN * CLASSES};
    for (i = 0; i < 4; ++i) {
      char buf[64];
      vars[i] = NewVariable(g, names[i], dims[i], ranks[i], init[i]);
      snprintf(buf, sizeof buf, "%s/Adam", names[i]);
      m[i] = NewVariable(g, buf, dims[i], ranks[i], zeros);
      snprintf(buf, sizeof buf, "%s/Adam_1", names[i]);
      v[i] = NewVariable(g, buf, dims[i], ranks[i], zeros);
      reads[i] = vars[i].read;
      init_ops[3 * i] = vars[i].assign;
      init_ops[3 * i + 1] = m[i].assign;
      init_ops[3 * i + 2] = v[i].assign;
    }
  }

  h = Op2(g, "MatMul", "hidden/MatMul", x, reads[0]);
  h = Op2(g, "BiasAdd", "hidden/BiasAdd", h, reads[1]);
  h = Op1(g, "Relu", "hidden/Relu", h);
  logits = Op2(g, "MatMul", "out/MatMul", h, reads[2]);
  logits = Op2(g, "BiasAdd", "logits", logits, reads[3]);
  xent = Op2(g, "SparseSoftmaxCrossEntropyWithLogits", "xent", logits, labels);
  axis = Const(g, "axis", SG_INT32, NULL, 0, &zero_axis, sizeof zero_axis);
  loss = Op2(g, "Mean", "loss", xent, axis);
  Check("the model");

  /* d loss / d variables, TensorFlow's gradient graph built by sg (TF_AddGradients). */
  SG_AddGradients(g, &loss, 1, reads, 4, NULL, status, grads);
  Check("SG_AddGradients");

  lr = Scalar(g, "learning_rate", 0.005f);
  beta1 = Scalar(g, "beta1", 0.9f);
  beta2 = Scalar(g, "beta2", 0.999f);
  epsilon = Scalar(g, "epsilon", 1e-8f);
  for (i = 0; i < 4; ++i) {
    char buf[64];
    SG_OperationDescription* d;
    snprintf(buf, sizeof buf, "%s/ApplyAdam", names[i]);
    d = SG_NewOperation(g, "ApplyAdam", buf);
    SG_AddInput(d, vars[i].var);
    SG_AddInput(d, m[i].var);
    SG_AddInput(d, v[i].var);
    SG_AddInput(d, beta1_power);
    SG_AddInput(d, beta2_power);
    SG_AddInput(d, lr);
    SG_AddInput(d, beta1);
    SG_AddInput(d, beta2);
    SG_AddInput(d, epsilon);
    SG_AddInput(d, grads[i]);
    apply[i] = SG_FinishOperation(d, status);
    Check(buf);
  }

  opts = SG_NewSessionOptions();
  sess = SG_NewSession(g, opts, status);
  Check("session");
  SG_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, (const SG_Operation* const*)init_ops,
                12, NULL, status);
  Check("initializing the variables");

  for (step = 1; step <= STEPS; ++step) {
    int64_t xdims[2] = {BATCH, 64}, ydims[1] = {BATCH};
    SG_Tensor* in[4];
    SG_Output feeds[4];
    SG_Tensor* loss_value = NULL;
    float* bx;
    int32_t* by;
    float p1 = (float)pow(0.9, (double)step), p2 = (float)pow(0.999, (double)step);
    in[0] = SG_AllocateTensor(SG_FLOAT, xdims, 2, BATCH * 64 * sizeof(float));
    in[1] = SG_AllocateTensor(SG_INT32, ydims, 1, BATCH * sizeof(int32_t));
    in[2] = SG_AllocateTensor(SG_FLOAT, NULL, 0, sizeof(float));
    in[3] = SG_AllocateTensor(SG_FLOAT, NULL, 0, sizeof(float));
    bx = SG_TensorData(in[0]);
    by = SG_TensorData(in[1]);
    for (i = 0; i < BATCH; ++i) {
      long row = batches[(step - 1) * BATCH + i];
      memcpy(bx + i * 64, xtr + row * 64, 64 * sizeof(float));
      by[i] = ytr[row];
    }
    memcpy(SG_TensorData(in[2]), &p1, sizeof p1);
    memcpy(SG_TensorData(in[3]), &p2, sizeof p2);
    feeds[0] = x;
    feeds[1] = labels;
    feeds[2] = beta1_power;
    feeds[3] = beta2_power;
    SG_SessionRun(sess, NULL, feeds, in, 4, &loss, &loss_value, 1,
                  (const SG_Operation* const*)apply, 4, NULL, status);
    Check("a training step");
    if (step % 100 == 0 || step == 1) {
      printf("step %ld loss %.4f\n", step, *(float*)SG_TensorData(loss_value));
    }
    SG_DeleteTensor(loss_value);
    for (i = 0; i < 4; ++i) SG_DeleteTensor(in[i]);
  }

  {
    int64_t xdims[2];
    SG_Tensor* in;
    SG_Tensor* out = NULL;
    xdims[0] = nte;
    xdims[1] = 64;
    in = SG_AllocateTensor(SG_FLOAT, xdims, 2, (size_t)nte * 64 * sizeof(float));
    memcpy(SG_TensorData(in), xte, (size_t)nte * 64 * sizeof(float));
    SG_SessionRun(sess, NULL, &x, &in, 1, &logits, &out, 1, NULL, 0, NULL, status);
    Check("evaluating");
    for (i = 0; i < nte; ++i) {
      const float* row = (const float*)SG_TensorData(out) + i * CLASSES;
      int best = 0, k;
      for (k = 1; k < CLASSES; ++k) {
        if (row[k] > row[best]) best = k;
      }
      correct += best == yte[i];
    }
    SG_DeleteTensor(in);
    SG_DeleteTensor(out);
  }
  printf("held-out accuracy: %d/%ld = %.5f\n", correct, nte, (double)correct / nte);

  if (argc > 2) {
    /* SaveV2(prefix, tensor_names, shape_and_slices, tensors): TensorFlow's checkpoint. */
    int64_t four[1] = {4};
    SG_Tensor* prefix;
    SG_Output save_inputs[4];
    SG_Operation* save;
    SG_OperationDescription* d;
    const char* empty[4] = {"", "", "", ""};
    size_t name_lengths[4], empty_lengths[4] = {0, 0, 0, 0};
    SG_Tensor *keys, *slices;
    for (i = 0; i < 4; ++i) name_lengths[i] = strlen(names[i]);
    keys = SG_NewStringTensor(four, 1, names, name_lengths, 4, status);
    slices = SG_NewStringTensor(four, 1, empty, empty_lengths, 4, status);
    SG_Output prefix_in;
    Check("checkpoint names");
    prefix_in = Placeholder(g, "save/filename", SG_STRING);
    d = SG_NewOperation(g, "SaveV2", "save/SaveV2");
    SG_AddInput(d, prefix_in);
    {
      SG_OperationDescription* k = SG_NewOperation(g, "Const", "save/tensor_names");
      SG_SetAttrTensor(k, "value", keys, status);
      SG_SetAttrType(k, "dtype", SG_STRING);
      SG_AddInput(d, Out(SG_FinishOperation(k, status)));
      k = SG_NewOperation(g, "Const", "save/shape_and_slices");
      SG_SetAttrTensor(k, "value", slices, status);
      SG_SetAttrType(k, "dtype", SG_STRING);
      SG_AddInput(d, Out(SG_FinishOperation(k, status)));
    }
    for (i = 0; i < 4; ++i) save_inputs[i] = vars[i].read;
    SG_AddInputList(d, save_inputs, 4);
    save = SG_FinishOperation(d, status);
    Check("SaveV2");
    SG_DeleteTensor(keys);
    SG_DeleteTensor(slices);
    {
      const char* prefix_path = argv[2];
      size_t path_length = strlen(prefix_path);
      prefix = SG_NewStringTensor(NULL, 0, &prefix_path, &path_length, 1, status);
      Check("the checkpoint's prefix");
    }
    /* A session made before the save ops were added runs them too: the graph only grew. */
    SG_SessionRun(sess, NULL, &prefix_in, &prefix, 1, NULL, NULL, 0,
                  (const SG_Operation* const*)&save, 1, NULL, status);
    Check("saving the checkpoint");
    SG_DeleteTensor(prefix);
    printf("saved the variables to %s\n", argv[2]);
  }

  SG_CloseSession(sess, status);
  SG_DeleteSession(sess, status);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(status);
  free(xtr);
  free(ytr);
  free(xte);
  free(yte);
  free(init_values);
  free(batches);
  return 0;
}
