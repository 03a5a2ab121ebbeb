// C API: graphs, operation descriptions, SG_FinishOperation, operation and graph introspection.
// Attribute setters and getters are in c_api_attrs.cc, GraphDef import in c_api_import.cc.
#include <algorithm>
#include <set>

#include "c_api/c_api_internal.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/node_def_util.h"
#include "core/graph/node_builder.h"
#include "core/runtime/constant_eval.h"

namespace sg {
namespace c_api {

namespace {

// `node`'s inputs as its edges say: data inputs in slot order, then control inputs sorted.
std::vector<std::string> InputsFromEdges(const Node& node) {
  std::vector<std::string> inputs;
  for (int i = 0; i < node.num_inputs(); ++i) {
    const Edge* e = node.input_edge(i);
    if (e == nullptr) continue;
    inputs.push_back(e->src_output == 0 ? e->src->name()
                                        : absl::StrCat(e->src->name(), ":", e->src_output));
  }
  std::vector<std::string> controls;
  for (const Edge* e : node.in_edges()) {
    if (e->IsControlEdge()) controls.push_back("^" + e->src->name());
  }
  std::sort(controls.begin(), controls.end());
  for (auto& c : controls) inputs.push_back(std::move(c));
  return inputs;
}

}  // namespace

void NodeToDef(const Node& node, NodeDef* def) {
  *def = node.def();
  def->clear_input();
  for (auto& input : InputsFromEdges(node)) def->add_input(std::move(input));
}

std::shared_ptr<const NodeDef> SharedNodeDef(const Node& node) {
  const std::vector<std::string> inputs = InputsFromEdges(node);
  const auto& kept = node.def().input();
  if (std::equal(inputs.begin(), inputs.end(), kept.begin(), kept.end())) {
    return node.shared_def();
  }
  auto def = std::make_shared<NodeDef>();
  NodeToDef(node, def.get());
  return def;
}

namespace {

// Checks `output` for the shape functions: a live output of `g`.
absl::Status CheckOutput(const Graph& g, SG_Output output, const char* where) {
  SG_RETURN_IF_ERROR(CheckOwned(g, output.oper, absl::StrCat(where, ": output")));
  const Node* n = ToNode(output.oper);
  if (output.index < 0 || output.index >= n->num_outputs()) {
    return errors::InvalidArgument(where, ": output index ", output.index, " of operation '",
                              n->name(), "' is out of range [0, ", n->num_outputs(), ")");
  }
  return absl::OkStatus();
}

// Builds the described operation with core's NodeBuilder (which fills in the attrs the inputs
// imply, validates, connects, infers shapes, and leaves the graph as it was on failure) under the
// graph's lock.
absl::StatusOr<Node*> FinishOperation(SG_OperationDescription* desc) {
  if (desc->graph == nullptr) {
    return errors::InvalidArgument("SG_FinishOperation: operation '", desc->node_def.name(),
                                   "' was described for a NULL graph");
  }
  SG_RETURN_IF_ERROR(desc->deferred_error);
  NodeBuilder builder(desc->node_def.name(), desc->node_def.op());
  *builder.mutable_def() = desc->node_def;
  SG_Graph* graph = desc->graph;
  absl::MutexLock lock(&graph->mu);
  Graph& g = graph->graph;
  const std::string& name = desc->node_def.name();
  for (const auto& in : desc->inputs) {
    std::vector<NodeBuilder::Output> outputs;
    for (size_t j = 0; j < in.outputs.size(); ++j) {
      SG_RETURN_IF_ERROR(CheckOwned(g, in.outputs[j].oper,
                                    absl::StrCat("Operation '", name, "': input ", j)));
      outputs.push_back({ToNode(in.outputs[j].oper), in.outputs[j].index});
    }
    if (in.is_list) {
      builder.InputList(std::move(outputs));
    } else {
      builder.Input(outputs.at(0));
    }
  }
  for (SG_Operation* c : desc->control_inputs) {
    SG_RETURN_IF_ERROR(
        CheckOwned(g, c, absl::StrCat("Operation '", name, "': a control input")));
    builder.ControlInput(ToNode(c));
  }
  for (const std::string& c : desc->colocation) {
    builder.ColocateWith(c.substr(5));  // "loc:@name"
  }
  return builder.Finalize(&g);
}

}  // namespace
}  // namespace c_api
}  // namespace sg

