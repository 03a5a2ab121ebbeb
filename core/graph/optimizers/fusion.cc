// Fusion, as TensorFlow's remapper does it: a convolution or matrix product, its BiasAdd and an
// activation become one node whose kernel adds the bias and applies the activation while the
// product's output is still in cache, instead of two more passes over it:
//   Conv2D (float, NHWC) + BiasAdd [+ Relu | Relu6 | Elu | LeakyRelu]        -> _FusedConv2D
//   DepthwiseConv2dNative (float, NHWC) + BiasAdd [+ the same]  -> _FusedDepthwiseConv2dNative
//   MatMul (float) + BiasAdd [+ Relu | Relu6 | Elu | LeakyRelu | Tanh | Sigmoid] -> _FusedMatMul
// and, for EfficientNet's activation, swish (y * sigmoid(y), which Keras writes as
// Mul(y, Sigmoid(Mul(y, 1)))) after either convolution's BiasAdd -> fused_ops
// [BiasAdd, _MklSwish], the name TensorFlow's oneDNN build gives it;
// with TensorFlow's attrs (fused_ops = ["BiasAdd", activation], leakyrelu_alpha), so the graph
// stays one TensorFlow could run; and then, for ResNet's residual blocks,
//   _FusedConv2D [BiasAdd] + Add / AddV2 of a tensor of the same shape [+ Relu | Relu6 | Elu |
//   LeakyRelu]  -> _FusedConv2D [BiasAdd, Add(, act)] with the addend as its second arg
// (TensorFlow's oneDNN build writes the same), when static shapes say the addend has the
// convolution's shape (equal dims, or a batch dim unknown in both: the kernel checks it at run
// time). _FusedDepthwiseConv2dNative's padding is SAME or VALID only:
// a depthwise convolution with EXPLICIT padding (pad folding makes them) fuses when its
// paddings are all zero (VALID) or, with static shapes, are what SAME computes for its input's
// inferred height and width (Keras pads that way: ZeroPadding2D(correct_pad)). Also here: the
// `_sg_const_filter` mark (a convolution's filter or a matrix product's b is a Const).
#include <algorithm>

#include "core/graph/optimizers/rewrite_util.h"

