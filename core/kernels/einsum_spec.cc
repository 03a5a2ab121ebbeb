#include "core/kernels/einsum_spec.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace sg {
namespace {

constexpr int kLetters = 52;

int LetterId(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -1;
}

// One subscript: its letters before and after the ellipsis (when it has one).
struct Subscript {
  std::vector<int> before, after;
  bool ellipsis = false;
};

absl::Status ParseSubscript(absl::string_view eq, absl::string_view s, Subscript* out) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.') {
      if (out->ellipsis || s.substr(i, 3) != "...") {
        return errors::InvalidArgument("Einsum equation '", eq, "': subscript '", s,
                                       "' has a '.' outside a single ellipsis '...'");
      }
      out->ellipsis = true;
      i += 2;
      continue;
    }
    const int id = LetterId(s[i]);
    if (id < 0) {
      return errors::InvalidArgument("Einsum equation '", eq, "': invalid character '",
                                     std::string(1, s[i]), "' (labels are ASCII letters)");
    }
    (out->ellipsis ? out->after : out->before).push_back(id);
  }
  return absl::OkStatus();
}

std::string LabelName(int l) {
  if (l >= kLetters) return "an ellipsis dim";
  const char c = l < 26 ? static_cast<char>('a' + l) : static_cast<char>('A' + l - 26);
  return absl::StrCat("label '", std::string(1, c), "'");
}

}  // namespace

DimVector EinsumPlan::OutputShape() const {
  DimVector dims;
  for (int l : output_labels) dims.push_back(size[l]);
  return dims;
}

absl::Status PlanEinsum(absl::string_view equation,
                        const std::vector<std::vector<int64_t>>& input_dims, EinsumPlan* plan) {
  *plan = EinsumPlan();
  std::string eq;
  for (char c : equation) {
    if (c != ' ') eq += c;
  }
  const size_t arrow = eq.find("->");
  if (arrow == std::string::npos || eq.find("->", arrow + 2) != std::string::npos) {
    return errors::InvalidArgument("Einsum equation '", equation,
                                   "' must have exactly one '->'");
  }
  std::vector<absl::string_view> ins =
      absl::StrSplit(absl::string_view(eq).substr(0, arrow), ',');
  const int n = static_cast<int>(input_dims.size());
  if (n < 1 || n > 2) {
    return errors::InvalidArgument("Einsum takes one or two inputs, got ", n);
  }
  if (static_cast<int>(ins.size()) != n) {
    return errors::InvalidArgument("Einsum equation '", equation, "' has ", ins.size(),
                                   " input subscripts for ", n, " inputs");
  }
  std::vector<Subscript> subs(n);
  Subscript out_sub;
  for (int i = 0; i < n; ++i) SG_RETURN_IF_ERROR(ParseSubscript(equation, ins[i], &subs[i]));
  SG_RETURN_IF_ERROR(ParseSubscript(equation, absl::string_view(eq).substr(arrow + 2), &out_sub));

  // Ellipsis ranks.
  int ell_rank = 0;
  std::vector<int> ell(n, 0);
  for (int i = 0; i < n; ++i) {
    const int labelled = static_cast<int>(subs[i].before.size() + subs[i].after.size());
    const int rank = static_cast<int>(input_dims[i].size());
    if (subs[i].ellipsis ? rank < labelled : rank != labelled) {
      return errors::InvalidArgument("Einsum equation '", equation, "': input ", i, " has rank ",
                                     rank, ", but its subscript labels ", labelled, " dims",
                                     subs[i].ellipsis ? " and an ellipsis" : "");
    }
    ell[i] = rank - labelled;
    ell_rank = std::max(ell_rank, ell[i]);
  }
  plan->size.assign(kLetters + ell_rank, -2);  // -2: no input has the label
  plan->in_output.assign(kLetters + ell_rank, false);
  plan->input_labels.resize(n);
  for (int i = 0; i < n; ++i) {
    auto& labels = plan->input_labels[i];
    labels = subs[i].before;
    for (int j = 0; j < ell[i]; ++j) labels.push_back(kLetters + ell_rank - ell[i] + j);
    labels.insert(labels.end(), subs[i].after.begin(), subs[i].after.end());
    for (size_t d = 0; d < labels.size(); ++d) {
      const int l = labels[d];
      const int64_t dim = input_dims[i][d];
      int64_t& sz = plan->size[l];
      if (sz == -2 || sz == -1) {
        if (sz == -2 || dim >= 0) sz = dim;
        // An unknown ellipsis dim may be 1 and broadcast; keep what is known.
        continue;
      }
      if (dim < 0 || dim == sz) continue;
      if (l >= kLetters && (dim == 1 || sz == 1)) {
        sz = std::max(sz, dim);
        continue;
      }
      return errors::InvalidArgument(
          "Einsum equation '", equation, "': ", LabelName(l), " has size ", sz, " and ", dim, " (input ", i, ", dim ", d, ")");
    }
  }
  // The output.
  if (!out_sub.ellipsis && ell_rank > 0) {
    return errors::InvalidArgument("Einsum equation '", equation,
                                   "': the output has no ellipsis but an input's ellipsis "
                                   "covers ", ell_rank, " dims");
  }
  plan->output_labels = out_sub.before;
  if (out_sub.ellipsis) {
    for (int j = 0; j < ell_rank; ++j) plan->output_labels.push_back(kLetters + j);
  }
  plan->output_labels.insert(plan->output_labels.end(), out_sub.after.begin(),
                             out_sub.after.end());
  for (int l : plan->output_labels) {
    if (plan->size[l] == -2) {
      return errors::InvalidArgument("Einsum equation '", equation, "': output ", LabelName(l),
                                     " is in no input");
    }
    plan->in_output[l] = true;
  }
  for (int64_t& sz : plan->size) {
    if (sz == -2) sz = 0;  // a label no input has: never used
  }
  return absl::OkStatus();
}

}  // namespace sg
