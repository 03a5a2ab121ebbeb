// Batch norm folding: an inference batch normalization after a convolution or matrix product
// with a constant filter is a per-output-channel scale and shift, y = (conv(x, W) + b) * s + t
// = conv(x, W * s) + (b * s + t): the scale goes into a new filter, the shift into a BiasAdd.
// Keras's BatchNormalization freezes to Mul(conv, s) then AddV2(., t) (after constant folding
// has computed s and t); TF 1 graphs have FusedBatchNorm with is_training = false.
//
// The patterns, all float, channels last (NHWC, or a MatMul's columns):
//   head                 Conv2D, DepthwiseConv2dNative or MatMul whose filter is a Const;
//   [BiasAdd(head, b)]   with a Const b;
//   then one of          Mul by a Const channel vector (either operand), Add / AddV2 of one,
//                        Sub of one (second operand), FusedBatchNorm / V2 / V3 (is_training
//                        false, Const scale, offset, mean and variance, outputs 1-5 unused).
// A channel vector is a scalar or a tensor whose dims are all 1 but the last, which is 1 or the
// head's output channels, and whose rank is at most the head's: broadcasting it does not change
// the head's output shape.
#include <cmath>
#include <cstring>

#include "core/graph/optimizers/rewrite_util.h"

namespace sg {
namespace graph_opt {
namespace {

enum class HeadKind { kConv2D, kDepthwise, kMatMul };

struct Head {
  Node* node = nullptr;
  HeadKind kind;
  Node* filter_node = nullptr;
  TensorShape filter_shape;
  int64_t channels = 0;
  int out_rank = 4;
};

// The shape of a float Const node's value, without decoding its elements (a filter may be large
// and most candidates are rejected before its values are needed).
bool ConstShape(const Node* n, TensorShape* shape) {
  DataType dtype;
  return ConstDtypeAndShape(n, &dtype, shape) && dtype == DT_FLOAT;
}

// A head with a Const float filter whose output channels are known. The filter's values are
// read later (ScaledFilter), once the whole pattern matched.
bool AsHead(Node* n, Head* h) {
  const std::string& op = n->type_string();
  if (!HasType(n, DT_FLOAT)) return false;
  if (op == "Conv2D") {
    h->kind = HeadKind::kConv2D;
  } else if (op == "DepthwiseConv2dNative") {
    h->kind = HeadKind::kDepthwise;
  } else if (op == "MatMul") {
    h->kind = HeadKind::kMatMul;
  } else {
    return false;
  }
  if (h->kind != HeadKind::kMatMul) {
    const std::string format = StringAttr(n, "data_format");
    if (!format.empty() && format != "NHWC") return false;
  }
  Node* f = InputNode(n, 1);
  TensorShape w;
  if (f == nullptr || !ConstShape(f, &w)) return false;
  switch (h->kind) {
    case HeadKind::kConv2D:
      if (w.dims() != 4) return false;
      h->channels = w.dim_size(3);
      break;
    case HeadKind::kDepthwise:
      if (w.dims() != 4) return false;
      h->channels = w.dim_size(2) * w.dim_size(3);
      break;
    case HeadKind::kMatMul: {
      if (w.dims() != 2) return false;
      bool tb = false;
      GetAttr(n->def().attr(), "transpose_b", &tb).IgnoreError();
      h->channels = w.dim_size(tb ? 0 : 1);
      h->out_rank = 2;
      break;
    }
  }
  h->node = n;
  h->filter_node = f;
  h->filter_shape = w;
  return h->channels > 0;
}

// `t` as `channels` floats, when it is a float channel vector for an output of rank `rank`.
bool ChannelVector(const Tensor& t, int64_t channels, int rank, std::vector<float>* out) {
  if (t.dtype() != DT_FLOAT || t.dims() > rank) return false;
  for (int d = 0; d + 1 < t.dims(); ++d) {
    if (t.dim_size(d) != 1) return false;
  }
  const int64_t n = t.NumElements();
  if (n != 1 && n != channels) return false;
  const float* p = t.data<float>();
  out->resize(channels);
  for (int64_t c = 0; c < channels; ++c) (*out)[c] = p[n == 1 ? 0 : c];
  return true;
}

// A node the rewrite removes: its only use is `consumer`, it has no control edges, it is not
// preserved, and it is on `device`.
bool Absorbable(const Node* n, const Node* consumer, const std::string& device,
                const std::set<std::string>& preserve) {
  return SoleConsumer(n) == consumer && !HasControlInputs(n) && !preserve.count(n->name()) &&
         n->assigned_device_name() == device;
}

// The head's filter times s, channel by channel, as the value of a new Const: written once,
// into a Tensor the new Const then holds (ResNet50 has 100 MB of filters). A filter the node
// holds decoded is read in place, one in a NodeDef's tensor_content straight from its bytes
// (not decoded into a Tensor first). False when the Const does not hold the shape's floats, or
// the memory cannot be had.
bool ScaledFilter(const Head& h, const std::vector<float>& s, Tensor* out) {
  const int64_t n = h.filter_shape.num_elements();
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  const char* in = nullptr;
  Tensor decoded;
  auto held = h.filter_node->tensor_attrs().find("value");
  if (held == h.filter_node->tensor_attrs().end()) {
    const TensorProto& src = h.filter_node->def().attr().at("value").tensor();
    if (src.tensor_content().size() == bytes) in = src.tensor_content().data();
  }
  if (in == nullptr) {
    // Held decoded, or values in float_val (small constants, or one value repeated).
    if (!ConstValue(h.filter_node, &decoded) || decoded.dtype() != DT_FLOAT ||
        decoded.NumElements() != n) {
      return false;
    }
    in = static_cast<const char*>(decoded.raw_data());
  }
  absl::StatusOr<Tensor> scaled = Tensor::Allocate(DT_FLOAT, h.filter_shape);
  if (!scaled.ok()) return false;
  float* dst = scaled->data<float>();
  // Source elements through memcpy: the bytes of a std::string are not floats to the compiler.
  auto scale = [&](int64_t i, float f) {
    float v;
    std::memcpy(&v, in + i * sizeof(float), sizeof(float));
    dst[i] = v * f;
  };
  bool tb = false;
  if (h.kind == HeadKind::kMatMul) GetAttr(h.node->def().attr(), "transpose_b", &tb).IgnoreError();
  if (tb) {
    // [N, K]: a row per channel.
    const int64_t k = h.filter_shape.dim_size(1);
    for (int64_t c = 0; c < h.channels; ++c) {
      for (int64_t j = 0; j < k; ++j) scale(c * k + j, s[c]);
    }
  } else {
    // Channels are the fastest-moving index: HWIO's O, depthwise's flattened (I, M), [K, N]'s N.
    for (int64_t row = 0; row < n; row += h.channels) {
      for (int64_t c = 0; c < h.channels; ++c) scale(row + c, s[c]);
    }
  }
  *out = *std::move(scaled);
  return true;
}

Tensor Vector(const std::vector<float>& v) {
  Tensor t(DT_FLOAT, TensorShape({static_cast<int64_t>(v.size())}));
  std::copy(v.begin(), v.end(), t.data<float>());
  return t;
}

// The pattern ending at `p`, when there is one, as the affine map it applies per channel.
struct Match {
  Head head;
  Node* bias_add = nullptr;    // the BiasAdd between head and p, if any
  std::vector<float> bias;     // its bias
  std::vector<float> scale;    // y = (head + bias) * scale + shift
  std::vector<float> shift;
  bool has_shift = false;      // p adds something (Add, Sub, FusedBatchNorm)
  std::vector<Node*> const_sources;  // the Consts the new values come from
};

// Fills m->head (and bias_add, bias) from `x`, the data input of p.
bool MatchHead(Node* x, Node* p, const std::set<std::string>& preserve, Match* m) {
  const std::string& device = p->assigned_device_name();
  if (x->type_string() == "BiasAdd") {
    const std::string format = StringAttr(x, "data_format");
    Node* head = InputNode(x, 0);
    Node* b = InputNode(x, 1);
    Tensor bias;
    if (head == nullptr || b == nullptr || !HasType(x, DT_FLOAT) ||
        (!format.empty() && format != "NHWC") || !ConstValue(b, &bias) ||
        !Absorbable(x, p, device, preserve) || !AsHead(head, &m->head) ||
        !ChannelVector(bias, m->head.channels, 1, &m->bias) ||
        bias.NumElements() != m->head.channels) {
      return false;
    }
    if (!Absorbable(head, x, device, preserve)) return false;
    m->bias_add = x;
    m->const_sources.push_back(b);
  } else {
    if (!AsHead(x, &m->head) || !Absorbable(x, p, device, preserve)) return false;
    m->bias.assign(m->head.channels, 0.0f);
  }
  m->const_sources.push_back(m->head.filter_node);
  return true;
}

bool MatchFollower(Node* p, const std::set<std::string>& preserve, Match* m) {
  const std::string& op = p->type_string();
  if (!HasType(p, DT_FLOAT) || preserve.count(p->name())) return false;
  if (op == "Mul" || op == "Add" || op == "AddV2" || op == "Sub") {
    if (p->num_inputs() != 2) return false;
    for (int side = 0; side < 2; ++side) {
      if (op == "Sub" && side == 1) break;  // only x - c
      Node* x = InputNode(p, side);
      Node* c = InputNode(p, 1 - side);
      if (x == nullptr || c == nullptr || c->type_string() != "Const") continue;
      Match cand;
      Tensor value;
      if (!MatchHead(x, p, preserve, &cand) || !ConstValue(c, &value)) continue;
      std::vector<float> v;
      if (!ChannelVector(value, cand.head.channels, cand.head.out_rank, &v)) continue;
      cand.const_sources.push_back(c);
      const int64_t n = cand.head.channels;
      if (op == "Mul") {
        cand.scale = v;
        cand.shift.assign(n, 0.0f);
      } else {
        cand.scale.assign(n, 1.0f);
        cand.shift = v;
        if (op == "Sub") {
          for (float& s : cand.shift) s = -s;
        }
        cand.has_shift = true;
      }
      *m = std::move(cand);
      return true;
    }
    return false;
  }
  if (op != "FusedBatchNorm" && op != "FusedBatchNormV2" && op != "FusedBatchNormV3") {
    return false;
  }
  bool training = true;
  float epsilon = 0;
  if (!GetAttr(p->def().attr(), "is_training", &training).ok() || training ||
      !GetAttr(p->def().attr(), "epsilon", &epsilon).ok()) {
    return false;
  }
  const std::string format = StringAttr(p, "data_format");
  if (!format.empty() && format != "NHWC") return false;
  auto u = p->def().attr().find("U");
  if (u != p->def().attr().end() && u->second.type() != DT_FLOAT) return false;
  for (const Edge* e : p->out_edges()) {
    if (e->src_output != 0) return false;  // batch statistics used: not an inference node
  }
  Node* x = InputNode(p, 0);
  Match cand;
  if (x == nullptr || !MatchHead(x, p, preserve, &cand)) return false;
  const int64_t n = cand.head.channels;
  std::vector<float> params[4];  // scale, offset, mean, variance
  for (int i = 0; i < 4; ++i) {
    Node* c = InputNode(p, 1 + i);
    Tensor value;
    if (c == nullptr || !ConstValue(c, &value) || value.dims() != 1 ||
        !ChannelVector(value, n, 1, &params[i]) || value.NumElements() != n) {
      return false;
    }
    cand.const_sources.push_back(c);
  }
  cand.scale.resize(n);
  cand.shift.resize(n);
  for (int64_t c = 0; c < n; ++c) {
    const double s = static_cast<double>(params[0][c]) /
                     std::sqrt(static_cast<double>(params[3][c]) + static_cast<double>(epsilon));
    cand.scale[c] = static_cast<float>(s);
    // (x - mean) * s + offset = x * s + (offset - mean * s)
    cand.shift[c] = static_cast<float>(params[1][c] - params[2][c] * s);
  }
  cand.has_shift = true;
  *m = std::move(cand);
  return true;
}

// Rewrites the match ending at `p`; false (nothing changed) when its filter cannot be read.
absl::StatusOr<bool> Fold(Graph* g, Node* p, Match m) {
  const Head& h = m.head;
  const int64_t n = h.channels;
  bool scales = false;
  for (float s : m.scale) scales = scales || s != 1.0f;
  Tensor scaled;
  if (scales && !ScaledFilter(h, m.scale, &scaled)) return false;
  const bool bias_out = m.bias_add != nullptr || m.has_shift;
  std::vector<float> bias(n);
  for (int64_t c = 0; c < n; ++c) bias[c] = m.bias[c] * m.scale[c] + m.shift[c];

  // What the new Consts depend on: the control inputs of the Consts they come from (a loop's
  // or a cond branch's pivot), so that they stay in the same frame.
  std::vector<Node*> controls;
  for (Node* c : m.const_sources) {
    for (Node* src : ControlInputs(c)) controls.push_back(src);
  }
  std::sort(controls.begin(), controls.end());
  controls.erase(std::unique(controls.begin(), controls.end()), controls.end());

  const Placement head_at(h.node);
  NodeDef head_def = h.node->def();
  std::vector<PartialTensorShape> head_shapes = h.node->output_shapes();
  const std::pair<Node*, int> x{InputNode(h.node, 0), InputIndex(h.node, 0)};
  std::pair<Node*, int> filter{h.filter_node, InputIndex(h.node, 1)};
  if (scales) {
    SG_ASSIGN_OR_RETURN(Node * w, AddConst(g, g->NewName(h.node->name() + "/folded_filter"),
                                           scaled, head_at, controls));
    filter = {w, 0};
  }
  if (!bias_out) {
    // Only a scale: the head, with the new filter, takes p's place.
    g->RemoveNode(h.node);
    SG_RETURN_IF_ERROR(ReplaceNode(g, p, std::move(head_def), {x, filter}).status());
    return true;
  }
  if (m.bias_add != nullptr) g->RemoveNode(m.bias_add);
  Node* head = h.node;
  if (scales) {
    g->RemoveNode(h.node);
    SG_ASSIGN_OR_RETURN(head, AddNodeAt(g, std::move(head_def), head_at, {x, filter}, {},
                                        std::move(head_shapes)));
  }
  SG_ASSIGN_OR_RETURN(Node * b, AddConst(g, g->NewName(p->name() + "/folded_bias"),
                                         Vector(bias), Placement(p), controls));
  NodeDef bias_def;
  bias_def.set_op("BiasAdd");
  AddNodeAttr("T", DT_FLOAT, &bias_def);
  AddNodeAttr("data_format", std::string("NHWC"), &bias_def);
  SG_RETURN_IF_ERROR(ReplaceNode(g, p, std::move(bias_def), {{head, 0}, {b, 0}}).status());
  return true;
}

}  // namespace

absl::StatusOr<int> FoldBatchNorms(Graph* g, const std::set<std::string>& preserve) {
  int folded = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (Node* p : g->nodes()) {
      if (!IsLive(*g, p)) continue;
      Match m;
      if (!MatchFollower(p, preserve, &m)) continue;
      SG_ASSIGN_OR_RETURN(bool did, Fold(g, p, std::move(m)));
      if (!did) continue;
      ++folded;
      changed = true;
    }
  }
  return folded;
}

}  // namespace graph_opt
}  // namespace sg