namespace sg {
namespace graph_opt {
namespace {

bool IsActivation(const Node* n, bool matmul) {
  const std::string& op = n->type_string();
  if (op == "Relu" || op == "Relu6" || op == "Elu" || op == "LeakyRelu") return true;
  return matmul && (op == "Tanh" || op == "Sigmoid");
}

// `n` can disappear into the node that replaces its consumer `consumer`.
bool Absorbable(const Node* n, const Node* consumer, const std::set<std::string>& preserve) {
  return SoleConsumer(n) == consumer && !HasControlInputs(n) && !preserve.count(n->name()) &&
         n->assigned_device_name() == consumer->assigned_device_name() && HasType(n, DT_FLOAT);
}

// Whether `n` is a float Const scalar equal to 1.
bool IsScalarOne(const Node* n) {
  Tensor v;
  return n != nullptr && ConstValue(n, &v) && v.dtype() == DT_FLOAT && v.NumElements() == 1 &&
         v.dims() == 0 && v.data<float>()[0] == 1.0f;
}

// The Mul of swish when `y` (a float node's output 0) feeds only swish: Mul(y, Sigmoid(y)), or
// Keras's Mul(y, Sigmoid(Mul(y, 1))) (its silu's beta of 1), each Mul's operands in either
// order. The nodes between y and that Mul (the Sigmoid, and the inner Mul with its 1 unless
// something else reads that) are set in `between`. nullptr when the pattern is not there or a
// node of it cannot disappear into the node that replaces the outer Mul.
Node* SwishMul(const Node* y, const std::set<std::string>& preserve,
               std::vector<Node*>* between) {
  if (y->out_edges().size() != 2 || HasControlInputs(y) || preserve.count(y->name()) ||
      !HasType(y, DT_FLOAT)) {
    return nullptr;
  }
  const Edge* e0 = y->out_edges()[0];
  const Edge* e1 = y->out_edges()[1];
  if (e0->IsControlEdge() || e1->IsControlEdge() || e0->src_output != 0 || e1->src_output != 0) {
    return nullptr;
  }
  // Mul's operands, in either order, are output 0 of `a` and of `b`.
  auto takes = [](const Node* mul, const Node* a, const Node* b) {
    if (mul->type_string() != "Mul" || mul->num_inputs() != 2 || InputIndex(mul, 0) != 0 ||
        InputIndex(mul, 1) != 0) {
      return false;
    }
    const Node* x0 = InputNode(mul, 0);
    const Node* x1 = InputNode(mul, 1);
    return (x0 == a && x1 == b) || (x0 == b && x1 == a);
  };
  for (const auto& [first, mul] : {std::pair(e0->dst, e1->dst), std::pair(e1->dst, e0->dst)}) {
    if (mul->type_string() != "Mul" || preserve.count(mul->name()) || !HasType(mul, DT_FLOAT) ||
        y->assigned_device_name() != mul->assigned_device_name()) {
      continue;
    }
    std::vector<Node*> nodes;
    Node* s = first;
    if (first->type_string() == "Mul") {  // Mul(y, 1), then its Sigmoid
      Node* one = InputNode(first, 0) == y ? InputNode(first, 1) : InputNode(first, 0);
      if (!takes(first, y, one) || !IsScalarOne(one)) continue;
      s = SoleConsumer(first);
      if (s == nullptr || !Absorbable(first, s, preserve)) continue;
      nodes.push_back(first);
      // The 1 goes too when nothing else reads it.
      if (SoleConsumer(one) == first && !HasControlInputs(one) && !preserve.count(one->name())) {
        nodes.push_back(one);
      }
    }
    if (s->type_string() != "Sigmoid" || InputIndex(s, 0) != 0 || !Absorbable(s, mul, preserve) ||
        !takes(mul, y, s)) {
      continue;
    }
    nodes.push_back(s);
    *between = std::move(nodes);
    return mul;
  }
  return nullptr;
}

void CopyAttr(const Node* from, const std::string& name, NodeDef* to) {
  auto it = from->def().attr().find(name);
  if (it != from->def().attr().end()) (*to->mutable_attr())[name] = it->second;
}

// The SAME or VALID padding equal to a depthwise convolution's EXPLICIT paddings, or "" when
// neither is (or, for SAME, when the input's height and width or the window are not known).
std::string SameOrValidFor(const Node* conv, bool use_static_shapes) {
  std::vector<int64_t> pads, strides, dilations = {1, 1, 1, 1};
  if (!GetAttr(conv->def().attr(), "explicit_paddings", &pads).ok() || pads.size() != 8) {
    return "";
  }
  if (std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p == 0; })) return "VALID";
  if (!use_static_shapes || pads[0] != 0 || pads[1] != 0 || pads[6] != 0 || pads[7] != 0) {
    return "";
  }
  if (!GetAttr(conv->def().attr(), "strides", &strides).ok() || strides.size() != 4) return "";
  if (conv->def().attr().count("dilations") &&
      (!GetAttr(conv->def().attr(), "dilations", &dilations).ok() || dilations.size() != 4)) {
    return "";
  }
  auto shape_of = [&](int input) -> PartialTensorShape {
    const Edge* e = conv->input_edge(input);
    if (e == nullptr || e->src_output >= static_cast<int>(e->src->output_shapes().size())) {
      return PartialTensorShape();
    }
    return e->src->output_shapes()[e->src_output];
  };
  const PartialTensorShape in = shape_of(0), filter = shape_of(1);
  if (in.unknown_rank() || in.dims() != 4 || filter.unknown_rank() || filter.dims() != 4) {
    return "";
  }
  for (int d = 1; d <= 2; ++d) {
    const int64_t size = in.dim_size(d), k = filter.dim_size(d - 1);
    const int64_t s = strides[d], rate = dilations[d];
    if (size < 0 || k < 0 || s < 1 || rate < 1) return "";
    // TensorFlow's SAME: output ceil(size / s), the padding it needs split with the odd one
    // after.
    const int64_t out = (size + s - 1) / s;
    const int64_t needed = std::max<int64_t>(0, (out - 1) * s + (k - 1) * rate + 1 - size);
    if (pads[2 * d] != needed / 2 || pads[2 * d + 1] != needed - needed / 2) return "";
  }
  return "SAME";
}

// Fuses the pattern whose BiasAdd is `bias_add`, if there is one. Returns whether it did.
absl::StatusOr<bool> FuseAt(Graph* g, Node* bias_add, const GraphOptimizerOptions& options,
                            const std::set<std::string>& preserve) {
  if (!HasType(bias_add, DT_FLOAT) || preserve.count(bias_add->name())) return false;
  const std::string format = StringAttr(bias_add, "data_format");
  if (!format.empty() && format != "NHWC") return false;
  Node* head = InputNode(bias_add, 0);
  if (head == nullptr || !Absorbable(head, bias_add, preserve)) return false;
  const bool conv = head->type_string() == "Conv2D";
  const bool depthwise = head->type_string() == "DepthwiseConv2dNative";
  const bool matmul = head->type_string() == "MatMul";
  std::string depthwise_padding;
  if (conv || depthwise) {
    const std::string conv_format = StringAttr(head, "data_format");
    if (!conv_format.empty() && conv_format != "NHWC") return false;  // the kernel's only layout
  } else if (!matmul) {
    return false;
  }
  if (depthwise) {
    depthwise_padding = StringAttr(head, "padding");
    if (depthwise_padding == "EXPLICIT") {
      depthwise_padding = SameOrValidFor(head, options.use_static_shapes);
    }
    if (depthwise_padding != "SAME" && depthwise_padding != "VALID") return false;
  }
  Node* last = bias_add;
  Node* act = SoleConsumer(bias_add);
  std::string act_name;
  std::vector<Node*> swish_between;  // the Sigmoid (and Keras's Mul by 1) of a swish
  if (act != nullptr && IsActivation(act, matmul) && HasType(act, DT_FLOAT) &&
      !preserve.count(act->name()) && Absorbable(bias_add, act, preserve)) {
    last = act;
    act_name = act->type_string();
  } else if (!matmul && (act = SwishMul(bias_add, preserve, &swish_between)) != nullptr) {
    last = act;
    act_name = "_MklSwish";
  } else {
    act = nullptr;
  }

  NodeDef def;
  def.set_op(conv ? "_FusedConv2D" : depthwise ? "_FusedDepthwiseConv2dNative" : "_FusedMatMul");
  AddNodeAttr("T", DT_FLOAT, &def);
  AddNodeAttr("num_args", int64_t{1}, &def);
  std::vector<std::string> ops = {"BiasAdd"};
  if (act != nullptr) ops.push_back(act_name);
  AddNodeAttr("fused_ops", absl::Span<const std::string>(ops), &def);
  if (act_name == "LeakyRelu") {
    float alpha = 0.2f;
    GetAttr(act->def().attr(), "alpha", &alpha).IgnoreError();
    AddNodeAttr("leakyrelu_alpha", alpha, &def);
  }
  if (conv) {
    const DataType targs[] = {DT_FLOAT};
    AddNodeAttr("TArgs", absl::Span<const DataType>(targs), &def);
    for (const char* a : {"strides", "padding", "explicit_paddings", "data_format", "dilations",
                          "use_cudnn_on_gpu"}) {
      CopyAttr(head, a, &def);
    }
  } else if (depthwise) {
    for (const char* a : {"strides", "data_format", "dilations"}) CopyAttr(head, a, &def);
    AddNodeAttr("padding", depthwise_padding, &def);
  } else {
    CopyAttr(head, "transpose_a", &def);
    CopyAttr(head, "transpose_b", &def);
  }
  const std::vector<std::pair<Node*, int>> inputs = {
      {InputNode(head, 0), InputIndex(head, 0)},
      {InputNode(head, 1), InputIndex(head, 1)},
      {InputNode(bias_add, 1), InputIndex(bias_add, 1)}};
  for (const auto& in : inputs) {
    if (in.first == nullptr) return false;
  }
  // Only the last node may have control inputs; the fused node keeps them.
  g->RemoveNode(head);
  for (Node* n : swish_between) g->RemoveNode(n);
  if (last != bias_add) g->RemoveNode(bias_add);
  SG_RETURN_IF_ERROR(ReplaceNode(g, last, std::move(def), inputs).status());
  return true;
}

// Whether `a` and `b`, the static shapes of two tensors, are both 4-D with the same known
// height, width and channels, and the same batch dim (known, or unknown in both).
bool SameConvOutputShape(const PartialTensorShape& a, const PartialTensorShape& b) {
  if (a.unknown_rank() || b.unknown_rank() || a.dims() != 4 || b.dims() != 4) return false;
  for (int d = 1; d < 4; ++d) {
    if (a.dim_size(d) < 0 || a.dim_size(d) != b.dim_size(d)) return false;
  }
  return a.dim_size(0) == b.dim_size(0);
}

PartialTensorShape OutputShape(const Node* n, int index) {
  if (n == nullptr || index < 0 || index >= static_cast<int>(n->output_shapes().size())) {
    return PartialTensorShape();
  }
  return n->output_shapes()[index];
}

// Fuses a _FusedConv2D [BiasAdd] feeding `add` (Add or AddV2) with the other operand and an
// activation after it, if the pattern is there. Returns whether it did.
absl::StatusOr<bool> FuseResidualAt(Graph* g, Node* add, const std::set<std::string>& preserve) {
  if (!HasType(add, DT_FLOAT) || preserve.count(add->name())) return false;
  Node* conv = nullptr;
  int other = -1;
  // Keras writes Add([shortcut, x]): try the second operand first.
  for (int i : {1, 0}) {
    Node* c = InputNode(add, i);
    if (c == nullptr || c->type_string() != "_FusedConv2D" || InputIndex(add, i) != 0) continue;
    std::vector<std::string> ops;
    int64_t num_args = 0;
    if (!GetAttr(c->def().attr(), "fused_ops", &ops).ok() ||
        ops != std::vector<std::string>{"BiasAdd"} ||
        !GetAttr(c->def().attr(), "num_args", &num_args).ok() || num_args != 1 ||
        c->num_inputs() != 3 || !Absorbable(c, add, preserve)) {
      continue;
    }
    const std::string format = StringAttr(c, "data_format");
    if (!format.empty() && format != "NHWC") continue;
    Node* r = InputNode(add, 1 - i);
    if (r == nullptr ||
        !SameConvOutputShape(OutputShape(c, 0), OutputShape(r, InputIndex(add, 1 - i))) ||
        !SameConvOutputShape(OutputShape(c, 0), OutputShape(add, 0))) {
      continue;
    }
    conv = c;
    other = 1 - i;
    break;
  }
  if (conv == nullptr) return false;
  Node* last = add;
  Node* act = SoleConsumer(add);
  if (act != nullptr && IsActivation(act, /*matmul=*/false) && HasType(act, DT_FLOAT) &&
      !preserve.count(act->name()) && Absorbable(add, act, preserve)) {
    last = act;
  } else {
    act = nullptr;
  }
  NodeDef def = conv->def();
  def.clear_input();
  std::vector<std::string> ops = {"BiasAdd", "Add"};
  if (act != nullptr) ops.push_back(act->type_string());
  AddNodeAttr("fused_ops", absl::Span<const std::string>(ops), &def);
  AddNodeAttr("num_args", int64_t{2}, &def);
  const DataType targs[] = {DT_FLOAT, DT_FLOAT};
  AddNodeAttr("TArgs", absl::Span<const DataType>(targs), &def);
  if (act != nullptr && act->type_string() == "LeakyRelu") {
    float alpha = 0.2f;
    GetAttr(act->def().attr(), "alpha", &alpha).IgnoreError();
    AddNodeAttr("leakyrelu_alpha", alpha, &def);
  }
  std::vector<std::pair<Node*, int>> inputs;
  for (int i = 0; i < 3; ++i) {
    if (InputNode(conv, i) == nullptr) return false;
    inputs.push_back({InputNode(conv, i), InputIndex(conv, i)});
  }
  inputs.push_back({InputNode(add, other), InputIndex(add, other)});
  g->RemoveNode(conv);
  if (last != add) g->RemoveNode(add);
  SG_RETURN_IF_ERROR(ReplaceNode(g, last, std::move(def), inputs).status());
  return true;
}

}  // namespace

