#include "core/framework/op.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/framework/types.h"

namespace sg {

absl::Status OpRegistryInterface::LookUpOpDef(absl::string_view op_type,
                                              const OpDef** op_def) const {
  const OpRegistrationData* data = LookUp(op_type);
  if (data == nullptr) {
    return errors::NotFound("Op type not registered '", op_type, "'");
  }
  *op_def = &data->op_def;
  return absl::OkStatus();
}

OpRegistry* OpRegistry::Global() {
  static OpRegistry* registry = new OpRegistry;
  return registry;
}

absl::Status OpRegistry::Register(std::unique_ptr<OpRegistrationData> data) {
  absl::MutexLock lock(&mu_);
  std::string name = data->op_def.name();
  if (!ops_.emplace(name, std::move(data)).second) {
    return errors::AlreadyExists("op '", name, "' is registered twice");
  }
  return absl::OkStatus();
}

const OpRegistrationData* OpRegistry::LookUp(absl::string_view op_type) const {
  absl::MutexLock lock(&mu_);
  auto it = ops_.find(op_type);
  return it == ops_.end() ? nullptr : it->second.get();
}

std::vector<std::string> OpRegistry::ListOpNames() const {
  absl::MutexLock lock(&mu_);
  std::vector<std::string> names;
  for (const auto& kv : ops_) names.push_back(kv.first);
  return names;
}

void OpRegistry::Export(OpList* ops) const {
  absl::MutexLock lock(&mu_);
  for (const auto& kv : ops_) *ops->add_op() = kv.second->op_def;
}

OpDefBuilder::OpDefBuilder(std::string op_name) { op_def_.set_name(std::move(op_name)); }
OpDefBuilder& OpDefBuilder::Input(std::string spec) {
  inputs_.push_back(std::move(spec));
  return *this;
}
OpDefBuilder& OpDefBuilder::Output(std::string spec) {
  outputs_.push_back(std::move(spec));
  return *this;
}
OpDefBuilder& OpDefBuilder::Attr(std::string spec) {
  attrs_.push_back(std::move(spec));
  return *this;
}
OpDefBuilder& OpDefBuilder::SetIsStateful() {
  op_def_.set_is_stateful(true);
  return *this;
}
OpDefBuilder& OpDefBuilder::SetIsCommutative() {
  op_def_.set_is_commutative(true);
  return *this;
}
OpDefBuilder& OpDefBuilder::SetIsAggregate() {
  op_def_.set_is_aggregate(true);
  return *this;
}
OpDefBuilder& OpDefBuilder::SetAllowsUninitializedInput() {
  op_def_.set_allows_uninitialized_input(true);
  return *this;
}
OpDefBuilder& OpDefBuilder::SetIsDistributedCommunication() {
  op_def_.set_is_distributed_communication(true);
  return *this;
}
OpDefBuilder& OpDefBuilder::Deprecated(int version, std::string explanation) {
  op_def_.mutable_deprecation()->set_version(version);
  op_def_.mutable_deprecation()->set_explanation(std::move(explanation));
  return *this;
}
OpDefBuilder& OpDefBuilder::SetShapeFn(ShapeInferenceFn fn) {
  shape_fn_ = std::move(fn);
  return *this;
}

namespace {

absl::Status SplitSpec(absl::string_view spec, std::string* name, std::string* rest) {
  std::vector<std::string> parts = absl::StrSplit(spec, absl::MaxSplits(':', 1));
  if (parts.size() != 2) return errors::InvalidArgument("spec '", spec, "' has no ':'");
  *name = std::string(absl::StripAsciiWhitespace(parts[0]));
  *rest = std::string(absl::StripAsciiWhitespace(parts[1]));
  if (name->empty()) return errors::InvalidArgument("spec '", spec, "' has no name");
  return absl::OkStatus();
}

std::string Unquote(absl::string_view s) {
  s = absl::StripAsciiWhitespace(s);
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front()) {
    s = s.substr(1, s.size() - 2);
  }
  return std::string(s);
}

// Parses a default value written after '=' for an attr of type `type`.
absl::Status ParseDefault(absl::string_view type, absl::string_view text, AttrValue* out) {
  text = absl::StripAsciiWhitespace(text);
  if (absl::StartsWith(type, "list(")) {
    auto* list = out->mutable_list();
    absl::string_view inner = text;
    if (!absl::ConsumePrefix(&inner, "[") || !absl::ConsumeSuffix(&inner, "]")) {
      return errors::InvalidArgument("list default '", text, "' needs brackets");
    }
    absl::string_view elem = type.substr(5, type.size() - 6);
    for (absl::string_view item : absl::StrSplit(inner, ',', absl::SkipWhitespace())) {
      item = absl::StripAsciiWhitespace(item);
      if (elem == "int") {
        int64_t v;
        if (!absl::SimpleAtoi(item, &v)) return errors::InvalidArgument("bad int '", item, "'");
        list->add_i(v);
      } else if (elem == "float") {
        float v;
        if (!absl::SimpleAtof(item, &v)) return errors::InvalidArgument("bad float '", item, "'");
        list->add_f(v);
      } else if (elem == "string") {
        list->add_s(Unquote(item));
      } else if (elem == "type") {
        DataType dt;
        if (!DataTypeFromString(item, &dt)) return errors::InvalidArgument("bad type ", item);
        list->add_type(dt);
      } else if (elem == "bool") {
        list->add_b(item == "true");
      } else {
        return errors::InvalidArgument("cannot parse a default for ", type);
      }
    }
    return absl::OkStatus();
  }
  if (type == "int") {
    int64_t v;
    if (!absl::SimpleAtoi(text, &v)) return errors::InvalidArgument("bad int default ", text);
    out->set_i(v);
  } else if (type == "float") {
    float v;
    if (!absl::SimpleAtof(text, &v)) return errors::InvalidArgument("bad float default ", text);
    out->set_f(v);
  } else if (type == "bool") {
    if (text != "true" && text != "false") return errors::InvalidArgument("bad bool ", text);
    out->set_b(text == "true");
  } else if (type == "string") {
    out->set_s(Unquote(text));
  } else if (type == "type") {
    DataType dt;
    if (!DataTypeFromString(text, &dt)) return errors::InvalidArgument("bad type ", text);
    out->set_type(dt);
  } else if (type == "shape") {
    // Only "unknown" ({unknown_rank: true}) and "[]" are used as shape defaults.
    if (text == "[]") {
      out->mutable_shape();
    } else {
      out->mutable_shape()->set_unknown_rank(true);
    }
  } else if (type == "func" || type == "tensor") {
    return errors::InvalidArgument("no default allowed for ", type);
  } else {
    return errors::InvalidArgument("unknown attr type ", type);
  }
  return absl::OkStatus();
}

absl::Status ParseAttr(absl::string_view spec, OpDef::AttrDef* attr) {
  std::string name, rest;
  SG_RETURN_IF_ERROR(SplitSpec(spec, &name, &rest));
  attr->set_name(name);
  std::string def_text;
  bool has_default = false;
  // '=' may appear inside a quoted default only after the first one.
  size_t eq = rest.find('=');
  if (eq != std::string::npos && !(eq > 0 && rest[eq - 1] == '>')) {
    def_text = rest.substr(eq + 1);
    rest = std::string(absl::StripAsciiWhitespace(rest.substr(0, eq)));
    has_default = true;
  } else if (eq != std::string::npos) {
    // "int >= 1 = 2": skip the ">=" and look for a later '='.
    size_t eq2 = rest.find('=', eq + 1);
    if (eq2 != std::string::npos) {
      def_text = rest.substr(eq2 + 1);
      rest = std::string(absl::StripAsciiWhitespace(rest.substr(0, eq2)));
      has_default = true;
    }
  }
  std::string type = rest;
  size_t ge = rest.find(">=");
  if (ge != std::string::npos) {
    type = std::string(absl::StripAsciiWhitespace(rest.substr(0, ge)));
    int64_t min;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(rest.substr(ge + 2)), &min)) {
      return errors::InvalidArgument("bad minimum in '", spec, "'");
    }
    attr->set_has_minimum(true);
    attr->set_minimum(min);
  }
  if (absl::StartsWith(type, "{")) {
    // A set of allowed types or strings.
    absl::string_view inner = type;
    inner.remove_prefix(1);
    if (!absl::ConsumeSuffix(&inner, "}")) return errors::InvalidArgument("bad set in ", spec);
    bool strings = absl::StrContains(inner, '\'') || absl::StrContains(inner, '"');
    auto* list = attr->mutable_allowed_values()->mutable_list();
    for (absl::string_view item : absl::StrSplit(inner, ',', absl::SkipWhitespace())) {
      if (strings) {
        list->add_s(Unquote(item));
      } else {
        DataType dt;
        if (!DataTypeFromString(absl::StripAsciiWhitespace(item), &dt)) {
          return errors::InvalidArgument("unknown type '", item, "' in '", spec, "'");
        }
        list->add_type(dt);
      }
    }
    type = strings ? "string" : "type";
  } else if (absl::StartsWith(type, "list({")) {
    absl::string_view inner = type;
    inner.remove_prefix(6);
    if (!absl::ConsumeSuffix(&inner, "})")) return errors::InvalidArgument("bad set in ", spec);
    auto* list = attr->mutable_allowed_values()->mutable_list();
    for (absl::string_view item : absl::StrSplit(inner, ',', absl::SkipWhitespace())) {
      DataType dt;
      if (!DataTypeFromString(absl::StripAsciiWhitespace(item), &dt)) {
        return errors::InvalidArgument("unknown type '", item, "' in '", spec, "'");
      }
      list->add_type(dt);
    }
    type = "list(type)";
  }
  attr->set_type(type);
  if (has_default) {
    SG_RETURN_IF_ERROR(ParseDefault(type, def_text, attr->mutable_default_value()));
  }
  return absl::OkStatus();
}

