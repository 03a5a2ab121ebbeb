#include "core/graph/optimizers/rewrite_util.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "core/framework/attr_value_util.h"

namespace sg {
namespace graph_opt {

bool IsLive(const Graph& g, const Node* n) { return g.FindNodeId(n->id()) == n; }

bool IsIdentityLike(const Node* n) {
  const std::string& op = n->type_string();
  return op == "Identity" || op == "IdentityN" || op == "Snapshot" || op == "StopGradient";
}

bool IsSink(const Node* n) {
  if (n->IsRetval()) return true;
  if (!n->IsSend()) return false;
  auto it = n->def().attr().find("client_terminated");
  return it != n->def().attr().end() && it->second.b();
}

bool HasControlInputs(const Node* n) {
  for (const Edge* e : n->in_edges()) {
    if (e->IsControlEdge()) return true;
  }
  return false;
}

bool HasControlOutputs(const Node* n) {
  for (const Edge* e : n->out_edges()) {
    if (e->IsControlEdge()) return true;
  }
  return false;
}

Node* InputNode(const Node* n, int i) {
  const Edge* e = n->input_edge(i);
  return e == nullptr ? nullptr : e->src;
}

int InputIndex(const Node* n, int i) {
  const Edge* e = n->input_edge(i);
  return e == nullptr ? -1 : e->src_output;
}

Node* SoleConsumer(const Node* n) {
  if (n->out_edges().size() != 1) return nullptr;
  const Edge* e = n->out_edges()[0];
  return e->IsControlEdge() || e->src_output != 0 ? nullptr : e->dst;
}

std::string StringAttr(const Node* n, const std::string& name) {
  auto it = n->def().attr().find(name);
  if (it == n->def().attr().end() || it->second.value_case() != AttrValue::kS) return "";
  return it->second.s();
}

bool HasType(const Node* n, DataType dtype) {
  auto it = n->def().attr().find("T");
  return it != n->def().attr().end() && it->second.value_case() == AttrValue::kType &&
         it->second.type() == dtype;
}

std::optional<Tensor> StaticShapeValue(const Node* n) {
  const std::string& op = n->type_string();
  if (op != "Shape" && op != "Size" && op != "Rank") return std::nullopt;
  const Edge* e = n->input_edge(0);
  if (e == nullptr || e->src_output >= static_cast<int>(e->src->output_shapes().size())) {
    return std::nullopt;
  }
  const PartialTensorShape& s = e->src->output_shapes()[e->src_output];
  const DataType out = n->output_type(0);
  if (out != DT_INT32 && out != DT_INT64) return std::nullopt;
  std::vector<int64_t> values;
  if (op == "Rank") {
    if (s.unknown_rank()) return std::nullopt;
    values = {s.dims()};
  } else {
    if (!s.IsFullyDefined()) return std::nullopt;
    if (op == "Size") {
      values = {s.num_elements()};
    } else {
      for (int d = 0; d < s.dims(); ++d) values.push_back(s.dim_size(d));
    }
  }
  TensorShape shape;
  if (op == "Shape") shape.AddDim(static_cast<int64_t>(values.size()));
  Tensor t(out, shape);
  for (size_t i = 0; i < values.size(); ++i) {
    if (out == DT_INT32) {
      if (values[i] > std::numeric_limits<int32_t>::max()) return std::nullopt;
      t.data<int32_t>()[i] = static_cast<int32_t>(values[i]);
    } else {
      t.data<int64_t>()[i] = values[i];
    }
  }
  return t;
}

bool ConstValue(const Node* n, Tensor* value) {
  if (n->type_string() != "Const") return false;
  auto held = n->tensor_attrs().find("value");
  if (held != n->tensor_attrs().end()) {
    *value = held->second;
    return value->IsInitialized();
  }
  return GetAttr(n->def().attr(), "value", value).ok() && value->IsInitialized();
}

bool ConstDtypeAndShape(const Node* n, DataType* dtype, TensorShape* shape) {
  if (n->type_string() != "Const") return false;
  auto held = n->tensor_attrs().find("value");
  if (held != n->tensor_attrs().end()) {
    *dtype = held->second.dtype();
    *shape = held->second.shape();
    return true;
  }
  auto it = n->def().attr().find("value");
  if (it == n->def().attr().end() || !it->second.has_tensor()) return false;
  absl::StatusOr<TensorShape> s = TensorShape::FromProto(it->second.tensor().tensor_shape());
  if (!s.ok()) return false;
  *dtype = it->second.tensor().dtype();
  *shape = *s;
  return true;
}

NodeDef ConstNodeDef(const std::string& name, const Tensor& value) {
  NodeDef def;
  def.set_name(name);
  def.set_op("Const");
  AddNodeAttr("dtype", value.dtype(), &def);
  value.AsProtoTensorContent((*def.mutable_attr())["value"].mutable_tensor());
  return def;
}

namespace {

// A Const's NodeDef without its value, and the value as the node's decoded attr.
NodeDef ConstDefWithoutValue(const std::string& name, DataType dtype) {
  NodeDef def;
  def.set_name(name);
  def.set_op("Const");
  AddNodeAttr("dtype", dtype, &def);
  return def;
}

TensorAttrs HeldValue(const Tensor& value) {
  // Kernels read a Const's output through aligned Eigen maps; a kernel's output is aligned
  // unless it shares caller memory (a fed tensor's, a mapped file's).
  const bool aligned =
      reinterpret_cast<uintptr_t>(value.raw_data()) % kTensorAlignment == 0;
  return {{"value", aligned ? value : value.DeepCopy()}};
}

}  // namespace

std::vector<Node*> ControlInputs(const Node* n) {
  std::vector<Node*> out;
  for (const Edge* e : n->in_edges()) {
    if (e->IsControlEdge()) out.push_back(e->src);
  }
  return out;
}

absl::StatusOr<Node*> AddConst(Graph* g, const std::string& name, const Tensor& value,
                               const Placement& where, const std::vector<Node*>& controls) {
  return AddNodeAt(g, ConstDefWithoutValue(name, value.dtype()), where, {}, controls,
                   {PartialTensorShape(value.shape())}, HeldValue(value));
}

absl::StatusOr<Node*> ReplaceWithConst(Graph* g, Node* old, const Tensor& value,
                                       const std::vector<Node*>& controls) {
  SG_ASSIGN_OR_RETURN(Node * c, ReplaceNode(g, old, ConstDefWithoutValue("", value.dtype()), {},
                                            controls, /*keep_control_inputs=*/false,
                                            HeldValue(value)));
  *c->mutable_output_shapes() = {PartialTensorShape(value.shape())};
  return c;
}

absl::StatusOr<Node*> AddNodeAt(Graph* g, NodeDef def, const Placement& where,
                                const std::vector<std::pair<Node*, int>>& inputs,
                                const std::vector<Node*>& controls,
                                std::vector<PartialTensorShape> shapes,
                                TensorAttrs tensor_attrs) {
  def.set_device(where.requested);
  def.clear_input();
  SG_ASSIGN_OR_RETURN(Node * n, g->AddNode(std::move(def), std::move(tensor_attrs)));
  n->set_assigned_device_name(where.assigned);
  if (static_cast<int>(inputs.size()) != n->num_inputs()) {
    const std::string msg = absl::StrCat("graph optimizer: node '", n->name(), "' made with ",
                                         inputs.size(), " inputs for ", n->num_inputs(),
                                         " slots");
    g->RemoveNode(n);
    return errors::Internal(msg);
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    absl::Status s = g->AddEdge(inputs[i].first, inputs[i].second, n, static_cast<int>(i)).status();
    if (!s.ok()) {
      g->RemoveNode(n);
      return errors::Internal("graph optimizer: ", s.message());
    }
  }
  for (Node* c : controls) g->AddControlEdge(c, n);
  if (shapes.size() == static_cast<size_t>(n->num_outputs())) {
    *n->mutable_output_shapes() = std::move(shapes);
  }
  return n;
}

absl::StatusOr<Node*> ReplaceNode(Graph* g, Node* old, NodeDef def,
                                  const std::vector<std::pair<Node*, int>>& inputs,
                                  std::vector<Node*> controls, bool keep_control_inputs,
                                  TensorAttrs tensor_attrs) {
  struct Out {
    int src_output;
    Node* dst;
    int dst_input;
  };
  std::vector<Out> outs;
  for (const Edge* e : old->out_edges()) outs.push_back({e->src_output, e->dst, e->dst_input});
  for (const Edge* e : old->in_edges()) {
    if (keep_control_inputs && e->IsControlEdge()) controls.push_back(e->src);
  }
  std::sort(controls.begin(), controls.end());
  controls.erase(std::unique(controls.begin(), controls.end()), controls.end());
  std::vector<PartialTensorShape> shapes = old->output_shapes();
  // `old` goes first, to free its name.
  const Placement where(old);
  def.set_name(old->name());
  g->RemoveNode(old);
  def.set_device(where.requested);
  def.clear_input();
  SG_ASSIGN_OR_RETURN(Node * n, g->AddNode(std::move(def), std::move(tensor_attrs)));
  n->set_assigned_device_name(where.assigned);
  auto fail = [&](const std::string& what) {
    return errors::Internal("graph optimizer: replacing node '", n->name(), "': ", what);
  };
  if (static_cast<int>(inputs.size()) != n->num_inputs()) {
    return fail(absl::StrCat(inputs.size(), " inputs for ", n->num_inputs(), " slots"));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    absl::Status s = g->AddEdge(inputs[i].first, inputs[i].second, n, static_cast<int>(i)).status();
    if (!s.ok()) return fail(std::string(s.message()));
  }
  for (Node* c : controls) g->AddControlEdge(c, n);
  for (const Out& o : outs) {
    if (o.src_output == kControlSlot) {
      g->AddControlEdge(n, o.dst);
      continue;
    }
    if (o.src_output >= n->num_outputs()) {
      return fail(absl::StrCat("output ", o.src_output, " is used but the new node has ",
                               n->num_outputs()));
    }
    absl::Status s = g->AddEdge(n, o.src_output, o.dst, o.dst_input).status();
    if (!s.ok()) return fail(std::string(s.message()));
  }
  shapes.resize(n->num_outputs());
  *n->mutable_output_shapes() = std::move(shapes);
  return n;
}

int RemoveDeadNodes(Graph* g, const std::set<std::string>& preserve) {
  auto removable = [&](const Node* n) {
    if (!n->out_edges().empty() || preserve.count(n->name())) return false;
    // A NoOp only orders; once nothing waits for it, it does nothing.
    if ((n->num_outputs() == 0 && n->type_string() != "NoOp") || IsSink(n) ||
        n->IsControlFlow() || n->IsArg() || n->IsRecv() || n->IsSend() ||
        n->op_def().is_stateful()) {
      return false;
    }
    return true;
  };
  int removed = 0;
  std::vector<Node*> work;
  for (Node* n : g->nodes()) {
    if (removable(n)) work.push_back(n);
  }
  while (!work.empty()) {
    Node* n = work.back();
    work.pop_back();
    if (!IsLive(*g, n) || !removable(n)) continue;
    std::vector<Node*> inputs;
    for (const Edge* e : n->in_edges()) inputs.push_back(e->src);
    g->RemoveNode(n);
    ++removed;
    for (Node* in : inputs) {
      if (IsLive(*g, in) && removable(in)) work.push_back(in);
    }
  }
  return removed;
}

}  // namespace graph_opt
}  // namespace sg