using sg::c_api::CheckOwned;
using sg::c_api::Guard;
using sg::c_api::GuardValue;
using sg::c_api::Set;
using sg::c_api::ToNode;
namespace errors = sg::errors;

extern "C" {

// ---- graphs ----------------------------------------------------------------------------------

SG_Graph* SG_NewGraph(void) {
  auto* g = new (std::nothrow) SG_Graph;
  if (g != nullptr) {
    absl::MutexLock lock(&g->mu);
    g->graph.mutable_versions()->set_producer(sg::kGraphDefVersion);
  }
  return g;
}

void SG_DeleteGraph(SG_Graph* g) {
  if (g != nullptr) sg::c_api::ReleaseGraph(g, /*from_session=*/false);
}

void SG_GraphSetTensorShape(SG_Graph* graph, SG_Output output, const int64_t* dims,
                            const int num_dims, SG_Status* status) {
  Guard("SG_GraphSetTensorShape", status, [&]() -> absl::Status {
    if (graph == nullptr) return errors::InvalidArgument("SG_GraphSetTensorShape: graph is NULL");
    if (num_dims < -1) {
      return errors::InvalidArgument("SG_GraphSetTensorShape: num_dims is ", num_dims,
                                     " (-1 = unknown rank)");
    }
    if (num_dims > 0) SG_RETURN_IF_ERROR(sg::c_api::CheckArray(dims, num_dims, "dims"));
    for (int i = 0; i < num_dims; ++i) {
      if (dims[i] < -1) {
        return errors::InvalidArgument("SG_GraphSetTensorShape: dims[", i, "] is ", dims[i],
                                       " (-1 = unknown)");
      }
    }
    absl::MutexLock lock(&graph->mu);
    SG_RETURN_IF_ERROR(
        sg::c_api::CheckOutput(graph->graph, output, "SG_GraphSetTensorShape"));
    sg::PartialTensorShape shape;
    if (num_dims >= 0) shape = sg::PartialTensorShape(absl::Span<const int64_t>(dims, num_dims));
    sg::Node* n = ToNode(output.oper);
    sg::PartialTensorShape& known = (*n->mutable_output_shapes())[output.index];
    auto merged = known.Merge(shape);
    if (!merged.ok()) {
      return errors::InvalidArgument("SG_GraphSetTensorShape: shape ", shape.DebugString(),
                                     " for '", sg::c_api::OutputName(output),
                                     "' contradicts its known shape ", known.DebugString());
    }
    known = *merged;
    return absl::OkStatus();
  });
}

int SG_GraphGetTensorNumDims(SG_Graph* graph, SG_Output output, SG_Status* status) {
  int result = -1;
  Guard("SG_GraphGetTensorNumDims", status, [&]() -> absl::Status {
    if (graph == nullptr) {
      return errors::InvalidArgument("SG_GraphGetTensorNumDims: graph is NULL");
    }
    absl::MutexLock lock(&graph->mu);
    SG_RETURN_IF_ERROR(
        sg::c_api::CheckOutput(graph->graph, output, "SG_GraphGetTensorNumDims"));
    result = ToNode(output.oper)->output_shapes()[output.index].dims();
    return absl::OkStatus();
  });
  return result;
}

void SG_GraphGetTensorShape(SG_Graph* graph, SG_Output output, int64_t* dims, int num_dims,
                            SG_Status* status) {
  Guard("SG_GraphGetTensorShape", status, [&]() -> absl::Status {
    if (graph == nullptr) return errors::InvalidArgument("SG_GraphGetTensorShape: graph is NULL");
    absl::MutexLock lock(&graph->mu);
    SG_RETURN_IF_ERROR(sg::c_api::CheckOutput(graph->graph, output, "SG_GraphGetTensorShape"));
    const sg::PartialTensorShape& shape = ToNode(output.oper)->output_shapes()[output.index];
    if (num_dims != shape.dims()) {
      return errors::InvalidArgument("SG_GraphGetTensorShape: num_dims is ", num_dims, " but '",
                                     sg::c_api::OutputName(output), "' has rank ", shape.dims());
    }
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(dims, num_dims, "SG_GraphGetTensorShape: dims"));
    for (int i = 0; i < num_dims; ++i) dims[i] = shape.dim_size(i);
    return absl::OkStatus();
  });
}

