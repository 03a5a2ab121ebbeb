#include "core/graph/partition.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/node_def_util.h"

namespace sg {

absl::Status BridgeControlFlowEdges(Graph* g) {
  std::vector<const Edge*> cut;
  for (Node* n : g->nodes()) {
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge()) continue;
      if (e->src->assigned_device_name() == n->assigned_device_name()) continue;
      if (e->src->IsControlFlow() || n->IsControlFlow()) cut.push_back(e);
    }
  }
  for (const Edge* e : cut) {
    Node* src = e->src;
    Node* dst = e->dst;
    const int src_output = e->src_output, dst_input = e->dst_input;
    const DataType dtype = BaseType(src->output_type(src_output));
    auto bridge = [&](Node* side) -> absl::StatusOr<Node*> {
      NodeDef def;
      def.set_name(g->NewName(absl::StrCat(src->name(), "/_cf_bridge")));
      def.set_op("Identity");
      def.set_device(side->assigned_device_name());
      AddNodeAttr("T", dtype, &def);
      SG_ASSIGN_OR_RETURN(Node * id, g->AddNode(std::move(def)));
      id->set_assigned_device_name(side->assigned_device_name());
      return id;
    };
    g->RemoveEdge(e);
    Node* from = src;
    int from_output = src_output;
    if (src->IsControlFlow()) {
      SG_ASSIGN_OR_RETURN(Node * id, bridge(src));
      SG_RETURN_IF_ERROR(g->AddEdge(from, from_output, id, 0).status());
      from = id;
      from_output = 0;
    }
    if (dst->IsControlFlow()) {
      SG_ASSIGN_OR_RETURN(Node * id, bridge(dst));
      SG_RETURN_IF_ERROR(g->AddEdge(from, from_output, id, 0).status());
      from = id;
      from_output = 0;
    }
    SG_RETURN_IF_ERROR(g->AddEdge(from, from_output, dst, dst_input).status());
  }
  return absl::OkStatus();
}

absl::Status PartitionGraph(const Graph& g, const PartitionOptions& options,
                            std::map<std::string, GraphDef>* partitions) {
  partitions->clear();
  std::map<int, NodeDef*> defs;
  for (Node* n : g.nodes()) {
    const std::string& dev = n->assigned_device_name();
    if (dev.empty()) return errors::Internal("node '", n->name(), "' has no device");
    GraphDef& part = (*partitions)[dev];
    if (!part.has_versions()) *part.mutable_versions() = g.versions();
    NodeDef* def = part.add_node();
    n->WriteDef(def);
    def->clear_input();
    def->set_device(dev);
    defs[n->id()] = def;
  }
  // One _Send/_Recv pair per (source tensor, destination device).
  std::map<std::tuple<int, int, std::string>, std::string> recv_of;
  auto tensor_input = [](const std::string& node, int index) {
    return index == 0 ? node : absl::StrCat(node, ":", index);
  };
  for (Node* n : g.nodes()) {
    const std::string& dst_dev = n->assigned_device_name();
    NodeDef* def = defs[n->id()];
    std::vector<std::string> data(n->num_inputs()), control;
    for (const Edge* e : n->in_edges()) {
      const std::string& src_dev = e->src->assigned_device_name();
      if (src_dev == dst_dev) {
        if (e->IsControlEdge()) {
          control.push_back("^" + e->src->name());
        } else {
          data[e->dst_input] = tensor_input(e->src->name(), e->src_output);
        }
        continue;
      }
      if (e->src->IsControlFlow() || n->IsControlFlow()) {
        return errors::Unimplemented("edge ", e->src->name(), " -> ", n->name(),
                                     " crosses devices inside control flow");
      }
      auto key = std::make_tuple(e->src->id(), e->src_output, dst_dev);
      auto it = recv_of.find(key);
      if (it == recv_of.end()) {
        GraphDef& src_part = (*partitions)[src_dev];
        GraphDef& dst_part = (*partitions)[dst_dev];
        const std::string edge_name = absl::StrCat("edge_", e->id, "_", e->src->name());
        std::string sent = tensor_input(e->src->name(), e->src_output);
        DataType dtype = DT_FLOAT;
        if (e->IsControlEdge()) {
          // A control edge carries an empty tensor made after the source ran.
          NodeDef* dummy = src_part.add_node();
          dummy->set_name(absl::StrCat(edge_name, "/_ctrl_const"));
          dummy->set_op("Const");
          dummy->set_device(src_dev);
          AddNodeAttr("dtype", DT_FLOAT, dummy);
          Tensor empty(DT_FLOAT, TensorShape({0}));
          AddNodeAttr("value", empty, dummy);
          dummy->add_input("^" + e->src->name());
          sent = dummy->name();
        } else {
          dtype = BaseType(e->src->output_type(e->src_output));
        }
        const int64_t incarnation =
            options.get_incarnation ? static_cast<int64_t>(options.get_incarnation(src_dev)) : 0;
        NodeDef* send = src_part.add_node();
        send->set_name(absl::StrCat(edge_name, "/_send"));
        send->set_op("_Send");
        send->set_device(src_dev);
        send->add_input(sent);
        AddNodeAttr("T", dtype, send);
        AddNodeAttr("tensor_name", edge_name, send);
        AddNodeAttr("send_device", src_dev, send);
        AddNodeAttr("send_device_incarnation", incarnation, send);
        AddNodeAttr("recv_device", dst_dev, send);
        AddNodeAttr("client_terminated", false, send);
        NodeDef* recv = dst_part.add_node();
        recv->set_name(absl::StrCat(edge_name, "/_recv"));
        recv->set_op("_Recv");
        recv->set_device(dst_dev);
        AddNodeAttr("tensor_type", dtype, recv);
        AddNodeAttr("tensor_name", edge_name, recv);
        AddNodeAttr("send_device", src_dev, recv);
        AddNodeAttr("send_device_incarnation", incarnation, recv);
        AddNodeAttr("recv_device", dst_dev, recv);
        AddNodeAttr("client_terminated", false, recv);
        it = recv_of.emplace(key, recv->name()).first;
      }
      if (e->IsControlEdge()) {
        control.push_back("^" + it->second);
      } else {
        data[e->dst_input] = it->second;
      }
    }
    // RepeatedPtrField keeps element addresses stable, so `def` is still valid.
    for (const std::string& in : data) def->add_input(in);
    std::sort(control.begin(), control.end());
    control.erase(std::unique(control.begin(), control.end()), control.end());
    for (const std::string& c : control) def->add_input(c);
  }
  FunctionDefLibrary lib;
  g.flib().ToProto(&lib);
  if (lib.function_size() > 0) {
    for (auto& kv : *partitions) *kv.second.mutable_library() = lib;
  }
  return absl::OkStatus();
}

}  // namespace sg