absl::StatusOr<int> FuseOps(Graph* g, const GraphOptimizerOptions& options,
                            const std::set<std::string>& preserve) {
  int fused = 0;
  for (Node* n : g->nodes()) {
    if (!IsLive(*g, n) || n->type_string() != "BiasAdd") continue;
    SG_ASSIGN_OR_RETURN(bool did, FuseAt(g, n, options, preserve));
    fused += did ? 1 : 0;
  }
  // After the BiasAdds, whose fusions make the _FusedConv2D [BiasAdd] nodes this one takes.
  // Static shapes prove the addend's shape (a broadcasting Add cannot be fused).
  if (!options.use_static_shapes) return fused;
  for (Node* n : g->nodes()) {
    if (!IsLive(*g, n) || (n->type_string() != "Add" && n->type_string() != "AddV2")) continue;
    SG_ASSIGN_OR_RETURN(bool did, FuseResidualAt(g, n, preserve));
    fused += did ? 1 : 0;
  }
  return fused;
}

int MarkConstFilters(Graph* g) {
  int marked = 0;
  for (Node* n : g->nodes()) {
    const std::string& op = n->type_string();
    if (op != "Conv2D" && op != "_FusedConv2D" && op != "DepthwiseConv2dNative" &&
        op != "_FusedDepthwiseConv2dNative" && op != "MatMul" && op != "_FusedMatMul") {
      continue;
    }
    Node* filter = InputNode(n, 1);
    if (filter == nullptr || filter->type_string() != "Const") continue;
    AttrValue v;
    v.set_b(true);
    n->AddAttr("_sg_const_filter", v);
    ++marked;
  }
  return marked;
}

}  // namespace graph_opt
}  // namespace sg