// ---- operation descriptions ------------------------------------------------------------------

SG_OperationDescription* SG_NewOperation(SG_Graph* graph, const char* op_type,
                                         const char* oper_name) {
  return GuardValue<SG_OperationDescription*>(nullptr, [&] {
    auto* desc = new SG_OperationDescription;
    desc->graph = graph;
    desc->node_def.set_op(op_type ? op_type : "");
    desc->node_def.set_name(oper_name ? oper_name : "");
    return desc;
  });
}

void SG_SetDevice(SG_OperationDescription* desc, const char* device) {
  if (desc == nullptr) return;
  GuardValue<int>(0, [&] {
    desc->node_def.set_device(device ? device : "");
    return 0;
  });
}

void SG_AddInput(SG_OperationDescription* desc, SG_Output input) {
  if (desc == nullptr) return;
  GuardValue<int>(0, [&] {
    desc->inputs.push_back({false, {input}});
    return 0;
  });
}

void SG_AddInputList(SG_OperationDescription* desc, const SG_Output* inputs, int num_inputs) {
  if (desc == nullptr) return;
  GuardValue<int>(0, [&] {
    absl::Status s = sg::c_api::CheckArray(inputs, num_inputs,
                                           "SG_AddInputList: inputs");
    if (!s.ok()) {
      if (desc->deferred_error.ok()) {
        desc->deferred_error = errors::Annotate(
            s, absl::StrCat("Operation '", desc->node_def.name(), "': "));
      }
      desc->inputs.push_back({true, {}});
      return 0;
    }
    desc->inputs.push_back({true, std::vector<SG_Output>(inputs, inputs + num_inputs)});
    return 0;
  });
}

void SG_AddControlInput(SG_OperationDescription* desc, SG_Operation* input) {
  if (desc == nullptr) return;
  GuardValue<int>(0, [&] {
    desc->control_inputs.push_back(input);
    return 0;
  });
}

void SG_ColocateWith(SG_OperationDescription* desc, SG_Operation* op) {
  if (desc == nullptr) return;
  GuardValue<int>(0, [&] {
    if (op == nullptr) {
      if (desc->deferred_error.ok()) {
        desc->deferred_error = errors::InvalidArgument(
            "Operation '", desc->node_def.name(), "': SG_ColocateWith got a NULL operation");
      }
      return 0;
    }
    desc->colocation.push_back("loc:@" + ToNode(op)->name());
    return 0;
  });
}

SG_Operation* SG_FinishOperation(SG_OperationDescription* desc, SG_Status* status) {
  std::unique_ptr<SG_OperationDescription> owned(desc);
  SG_Operation* result = nullptr;
  Guard("SG_FinishOperation", status, [&]() -> absl::Status {
    if (desc == nullptr) return errors::InvalidArgument("SG_FinishOperation: description is NULL");
    SG_ASSIGN_OR_RETURN(sg::Node * node, sg::c_api::FinishOperation(desc));
    result = sg::c_api::ToOperation(node);
    return absl::OkStatus();
  });
  return result;
}

// ---- operation getters -----------------------------------------------------------------------

const char* SG_OperationName(SG_Operation* oper) {
  return oper ? ToNode(oper)->name().c_str() : "";
}

const char* SG_OperationOpType(SG_Operation* oper) {
  return oper ? ToNode(oper)->type_string().c_str() : "";
}

