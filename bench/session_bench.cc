// The cost of one SG_SessionRun through the C API: z = x + y on float scalars, the output freed.
#include <benchmark/benchmark.h>

#include "sg/c_api.h"

namespace {

SG_Operation* Placeholder(SG_Graph* g, const char* name, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, "Placeholder", name);
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  return SG_FinishOperation(d, s);
}

void BM_SessionRunScalarAdd(benchmark::State& state) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_Operation* x = Placeholder(g, "x", s);
  SG_Operation* y = Placeholder(g, "y", s);
  SG_OperationDescription* d = SG_NewOperation(g, "AddV2", "z");
  SG_AddInput(d, SG_Output{x, 0});
  SG_AddInput(d, SG_Output{y, 0});
  SG_Operation* z = SG_FinishOperation(d, s);
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess = SG_NewSession(g, opts, s);
  SG_Tensor* xv = SG_AllocateTensor(SG_FLOAT, nullptr, 0, sizeof(float));
  SG_Tensor* yv = SG_AllocateTensor(SG_FLOAT, nullptr, 0, sizeof(float));
  *static_cast<float*>(SG_TensorData(xv)) = 1.5f;
  *static_cast<float*>(SG_TensorData(yv)) = 2.0f;
  SG_Output feeds[2] = {{x, 0}, {y, 0}};
  SG_Tensor* values[2] = {xv, yv};
  SG_Output fetch = {z, 0};
  for (auto _ : state) {
    SG_Tensor* out = nullptr;
    SG_SessionRun(sess, nullptr, feeds, values, 2, &fetch, &out, 1, nullptr, 0, nullptr, s);
    if (SG_GetCode(s) != SG_OK || *static_cast<float*>(SG_TensorData(out)) != 3.5f) {
      state.SkipWithError(SG_Message(s));
      break;
    }
    SG_DeleteTensor(out);
  }
  SG_DeleteTensor(xv);
  SG_DeleteTensor(yv);
  SG_CloseSession(sess, s);
  SG_DeleteSession(sess, s);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}
BENCHMARK(BM_SessionRunScalarAdd)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
