// Pad folding: a zero Pad of the spatial dims in front of a convolution is the convolution's own
// padding. Keras writes ZeroPadding2D then a VALID convolution wherever a stride-2 layer should
// pad like TensorFlow 1 did (MobileNetV2, ResNet50's stem); as separate nodes the Pad writes a
// padded copy of its input every run (a sixth of MobileNetV2's time), which the convolution's
// kernel does for free when it knows the padding.
//
//   Pad(x, p) or PadV2(x, p, 0)  ->  Conv2D / DepthwiseConv2dNative / _FusedConv2D (float, NHWC,
//   conv(., w)                        padding VALID or EXPLICIT) of x with padding EXPLICIT and
//                                     explicit_paddings = the conv's own (if any) + p's
// where p is a Const [4, 2] (int32 or int64), non-negative, zero in the batch and channel rows.
// The fusion pass after this one may turn an EXPLICIT depthwise convolution into SAME or VALID
// (fusion.cc), as _FusedDepthwiseConv2dNative has no EXPLICIT padding.
#include "core/graph/optimizers/rewrite_util.h"

namespace sg {
namespace graph_opt {
namespace {

// The 8 paddings of a Const [4, 2] int32/int64 node, if they are spatial and non-negative.
bool SpatialPaddings(const Node* n, std::vector<int64_t>* pads) {
  Tensor t;
  if (n == nullptr || !ConstValue(n, &t)) return false;
  if (t.dims() != 2 || t.dim_size(0) != 4 || t.dim_size(1) != 2) return false;
  pads->resize(8);
  for (int i = 0; i < 8; ++i) {
    if (t.dtype() == DT_INT32) {
      (*pads)[i] = t.data<int32_t>()[i];
    } else if (t.dtype() == DT_INT64) {
      (*pads)[i] = t.data<int64_t>()[i];
    } else {
      return false;
    }
    if ((*pads)[i] < 0) return false;
  }
  // NHWC: rows 0 and 3 are N and C.
  return (*pads)[0] == 0 && (*pads)[1] == 0 && (*pads)[6] == 0 && (*pads)[7] == 0;
}

// Whether a PadV2's constant_values input is a Const float zero (either sign: a product of it
// with a weight adds nothing either way).
bool IsZeroConst(const Node* n) {
  Tensor t;
  if (n == nullptr || !ConstValue(n, &t) || t.dtype() != DT_FLOAT || t.NumElements() != 1) {
    return false;
  }
  return t.data<float>()[0] == 0.0f;
}

// Folds the Pad in front of `conv`, if there is one that folds. Returns whether it did.
absl::StatusOr<bool> FoldPadInto(Graph* g, Node* conv, const std::set<std::string>& preserve) {
  const std::string& op = conv->type_string();
  if (op != "Conv2D" && op != "DepthwiseConv2dNative" && op != "_FusedConv2D") return false;
  if (!HasType(conv, DT_FLOAT)) return false;
  const std::string format = StringAttr(conv, "data_format");
  if (!format.empty() && format != "NHWC") return false;
  const std::string padding = StringAttr(conv, "padding");
  if (padding != "VALID" && padding != "EXPLICIT") return false;
  if (op == "_FusedConv2D" && StringAttr(conv, "filter_format") != "" &&
      StringAttr(conv, "filter_format") != "HWIO") {
    return false;
  }
  Node* pad = InputNode(conv, 0);
  if (pad == nullptr || (pad->type_string() != "Pad" && pad->type_string() != "PadV2")) {
    return false;
  }
  if (SoleConsumer(pad) != conv || HasControlInputs(pad) || preserve.count(pad->name()) ||
      pad->assigned_device_name() != conv->assigned_device_name() || !HasType(pad, DT_FLOAT)) {
    return false;
  }
  std::vector<int64_t> pads;
  if (!SpatialPaddings(InputNode(pad, 1), &pads)) return false;
  if (pad->type_string() == "PadV2" && !IsZeroConst(InputNode(pad, 2))) return false;
  Node* x = InputNode(pad, 0);
  if (x == nullptr) return false;

  std::vector<int64_t> total(8, 0);
  if (padding == "EXPLICIT") {
    std::vector<int64_t> own;
    if (!GetAttr(conv->def().attr(), "explicit_paddings", &own).ok() || own.size() != 8) {
      return false;  // malformed: left for the kernel to report
    }
    total = own;
  }
  for (int i = 0; i < 8; ++i) total[i] += pads[i];

  NodeDef def = conv->def();
  def.clear_input();
  AttrValue p;
  p.set_s("EXPLICIT");
  (*def.mutable_attr())["padding"] = p;
  AddNodeAttr("explicit_paddings", absl::Span<const int64_t>(total), &def);
  std::vector<std::pair<Node*, int>> inputs = {{x, InputIndex(pad, 0)}};
  for (int i = 1; i < conv->num_inputs(); ++i) {
    if (InputNode(conv, i) == nullptr) return false;
    inputs.push_back({InputNode(conv, i), InputIndex(conv, i)});
  }
  g->RemoveNode(pad);
  SG_RETURN_IF_ERROR(ReplaceNode(g, conv, std::move(def), inputs).status());
  return true;
}

}  // namespace

absl::StatusOr<int> FoldPads(Graph* g, const std::set<std::string>& preserve) {
  std::vector<Node*> convs;
  for (Node* n : g->nodes()) {
    const std::string& op = n->type_string();
    if (op == "Conv2D" || op == "DepthwiseConv2dNative" || op == "_FusedConv2D") {
      convs.push_back(n);
    }
  }
  int folded = 0;
  for (Node* n : convs) {
    if (!IsLive(*g, n)) continue;
    SG_ASSIGN_OR_RETURN(bool did, FoldPadInto(g, n, preserve));
    folded += did ? 1 : 0;
  }
  return folded;
}

}  // namespace graph_opt
}  // namespace sg
