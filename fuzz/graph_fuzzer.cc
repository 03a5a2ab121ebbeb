// Fuzz target: a GraphDef (binary proto) imported, then run in a DirectSession.
//
// The input is the GraphDef itself. It is imported into a Graph (ImportGraphDef: ops, attrs,
// shapes, functions), then given to a session with two CPU devices, which places, lowers,
// partitions and runs it: every Placeholder is fed a small tensor of its dtype and shape (unknown
// dims become 2), every node that nothing consumes is fetched (output 0) or run as a target.
// The step has a deadline (fuzz::kStepTimeoutMs), so a fuzzed endless loop is cut short; any
// status is fine, a crash, a sanitizer report or a hang is a finding.
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/framework/attr_value_util.h"
#include "core/graph/graph.h"
#include "core/graph/graph_constructor.h"
#include "core/runtime/session.h"
#include "fuzz/fuzz_util.h"

namespace sg {
namespace {

constexpr int kMaxNodes = 512;
constexpr int64_t kMaxFeedElements = 1024;

// A small tensor for a Placeholder of `dtype` and `shape`, or false for dtypes it does not make.
bool MakeFeed(DataType dtype, const PartialTensorShape& shape, Tensor* out) {
  std::vector<int64_t> dims;
  int64_t n = 1;
  if (!shape.unknown_rank()) {
    for (int d = 0; d < shape.dims(); ++d) {
      const int64_t size = shape.dim_size(d) < 0 ? 2 : shape.dim_size(d);
      dims.push_back(size);
      n *= size;
      if (n > kMaxFeedElements) return false;
    }
  }
  Tensor t(dtype, TensorShape(absl::MakeConstSpan(dims)));
  switch (dtype) {
    case DT_FLOAT:
      for (int64_t i = 0; i < n; ++i) t.data<float>()[i] = static_cast<float>(i % 5) - 1.5f;
      break;
    case DT_DOUBLE:
      for (int64_t i = 0; i < n; ++i) t.data<double>()[i] = static_cast<double>(i % 5) - 1.5;
      break;
    case DT_INT32:
      for (int64_t i = 0; i < n; ++i) t.data<int32_t>()[i] = static_cast<int32_t>(i % 3);
      break;
    case DT_INT64:
      for (int64_t i = 0; i < n; ++i) t.data<int64_t>()[i] = i % 3;
      break;
    case DT_BOOL:
      for (int64_t i = 0; i < n; ++i) t.data<bool>()[i] = i % 2 == 0;
      break;
    case DT_STRING:
      for (int64_t i = 0; i < n; ++i) t.data<tstring>()[i] = "ab";
      break;
    default:
      return false;
  }
  *out = std::move(t);
  return true;
}

void RunGraph(const GraphDef& def) {
  Graph graph;
  if (!ImportGraphDef(def, ImportOptions(), &graph).ok()) return;

  std::vector<std::pair<std::string, Tensor>> feeds;
  std::vector<std::string> fetches, targets;
  for (const Node* n : graph.nodes()) {
    if (n->type_string() == "Placeholder") {
      DataType dtype = DT_INVALID;
      PartialTensorShape shape;
      Tensor value;
      if (GetAttr(n->def().attr(), "dtype", &dtype).ok() &&
          GetAttr(n->def().attr(), "shape", &shape).ok() && MakeFeed(dtype, shape, &value)) {
        feeds.emplace_back(n->name() + ":0", std::move(value));
        continue;
      }
    }
    if (!n->out_edges().empty()) continue;
    if (n->num_outputs() > 0) {
      fetches.push_back(n->name() + ":0");
    } else {
      targets.push_back(n->name());
    }
  }

  SessionOptions options;
  options.config = fuzz::SmallConfig();
  (*options.config.mutable_device_count())["CPU"] = 2;
  std::unique_ptr<Session> session;
  if (!NewSession(options, &session).ok()) return;
  if (session->Create(def).ok()) {
    RunOptions run_options;
    run_options.set_timeout_in_ms(fuzz::kStepTimeoutMs);
    std::vector<Tensor> outputs;
    session->Run(run_options, feeds, fetches, targets, &outputs, nullptr).IgnoreError();
  }
  session->Close().IgnoreError();
}

}  // namespace
}  // namespace sg

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sg::GraphDef def;
  if (!def.ParseFromArray(data, static_cast<int>(size))) return 0;
  if (def.node_size() > sg::kMaxNodes) return 0;
  sg::RunGraph(def);
  return 0;
}