absl::Status ParseArg(absl::string_view spec, const OpDef& op, OpDef::ArgDef* arg) {
  std::string name, rest;
  SG_RETURN_IF_ERROR(SplitSpec(spec, &name, &rest));
  arg->set_name(name);
  absl::string_view t = rest;
  if (absl::ConsumePrefix(&t, "Ref(")) {
    if (!absl::ConsumeSuffix(&t, ")")) return errors::InvalidArgument("bad Ref in ", spec);
    arg->set_is_ref(true);
  }
  size_t star = t.find('*');
  if (star != absl::string_view::npos) {
    arg->set_number_attr(std::string(absl::StripAsciiWhitespace(t.substr(0, star))));
    t = absl::StripAsciiWhitespace(t.substr(star + 1));
  }
  t = absl::StripAsciiWhitespace(t);
  for (const auto& a : op.attr()) {
    if (a.name() == t) {
      if (a.type() == "type") {
        arg->set_type_attr(std::string(t));
      } else if (a.type() == "list(type)") {
        arg->set_type_list_attr(std::string(t));
      } else {
        return errors::InvalidArgument("arg '", spec, "' names attr ", t, " of type ", a.type());
      }
      return absl::OkStatus();
    }
  }
  DataType dt;
  if (!DataTypeFromString(t, &dt)) {
    return errors::InvalidArgument("arg '", spec, "': '", t, "' is neither a type nor an attr");
  }
  arg->set_type(dt);
  return absl::OkStatus();
}

}  // namespace

