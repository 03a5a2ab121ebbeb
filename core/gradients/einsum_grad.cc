// Einsum's gradient, with TensorFlow's formula (tensorflow/python/ops/linalg_grad.py,
// _EinsumGrad): each operand's gradient is an Einsum of dy with the other operand onto the
// operand's labels; labels only that operand has (summed in the forward op) are broadcast back.
// Reduced labels are taken in sorted order (TensorFlow's python takes a set's order; the result
// is the same). Needs the operands' ranks when labels are reduced, and their static shapes when
// an ellipsis broadcasts different batch shapes.
#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/framework/attr_value_util.h"
#include "core/gradients/grad_registry.h"

namespace sg {
namespace {

using Fn = absl::Status;

constexpr char kEllipsis[] = "...";
constexpr size_t kEllipsisSize = 3;

AttrValue StrAttr(const std::string& v) {
  AttrValue a;
  a.set_s(v);
  return a;
}

GradOutput Einsum(GradScope& s, GradOutputs in, const std::string& equation) {
  return s.Op("Einsum", {GradInput::List(std::move(in))}, {{"equation", StrAttr(equation)}});
}

std::set<char> Labels(absl::string_view subs) {
  std::set<char> out;
  for (char c : subs) {
    if (c != '.') out.insert(c);
  }
  return out;
}

// The axis of `label` in an operand of rank `rank` with subscripts `subs` (ellipsis-aware).
int64_t AxisOf(const std::string& subs, char label, int rank) {
  const size_t ell = subs.find(kEllipsis);
  const size_t pos = subs.find(label);
  if (ell == std::string::npos || pos < ell) return static_cast<int64_t>(pos);
  // After the ellipsis: counted from the end.
  const int64_t from_end = static_cast<int64_t>(subs.size() - pos);
  return rank - from_end;
}

// TensorFlow's _GetGradReduced: `grad` (subscripts `out_subs`) broadcast back over the labels
// `reduced` that the operand (subscripts `in_subs`, value `x`) had.
absl::StatusOr<GradOutput> GradReduced(GradScope& s, const Node& op, GradOutput grad,
                                       const std::string& out_subs, const std::string& in_subs,
                                       GradOutput x, const std::string& reduced) {
  PartialTensorShape xs = StaticShapeOf(x);
  if (xs.unknown_rank()) {
    return errors::Unimplemented("Einsum gradient of '", op.name(),
                                 "' needs the rank of an operand with summed labels");
  }
  const int rank = xs.dims();
  GradOutput shape = s.Shape(x);
  std::vector<int64_t> axes;
  for (char c : reduced) axes.push_back(AxisOf(in_subs, c, rank));
  const bool repeated = Labels(in_subs).size() + Labels(out_subs).size() <
                        in_subs.size() + out_subs.size() -
                            (in_subs.find(kEllipsis) != std::string::npos ? 3 : 0) -
                            (out_subs.find(kEllipsis) != std::string::npos ? 3 : 0);
  std::string kept;
  for (char c : in_subs) {
    if (reduced.find(c) == std::string::npos) kept += c;
  }
  if (!repeated && kept == out_subs) {
    // dy with the summed axes put back as 1s, broadcast to x's shape.
    Tensor mask(DT_BOOL, TensorShape({rank}));
    for (int i = 0; i < rank; ++i) mask.flat<bool>()(i) = false;
    for (int64_t a : axes) mask.flat<bool>()(a) = true;
    GradOutput kept_shape =
        s.Op("Select", {s.Const(mask), s.ConstI32(std::vector<int64_t>(rank, 1)), shape});
    return s.Op("BroadcastTo", {s.Reshape(grad, kept_shape), shape});
  }
  const int64_t n = static_cast<int64_t>(reduced.size());
  GradOutput reduced_dims = s.Op("GatherV2", {shape, s.ConstI32(axes), s.ScalarI32(0)});
  GradOutput grad_shape = s.Shape(grad);
  GradOutput ones = s.ConstI32(std::vector<int64_t>(n, 1));
  GradOutput ones_then = s.Op("ConcatV2", {GradInput::List({ones, grad_shape}), s.ScalarI32(0)});
  GradOutput full = s.Op("ConcatV2", {GradInput::List({reduced_dims, grad_shape}), s.ScalarI32(0)});
  GradOutput broadcast = s.Op("BroadcastTo", {s.Reshape(grad, ones_then), full});
  return Einsum(s, {broadcast}, absl::StrCat(reduced, out_subs, "->", in_subs));
}

// The labels of `in_subs` absent from every other subscript string, sorted.
std::string ReducedLabels(const std::string& in_subs, const std::string& others) {
  std::set<char> other = Labels(others);
  std::string out;
  for (char c : Labels(in_subs)) {
    if (!other.count(c)) out += c;
  }
  return out;
}

// TensorFlow's _GetGradWrt.
absl::StatusOr<GradOutput> GradWrt(GradScope& s, const Node& op, GradOutput grad, GradOutput other,
                                   GradOutput x, const std::string& in_subs,
                                   const std::string& other_subs, const std::string& out_subs) {
  const std::string reduced = ReducedLabels(in_subs, out_subs + other_subs);
  std::string left;
  for (char c : in_subs) {
    if (reduced.find(c) == std::string::npos) left += c;
  }
  GradOutput g = Einsum(s, {grad, other}, absl::StrCat(out_subs, ",", other_subs, "->", left));
  if (reduced.empty()) return g;
  return GradReduced(s, op, g, left, in_subs, x, reduced);
}

// The static batch (ellipsis) dims of x, or nullopt.
std::optional<std::vector<int64_t>> BatchDims(GradOutput x, const std::string& subs) {
  PartialTensorShape xs = StaticShapeOf(x);
  if (!xs.IsFullyDefined()) return std::nullopt;
  const size_t ell = subs.find(kEllipsis);
  if (ell == std::string::npos) return std::vector<int64_t>{};
  const int64_t after = static_cast<int64_t>(subs.size() - ell - kEllipsisSize);
  std::vector<int64_t> dims;
  for (int64_t i = ell; i < xs.dims() - after; ++i) dims.push_back(xs.dim_size(i));
  return dims;
}

Fn EinsumGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
  std::string equation;
  SG_RETURN_IF_ERROR(GetAttr(op.def().attr(), "equation", &equation));
  equation.erase(std::remove(equation.begin(), equation.end(), ' '), equation.end());
  std::vector<std::string> sides = absl::StrSplit(equation, "->");
  if (sides.size() != 2) {
    return errors::Unimplemented("Einsum gradient of '", op.name(), "': equation '", equation,
                                 "' has no explicit output");
  }
  const std::string& in_subs = sides[0];
  const std::string& out_subs = sides[1];
  if (op.num_inputs() == 1) {
    const std::string reduced = ReducedLabels(in_subs, out_subs);
    if (reduced.empty()) {
      dx->push_back(Einsum(s, {dy[0]}, absl::StrCat(out_subs, "->", in_subs)));
    } else {
      SG_ASSIGN_OR_RETURN(GradOutput g,
                          GradReduced(s, op, dy[0], out_subs, in_subs, InputOf(op, 0), reduced));
      dx->push_back(g);
    }
    return s.status();
  }
  std::vector<std::string> operands = absl::StrSplit(in_subs, ',');
  if (operands.size() != 2 || op.num_inputs() != 2) {
    return errors::Unimplemented("Einsum gradient of '", op.name(), "': ", op.num_inputs(),
                                 " operands (TensorFlow's handles 1 or 2)");
  }
  std::string x_subs = operands[0], y_subs = operands[1];
  const bool out_ellipsis = out_subs.find(kEllipsis) != std::string::npos;
  if (out_ellipsis) {
    if (x_subs.find(kEllipsis) == std::string::npos) x_subs += kEllipsis;
    if (y_subs.find(kEllipsis) == std::string::npos) y_subs += kEllipsis;
  }
  GradOutput x = s.Conj(InputOf(op, 0)), y = s.Conj(InputOf(op, 1));
  SG_ASSIGN_OR_RETURN(GradOutput gx,
                      GradWrt(s, op, dy[0], y, InputOf(op, 0), x_subs, y_subs, out_subs));
  SG_ASSIGN_OR_RETURN(GradOutput gy,
                      GradWrt(s, op, dy[0], x, InputOf(op, 1), y_subs, x_subs, out_subs));
  if (out_ellipsis) {
    auto bx = BatchDims(InputOf(op, 0), x_subs), by = BatchDims(InputOf(op, 1), y_subs);
    if (!bx || !by) {
      return errors::Unimplemented("Einsum gradient of '", op.name(),
                                   "' needs static operand shapes to broadcast the ellipsis");
    }
    if (*bx != *by) {
      // Sum each side's gradient over the batch dims broadcasting stretched or added.
      auto sum_back = [&](GradOutput g, GradOutput v, const std::string& subs,
                          const std::vector<int64_t>& mine, const std::vector<int64_t>& theirs) {
        const int64_t start = static_cast<int64_t>(subs.find(kEllipsis));
        const size_t n = std::max(mine.size(), theirs.size());
        std::vector<int64_t> axes;
        for (size_t i = 0; i < n; ++i) {
          const int64_t m_idx = static_cast<int64_t>(i) - static_cast<int64_t>(n - mine.size());
          const int64_t t_idx = static_cast<int64_t>(i) - static_cast<int64_t>(n - theirs.size());
          const int64_t m = m_idx >= 0 ? mine[m_idx] : 1;
          const int64_t t = t_idx >= 0 ? theirs[t_idx] : 1;
          if (m == 1 && t != 1) axes.push_back(start + static_cast<int64_t>(i));
        }
        PartialTensorShape vs = StaticShapeOf(v);
        GradOutput target = s.ConstI32({vs.dim_sizes().begin(), vs.dim_sizes().end()});
        if (axes.empty()) return s.Reshape(g, target);
        return s.Reshape(s.Sum(g, s.ConstI32(axes)), target);
      };
      gx = sum_back(gx, InputOf(op, 0), x_subs, *bx, *by);
      gy = sum_back(gy, InputOf(op, 1), y_subs, *by, *bx);
    }
  }
  dx->push_back(gx);
  dx->push_back(gy);
  return s.status();
}

SG_REGISTER_GRADIENT("Einsum", EinsumGrad);

}  // namespace
}  // namespace sg
