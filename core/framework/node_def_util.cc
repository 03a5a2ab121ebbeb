#include "core/framework/node_def_util.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"

namespace sg {

void AddTensorAttrsToNodeDef(const TensorAttrs& attrs, NodeDef* node) {
  for (const auto& [name, value] : attrs) {
    value.AsProtoTensorContent((*node->mutable_attr())[name].mutable_tensor());
  }
}

void AddDefaultsToNodeDef(const OpDef& op_def, NodeDef* node) {
  for (const auto& attr : op_def.attr()) {
    if (attr.has_default_value() && !node->attr().contains(attr.name())) {
      (*node->mutable_attr())[attr.name()] = attr.default_value();
    }
  }
}

namespace {

absl::Status CheckAllowed(const NodeDef& node, const OpDef::AttrDef& def, const AttrValue& v) {
  if (!def.has_allowed_values()) return absl::OkStatus();
  const auto& allowed = def.allowed_values().list();
  auto allowed_type = [&](int t) {
    for (int a : allowed.type()) {
      if (a == t) return true;
    }
    return false;
  };
  if (def.type() == "type") {
    if (!allowed_type(v.type())) {
      return errors::InvalidArgument(
          "Value for attr '", def.name(), "' of ", DataTypeString(v.type()),
          " is not in the list of allowed values: ", SummarizeAttrValue(def.allowed_values()),
          " (node '", node.name(), "', op ", node.op(), ")");
    }
  } else if (def.type() == "list(type)") {
    for (int t : v.list().type()) {
      if (!allowed_type(t)) {
        return errors::InvalidArgument("attr '", def.name(), "' of node '", node.name(),
                                       "' holds ", DataTypeString(static_cast<DataType>(t)),
                                       ", which is not allowed");
      }
    }
  } else if (def.type() == "string") {
    bool found = false;
    for (const auto& s : allowed.s()) found = found || s == v.s();
    if (!found) {
      return errors::InvalidArgument("attr '", def.name(), "' of node '", node.name(),
                                     "' is \"", v.s(), "\", allowed: ",
                                     SummarizeAttrValue(def.allowed_values()));
    }
  }
  return absl::OkStatus();
}

bool TypeMatches(const std::string& want, const AttrValue& v) {
  std::string have = AttrValueTypeString(v);
  if (have == want) return true;
  // An empty list matches any list type.
  return v.value_case() == AttrValue::kList && have == "list" && absl::StartsWith(want, "list(");
}

}  // namespace

absl::Status ValidateNodeDef(const NodeDef& node, const OpDef& op_def,
                             const TensorAttrs* tensor_attrs) {
  if (tensor_attrs != nullptr) {
    for (const auto& [name, value] : *tensor_attrs) {
      if (node.attr().contains(name)) {
        return errors::InvalidArgument("attr '", name, "' of node '", node.name(), "' (op ",
                                       node.op(), ") is given twice: in the NodeDef and decoded");
      }
      if (absl::StartsWith(name, "_")) continue;
      bool tensor_typed = false, known = false;
      for (const auto& def : op_def.attr()) {
        if (def.name() != name) continue;
        known = true;
        tensor_typed = def.type() == "tensor";
      }
      if (!known || !tensor_typed) {
        return errors::InvalidArgument("decoded attr '", name, "' of node '", node.name(),
                                       "': op ", node.op(),
                                       known ? " does not give it type tensor"
                                             : " does not define it");
      }
    }
  }
  for (const auto& def : op_def.attr()) {
    auto it = node.attr().find(def.name());
    if (it == node.attr().end() && tensor_attrs != nullptr && tensor_attrs->count(def.name())) {
      continue;
    }
    if (it == node.attr().end()) {
      return errors::InvalidArgument("NodeDef '", node.name(), "' (op ", node.op(),
                                     ") is missing attr '", def.name(), "'");
    }
    const AttrValue& v = it->second;
    if (!TypeMatches(def.type(), v)) {
      return errors::InvalidArgument("attr '", def.name(), "' of node '", node.name(), "' (op ",
                                     node.op(), ") has type ", AttrValueTypeString(v),
                                     ", expected ", def.type());
    }
    SG_RETURN_IF_ERROR(CheckAllowed(node, def, v));
    if (def.has_minimum()) {
      int64_t got = def.type() == "int" ? v.i() : v.list().i_size() + v.list().type_size();
      if (absl::StartsWith(def.type(), "list(")) {
        const auto& l = v.list();
        got = l.i_size() + l.type_size() + l.s_size() + l.f_size() + l.b_size() +
              l.shape_size() + l.tensor_size() + l.func_size();
      }
      if (got < def.minimum()) {
        return errors::InvalidArgument("attr '", def.name(), "' of node '", node.name(), "' is ",
                                       got, ", less than the minimum ", def.minimum());
      }
    }
  }
  return ValidateNodeDefAttrsDefined(node, op_def, kNoProducer);
}

absl::Status ValidateNodeDefAttrsDefined(const NodeDef& node, const OpDef& op_def, int producer) {
  for (const auto& kv : node.attr()) {
    if (absl::StartsWith(kv.first, "_")) continue;
    bool known = false;
    for (const auto& def : op_def.attr()) known = known || def.name() == kv.first;
    if (known) continue;
    if (producer == kNoProducer) {
      return errors::InvalidArgument("NodeDef '", node.name(), "' (op ", node.op(),
                                     ") has attr '", kv.first, "' that op ", node.op(),
                                     " does not define");
    }
    // As TensorFlow does: an unknown attr may change what the op computes, so it is not dropped.
    return errors::InvalidArgument(
        "NodeDef '", node.name(), "' (op ", node.op(), ") has attr '", kv.first, "' that op ",
        node.op(), " does not define in sg; the GraphDef's producer version is ", producer,
        ". A graph saved with default-valued attrs stripped (TensorFlow's "
        "strip_default_attrs=True) loads when the attr has its default value");
  }
  return absl::OkStatus();
}

namespace {

absl::Status ArgTypes(const NodeDef& node, const OpDef::ArgDef& arg, std::vector<DataType>* out) {
  const auto& attrs = node.attr();
  std::vector<DataType> types;
  if (!arg.type_list_attr().empty()) {
    SG_RETURN_IF_ERROR(GetAttr(attrs, arg.type_list_attr(), &types));
  } else {
    DataType dt = arg.type();
    if (!arg.type_attr().empty()) {
      absl::Status s = GetAttr(attrs, arg.type_attr(), &dt);
      if (!s.ok()) {
        return errors::InvalidArgument("node '", node.name(), "' (op ", node.op(),
                                       "): ", s.message());
      }
    }
    int64_t n = 1;
    if (!arg.number_attr().empty()) {
      absl::Status s = GetAttr(attrs, arg.number_attr(), &n);
      if (!s.ok()) {
        return errors::InvalidArgument("node '", node.name(), "' (op ", node.op(),
                                       "): ", s.message());
      }
      if (n < 0) return errors::InvalidArgument("node '", node.name(), "': negative list size");
    }
    types.assign(n, dt);
  }
  for (DataType dt : types) out->push_back(arg.is_ref() ? MakeRefType(dt) : dt);
  return absl::OkStatus();
}

}  // namespace

absl::Status InOutTypesForNode(const NodeDef& node, const OpDef& op_def,
                               std::vector<DataType>* inputs, std::vector<DataType>* outputs) {
  inputs->clear();
  outputs->clear();
  for (const auto& arg : op_def.input_arg()) SG_RETURN_IF_ERROR(ArgTypes(node, arg, inputs));
  for (const auto& arg : op_def.output_arg()) SG_RETURN_IF_ERROR(ArgTypes(node, arg, outputs));
  return absl::OkStatus();
}

absl::Status NameRangesForNode(const NodeDef& node, const OpDef& op_def, NameRangeMap* inputs,
                               NameRangeMap* outputs) {
  auto fill = [&](const auto& args, NameRangeMap* map) -> absl::Status {
    int start = 0;
    for (const auto& arg : args) {
      std::vector<DataType> types;
      SG_RETURN_IF_ERROR(ArgTypes(node, arg, &types));
      if (map) (*map)[arg.name()] = {start, start + static_cast<int>(types.size())};
      start += types.size();
    }
    return absl::OkStatus();
  };
  SG_RETURN_IF_ERROR(fill(op_def.input_arg(), inputs));
  return fill(op_def.output_arg(), outputs);
}

std::string SummarizeNodeDef(const NodeDef& node) {
  std::vector<std::string> attrs;
  for (const auto& kv : node.attr()) {
    attrs.push_back(absl::StrCat(kv.first, "=", SummarizeAttrValue(kv.second)));
  }
  std::sort(attrs.begin(), attrs.end());
  return absl::StrCat(node.name(), " = ", node.op(), "[", absl::StrJoin(attrs, ", "), "](",
                      absl::StrJoin(node.input(), ", "), ")");
}

bool ParseTensorName(absl::string_view name, std::string* node, int* index) {
  if (name.empty()) return false;
  if (name[0] == '^') {
    *node = std::string(name.substr(1));
    *index = -1;
    return !node->empty();
  }
  size_t colon = name.rfind(':');
  if (colon != absl::string_view::npos) {
    int i;
    if (absl::SimpleAtoi(name.substr(colon + 1), &i) && i >= 0) {
      *node = std::string(name.substr(0, colon));
      *index = i;
      return !node->empty();
    }
  }
  *node = std::string(name);
  *index = 0;
  return true;
}

}  // namespace sg