absl::Status OpDefBuilder::Finalize(OpRegistrationData* data) const {
  data->op_def = op_def_;
  OpDef& op = data->op_def;
  for (const auto& spec : attrs_) {
    absl::Status s = ParseAttr(spec, op.add_attr());
    if (!s.ok()) return errors::Annotate(s, absl::StrCat("op ", op.name(), ": "));
  }
  for (const auto& spec : inputs_) {
    absl::Status s = ParseArg(spec, op, op.add_input_arg());
    if (!s.ok()) return errors::Annotate(s, absl::StrCat("op ", op.name(), ": "));
  }
  for (const auto& spec : outputs_) {
    absl::Status s = ParseArg(spec, op, op.add_output_arg());
    if (!s.ok()) return errors::Annotate(s, absl::StrCat("op ", op.name(), ": "));
  }
  data->shape_fn = shape_fn_;
  return absl::OkStatus();
}

OpDefBuilderReceiver::OpDefBuilderReceiver(const OpDefBuilder& builder) {
  auto data = std::make_unique<OpRegistrationData>();
  absl::Status s = builder.Finalize(data.get());
  if (s.ok()) s = OpRegistry::Global()->Register(std::move(data));
  if (!s.ok()) {
    std::fprintf(stderr, "sg: bad op registration: %s\n", s.ToString().c_str());
    std::abort();
  }
}

}  // namespace sg
