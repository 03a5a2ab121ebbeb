// GradRegistry and GradScope (grad_registry.h).
#include "core/gradients/grad_registry.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/framework/attr_value_util.h"

namespace sg {

GradRegistry* GradRegistry::Global() {
  static GradRegistry* registry = new GradRegistry;
  return registry;
}

bool GradRegistry::Register(const std::string& op, GradFunc fn) {
  absl::MutexLock lock(&mu_);
  const bool added = fns_.emplace(op, std::move(fn)).second;
  if (!added) duplicates_.push_back(op);
  return added;
}

std::vector<std::string> GradRegistry::Duplicates() const {
  absl::MutexLock lock(&mu_);
  return duplicates_;
}

const GradFunc* GradRegistry::Lookup(absl::string_view op) const {
  absl::MutexLock lock(&mu_);
  auto it = fns_.find(op);
  return it == fns_.end() ? nullptr : &it->second;  // entries are never removed
}

std::vector<std::string> GradRegistry::ListOps() const {
  absl::MutexLock lock(&mu_);
  std::vector<std::string> out;
  for (const auto& [name, fn] : fns_) out.push_back(name);
  return out;
}

DataType DTypeOf(GradOutput o) { return BaseType(o.node->output_type(o.index)); }

PartialTensorShape StaticShapeOf(GradOutput o) {
  const auto& shapes = o.node->output_shapes();
  return o.index < static_cast<int>(shapes.size()) ? shapes[o.index] : PartialTensorShape();
}

std::optional<std::vector<int64_t>> ConstIntValues(GradOutput o) {
  if (o.node == nullptr || o.node->type_string() != "Const") return std::nullopt;
  Tensor t;
  if (!GetAttr(o.node->def().attr(), "value", &t).ok()) return std::nullopt;
  std::vector<int64_t> out;
  if (t.dtype() == DT_INT32) {
    for (int64_t i = 0; i < t.NumElements(); ++i) out.push_back(t.flat<int32_t>()(i));
  } else if (t.dtype() == DT_INT64) {
    for (int64_t i = 0; i < t.NumElements(); ++i) out.push_back(t.flat<int64_t>()(i));
  } else {
    return std::nullopt;
  }
  return out;
}

bool IsDifferentiable(DataType dt) {
  switch (BaseType(dt)) {
    case DT_HALF:
    case DT_BFLOAT16:
    case DT_FLOAT:
    case DT_DOUBLE:
    case DT_COMPLEX64:
    case DT_COMPLEX128:
    case DT_RESOURCE:  // a variable's handle receives its value's gradient (ReadVariableOp)
    case DT_VARIANT:   // a TensorList receives the list of its elements' gradients (list_grad.cc)
      return true;
    default:
      return false;
  }
}

std::string GradScope::UniqueName(const std::string& base) const {
  std::string stem = sub_.empty() ? absl::StrCat(prefix_, "/", base)
                                  : absl::StrCat(prefix_, "/", sub_, "/", base);
  if (graph_->FindNode(stem) == nullptr) return stem;
  for (int i = 1;; ++i) {
    std::string name = absl::StrCat(stem, "_", i);
    if (graph_->FindNode(name) == nullptr) return name;
  }
}

GradOutputs GradScope::OpN(const std::string& type, std::vector<GradInput> inputs,
                           GradAttrs attrs) {
  if (!status_.ok()) return {};
  NodeBuilder b(UniqueName(type), type);
  for (const GradInput& in : inputs) {
    for (const GradOutput& o : in.outputs) {
      if (o.node == nullptr) {
        UpdateStatus(errors::Internal("gradient: an input of a new ", type, " node is missing"));
        return {};
      }
    }
    if (in.is_list) {
      b.InputList(in.outputs);
    } else {
      b.Input(in.outputs[0]);
    }
  }
  for (const auto& [name, value] : attrs) b.Attr(name, value);
  auto node = b.Finalize(graph_);
  if (!node.ok()) {
    UpdateStatus(node.status());
    return {};
  }
  GradOutputs outs;
  for (int i = 0; i < (*node)->num_outputs(); ++i) outs.push_back({*node, i});
  return outs;
}

GradOutput GradScope::Op(const std::string& type, std::vector<GradInput> inputs, GradAttrs attrs,
                         int index) {
  GradOutputs outs = OpN(type, std::move(inputs), std::move(attrs));
  if (index >= static_cast<int>(outs.size())) {
    if (status_.ok()) UpdateStatus(errors::Internal("gradient: ", type, " has no output ", index));
    return NoGradient();
  }
  return outs[index];
}

AttrValue TypeAttr(DataType dt) {
  AttrValue v;
  v.set_type(dt);
  return v;
}
AttrValue BoolAttr(bool b) {
  AttrValue v;
  v.set_b(b);
  return v;
}
AttrValue IntAttr(int64_t i) {
  AttrValue v;
  v.set_i(i);
  return v;
}

GradAttrs CopyAttrs(const Node& op, std::initializer_list<const char*> names) {
  GradAttrs out;
  for (const char* name : names) {
    auto it = op.def().attr().find(name);
    if (it != op.def().attr().end()) out.emplace_back(name, it->second);
  }
  return out;
}

bool BoolAttrOf(const Node& op, const char* name, bool fallback) {
  bool b = fallback;
  return GetAttr(op.def().attr(), name, &b).ok() ? b : fallback;
}

int64_t IntAttrOf(const Node& op, const char* name, int64_t fallback) {
  int64_t i = fallback;
  return GetAttr(op.def().attr(), name, &i).ok() ? i : fallback;
}

GradOutput InputOf(const Node& op, int i) {
  const Edge* e = op.input_edge(i);
  return e == nullptr ? NoGradient() : GradOutput{e->src, e->src_output};
}

GradOutput GradScope::Const(const Tensor& value) {
  AttrValue v;
  value.AsProtoTensorContent(v.mutable_tensor());
  return Op("Const", {}, {{"value", v}, {"dtype", TypeAttr(value.dtype())}});
}

GradOutput GradScope::ConstI32(const std::vector<int64_t>& values) {
  Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.flat<int32_t>()(i) = static_cast<int32_t>(values[i]);
  return Const(t);
}

GradOutput GradScope::ScalarI32(int64_t v) { return Const(Tensor::Scalar<int32_t>(v)); }

GradOutput GradScope::ScalarOf(DataType dt, double v) {
  GradOutput f = Const(Tensor::Scalar<float>(static_cast<float>(v)));
  if (dt == DT_DOUBLE) return Const(Tensor::Scalar<double>(v));
  return dt == DT_FLOAT ? f : Cast(f, dt);
}

GradOutput GradScope::Shape(GradOutput x, DataType out_type) {
  return Op("Shape", {x}, {{"out_type", TypeAttr(out_type)}});
}

GradOutput GradScope::Sum(GradOutput x, GradOutput axes, bool keep_dims) {
  return Op("Sum", {x, axes}, {{"keep_dims", BoolAttr(keep_dims)}});
}

GradOutput GradScope::Conj(GradOutput a) {
  if (a.node == nullptr) return a;
  DataType dt = DTypeOf(a);
  if (dt != DT_COMPLEX64 && dt != DT_COMPLEX128) return a;
  return Op("Conj", {a});
}

GradOutput GradScope::Cast(GradOutput x, DataType dst) {
  if (x.node == nullptr) return x;
  if (DTypeOf(x) == dst) return x;
  return Op("Cast", {x}, {{"DstT", TypeAttr(dst)}});
}

GradOutput GradScope::MatMul(GradOutput a, GradOutput b, bool ta, bool tb) {
  return Op("MatMul", {a, b}, {{"transpose_a", BoolAttr(ta)}, {"transpose_b", BoolAttr(tb)}});
}

namespace {
// The axes over which a gradient of static shape `g` sums to a tensor of static shape `x`
// (leading dims broadcasting added, and dims where x has 1 and g does not).
std::vector<int64_t> StaticReductionAxes(const PartialTensorShape& g, const PartialTensorShape& x) {
  std::vector<int64_t> axes;
  const int lead = g.dims() - x.dims();
  for (int i = 0; i < g.dims(); ++i) {
    if (i < lead || (x.dim_size(i - lead) == 1 && g.dim_size(i) != 1)) axes.push_back(i);
  }
  return axes;
}
}  // namespace

GradOutput GradScope::SumToShapeOf(GradOutput grad, GradOutput x) {
  if (!status_.ok() || grad.node == nullptr) return NoGradient();
  PartialTensorShape gs = StaticShapeOf(grad), xs = StaticShapeOf(x);
  if (gs.IsFullyDefined() && xs.IsFullyDefined() && gs.dims() >= xs.dims()) {
    if (gs == xs) return grad;
    std::vector<int64_t> axes = StaticReductionAxes(gs, xs);
    GradOutput summed = axes.empty() ? grad : Sum(grad, ConstI32(axes));
    std::vector<int64_t> dims(xs.dim_sizes().begin(), xs.dim_sizes().end());
    return Reshape(summed, ConstI32(dims));
  }
  GradOutput sx = Shape(x);
  GradOutputs args = OpN("BroadcastGradientArgs", {sx, Shape(grad)});
  if (args.empty()) return NoGradient();
  return Reshape(Sum(grad, args[0]), sx);
}

void GradScope::ReduceBinary(GradOutput x, GradOutput y, GradOutput gx, GradOutput gy,
                             GradOutputs* dx) {
  PartialTensorShape xs = StaticShapeOf(x), ys = StaticShapeOf(y);
  if ((xs.IsFullyDefined() && ys.IsFullyDefined()) || !status_.ok()) {
    dx->push_back(SumToShapeOf(gx, x));
    dx->push_back(SumToShapeOf(gy, y));
    return;
  }
  GradOutput sx = Shape(x), sy = Shape(y);
  GradOutputs args = OpN("BroadcastGradientArgs", {sx, sy});
  if (args.empty()) {
    dx->push_back(NoGradient());
    dx->push_back(NoGradient());
    return;
  }
  dx->push_back(IsNoGradient(gx) ? gx : Reshape(Sum(gx, args[0]), sx));
  dx->push_back(IsNoGradient(gy) ? gy : Reshape(Sum(gy, args[1]), sy));
}

}  // namespace sg
