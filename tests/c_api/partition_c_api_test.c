/* SG_SessionGetPartitionGraphs from plain C99: a step over two CPU devices (x on CPU:0, its square
 * on CPU:1) partitioned without running it. The graphs are read back from the RunMetadata bytes
 * with a small wire-format reader and checked against what the placement must give: the nodes
 * on each device, one _Send/_Recv pair with the same tensor_name, sending CPU:0 -> CPU:1. The
 * step partitions although its run fails (x is not fed: nothing ran), a fed step gives the graphs
 * a run returns with output_partition_graphs, and every argument error has its code.
 * Usage: c_api_partition_test */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "pb_reader.h"

#define CHECK_OK(s) CHECK_CODE(s, SG_OK)

static const char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
static const char kCpu1[] = "/job:localhost/replica:0/task:0/device:CPU:1";

/* ---- reading RunMetadata.partition_graphs (with pb_reader.h) ------------------------------ */

/* The fields of a NodeDef the test looks at. */
typedef struct Node {
  char name[128], op[32], device[64], tensor_name[128], send_device[64], recv_device[64];
} Node;

#define kMaxNodes 16
#define kMaxPartitions 4

typedef struct Partition {
  Node nodes[kMaxNodes];
  int num_nodes;
} Partition;

/* The string value (AttrValue.s, field 2) of one attr map entry (key 1, value 2), into the Node
 * field its key names. */
static void ReadAttr(Reader entry, Node* n) {
  char key[32] = "";
  Reader sub, value = {NULL, NULL}, s = {NULL, NULL};
  int field, wire;
  uint64_t v;
  while (NextField(&entry, &field, &wire, &v, &sub)) {
    if (field == 1 && sub.p != NULL) CopyString(sub, key, sizeof key);
    if (field == 2 && sub.p != NULL) value = sub;
  }
  while (value.p != NULL && NextField(&value, &field, &wire, &v, &sub)) {
    if (field == 2 && sub.p != NULL) s = sub;
  }
  if (s.p == NULL) return;
  if (strcmp(key, "tensor_name") == 0) CopyString(s, n->tensor_name, sizeof n->tensor_name);
  if (strcmp(key, "send_device") == 0) CopyString(s, n->send_device, sizeof n->send_device);
  if (strcmp(key, "recv_device") == 0) CopyString(s, n->recv_device, sizeof n->recv_device);
}

/* NodeDef: name 1, op 2, device 4, attr 5. */
static void ReadNode(Reader r, Node* n) {
  Reader sub;
  int field, wire;
  uint64_t v;
  memset(n, 0, sizeof *n);
  while (NextField(&r, &field, &wire, &v, &sub)) {
    if (sub.p == NULL) continue;
    if (field == 1) CopyString(sub, n->name, sizeof n->name);
    if (field == 2) CopyString(sub, n->op, sizeof n->op);
    if (field == 4) CopyString(sub, n->device, sizeof n->device);
    if (field == 5) ReadAttr(sub, n);
  }
}

/* RunMetadata.partition_graphs (field 3), each a GraphDef whose nodes are field 1. Returns the
 * number of partitions (at most kMaxPartitions are read). */
static int ReadPartitions(const SG_Buffer* buf, Partition* parts) {
  Reader r, graph, sub;
  int field, wire, n = 0;
  uint64_t v;
  r.p = (const unsigned char*)buf->data;
  r.end = r.p + buf->length;
  while (NextField(&r, &field, &wire, &v, &graph)) {
    if (field != 3 || graph.p == NULL) continue;
    if (n < kMaxPartitions) {
      Partition* p = &parts[n];
      p->num_nodes = 0;
      while (NextField(&graph, &field, &wire, &v, &sub)) {
        if (field == 1 && sub.p != NULL && p->num_nodes < kMaxNodes) {
          ReadNode(sub, &p->nodes[p->num_nodes++]);
        }
      }
    }
    ++n;
  }
  return n;
}

