#include "core/graph/node_builder.h"

#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/graph/graph_constructor.h"

namespace sg {
namespace {

// Sets attr `name` to `value` unless the NodeDef already holds it.
void DefaultAttr(NodeDef* def, const std::string& name, const AttrValue& value) {
  if (name.empty() || def->attr().count(name)) return;
  (*def->mutable_attr())[name] = value;
}

// INVALID_ARGUMENT unless `n` is a node of `g`.
absl::Status CheckInGraph(const Graph& g, const Node* n, const std::string& what) {
  if (n == nullptr) return errors::InvalidArgument(what, " is a null node");
  if (n->graph() != &g || g.FindNodeId(n->id()) != n) {
    return errors::InvalidArgument(what, " is a node of another graph (or a removed one)");
  }
  return absl::OkStatus();
}

}  // namespace

NodeBuilder::NodeBuilder(const std::string& name, const std::string& op) {
  def_.set_name(name);
  def_.set_op(op);
}

NodeBuilder& NodeBuilder::Input(Output output) {
  inputs_.push_back({false, {output}});
  return *this;
}

NodeBuilder& NodeBuilder::InputList(std::vector<Output> outputs) {
  inputs_.push_back({true, std::move(outputs)});
  return *this;
}

NodeBuilder& NodeBuilder::ControlInput(Node* node) {
  control_inputs_.push_back(node);
  return *this;
}

NodeBuilder& NodeBuilder::Device(const std::string& device) {
  def_.set_device(device);
  return *this;
}

NodeBuilder& NodeBuilder::Attr(const std::string& name, const AttrValue& value) {
  (*def_.mutable_attr())[name] = value;
  return *this;
}

NodeBuilder& NodeBuilder::ColocateWith(const std::string& node) {
  colocation_.push_back("loc:@" + node);
  return *this;
}

absl::StatusOr<Node*> NodeBuilder::Finalize(Graph* g) const {
  NodeDef def = def_;
  const std::string& name = def.name();
  if (name.empty()) {
    return errors::InvalidArgument("an operation of type '", def.op(), "' has no name");
  }
  const OpRegistrationData* reg = g->flib().LookUp(def.op());
  if (reg == nullptr) {
    return errors::NotFound("Op type not registered '", def.op(), "' (operation '", name, "')");
  }
  if (g->FindNode(name) != nullptr) {
    return errors::InvalidArgument("Duplicate node name in graph: '", name, "'");
  }
  // Match the inputs to the OpDef's input args, filling in the attrs they imply.
  const OpDef& op_def = reg->op_def;
  if (inputs_.size() != static_cast<size_t>(op_def.input_arg_size())) {
    std::string args;
    for (const auto& a : op_def.input_arg()) {
      absl::StrAppend(&args, args.empty() ? "" : ", ", a.name());
    }
    return errors::InvalidArgument("Operation '", name, "' (op ", op_def.name(), ") was given ",
                                   inputs_.size(), " inputs but the op takes ",
                                   op_def.input_arg_size(), " (", args, ")");
  }
  for (size_t k = 0; k < inputs_.size(); ++k) {
    const auto& arg = op_def.input_arg(k);
    const InputArg& in = inputs_[k];
    const bool arg_is_list = !arg.number_attr().empty() || !arg.type_list_attr().empty();
    if (arg_is_list != in.is_list) {
      return errors::InvalidArgument("Operation '", name, "': input '", arg.name(), "' of op ",
                                     op_def.name(),
                                     arg_is_list ? " is a list (give a list of tensors)"
                                                 : " is a single tensor (give one tensor)");
    }
    std::vector<DataType> types;
    for (size_t j = 0; j < in.outputs.size(); ++j) {
      const Output& o = in.outputs[j];
      const std::string what = absl::StrCat("Operation '", name, "': input '", arg.name(), "'",
                                            in.is_list ? absl::StrCat("[", j, "]") : "");
      SG_RETURN_IF_ERROR(CheckInGraph(*g, o.node, what));
      if (o.index < 0 || o.index >= o.node->num_outputs()) {
        return errors::InvalidArgument(what, " names output ", o.index, " of '", o.node->name(),
                                       "', which has ", o.node->num_outputs(), " outputs");
      }
      types.push_back(BaseType(o.node->output_type(o.index)));
      def.add_input(o.index == 0 ? o.node->name() : absl::StrCat(o.node->name(), ":", o.index));
    }
    AttrValue v;
    if (!arg.number_attr().empty()) {
      v.set_i(static_cast<int64_t>(types.size()));
      DefaultAttr(&def, arg.number_attr(), v);
    }
    if (!arg.type_list_attr().empty()) {
      v.Clear();
      for (DataType t : types) v.mutable_list()->add_type(t);
      DefaultAttr(&def, arg.type_list_attr(), v);
    }
    if (!arg.type_attr().empty() && !types.empty()) {
      v.Clear();
      v.set_type(types[0]);
      DefaultAttr(&def, arg.type_attr(), v);
    }
  }
  for (Node* c : control_inputs_) {
    SG_RETURN_IF_ERROR(CheckInGraph(*g, c, absl::StrCat("Operation '", name, "': a control input")));
  }
  if (!colocation_.empty()) {
    std::set<std::string> classes(colocation_.begin(), colocation_.end());
    AttrValue v;
    for (const auto& c : classes) v.mutable_list()->add_s(c);
    (*def.mutable_attr())["_class"] = v;
  }
  SG_ASSIGN_OR_RETURN(Node * node, g->AddNode(std::move(def)));
  // From here on a failure removes the node again.
  absl::Status s;
  int slot = 0;
  for (const InputArg& in : inputs_) {
    for (const Output& o : in.outputs) {
      auto e = g->AddEdge(o.node, o.index, node, slot++);
      if (!e.ok()) {
        s = e.status();
        break;
      }
    }
    if (!s.ok()) break;
  }
  if (s.ok()) {
    for (Node* c : control_inputs_) g->AddControlEdge(c, node);
    s = InferNodeShapes(node);
    if (!s.ok()) {
      s = errors::Annotate(s, absl::StrCat("Operation '", node->name(), "' (op ",
                                           node->type_string(), "): shape inference: "));
    }
  }
  if (!s.ok()) {
    g->RemoveNode(node);
    return s;
  }
  return node;
}

}  // namespace sg
