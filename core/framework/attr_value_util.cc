#include "core/framework/attr_value_util.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_join.h"

namespace sg {
namespace {

absl::Status Find(const AttrMap& attrs, absl::string_view name, const AttrValue** v) {
  auto it = attrs.find(std::string(name));
  if (it == attrs.end()) return errors::NotFound("no attr named '", name, "'");
  *v = &it->second;
  return absl::OkStatus();
}

absl::Status WrongType(absl::string_view name, const AttrValue& v, absl::string_view want) {
  return errors::InvalidArgument("attr '", name, "' has type ", AttrValueTypeString(v),
                                 ", expected ", want);
}

}  // namespace

#define SG_SCALAR_GETTER_(CppType, Case, Field, Want)                                      \
  absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, CppType* value) {     \
    const AttrValue* v;                                                                    \
    SG_RETURN_IF_ERROR(Find(attrs, name, &v));                                             \
    if (v->value_case() != AttrValue::Case) return WrongType(name, *v, Want);              \
    *value = static_cast<CppType>(v->Field());                                             \
    return absl::OkStatus();                                                               \
  }
SG_SCALAR_GETTER_(std::string, kS, s, "string")
SG_SCALAR_GETTER_(int64_t, kI, i, "int")
SG_SCALAR_GETTER_(float, kF, f, "float")
SG_SCALAR_GETTER_(bool, kB, b, "bool")
SG_SCALAR_GETTER_(DataType, kType, type, "type")
#undef SG_SCALAR_GETTER_

absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, int32_t* value) {
  int64_t v;
  SG_RETURN_IF_ERROR(GetAttr(attrs, name, &v));
  if (v < INT32_MIN || v > INT32_MAX) {
    return errors::InvalidArgument("attr '", name, "' = ", v, " does not fit in int32");
  }
  *value = static_cast<int32_t>(v);
  return absl::OkStatus();
}

absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, PartialTensorShape* value) {
  const AttrValue* v;
  SG_RETURN_IF_ERROR(Find(attrs, name, &v));
  if (v->value_case() != AttrValue::kShape) return WrongType(name, *v, "shape");
  SG_ASSIGN_OR_RETURN(*value, PartialTensorShape::FromProto(v->shape()));
  return absl::OkStatus();
}

absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, Tensor* value) {
  const AttrValue* v;
  SG_RETURN_IF_ERROR(Find(attrs, name, &v));
  if (v->value_case() != AttrValue::kTensor) return WrongType(name, *v, "tensor");
  auto t = Tensor::FromProto(v->tensor());
  if (!t.ok()) return errors::Annotate(t.status(), absl::StrCat("attr '", name, "': "));
  *value = *std::move(t);
  return absl::OkStatus();
}

absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, NameAttrList* value) {
  const AttrValue* v;
  SG_RETURN_IF_ERROR(Find(attrs, name, &v));
  if (v->value_case() != AttrValue::kFunc) return WrongType(name, *v, "func");
  *value = v->func();
  return absl::OkStatus();
}

absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, const AttrValue** value) {
  return Find(attrs, name, value);
}

#define SG_LIST_GETTER_(CppType, Field, Want)                                                \
  absl::Status GetAttr(const AttrMap& attrs, absl::string_view name,                         \
                       std::vector<CppType>* value) {                                        \
    const AttrValue* v;                                                                      \
    SG_RETURN_IF_ERROR(Find(attrs, name, &v));                                               \
    if (v->value_case() != AttrValue::kList) return WrongType(name, *v, Want);               \
    value->clear();                                                                          \
    for (const auto& x : v->list().Field()) value->push_back(static_cast<CppType>(x));       \
    return absl::OkStatus();                                                                 \
  }
SG_LIST_GETTER_(std::string, s, "list(string)")
SG_LIST_GETTER_(int64_t, i, "list(int)")
SG_LIST_GETTER_(int32_t, i, "list(int)")
SG_LIST_GETTER_(float, f, "list(float)")
SG_LIST_GETTER_(bool, b, "list(bool)")
#undef SG_LIST_GETTER_

absl::Status GetAttr(const AttrMap& attrs, absl::string_view name,
                     std::vector<DataType>* value) {
  const AttrValue* v;
  SG_RETURN_IF_ERROR(Find(attrs, name, &v));
  if (v->value_case() != AttrValue::kList) return WrongType(name, *v, "list(type)");
  value->clear();
  for (int x : v->list().type()) value->push_back(static_cast<DataType>(x));
  return absl::OkStatus();
}