/* The partition whose nodes are on `device`, or NULL. */
static const Partition* OnDevice(const Partition* parts, int n, const char* device) {
  int i;
  for (i = 0; i < n; ++i) {
    if (parts[i].num_nodes > 0 && strcmp(parts[i].nodes[0].device, device) == 0) return &parts[i];
  }
  return NULL;
}

/* How many nodes of `p` run `op`; the last of them in *found. */
static int CountOp(const Partition* p, const char* op, const Node** found) {
  int i, n = 0;
  for (i = 0; p != NULL && i < p->num_nodes; ++i) {
    if (strcmp(p->nodes[i].op, op) == 0) {
      ++n;
      if (found != NULL) *found = &p->nodes[i];
    }
  }
  return n;
}

static int AllOnDevice(const Partition* p, const char* device) {
  int i;
  for (i = 0; p != NULL && i < p->num_nodes; ++i) {
    if (strcmp(p->nodes[i].device, device) != 0) return 0;
  }
  return p != NULL;
}

/* ---- the graph ------------------------------------------------------------------------------- */

typedef struct Fixture {
  SG_Status* s;
  SG_Graph* g;
  SG_Session* sess;
  SG_Operation* x;   /* Placeholder float [2], on CPU:0 */
  SG_Operation* sq;  /* Square(x), on CPU:1 */
} Fixture;

static void SetUp(Fixture* f) {
  /* ConfigProto{device_count: {"CPU": 2}}: field 1, a map entry {key 1: "CPU", value 2: 2}. */
  static const unsigned char kTwoCpus[] = {0x0A, 0x07, 0x0A, 0x03, 'C', 'P', 'U', 0x10, 0x02};
  int64_t dims[1] = {2};
  SG_OperationDescription* d;
  SG_SessionOptions* opts = SG_NewSessionOptions();
  f->s = SG_NewStatus();
  f->g = SG_NewGraph();
  d = SG_NewOperation(f->g, "Placeholder", "x");
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  SG_SetAttrShape(d, "shape", dims, 1);
  SG_SetDevice(d, "/device:CPU:0");
  f->x = SG_FinishOperation(d, f->s);
  CHECK_OK(f->s);
  d = SG_NewOperation(f->g, "Square", "sq");
  SG_AddInput(d, (SG_Output){f->x, 0});
  SG_SetDevice(d, "/device:CPU:1");
  f->sq = SG_FinishOperation(d, f->s);
  CHECK_OK(f->s);
  SG_SetConfig(opts, kTwoCpus, sizeof kTwoCpus, f->s);
  CHECK_OK(f->s);
  f->sess = SG_NewSession(f->g, opts, f->s);
  CHECK_OK(f->s);
  SG_DeleteSessionOptions(opts);
}

static void TearDown(Fixture* f) {
  SG_DeleteSession(f->sess, f->s);
  CHECK_OK(f->s);
  SG_DeleteGraph(f->g);
  SG_DeleteStatus(f->s);
}

/* ---- tests ----------------------------------------------------------------------------------- */

/* x is not fed: a run fails, yet the step partitions (nothing of it ran). CPU:0 holds x and the
 * _Send of its value, CPU:1 the _Recv, the Square and the fetch's _Retval. */