const char* SG_OperationDevice(SG_Operation* oper) {
  return oper ? ToNode(oper)->requested_device().c_str() : "";
}

int SG_OperationNumOutputs(SG_Operation* oper) { return oper ? ToNode(oper)->num_outputs() : -1; }

SG_DataType SG_OperationOutputType(SG_Output oper_out) {
  if (oper_out.oper == nullptr) return static_cast<SG_DataType>(0);
  const sg::Node* n = ToNode(oper_out.oper);
  if (oper_out.index < 0 || oper_out.index >= n->num_outputs()) {
    return static_cast<SG_DataType>(0);
  }
  return static_cast<SG_DataType>(n->output_type(oper_out.index));
}

int SG_OperationNumInputs(SG_Operation* oper) { return oper ? ToNode(oper)->num_inputs() : -1; }

SG_DataType SG_OperationInputType(SG_Input oper_in) {
  if (oper_in.oper == nullptr) return static_cast<SG_DataType>(0);
  const sg::Node* n = ToNode(oper_in.oper);
  if (oper_in.index < 0 || oper_in.index >= n->num_inputs()) return static_cast<SG_DataType>(0);
  return static_cast<SG_DataType>(n->input_type(oper_in.index));
}

static int ArgListLength(SG_Operation* oper, const char* arg_name, bool output,
                         SG_Status* status) {
  int result = -1;
  const char* where = output ? "SG_OperationOutputListLength" : "SG_OperationInputListLength";
  Guard(where, status, [&]() -> absl::Status {
    if (oper == nullptr || arg_name == nullptr) {
      return errors::InvalidArgument(where, ": operation or arg_name is NULL");
    }
    const sg::Node* n = ToNode(oper);
    sg::NameRangeMap inputs, outputs;
    SG_RETURN_IF_ERROR(sg::NameRangesForNode(n->def(), n->op_def(), &inputs, &outputs));
    const auto& map = output ? outputs : inputs;
    auto it = map.find(arg_name);
    if (it == map.end()) {
      return errors::InvalidArgument("Operation '", n->name(), "' (op ", n->type_string(),
                                     ") has no ", output ? "output" : "input", " arg named '",
                                     arg_name, "'");
    }
    result = it->second.second - it->second.first;
    return absl::OkStatus();
  });
  return result;
}

int SG_OperationOutputListLength(SG_Operation* oper, const char* arg_name, SG_Status* status) {
  return ArgListLength(oper, arg_name, true, status);
}

int SG_OperationInputListLength(SG_Operation* oper, const char* arg_name, SG_Status* status) {
  return ArgListLength(oper, arg_name, false, status);
}

SG_Output SG_OperationInput(SG_Input oper_in) {
  SG_Output none{nullptr, -1};
  if (oper_in.oper == nullptr) return none;
  const sg::Node* n = ToNode(oper_in.oper);
  return sg::c_api::UnderGraphLock(n, [&]() {
    if (oper_in.index < 0 || oper_in.index >= n->num_inputs()) return none;
    const sg::Edge* e = n->input_edge(oper_in.index);
    if (e == nullptr) return none;
    return SG_Output{sg::c_api::ToOperation(e->src), e->src_output};
  });
}

int SG_OperationOutputNumConsumers(SG_Output oper_out) {
  return SG_OperationOutputConsumers(oper_out, nullptr, 0);
}

int SG_OperationOutputConsumers(SG_Output oper_out, SG_Input* consumers, int max_consumers) {
  if (oper_out.oper == nullptr) return 0;
  const sg::Node* n = ToNode(oper_out.oper);
  return sg::c_api::UnderGraphLock(n, [&]() {
    int count = 0;
    for (const sg::Edge* e : n->out_edges()) {
      if (e->IsControlEdge() || e->src_output != oper_out.index) continue;
      if (consumers != nullptr && count < max_consumers) {
        consumers[count] = SG_Input{sg::c_api::ToOperation(e->dst), e->dst_input};
      }
      ++count;
    }
    return count;
  });
}

