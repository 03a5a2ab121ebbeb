#include "core/runtime/constant_eval.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/framework/types.h"
#include "core/graph/optimizers/rewrite_util.h"
#include "core/runtime/session.h"

namespace sg {
namespace {

bool ValueDtype(DataType dt) {
  return !IsRefType(dt) && dt != DT_RESOURCE && dt != DT_VARIANT && dt != DT_INVALID;
}

// Whether `n`'s value may be computed here from its data inputs (when they are constant).
bool Evaluable(const Node& n) {
  static const std::set<std::string> kFedOrMoved = {
      "Placeholder", "PlaceholderV2", "PlaceholderWithDefault", "_Arg", "_DeviceArg",
      "_Retval",     "_DeviceRetval", "_Send",                  "_Recv", "_HostSend",
      "_HostRecv"};
  if (kFedOrMoved.count(n.type_string()) || n.op_def().is_stateful()) return false;
  if (n.IsControlFlow() || n.IsLoopCond() || n.IsFunctionCall()) return false;
  if (n.num_inputs() == 0) return false;
  for (const auto& [name, attr] : n.def().attr()) {
    if (attr.has_func() || attr.list().func_size() > 0) return false;
  }
  for (DataType dt : n.input_types()) {
    if (!ValueDtype(dt)) return false;
  }
  for (DataType dt : n.output_types()) {
    if (!ValueDtype(dt)) return false;
  }
  return KernelRegistry::Global()->HasKernelFor(DEVICE_CPU, n.def());
}

std::string InputName(const Edge& e) {
  return e.src_output == 0 ? e.src->name() : absl::StrCat(e.src->name(), ":", e.src_output);
}

// The NodeDef `n` gets in the evaluation graph: its op and attrs, inputs from its data edges, no
// device (it runs on the evaluation's CPU), no colocation with nodes left out, no control inputs.
NodeDef EvaluationDef(const Node& n) {
  NodeDef def = n.def();
  def.clear_input();
  def.clear_device();
  def.mutable_attr()->erase("_class");
  for (int i = 0; i < n.num_inputs(); ++i) def.add_input(InputName(*n.input_edge(i)));
  return def;
}

// Gathers the nodes `root`'s value is computed from into `def` (each once), or returns false
// when one of them is not constant.
bool GatherConstantCone(const Graph& graph, const Node* root, GraphDef* def) {
  std::set<const Node*> seen = {root};
  std::vector<const Node*> stack = {root};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (n->type_string() == "Const" || n->type_string() == "HostConst") {
      if (!ValueDtype(n->output_type(0))) return false;
      *def->add_node() = EvaluationDef(*n);
      continue;
    }
    // A shape known statically stands for the tensor it is the shape of, which need not be
    // constant itself.
    if (std::optional<Tensor> shape = graph_opt::StaticShapeValue(n)) {
      *def->add_node() = graph_opt::ConstNodeDef(n->name(), *shape);
      continue;
    }
    if (!Evaluable(*n)) return false;
    for (int i = 0; i < n->num_inputs(); ++i) {
      const Edge* e = n->input_edge(i);
      if (e == nullptr) return false;
      if (seen.insert(e->src).second) stack.push_back(e->src);
    }
    *def->add_node() = EvaluationDef(*n);
  }
  *def->mutable_versions() = graph.versions();
  return true;
}

}  // namespace

absl::StatusOr<std::optional<Tensor>> EvaluateConstantTensor(const Graph& graph, const Node& node,
                                                             int index) {
  if (index < 0 || index >= node.num_outputs()) {
    return errors::InvalidArgument("output ", index, " of '", node.name(), "' is out of range (",
                                   node.num_outputs(), " outputs)");
  }
  if (!ValueDtype(node.output_type(index))) return std::optional<Tensor>();
  // The two cases that need no kernel at all.
  Tensor value;
  if (node.type_string() == "Const" && graph_opt::ConstValue(&node, &value)) return {value};
  if (std::optional<Tensor> shape = graph_opt::StaticShapeValue(&node)) return shape;

  GraphDef def;
  if (!GatherConstantCone(graph, &node, &def)) return std::optional<Tensor>();
  SessionOptions options;
  options.config.set_intra_op_parallelism_threads(1);
  options.config.set_inter_op_parallelism_threads(-1);  // in this thread
  // The evaluation graph is all constant: folding it first would compute it twice.
  options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      OptimizerOptions::L0);
  std::unique_ptr<Session> session;
  SG_RETURN_IF_ERROR(NewSession(options, &session));
  absl::Status s = session->Create(def);
  std::vector<Tensor> outputs;
  if (s.ok()) s = session->Run({}, {absl::StrCat(node.name(), ":", index)}, {}, &outputs);
  session->Close().IgnoreError();
  SG_RETURN_IF_ERROR(s);
  if (outputs.size() != 1) {
    return errors::Internal("evaluating '", node.name(), ":", index, "' gave ", outputs.size(),
                            " tensors");
  }
  return std::optional<Tensor>(std::move(outputs[0]));
}

}  // namespace sg