static void TestPartitionsWithoutRunning(void) {
  Fixture f;
  SG_Output fetch;
  SG_Buffer* meta;
  SG_Tensor* result = NULL;
  Partition parts[kMaxPartitions];
  const Partition *p0, *p1;
  const Node *send = NULL, *recv = NULL, *square = NULL;
  int n;
  SetUp(&f);
  fetch.oper = f.sq;
  fetch.index = 0;
  meta = SG_NewBuffer();
  SG_SessionGetPartitionGraphs(f.sess, NULL, 0, &fetch, 1, NULL, 0, meta, f.s);
  CHECK_OK(f.s);
  n = ReadPartitions(meta, parts);
  CHECK(n == 2);
  p0 = OnDevice(parts, n, kCpu0);
  p1 = OnDevice(parts, n, kCpu1);
  CHECK(p0 != NULL && p1 != NULL);
  CHECK(AllOnDevice(p0, kCpu0) && AllOnDevice(p1, kCpu1));
  CHECK(p0 != NULL && p0->num_nodes == 2);
  CHECK(CountOp(p0, "Placeholder", NULL) == 1 && CountOp(p0, "_Send", &send) == 1);
  CHECK(p1 != NULL && p1->num_nodes == 3);
  CHECK(CountOp(p1, "_Recv", &recv) == 1 && CountOp(p1, "Square", &square) == 1 &&
        CountOp(p1, "_Retval", NULL) == 1);
  CHECK(square != NULL && strcmp(square->name, "sq") == 0);
  CHECK(CountOp(p0, "_Recv", NULL) == 0 && CountOp(p1, "_Send", NULL) == 0);
  if (send != NULL && recv != NULL) {
    CHECK(send->tensor_name[0] != '\0' && strcmp(send->tensor_name, recv->tensor_name) == 0);
    CHECK(strcmp(send->send_device, kCpu0) == 0 && strcmp(send->recv_device, kCpu1) == 0);
    CHECK(strcmp(recv->send_device, kCpu0) == 0 && strcmp(recv->recv_device, kCpu1) == 0);
  }
  SG_DeleteBuffer(meta);

  /* The same step, run: x was never fed, so it fails. */
  SG_SessionRun(f.sess, NULL, NULL, NULL, 0, &fetch, &result, 1, NULL, 0, NULL, f.s);
  CHECK(SG_GetCode(f.s) == SG_INVALID_ARGUMENT && result == NULL);
  CHECK_MESSAGE(f.s, "x");

  /* A target instead of a fetch: no _Retval. */
  meta = SG_NewBuffer();
  {
    const SG_Operation* target = f.sq;
    SG_SessionGetPartitionGraphs(f.sess, NULL, 0, NULL, 0, &target, 1, meta, f.s);
  }
  CHECK_OK(f.s);
  n = ReadPartitions(meta, parts);
  CHECK(n == 2);
  p1 = OnDevice(parts, n, kCpu1);
  CHECK(p1 != NULL && p1->num_nodes == 2 && CountOp(p1, "_Retval", NULL) == 0 &&
        CountOp(p1, "Square", NULL) == 1 && CountOp(p1, "_Recv", NULL) == 1);
  SG_DeleteBuffer(meta);
  TearDown(&f);
}

/* Two partition lists hold the same nodes (name, op, device, tensor_name), partition by
 * partition, in order. */
static int SameNodes(const Partition* a, int na, const Partition* b, int nb) {
  int i, j;
  if (na != nb) return 0;
  for (i = 0; i < na && i < kMaxPartitions; ++i) {
    if (a[i].num_nodes != b[i].num_nodes) return 0;
    for (j = 0; j < a[i].num_nodes; ++j) {
      const Node *x = &a[i].nodes[j], *y = &b[i].nodes[j];
      if (strcmp(x->name, y->name) != 0 || strcmp(x->op, y->op) != 0 ||
          strcmp(x->device, y->device) != 0 || strcmp(x->tensor_name, y->tensor_name) != 0) {
        return 0;
      }
    }
  }
  return 1;
}

/* x fed: it becomes an _Arg on CPU:0. The graphs are the ones a run of the step returns with
 * RunOptions.output_partition_graphs, and the run gives x * x. */
