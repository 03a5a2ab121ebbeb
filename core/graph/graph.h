// Graph: nodes (each a NodeDef checked against its OpDef, with its input and output dtypes) joined
// by data edges (output slot -> input slot) and control edges. Built from a GraphDef by
// ImportGraphDef (graph_constructor.h) or node by node through AddNode/AddEdge.
// Thread safety: none; a Graph is built by one thread and then only read.
#ifndef SG_CORE_GRAPH_GRAPH_H_
#define SG_CORE_GRAPH_GRAPH_H_

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/framework/node_def_util.h"
#include "core/framework/op.h"
#include "core/framework/status.h"
#include "core/framework/tensor_shape.h"
#include "core/framework/types.h"
#include "core/graph/function_library.h"
#include "core/proto/graph.pb.h"
#include "core/proto/node_def.pb.h"

namespace sg {

class Graph;
class Node;

constexpr int kControlSlot = -1;

struct Edge {
  Node* src;
  int src_output;  // kControlSlot for a control edge
  Node* dst;
  int dst_input;   // kControlSlot for a control edge
  int id;
  bool IsControlEdge() const { return src_output == kControlSlot; }
};

class Node {
 public:
  int id() const { return id_; }
  // The graph the node belongs to.
  const Graph* graph() const { return graph_; }
  const std::string& name() const { return def_->name(); }
  const std::string& type_string() const { return def_->op(); }
  const NodeDef& def() const { return *def_; }
  // The NodeDef, immutable and shared: with kernels, which keep it alive, and with the other
  // graphs (clones, a session's copies of a client's graph) that hold the same node, so that a
  // Const's value is not copied with the graph. AddAttr copies it first when it is shared (copy
  // on write). Its `device` is the request the node was added with; requested_device() is the
  // node's current one (ToGraphDef writes that).
  std::shared_ptr<const NodeDef> shared_def() const { return def_; }
  // Tensor attrs the node holds decoded instead of in its NodeDef (TensorAttrs in
  // node_def_util.h): the value of a Const the graph optimiser made. The executor hands them to
  // the node's kernel, which shares the Tensors; clones share them too; ToGraphDef and
  // PartitionGraph write them into the NodeDefs they make (WriteDef).
  const TensorAttrs& tensor_attrs() const { return tensor_attrs_; }
  // def() with the tensor attrs written in: what a GraphDef gets for this node (its inputs are
  // def()'s, not rebuilt from the edges).
  void WriteDef(NodeDef* out) const;
  const OpDef& op_def() const { return *op_def_; }
  const OpRegistrationData& op_reg() const { return *op_reg_; }

  int num_inputs() const { return static_cast<int>(input_types_.size()); }
  int num_outputs() const { return static_cast<int>(output_types_.size()); }
  DataType input_type(int i) const { return input_types_[i]; }
  DataType output_type(int i) const { return output_types_[i]; }
  const std::vector<DataType>& input_types() const { return input_types_; }
  const std::vector<DataType>& output_types() const { return output_types_; }

  const std::string& requested_device() const { return requested_device_; }
  const std::string& assigned_device_name() const { return assigned_device_; }
  void set_assigned_device_name(std::string d) { assigned_device_ = std::move(d); }
  // Kept in the node, not written into the shared NodeDef: placing a graph copies no NodeDef.
  void set_requested_device(std::string d) { requested_device_ = std::move(d); }
  // Replaces (or adds) an attr (a decoded tensor attr of that name is dropped); the op's types
  // are not recomputed.
  void AddAttr(const std::string& name, const AttrValue& value);

  // The data edge into input slot i, or nullptr while it is not connected.
  const Edge* input_edge(int i) const { return inputs_[i]; }
  const std::vector<const Edge*>& in_edges() const { return in_edges_; }
  const std::vector<const Edge*>& out_edges() const { return out_edges_; }

  // Inferred static shapes of the outputs (unknown where not inferred).
  const std::vector<PartialTensorShape>& output_shapes() const { return output_shapes_; }
  std::vector<PartialTensorShape>* mutable_output_shapes() { return &output_shapes_; }

  bool IsSwitch() const { return type_string() == "Switch" || type_string() == "RefSwitch"; }
  bool IsMerge() const { return type_string() == "Merge" || type_string() == "RefMerge"; }
  bool IsEnter() const { return type_string() == "Enter" || type_string() == "RefEnter"; }
  bool IsExit() const { return type_string() == "Exit" || type_string() == "RefExit"; }
  bool IsNextIteration() const {
    return type_string() == "NextIteration" || type_string() == "RefNextIteration";
  }
  bool IsLoopCond() const { return type_string() == "LoopCond"; }
  bool IsControlFlow() const {
    return IsSwitch() || IsMerge() || IsEnter() || IsExit() || IsNextIteration();
  }
  bool IsSend() const { return type_string() == "_Send"; }
  bool IsRecv() const { return type_string() == "_Recv"; }
  bool IsArg() const { return type_string() == "_Arg"; }
  bool IsRetval() const { return type_string() == "_Retval"; }
  bool IsFunctionCall() const { return op_reg_->function != nullptr; }