int SG_OperationNumControlInputs(SG_Operation* oper) {
  return SG_OperationGetControlInputs(oper, nullptr, 0);
}

// The control inputs (in_edges) or control outputs (out_edges) of `oper`, as the two functions
// below return them.
static int ControlEdges(SG_Operation* oper, bool inputs, SG_Operation** out, int max_out) {
  if (oper == nullptr) return 0;
  const sg::Node* n = ToNode(oper);
  return sg::c_api::UnderGraphLock(n, [&]() {
    int count = 0;
    for (const sg::Edge* e : inputs ? n->in_edges() : n->out_edges()) {
      if (!e->IsControlEdge()) continue;
      if (out != nullptr && count < max_out) {
        out[count] = sg::c_api::ToOperation(inputs ? e->src : e->dst);
      }
      ++count;
    }
    return count;
  });
}

int SG_OperationGetControlInputs(SG_Operation* oper, SG_Operation** control_inputs,
                                 int max_control_inputs) {
  return ControlEdges(oper, true, control_inputs, max_control_inputs);
}

int SG_OperationNumControlOutputs(SG_Operation* oper) {
  return SG_OperationGetControlOutputs(oper, nullptr, 0);
}

int SG_OperationGetControlOutputs(SG_Operation* oper, SG_Operation** control_outputs,
                                  int max_control_outputs) {
  return ControlEdges(oper, false, control_outputs, max_control_outputs);
}

void SG_OperationToNodeDef(SG_Operation* oper, SG_Buffer* output_node_def, SG_Status* status) {
  Guard("SG_OperationToNodeDef", status, [&]() -> absl::Status {
    if (oper == nullptr) return errors::InvalidArgument("SG_OperationToNodeDef: oper is NULL");
    SG_RETURN_IF_ERROR(
        sg::c_api::CheckEmptyBuffer(output_node_def, "SG_OperationToNodeDef: output_node_def"));
    sg::NodeDef def;
    sg::c_api::NodeToDef(*ToNode(oper), &def);
    sg::c_api::FillBuffer(def.SerializeAsString(), output_node_def);
    return absl::OkStatus();
  });
}

// ---- graph queries ---------------------------------------------------------------------------

SG_Operation* SG_GraphOperationByName(SG_Graph* graph, const char* oper_name) {
  if (graph == nullptr || oper_name == nullptr) return nullptr;
  return GuardValue<SG_Operation*>(nullptr, [&] {
    absl::MutexLock lock(&graph->mu);
    return sg::c_api::ToOperation(graph->graph.FindNode(oper_name));
  });
}

SG_Operation* SG_GraphNextOperation(SG_Graph* graph, size_t* pos) {
  if (graph == nullptr || pos == nullptr) return nullptr;
  absl::MutexLock lock(&graph->mu);
  while (*pos < static_cast<size_t>(graph->graph.num_node_ids())) {
    sg::Node* n = graph->graph.FindNodeId(static_cast<int>((*pos)++));
    if (n != nullptr) return sg::c_api::ToOperation(n);
  }
  return nullptr;
}

void SG_GraphToGraphDef(SG_Graph* graph, SG_Buffer* output_graph_def, SG_Status* status) {
  Guard("SG_GraphToGraphDef", status, [&]() -> absl::Status {
    if (graph == nullptr) return errors::InvalidArgument("SG_GraphToGraphDef: graph is NULL");
    SG_RETURN_IF_ERROR(
        sg::c_api::CheckEmptyBuffer(output_graph_def, "SG_GraphToGraphDef: output_graph_def"));
    sg::GraphDef def;
    {
      absl::MutexLock lock(&graph->mu);
      graph->graph.ToGraphDef(&def);
    }
    sg::c_api::FillBuffer(def.SerializeAsString(), output_graph_def);
    return absl::OkStatus();
  });
}