static void TestFedStepMatchesARun(void) {
  /* RunOptions{output_partition_graphs: true}: field 5, varint 1. */
  static const unsigned char kOutputPartitions[] = {0x28, 0x01};
  Fixture f;
  SG_Output feed, fetch;
  SG_Buffer *meta, *run_meta, *options;
  SG_Tensor *value, *result = NULL;
  Partition parts[kMaxPartitions], run_parts[kMaxPartitions];
  const Partition* p0;
  const float xs[2] = {3.0f, -2.0f};
  int64_t dims[1] = {2};
  int n, run_n;
  SetUp(&f);
  feed.oper = f.x;
  feed.index = 0;
  fetch.oper = f.sq;
  fetch.index = 0;
  meta = SG_NewBuffer();
  SG_SessionGetPartitionGraphs(f.sess, &feed, 1, &fetch, 1, NULL, 0, meta, f.s);
  CHECK_OK(f.s);
  n = ReadPartitions(meta, parts);
  CHECK(n == 2);
  p0 = OnDevice(parts, n, kCpu0);
  CHECK(p0 != NULL && p0->num_nodes == 2 && CountOp(p0, "_Arg", NULL) == 1 &&
        CountOp(p0, "_Send", NULL) == 1 && CountOp(p0, "Placeholder", NULL) == 0);

  value = SG_AllocateTensor(SG_FLOAT, dims, 1, sizeof xs);
  memcpy(SG_TensorData(value), xs, sizeof xs);
  options = SG_NewBufferFromString(kOutputPartitions, sizeof kOutputPartitions);
  run_meta = SG_NewBuffer();
  SG_SessionRun(f.sess, options, &feed, &value, 1, &fetch, &result, 1, NULL, 0, run_meta, f.s);
  CHECK_OK(f.s);
  if (result != NULL) {
    const float* r = (const float*)SG_TensorData(result);
    CHECK(r[0] == 9.0f && r[1] == 4.0f);
  }
  run_n = ReadPartitions(run_meta, run_parts);
  CHECK(run_n == 2 && SameNodes(parts, n, run_parts, run_n));
  SG_DeleteTensor(result);
  SG_DeleteTensor(value);
  SG_DeleteBuffer(options);
  SG_DeleteBuffer(run_meta);
  SG_DeleteBuffer(meta);
  TearDown(&f);
}