absl::Status GetAttr(const AttrMap& attrs, absl::string_view name,
                     std::vector<PartialTensorShape>* value) {
  const AttrValue* v;
  SG_RETURN_IF_ERROR(Find(attrs, name, &v));
  if (v->value_case() != AttrValue::kList) return WrongType(name, *v, "list(shape)");
  value->clear();
  for (const auto& s : v->list().shape()) {
    SG_ASSIGN_OR_RETURN(auto shape, PartialTensorShape::FromProto(s));
    value->push_back(shape);
  }
  return absl::OkStatus();
}

void SetAttrValue(const std::string& v, AttrValue* out) { out->set_s(v); }
void SetAttrValue(const char* v, AttrValue* out) { out->set_s(v); }
void SetAttrValue(int64_t v, AttrValue* out) { out->set_i(v); }
void SetAttrValue(int v, AttrValue* out) { out->set_i(v); }
void SetAttrValue(float v, AttrValue* out) { out->set_f(v); }
void SetAttrValue(bool v, AttrValue* out) { out->set_b(v); }
void SetAttrValue(DataType v, AttrValue* out) { out->set_type(v); }
void SetAttrValue(const PartialTensorShape& v, AttrValue* out) { v.AsProto(out->mutable_shape()); }
void SetAttrValue(const Tensor& v, AttrValue* out) {
  if (v.NumElements() > 16) {
    v.AsProtoTensorContent(out->mutable_tensor());
  } else {
    v.AsProtoField(out->mutable_tensor());
  }
}
void SetAttrValue(absl::Span<const int64_t> v, AttrValue* out) {
  auto* list = out->mutable_list();
  list->Clear();
  for (int64_t x : v) list->add_i(x);
}
void SetAttrValue(absl::Span<const DataType> v, AttrValue* out) {
  auto* list = out->mutable_list();
  list->Clear();
  for (DataType x : v) list->add_type(x);
}
void SetAttrValue(absl::Span<const std::string> v, AttrValue* out) {
  auto* list = out->mutable_list();
  list->Clear();
  for (const auto& x : v) list->add_s(x);
}

std::string AttrValueTypeString(const AttrValue& v) {
  switch (v.value_case()) {
    case AttrValue::kS: return "string";
    case AttrValue::kI: return "int";
    case AttrValue::kF: return "float";
    case AttrValue::kB: return "bool";
    case AttrValue::kType: return "type";
    case AttrValue::kShape: return "shape";
    case AttrValue::kTensor: return "tensor";
    case AttrValue::kFunc: return "func";
    case AttrValue::kPlaceholder: return "placeholder";
    case AttrValue::kList: {
      const auto& l = v.list();
      if (l.s_size()) return "list(string)";
      if (l.i_size()) return "list(int)";
      if (l.f_size()) return "list(float)";
      if (l.b_size()) return "list(bool)";
      if (l.type_size()) return "list(type)";
      if (l.shape_size()) return "list(shape)";
      if (l.tensor_size()) return "list(tensor)";
      if (l.func_size()) return "list(func)";
      return "list";
    }
    default: return "unset";
  }
}

std::string SummarizeAttrValue(const AttrValue& v) {
  switch (v.value_case()) {
    case AttrValue::kS: return absl::StrCat("\"", absl::CEscape(v.s()), "\"");
    case AttrValue::kI: return absl::StrCat(v.i());
    case AttrValue::kF: return absl::StrCat(v.f());
    case AttrValue::kB: return v.b() ? "true" : "false";
    case AttrValue::kType: return DataTypeString(v.type());
    case AttrValue::kShape: {
      auto s = PartialTensorShape::FromProto(v.shape());
      return s.ok() ? s->DebugString() : "<bad shape>";
    }
    case AttrValue::kTensor: return "<tensor>";
    case AttrValue::kFunc: return v.func().name();
    case AttrValue::kList: {
      const auto& l = v.list();
      if (l.i_size()) return absl::StrCat("[", absl::StrJoin(l.i(), ","), "]");
      if (l.s_size()) return absl::StrCat("[", absl::StrJoin(l.s(), ","), "]");
      if (l.type_size()) {
        std::vector<std::string> names;
        for (int t : l.type()) names.push_back(DataTypeString(static_cast<DataType>(t)));
        return absl::StrCat("[", absl::StrJoin(names, ","), "]");
      }
      return "[...]";
    }
    default: return "<unset>";
  }
}

}  // namespace sg