 private:
  friend class Graph;
  int id_ = -1;
  const Graph* graph_ = nullptr;
  std::shared_ptr<const NodeDef> def_;
  TensorAttrs tensor_attrs_;
  const OpDef* op_def_ = nullptr;
  const OpRegistrationData* op_reg_ = nullptr;
  std::vector<DataType> input_types_, output_types_;
  std::string requested_device_;
  std::string assigned_device_;
  std::vector<const Edge*> inputs_;
  std::vector<const Edge*> in_edges_, out_edges_;
  std::vector<PartialTensorShape> output_shapes_;
};

class Graph {
 public:
  // Op types are looked up in the graph's function library, then in the global registry.
  Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  ~Graph();

  // Adds a node: looks up its op, adds default attrs, validates the NodeDef and computes its
  // types. The NodeDef's `input` field is kept for export but edges are added separately.
  // INVALID_ARGUMENT on a duplicate name or a bad NodeDef, NOT_FOUND for an unknown op.
  absl::StatusOr<Node*> AddNode(NodeDef def);
  // The same with a shared NodeDef, which the node shares rather than copies unless defaults
  // must be added to it (then the node gets its own copy; `def` is never changed).
  absl::StatusOr<Node*> AddNode(std::shared_ptr<const NodeDef> def);
  // The same with tensor attrs held decoded (Node::tensor_attrs), absent from `def`: validated
  // as ValidateNodeDef does with them.
  absl::StatusOr<Node*> AddNode(NodeDef def, TensorAttrs tensor_attrs);
  absl::StatusOr<Node*> AddNode(std::shared_ptr<const NodeDef> def, TensorAttrs tensor_attrs);
  void RemoveNode(Node* node);
  // Data edge src:x -> dst:y. INVALID_ARGUMENT when the slot is out of range, already taken, or
  // the dtypes do not fit (a reference output may feed a value input).
  absl::StatusOr<const Edge*> AddEdge(Node* src, int x, Node* dst, int y);
  const Edge* AddControlEdge(Node* src, Node* dst);
  void RemoveEdge(const Edge* e);

  Node* FindNode(absl::string_view name) const;
  Node* FindNodeId(int id) const { return id >= 0 && id < nodes_.size() ? nodes_[id] : nullptr; }
  int num_node_ids() const { return static_cast<int>(nodes_.size()); }
  int num_nodes() const { return num_nodes_; }
  // All live nodes in id order.
  std::vector<Node*> nodes() const;

  FunctionLibrary* mutable_flib() { return &flib_; }
  const FunctionLibrary& flib() const { return flib_; }
  const VersionDef& versions() const { return versions_; }
  VersionDef* mutable_versions() { return &versions_; }

  // A name not used by any node, starting with `prefix`.
  std::string NewName(absl::string_view prefix);

  // Writes every node (inputs rebuilt from the edges, in slot order, then control inputs; tensor
  // attrs held decoded written into the NodeDef) with the versions and the function library.
  void ToGraphDef(GraphDef* out) const;
  // A copy of this graph (nodes, edges, devices, library, versions); the nodes share their
  // NodeDefs and decoded tensor attrs with this graph's.
  std::unique_ptr<Graph> Clone() const;

 private:
  std::vector<Node*> nodes_;  // by id; nullptr once removed
  std::vector<std::unique_ptr<Node>> node_storage_;
  std::vector<std::unique_ptr<Edge>> edge_storage_;
  std::unordered_map<std::string, Node*> by_name_;
  int num_nodes_ = 0;
  int next_edge_id_ = 0;
  int name_counter_ = 0;
  FunctionLibrary flib_;
  VersionDef versions_;
};

// The NodeDef `*def` points to, for changing: the same object when `*def` is its only owner,
// otherwise a copy that `*def` then points to (copy on write; other owners see no change).
// `*def` must have been made as a non-const NodeDef (std::make_shared<NodeDef>), as every
// shared NodeDef in sg is.
NodeDef* MutableNodeDef(std::shared_ptr<const NodeDef>* def);

// Whether a value of dtype `src` may flow into an input of dtype `dst` (equal, or a reference
// into a value of its base type).
bool TypesCompatible(DataType dst, DataType src);

// Nodes in an order where every node comes after its inputs, ignoring the back edges that
// NextIteration nodes close; INVALID_ARGUMENT naming a node on a cycle when there is another
// cycle.
absl::StatusOr<std::vector<Node*>> TopologicalOrder(const Graph& g);

}  // namespace sg

#endif  // SG_CORE_GRAPH_GRAPH_H_