/* A bad argument gets SG_SessionRun's code for it and leaves the buffer empty. */
static void TestArgumentErrors(void) {
  Fixture f;
  SG_Output feed, fetch, twice[2], bad_index;
  SG_Buffer *meta, *full;
  SG_Graph* other = SG_NewGraph();
  SG_Operation* stranger;
  SG_OperationDescription* d;
  const char kBytes[] = "x";
  SetUp(&f);
  feed.oper = f.x;
  feed.index = 0;
  fetch.oper = f.sq;
  fetch.index = 0;
  meta = SG_NewBuffer();

  SG_SessionGetPartitionGraphs(NULL, NULL, 0, &fetch, 1, NULL, 0, meta, f.s);
  CHECK_CODE(f.s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(f.s, "session is NULL");
  SG_SessionGetPartitionGraphs(f.sess, NULL, 0, &fetch, 1, NULL, 0, NULL, f.s);
  CHECK_CODE(f.s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(f.s, "run_metadata");
  full = SG_NewBufferFromString(kBytes, 1);
  SG_SessionGetPartitionGraphs(f.sess, NULL, 0, &fetch, 1, NULL, 0, full, f.s);
  CHECK_CODE(f.s, SG_INVALID_ARGUMENT);
  CHECK(full->length == 1 && memcmp(full->data, "x", 1) == 0);
  SG_DeleteBuffer(full);
  SG_SessionGetPartitionGraphs(f.sess, &feed, -1, &fetch, 1, NULL, 0, meta, f.s);
  CHECK_CODE(f.s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(f.s, "negative count");
  SG_SessionGetPartitionGraphs(f.sess, NULL, 0, NULL, 1, NULL, 0, meta, f.s);
  CHECK_CODE(f.s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(f.s, "outputs is NULL");
  twice[0] = feed;
  twice[1] = feed;
  SG_SessionGetPartitionGraphs(f.sess, twice, 2, &fetch, 1, NULL, 0, meta, f.s);
  CHECK_CODE(f.s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(f.s, "x:0");
  bad_index.oper = f.sq;
  bad_index.index = 1;
  SG_SessionGetPartitionGraphs(f.sess, NULL, 0, &bad_index, 1, NULL, 0, meta, f.s);
  CHECK_CODE(f.s, SG_NOT_FOUND);
  CHECK_MESSAGE(f.s, "sq:1");
  d = SG_NewOperation(other, "NoOp", "stranger");
  stranger = SG_FinishOperation(d, f.s);
  CHECK_OK(f.s);
  {
    const SG_Operation* target = stranger;
    SG_SessionGetPartitionGraphs(f.sess, NULL, 0, NULL, 0, &target, 1, meta, f.s);
  }
  CHECK_CODE(f.s, SG_NOT_FOUND);
  CHECK_MESSAGE(f.s, "another graph");
  CHECK(meta->data == NULL && meta->length == 0);

  SG_CloseSession(f.sess, f.s);
  CHECK_OK(f.s);
  SG_SessionGetPartitionGraphs(f.sess, NULL, 0, &fetch, 1, NULL, 0, meta, f.s);
  CHECK_CODE(f.s, SG_CANCELLED);
  CHECK(meta->data == NULL && meta->length == 0);
  SG_DeleteBuffer(meta);
  SG_DeleteGraph(other);
  TearDown(&f);
}

/* A node pinned to a device the session does not have: building the step fails, naming it. */
static void TestPlacementErrorNamesTheNode(void) {
  Fixture f;
  SG_Output fetch;
  SG_Buffer* meta;
  SG_OperationDescription* d;
  SG_Operation* far;
  SetUp(&f);
  d = SG_NewOperation(f.g, "Neg", "far_away");
  SG_AddInput(d, (SG_Output){f.sq, 0});
  SG_SetDevice(d, "/device:CPU:7");
  far = SG_FinishOperation(d, f.s);
  CHECK_OK(f.s);
  fetch.oper = far;
  fetch.index = 0;
  meta = SG_NewBuffer();
  SG_SessionGetPartitionGraphs(f.sess, NULL, 0, &fetch, 1, NULL, 0, meta, f.s);
  CHECK(SG_GetCode(f.s) != SG_OK);
  CHECK_MESSAGE(f.s, "far_away");
  CHECK(meta->data == NULL && meta->length == 0);
  SG_DeleteBuffer(meta);
  TearDown(&f);
}

/* A cluster session (an in-process server's grpc:// target) partitions only when it runs: a
 * clear SG_UNIMPLEMENTED naming the alternatives. */
static void TestClusterSessionIsUnimplemented(void) {
  SG_Status* s = SG_NewStatus();
  SG_Server* server = SG_NewServerFromClusterSpec("worker=localhost:0", "worker", 0, s);
  SG_Graph* g = SG_NewGraph();
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess;
  SG_Buffer* meta = SG_NewBuffer();
  SG_OperationDescription* d;
  SG_Operation* c;
  SG_Output fetch;
  float one = 1.0f;
  SG_Tensor* t = SG_AllocateTensor(SG_FLOAT, NULL, 0, sizeof one);
  CHECK_OK(s);
  SG_ServerStart(server, s);
  CHECK_OK(s);
  memcpy(SG_TensorData(t), &one, sizeof one);
  d = SG_NewOperation(g, "Const", "c");
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  SG_SetAttrTensor(d, "value", t, s);
  c = SG_FinishOperation(d, s);
  CHECK_OK(s);
  SG_SetTarget(opts, SG_ServerTarget(server));
  sess = SG_NewSession(g, opts, s);
  CHECK_OK(s);
  fetch.oper = c;
  fetch.index = 0;
  SG_SessionGetPartitionGraphs(sess, NULL, 0, &fetch, 1, NULL, 0, meta, s);
  CHECK_CODE(s, SG_UNIMPLEMENTED);
  CHECK_MESSAGE(s, "grpc://");
  CHECK_MESSAGE(s, "output_partition_graphs");
  CHECK_MESSAGE(s, "local session");
  CHECK(meta->data == NULL && meta->length == 0);
  SG_DeleteBuffer(meta);
  SG_DeleteSession(sess, s);
  CHECK_OK(s);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteTensor(t);
  SG_ServerStop(server, s);
  CHECK_OK(s);
  SG_DeleteServer(server);
  SG_DeleteStatus(s);
}

int main(void) {
  TestPartitionsWithoutRunning();
  TestFedStepMatchesARun();
  TestArgumentErrors();
  TestPlacementErrorNamesTheNode();
  TestClusterSessionIsUnimplemented();
  if (failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("OK\n");
  return 0;
}
