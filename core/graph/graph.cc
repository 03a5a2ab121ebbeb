#include "core/graph/graph.h"

#include <algorithm>
#include <deque>

#include "core/framework/node_def_util.h"

namespace sg {

bool TypesCompatible(DataType dst, DataType src) {
  return dst == src || (!IsRefType(dst) && BaseType(src) == dst);
}

NodeDef* MutableNodeDef(std::shared_ptr<const NodeDef>* def) {
  // use_count() == 1: no other owner exists, and none can appear but through *def. A count read
  // as higher while another owner lets go only costs a needless copy.
  if (def->use_count() != 1) *def = std::make_shared<NodeDef>(**def);
  return const_cast<NodeDef*>(def->get());
}

void Node::AddAttr(const std::string& name, const AttrValue& value) {
  tensor_attrs_.erase(name);
  (*MutableNodeDef(&def_)->mutable_attr())[name] = value;
}

void Node::WriteDef(NodeDef* out) const {
  *out = *def_;
  AddTensorAttrsToNodeDef(tensor_attrs_, out);
}

Graph::Graph() = default;
Graph::~Graph() = default;

absl::StatusOr<Node*> Graph::AddNode(NodeDef def) {
  return AddNode(std::make_shared<NodeDef>(std::move(def)));
}

namespace {

// Whether `def` lacks an attr for which `op` has a default.
bool LacksDefaults(const OpDef& op, const NodeDef& def) {
  for (const auto& a : op.attr()) {
    if (a.has_default_value() && !def.attr().count(a.name())) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<Node*> Graph::AddNode(std::shared_ptr<const NodeDef> def) {
  return AddNode(std::move(def), TensorAttrs());
}

absl::StatusOr<Node*> Graph::AddNode(NodeDef def, TensorAttrs tensor_attrs) {
  return AddNode(std::make_shared<NodeDef>(std::move(def)), std::move(tensor_attrs));
}

absl::StatusOr<Node*> Graph::AddNode(std::shared_ptr<const NodeDef> def,
                                     TensorAttrs tensor_attrs) {
  if (def->name().empty()) {
    return errors::InvalidArgument("a node has no name (op ", def->op(), ")");
  }
  if (by_name_.count(def->name())) {
    return errors::InvalidArgument("Duplicate node name in graph: '", def->name(), "'");
  }
  const OpRegistrationData* reg = flib_.LookUp(def->op());
  if (reg == nullptr) {
    return errors::NotFound("Op type not registered '", def->op(), "' (node '", def->name(),
                            "')");
  }
  if (LacksDefaults(reg->op_def, *def)) AddDefaultsToNodeDef(reg->op_def, MutableNodeDef(&def));
  SG_RETURN_IF_ERROR(
      ValidateNodeDef(*def, reg->op_def, tensor_attrs.empty() ? nullptr : &tensor_attrs));
  auto node = std::make_unique<Node>();
  SG_RETURN_IF_ERROR(
      InOutTypesForNode(*def, reg->op_def, &node->input_types_, &node->output_types_));
  node->id_ = static_cast<int>(nodes_.size());
  node->graph_ = this;
  node->requested_device_ = def->device();
  node->def_ = std::move(def);
  node->tensor_attrs_ = std::move(tensor_attrs);
  node->op_def_ = &reg->op_def;
  node->op_reg_ = reg;
  node->inputs_.assign(node->input_types_.size(), nullptr);
  node->output_shapes_.assign(node->output_types_.size(), PartialTensorShape());
  Node* n = node.get();
  nodes_.push_back(n);
  node_storage_.push_back(std::move(node));
  by_name_[n->name()] = n;
  ++num_nodes_;
  return n;
}

void Graph::RemoveNode(Node* node) {
  while (!node->in_edges_.empty()) RemoveEdge(node->in_edges_.back());
  while (!node->out_edges_.empty()) RemoveEdge(node->out_edges_.back());
  by_name_.erase(node->name());
  nodes_[node->id_] = nullptr;
  --num_nodes_;
}

absl::StatusOr<const Edge*> Graph::AddEdge(Node* src, int x, Node* dst, int y) {
  if (x < 0 || x >= src->num_outputs()) {
    return errors::InvalidArgument("node '", dst->name(), "' takes input ", src->name(), ":", x,
                                   " but '", src->name(), "' has ", src->num_outputs(),
                                   " outputs");
  }
  if (y < 0 || y >= dst->num_inputs()) {
    return errors::InvalidArgument("node '", dst->name(), "' has ", dst->num_inputs(),
                                   " inputs, not ", y + 1);
  }
  if (dst->inputs_[y] != nullptr) {
    return errors::InvalidArgument("input ", y, " of node '", dst->name(), "' is connected twice");
  }
  if (!TypesCompatible(dst->input_type(y), src->output_type(x))) {
    return errors::InvalidArgument("Input ", y, " of node '", dst->name(), "' was passed ",
                                   DataTypeString(src->output_type(x)), " from ", src->name(),
                                   ":", x, " incompatible with expected ",
                                   DataTypeString(dst->input_type(y)));
  }
  auto e = std::make_unique<Edge>(Edge{src, x, dst, y, next_edge_id_++});
  const Edge* edge = e.get();
  edge_storage_.push_back(std::move(e));
  src->out_edges_.push_back(edge);
  dst->in_edges_.push_back(edge);
  dst->inputs_[y] = edge;
  return edge;
}

const Edge* Graph::AddControlEdge(Node* src, Node* dst) {
  for (const Edge* e : dst->in_edges_) {
    if (e->IsControlEdge() && e->src == src) return e;
  }
  auto e = std::make_unique<Edge>(Edge{src, kControlSlot, dst, kControlSlot, next_edge_id_++});
  const Edge* edge = e.get();
  edge_storage_.push_back(std::move(e));
  src->out_edges_.push_back(edge);
  dst->in_edges_.push_back(edge);
  return edge;
}

void Graph::RemoveEdge(const Edge* e) {
  auto erase = [e](std::vector<const Edge*>* v) {
    v->erase(std::remove(v->begin(), v->end(), e), v->end());
  };
  erase(&e->src->out_edges_);
  erase(&e->dst->in_edges_);
  if (!e->IsControlEdge()) e->dst->inputs_[e->dst_input] = nullptr;
  // Edge memory stays in edge_storage_ until the graph dies; edges are small.
}

Node* Graph::FindNode(absl::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : it->second;
}

std::vector<Node*> Graph::nodes() const {
  std::vector<Node*> out;
  out.reserve(num_nodes_);
  for (Node* n : nodes_) {
    if (n) out.push_back(n);
  }
  return out;
}

std::string Graph::NewName(absl::string_view prefix) {
  std::string name;
  do {
    name = absl::StrCat(prefix, "/_", name_counter_++);
  } while (by_name_.count(name));
  return name;
}

void Graph::ToGraphDef(GraphDef* out) const {
  out->Clear();
  *out->mutable_versions() = versions_;
  flib_.ToProto(out->mutable_library());
  if (out->library().function_size() == 0 && out->library().gradient_size() == 0) {
    out->clear_library();
  }
  for (Node* n : nodes()) {
    NodeDef* def = out->add_node();
    n->WriteDef(def);
    def->clear_input();
    for (int i = 0; i < n->num_inputs(); ++i) {
      const Edge* e = n->input_edge(i);
      if (e == nullptr) continue;
      def->add_input(e->src_output == 0 ? e->src->name()
                                        : absl::StrCat(e->src->name(), ":", e->src_output));
    }
    std::vector<std::string> controls;
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge()) controls.push_back("^" + e->src->name());
    }
    std::sort(controls.begin(), controls.end());
    for (auto& c : controls) def->add_input(c);
    def->set_device(n->assigned_device_name().empty() ? n->requested_device()
                                                      : n->assigned_device_name());
  }
}

std::unique_ptr<Graph> Graph::Clone() const {
  auto g = std::make_unique<Graph>();
  g->flib_ = flib_;
  g->versions_ = versions_;
  std::vector<Node*> map(nodes_.size(), nullptr);
  for (Node* n : nodes()) {
    // The NodeDef was validated (and given its defaults) when first added, so this cannot fail
    // and shares it.
    Node* c = *g->AddNode(n->def_, n->tensor_attrs_);
    c->requested_device_ = n->requested_device_;
    c->assigned_device_ = n->assigned_device_;
    c->output_shapes_ = n->output_shapes_;
    map[n->id()] = c;
  }
  for (Node* n : nodes()) {
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge()) {
        g->AddControlEdge(map[e->src->id()], map[n->id()]);
      } else {
        g->AddEdge(map[e->src->id()], e->src_output, map[n->id()], e->dst_input).IgnoreError();
      }
    }
  }
  return g;
}

absl::StatusOr<std::vector<Node*>> TopologicalOrder(const Graph& g) {
  std::vector<int> pending(g.num_node_ids(), 0);
  std::deque<Node*> ready;
  std::vector<Node*> all = g.nodes();
  for (Node* n : all) {
    for (const Edge* e : n->in_edges()) {
      if (!e->src->IsNextIteration()) ++pending[n->id()];
    }
    if (pending[n->id()] == 0) ready.push_back(n);
  }
  std::vector<Node*> order;
  order.reserve(all.size());
  while (!ready.empty()) {
    Node* n = ready.front();
    ready.pop_front();
    order.push_back(n);
    for (const Edge* e : n->out_edges()) {
      if (n->IsNextIteration()) continue;
      if (--pending[e->dst->id()] == 0) ready.push_back(e->dst);
    }
  }
  if (order.size() != all.size()) {
    for (Node* n : all) {
      if (pending[n->id()] > 0) {
        return errors::InvalidArgument(
            "Graph contains a cycle that is not a while loop (no NextIteration closes it); node '",
            n->name(), "' is on it or after it");
      }
    }
  }
  return order;
}

}  // namespace sg