void SG_GraphGetOpDef(SG_Graph* graph, const char* op_name, SG_Buffer* output_op_def,
                      SG_Status* status) {
  Guard("SG_GraphGetOpDef", status, [&]() -> absl::Status {
    if (graph == nullptr || op_name == nullptr) {
      return errors::InvalidArgument("SG_GraphGetOpDef: graph or op_name is NULL");
    }
    SG_RETURN_IF_ERROR(
        sg::c_api::CheckEmptyBuffer(output_op_def, "SG_GraphGetOpDef: output_op_def"));
    std::string bytes;
    {
      absl::MutexLock lock(&graph->mu);
      const sg::OpRegistrationData* reg = graph->graph.flib().LookUp(op_name);
      if (reg == nullptr) return errors::NotFound("Op type not registered '", op_name, "'");
      bytes = reg->op_def.SerializeAsString();
    }
    sg::c_api::FillBuffer(bytes, output_op_def);
    return absl::OkStatus();
  });
}

void SG_GraphVersions(SG_Graph* graph, SG_Buffer* output_version_def, SG_Status* status) {
  Guard("SG_GraphVersions", status, [&]() -> absl::Status {
    if (graph == nullptr) return errors::InvalidArgument("SG_GraphVersions: graph is NULL");
    SG_RETURN_IF_ERROR(
        sg::c_api::CheckEmptyBuffer(output_version_def, "SG_GraphVersions: output_version_def"));
    std::string bytes;
    {
      absl::MutexLock lock(&graph->mu);
      bytes = graph->graph.versions().SerializeAsString();
    }
    sg::c_api::FillBuffer(bytes, output_version_def);
    return absl::OkStatus();
  });
}

void SG_GraphSetStringLayout(SG_Graph* graph, SG_StringLayout string_layout,
                             SG_Status* status) {
  Guard("SG_GraphSetStringLayout", status, [&]() -> absl::Status {
    if (graph == nullptr) return errors::InvalidArgument("SG_GraphSetStringLayout: graph is NULL");
    const int layout = sg::c_api::LayoutNumber(string_layout);
    if (layout != SG_STRING_LAYOUT_ENCODED && layout != SG_STRING_LAYOUT_TSTRING) {
      return errors::InvalidArgument("SG_GraphSetStringLayout: unknown layout ", layout);
    }
    graph->string_layout.store(string_layout);
    return absl::OkStatus();
  });
}

SG_StringLayout SG_GraphStringLayout(SG_Graph* graph) {
  return graph == nullptr ? SG_STRING_LAYOUT_ENCODED : graph->string_layout.load();
}

unsigned char SG_TryEvaluateConstant(SG_Graph* graph, SG_Output output, SG_Tensor** result,
                                     SG_Status* status) {
  if (result != nullptr) *result = nullptr;
  Guard("SG_TryEvaluateConstant", status, [&]() -> absl::Status {
    if (graph == nullptr) return errors::InvalidArgument("SG_TryEvaluateConstant: graph is NULL");
    if (result == nullptr) return errors::InvalidArgument("SG_TryEvaluateConstant: result is NULL");
    absl::MutexLock lock(&graph->mu);
    SG_RETURN_IF_ERROR(
        sg::c_api::CheckOwned(graph->graph, output.oper, "SG_TryEvaluateConstant: output"));
    const sg::Node* node = sg::c_api::ToNode(output.oper);
    if (output.index < 0 || output.index >= node->num_outputs()) {
      return errors::InvalidArgument("SG_TryEvaluateConstant: output ",
                                     sg::c_api::OutputName(output), " is out of range (",
                                     node->num_outputs(), " outputs)");
    }
    SG_ASSIGN_OR_RETURN(std::optional<sg::Tensor> value,
                        sg::EvaluateConstantTensor(graph->graph, *node, output.index));
    if (!value.has_value()) return absl::OkStatus();
    SG_ASSIGN_OR_RETURN(*result, sg::c_api::FromTensor(*value, graph->string_layout.load()));
    return absl::OkStatus();
  });
  return result != nullptr && *result != nullptr;
}

}  // extern "C"
