// C API: attribute setters on operation descriptions and getters on finished operations.
#include <algorithm>
#include <cstring>

#include "absl/strings/match.h"

#include "c_api/c_api_internal.h"
#include "core/framework/attr_value_util.h"

namespace sg {
namespace c_api {
namespace {

// Records the first argument error of a setter that has no status; SG_FinishOperation
// reports it.
void Defer(SG_OperationDescription* desc, const absl::Status& s) {
  if (!s.ok() && desc->deferred_error.ok()) {
    desc->deferred_error = errors::Annotate(
        s, absl::StrCat("Operation '", desc->node_def.name(), "': "));
  }
}

// Runs `fn(AttrValue*)` for attr `name` of `desc`; errors (including a NULL name) are
// deferred.
template <typename Fn>
void SetAttr(SG_OperationDescription* desc, const char* name, Fn&& fn) {
  if (desc == nullptr) return;
  try {
    if (name == nullptr || *name == '\0') {
      Defer(desc, errors::InvalidArgument("an attr setter got a NULL or empty attr name"));
      return;
    }
    AttrValue v;
    absl::Status s = fn(&v);
    if (!s.ok()) {
      Defer(desc, errors::Annotate(s, absl::StrCat("attr '", name, "': ")));
      return;
    }
    (*desc->node_def.mutable_attr())[name] = std::move(v);
  } catch (...) {
    Defer(desc, errors::Internal("attr '", name ? name : "", "': exception while setting it"));
  }
}

// Like SetAttr, for setters that report through a status.
template <typename Fn>
void SetAttrWithStatus(const char* where, SG_OperationDescription* desc, const char* name,
                       SG_Status* status, Fn&& fn) {
  Guard(where, status, [&]() -> absl::Status {
    if (desc == nullptr) return errors::InvalidArgument(where, ": description is NULL");
    if (name == nullptr || *name == '\0') {
      return errors::InvalidArgument(where, ": attr name is NULL or empty");
    }
    AttrValue v;
    absl::Status s = fn(&v);
    if (!s.ok()) {
      return errors::Annotate(s, absl::StrCat("Operation '", desc->node_def.name(), "': attr '",
                                              name, "': "));
    }
    (*desc->node_def.mutable_attr())[name] = std::move(v);
    return absl::OkStatus();
  });
}

absl::Status ShapeToProto(const int64_t* dims, int num_dims, TensorShapeProto* proto) {
  if (num_dims < -1) return errors::InvalidArgument("num_dims is ", num_dims, " (< -1)");
  if (num_dims == -1) {
    proto->set_unknown_rank(true);
    return absl::OkStatus();
  }
  SG_RETURN_IF_ERROR(CheckArray(dims, num_dims, "dims"));
  for (int i = 0; i < num_dims; ++i) {
    if (dims[i] < -1) return errors::InvalidArgument("dims[", i, "] is ", dims[i], " (< -1)");
    proto->add_dim()->set_size(dims[i]);
  }
  return absl::OkStatus();
}

// Looks attr `name` of `oper` up; NOT_FOUND naming both when absent.
absl::StatusOr<const AttrValue*> FindAttr(SG_Operation* oper, const char* name,
                                          const char* where) {
  if (oper == nullptr) return errors::InvalidArgument(where, ": oper is NULL");
  if (name == nullptr) return errors::InvalidArgument(where, ": attr_name is NULL");
  const Node* n = ToNode(oper);
  auto it = n->def().attr().find(name);
  if (it == n->def().attr().end()) {
    return errors::NotFound("Operation '", n->name(), "' has no attr named '", name, "'");
  }
  return &it->second;
}

// INVALID_ARGUMENT unless `v` holds `want` ("int", "list(int)" ...); an empty list passes as any
// list.
absl::Status CheckKind(SG_Operation* oper, const char* name, const AttrValue& v,
                       const std::string& want) {
  const std::string have = AttrValueTypeString(v);
  if (have == want) return absl::OkStatus();
  // An empty list names no element type, so it passes as any list.
  if (have == "list" && absl::StartsWith(want, "list(")) return absl::OkStatus();
  return errors::InvalidArgument("Attr '", name, "' of operation '", ToNode(oper)->name(),
                                 "' is a ", have, ", not a ",
                                 want);
}

// The getters' common start: the attr of the wanted kind, or an error.
absl::StatusOr<const AttrValue*> Get(SG_Operation* oper, const char* name, const char* where,
                                     const std::string& want, const void* out) {
  SG_ASSIGN_OR_RETURN(const AttrValue* v, FindAttr(oper, name, where));
  if (out == nullptr) return errors::InvalidArgument(where, ": output pointer is NULL");
  SG_RETURN_IF_ERROR(CheckKind(oper, name, *v, want));
  return v;
}

}  // namespace
}  // namespace c_api
}  // namespace sg

using sg::c_api::Guard;
using sg::c_api::SetAttr;
using sg::c_api::SetAttrWithStatus;
namespace errors = sg::errors;

extern "C" {

// ---- setters ---------------------------------------------------------------------------------

void SG_SetAttrString(SG_OperationDescription* desc, const char* attr_name, const void* value,
                      size_t length) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) -> absl::Status {
    if (value == nullptr && length > 0) return errors::InvalidArgument("value is NULL");
    v->set_s(static_cast<const char*>(value), length);
    return absl::OkStatus();
  });
}

void SG_SetAttrStringList(SG_OperationDescription* desc, const char* attr_name,
                          const void* const* values, const size_t* lengths, int num_values) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) -> absl::Status {
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, num_values, "values"));
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(lengths, num_values, "lengths"));
    auto* list = v->mutable_list();
    for (int i = 0; i < num_values; ++i) {
      if (values[i] == nullptr && lengths[i] > 0) {
        return errors::InvalidArgument("values[", i, "] is NULL");
      }
      list->add_s(static_cast<const char*>(values[i]), lengths[i]);
    }
    return absl::OkStatus();
  });
}

void SG_SetAttrInt(SG_OperationDescription* desc, const char* attr_name, int64_t value) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) {
    v->set_i(value);
    return absl::OkStatus();
  });
}

void SG_SetAttrIntList(SG_OperationDescription* desc, const char* attr_name,
                       const int64_t* values, int num_values) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) -> absl::Status {
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, num_values, "values"));
    v->mutable_list();
    for (int i = 0; i < num_values; ++i) v->mutable_list()->add_i(values[i]);
    return absl::OkStatus();
  });
}

void SG_SetAttrFloat(SG_OperationDescription* desc, const char* attr_name, float value) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) {
    v->set_f(value);
    return absl::OkStatus();
  });
}

void SG_SetAttrFloatList(SG_OperationDescription* desc, const char* attr_name,
                         const float* values, int num_values) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) -> absl::Status {
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, num_values, "values"));
    v->mutable_list();
    for (int i = 0; i < num_values; ++i) v->mutable_list()->add_f(values[i]);
    return absl::OkStatus();
  });
}

void SG_SetAttrBool(SG_OperationDescription* desc, const char* attr_name, unsigned char value) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) {
    v->set_b(value != 0);
    return absl::OkStatus();
  });
}

void SG_SetAttrBoolList(SG_OperationDescription* desc, const char* attr_name,
                        const unsigned char* values, int num_values) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) -> absl::Status {
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, num_values, "values"));
    v->mutable_list();
    for (int i = 0; i < num_values; ++i) v->mutable_list()->add_b(values[i] != 0);
    return absl::OkStatus();
  });
}

void SG_SetAttrType(SG_OperationDescription* desc, const char* attr_name, SG_DataType value) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) -> absl::Status {
    if (!sg::DataType_IsValid(value)) return errors::InvalidArgument("unknown dtype ", value);
    v->set_type(static_cast<sg::DataType>(value));
    return absl::OkStatus();
  });
}

void SG_SetAttrTypeList(SG_OperationDescription* desc, const char* attr_name,
                        const SG_DataType* values, int num_values) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) -> absl::Status {
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, num_values, "values"));
    v->mutable_list();
    for (int i = 0; i < num_values; ++i) {
      if (!sg::DataType_IsValid(values[i])) {
        return errors::InvalidArgument("values[", i, "] is an unknown dtype ", values[i]);
      }
      v->mutable_list()->add_type(static_cast<sg::DataType>(values[i]));
    }
    return absl::OkStatus();
  });
}

void SG_SetAttrPlaceholder(SG_OperationDescription* desc, const char* attr_name,
                           const char* placeholder) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) -> absl::Status {
    if (placeholder == nullptr) return errors::InvalidArgument("placeholder is NULL");
    v->set_placeholder(placeholder);
    return absl::OkStatus();
  });
}

void SG_SetAttrFuncName(SG_OperationDescription* desc, const char* attr_name, const char* value,
                        size_t length) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) -> absl::Status {
    if (value == nullptr && length > 0) return errors::InvalidArgument("value is NULL");
    v->mutable_func()->set_name(std::string(value ? value : "", length));
    return absl::OkStatus();
  });
}

void SG_SetAttrShape(SG_OperationDescription* desc, const char* attr_name, const int64_t* dims,
                     int num_dims) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) {
    return sg::c_api::ShapeToProto(dims, num_dims, v->mutable_shape());
  });
}

void SG_SetAttrShapeList(SG_OperationDescription* desc, const char* attr_name,
                         const int64_t* const* dims, const int* num_dims, int num_shapes) {
  SetAttr(desc, attr_name, [&](sg::AttrValue* v) -> absl::Status {
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(dims, num_shapes, "dims"));
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(num_dims, num_shapes, "num_dims"));
    v->mutable_list();
    for (int i = 0; i < num_shapes; ++i) {
      absl::Status s =
          sg::c_api::ShapeToProto(dims[i], num_dims[i], v->mutable_list()->add_shape());
      if (!s.ok()) return errors::Annotate(s, absl::StrCat("shape ", i, ": "));
    }
    return absl::OkStatus();
  });
}

void SG_SetAttrTensorShapeProto(SG_OperationDescription* desc, const char* attr_name,
                                const void* proto, size_t proto_len, SG_Status* status) {
  SetAttrWithStatus("SG_SetAttrTensorShapeProto", desc, attr_name, status,
                    [&](sg::AttrValue* v) -> absl::Status {
                      if ((proto == nullptr && proto_len > 0) || proto_len > INT32_MAX ||
                          !v->mutable_shape()->ParseFromArray(proto, static_cast<int>(proto_len))) {
                        return errors::InvalidArgument("Unparseable TensorShapeProto");
                      }
                      return absl::OkStatus();
                    });
}

void SG_SetAttrTensorShapeProtoList(SG_OperationDescription* desc, const char* attr_name,
                                    const void* const* protos, const size_t* proto_lens,
                                    int num_shapes, SG_Status* status) {
  SetAttrWithStatus("SG_SetAttrTensorShapeProtoList", desc, attr_name, status,
                    [&](sg::AttrValue* v) -> absl::Status {
                      SG_RETURN_IF_ERROR(sg::c_api::CheckArray(protos, num_shapes, "protos"));
                      SG_RETURN_IF_ERROR(
                          sg::c_api::CheckArray(proto_lens, num_shapes, "proto_lens"));
                      v->mutable_list();
                      for (int i = 0; i < num_shapes; ++i) {
                        if ((protos[i] == nullptr && proto_lens[i] > 0) ||
                            proto_lens[i] > INT32_MAX ||
                            !v->mutable_list()->add_shape()->ParseFromArray(
                                protos[i], static_cast<int>(proto_lens[i]))) {
                          return errors::InvalidArgument("Unparseable TensorShapeProto at ", i);
                        }
                      }
                      return absl::OkStatus();
                    });
}

void SG_SetAttrTensor(SG_OperationDescription* desc, const char* attr_name, SG_Tensor* value,
                      SG_Status* status) {
  SetAttrWithStatus("SG_SetAttrTensor", desc, attr_name, status,
                    [&](sg::AttrValue* v) -> absl::Status {
                      if (value == nullptr) return errors::InvalidArgument("tensor is NULL");
                      SG_ASSIGN_OR_RETURN(sg::Tensor t, sg::c_api::ToTensor(*value));
                      t.AsProtoTensorContent(v->mutable_tensor());
                      return absl::OkStatus();
                    });
}

void SG_SetAttrTensorList(SG_OperationDescription* desc, const char* attr_name,
                          SG_Tensor* const* values, int num_values, SG_Status* status) {
  SetAttrWithStatus("SG_SetAttrTensorList", desc, attr_name, status,
                    [&](sg::AttrValue* v) -> absl::Status {
                      SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, num_values, "values"));
                      v->mutable_list();
                      for (int i = 0; i < num_values; ++i) {
                        if (values[i] == nullptr) {
                          return errors::InvalidArgument("values[", i, "] is NULL");
                        }
                        SG_ASSIGN_OR_RETURN(sg::Tensor t, sg::c_api::ToTensor(*values[i]));
                        t.AsProtoTensorContent(v->mutable_list()->add_tensor());
                      }
                      return absl::OkStatus();
                    });
}

void SG_SetAttrValueProto(SG_OperationDescription* desc, const char* attr_name,
                          const void* proto, size_t proto_len, SG_Status* status) {
  SetAttrWithStatus("SG_SetAttrValueProto", desc, attr_name, status,
                    [&](sg::AttrValue* v) -> absl::Status {
                      if ((proto == nullptr && proto_len > 0) || proto_len > INT32_MAX ||
                          !v->ParseFromArray(proto, static_cast<int>(proto_len))) {
                        return errors::InvalidArgument("Unparseable AttrValue proto");
                      }
                      return absl::OkStatus();
                    });
}

// ---- getters ---------------------------------------------------------------------------------

SG_AttrMetadata SG_OperationGetAttrMetadata(SG_Operation* oper, const char* attr_name,
                                            SG_Status* status) {
  SG_AttrMetadata m{0, -1, SG_ATTR_STRING, -1};
  Guard("SG_OperationGetAttrMetadata", status, [&]() -> absl::Status {
    SG_ASSIGN_OR_RETURN(const sg::AttrValue* v,
                        sg::c_api::FindAttr(oper, attr_name, "SG_OperationGetAttrMetadata"));
    SG_AttrMetadata r{0, -1, SG_ATTR_STRING, -1};
    switch (v->value_case()) {
      case sg::AttrValue::kS: r.type = SG_ATTR_STRING; r.total_size = v->s().size(); break;
      case sg::AttrValue::kI: r.type = SG_ATTR_INT; break;
      case sg::AttrValue::kF: r.type = SG_ATTR_FLOAT; break;
      case sg::AttrValue::kB: r.type = SG_ATTR_BOOL; break;
      case sg::AttrValue::kType: r.type = SG_ATTR_TYPE; break;
      case sg::AttrValue::kShape:
        r.type = SG_ATTR_SHAPE;
        r.total_size = v->shape().unknown_rank() ? -1 : v->shape().dim_size();
        break;
      case sg::AttrValue::kTensor: r.type = SG_ATTR_TENSOR; break;
      case sg::AttrValue::kFunc: r.type = SG_ATTR_FUNC; break;
      case sg::AttrValue::kPlaceholder: r.type = SG_ATTR_PLACEHOLDER; break;
      case sg::AttrValue::kList: {
        const auto& l = v->list();
        r.is_list = 1;
        if (l.s_size()) {
          r.type = SG_ATTR_STRING;
          r.list_size = l.s_size();
          r.total_size = 0;
          for (const auto& s : l.s()) r.total_size += s.size();
        } else if (l.i_size()) {
          r.type = SG_ATTR_INT, r.list_size = l.i_size();
        } else if (l.f_size()) {
          r.type = SG_ATTR_FLOAT, r.list_size = l.f_size();
        } else if (l.b_size()) {
          r.type = SG_ATTR_BOOL, r.list_size = l.b_size();
        } else if (l.type_size()) {
          r.type = SG_ATTR_TYPE, r.list_size = l.type_size();
        } else if (l.shape_size()) {
          r.type = SG_ATTR_SHAPE;
          r.list_size = l.shape_size();
          r.total_size = 0;
          for (const auto& s : l.shape()) {
            if (!s.unknown_rank()) r.total_size += s.dim_size();
          }
        } else if (l.tensor_size()) {
          r.type = SG_ATTR_TENSOR, r.list_size = l.tensor_size();
        } else if (l.func_size()) {
          r.type = SG_ATTR_FUNC, r.list_size = l.func_size();
        } else {
          // An empty list: its element type comes from the OpDef.
          r.list_size = 0;
          for (const auto& a : sg::c_api::ToNode(oper)->op_def().attr()) {
            if (a.name() != attr_name) continue;
            const std::string& t = a.type();
            if (t == "list(int)") r.type = SG_ATTR_INT;
            else if (t == "list(float)") r.type = SG_ATTR_FLOAT;
            else if (t == "list(bool)") r.type = SG_ATTR_BOOL;
            else if (t == "list(type)") r.type = SG_ATTR_TYPE;
            else if (t == "list(shape)") r.type = SG_ATTR_SHAPE, r.total_size = 0;
            else if (t == "list(tensor)") r.type = SG_ATTR_TENSOR;
            else if (t == "list(func)") r.type = SG_ATTR_FUNC;
            else r.total_size = 0;  // list(string)
          }
        }
        break;
      }
      default:
        return errors::InvalidArgument("Attr '", attr_name, "' of operation '",
                                       sg::c_api::ToNode(oper)->name(), "' holds no value");
    }
    m = r;
    return absl::OkStatus();
  });
  return m;
}

#define SG_GET_ATTR_(where, kind, out) \
  SG_ASSIGN_OR_RETURN(const sg::AttrValue* v, sg::c_api::Get(oper, attr_name, where, kind, out))

void SG_OperationGetAttrString(SG_Operation* oper, const char* attr_name, void* value,
                               size_t max_length, SG_Status* status) {
  Guard("SG_OperationGetAttrString", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrString", "string",
                 max_length > 0 ? value : static_cast<const void*>(""));
    if (max_length > 0) std::memcpy(value, v->s().data(), std::min(max_length, v->s().size()));
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrStringList(SG_Operation* oper, const char* attr_name, void** values,
                                   size_t* lengths, int max_values, void* storage,
                                   size_t storage_size, SG_Status* status) {
  Guard("SG_OperationGetAttrStringList", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrStringList", "list(string)", "");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, max_values, "values"));
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(lengths, max_values, "lengths"));
    const int n = std::min(max_values, v->list().s_size());
    char* p = static_cast<char*>(storage);
    size_t left = storage_size;
    for (int i = 0; i < n; ++i) {
      const std::string& s = v->list().s(i);
      if (s.size() > left || (p == nullptr && !s.empty())) {
        return errors::InvalidArgument("Not enough storage to hold the requested list of ",
                                       "strings of attr '", attr_name, "'");
      }
      values[i] = p;
      lengths[i] = s.size();
      if (!s.empty()) std::memcpy(p, s.data(), s.size());
      p += s.size();
      left -= s.size();
    }
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrInt(SG_Operation* oper, const char* attr_name, int64_t* value,
                            SG_Status* status) {
  Guard("SG_OperationGetAttrInt", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrInt", "int", value);
    *value = v->i();
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrIntList(SG_Operation* oper, const char* attr_name, int64_t* values,
                                int max_values, SG_Status* status) {
  Guard("SG_OperationGetAttrIntList", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrIntList", "list(int)", "");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, max_values, "values"));
    for (int i = 0; i < std::min(max_values, v->list().i_size()); ++i) values[i] = v->list().i(i);
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrFloat(SG_Operation* oper, const char* attr_name, float* value,
                              SG_Status* status) {
  Guard("SG_OperationGetAttrFloat", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrFloat", "float", value);
    *value = v->f();
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrFloatList(SG_Operation* oper, const char* attr_name, float* values,
                                  int max_values, SG_Status* status) {
  Guard("SG_OperationGetAttrFloatList", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrFloatList", "list(float)", "");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, max_values, "values"));
    for (int i = 0; i < std::min(max_values, v->list().f_size()); ++i) values[i] = v->list().f(i);
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrBool(SG_Operation* oper, const char* attr_name, unsigned char* value,
                             SG_Status* status) {
  Guard("SG_OperationGetAttrBool", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrBool", "bool", value);
    *value = v->b() ? 1 : 0;
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrBoolList(SG_Operation* oper, const char* attr_name,
                                 unsigned char* values, int max_values, SG_Status* status) {
  Guard("SG_OperationGetAttrBoolList", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrBoolList", "list(bool)", "");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, max_values, "values"));
    for (int i = 0; i < std::min(max_values, v->list().b_size()); ++i) {
      values[i] = v->list().b(i) ? 1 : 0;
    }
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrType(SG_Operation* oper, const char* attr_name, SG_DataType* value,
                             SG_Status* status) {
  Guard("SG_OperationGetAttrType", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrType", "type", value);
    *value = static_cast<SG_DataType>(v->type());
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrTypeList(SG_Operation* oper, const char* attr_name, SG_DataType* values,
                                 int max_values, SG_Status* status) {
  Guard("SG_OperationGetAttrTypeList", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrTypeList", "list(type)", "");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, max_values, "values"));
    for (int i = 0; i < std::min(max_values, v->list().type_size()); ++i) {
      values[i] = static_cast<SG_DataType>(v->list().type(i));
    }
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrShape(SG_Operation* oper, const char* attr_name, int64_t* value,
                              int num_dims, SG_Status* status) {
  Guard("SG_OperationGetAttrShape", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrShape", "shape", "");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(value, num_dims, "value"));
    const auto& s = v->shape();
    const int n = s.unknown_rank() ? 0 : std::min(num_dims, s.dim_size());
    for (int i = 0; i < n; ++i) value[i] = s.dim(i).size();
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrShapeList(SG_Operation* oper, const char* attr_name, int64_t** dims,
                                  int* num_dims, int num_shapes, int64_t* storage,
                                  int storage_size, SG_Status* status) {
  Guard("SG_OperationGetAttrShapeList", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrShapeList", "list(shape)", "");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(dims, num_shapes, "dims"));
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(num_dims, num_shapes, "num_dims"));
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(storage, storage_size, "storage"));
    const int n = std::min(num_shapes, v->list().shape_size());
    int used = 0;
    for (int i = 0; i < n; ++i) {
      const auto& s = v->list().shape(i);
      if (s.unknown_rank()) {
        dims[i] = nullptr;
        num_dims[i] = -1;
        continue;
      }
      if (s.dim_size() > storage_size - used) {
        return errors::InvalidArgument("Not enough storage to hold the requested list of ",
                                       "shapes of attr '", attr_name, "'");
      }
      dims[i] = storage + used;
      num_dims[i] = s.dim_size();
      for (int d = 0; d < s.dim_size(); ++d) storage[used++] = s.dim(d).size();
    }
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrTensorShapeProto(SG_Operation* oper, const char* attr_name,
                                         SG_Buffer* value, SG_Status* status) {
  Guard("SG_OperationGetAttrTensorShapeProto", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrTensorShapeProto", "shape", value);
    SG_RETURN_IF_ERROR(sg::c_api::CheckEmptyBuffer(value, "value"));
    sg::c_api::FillBuffer(v->shape().SerializeAsString(), value);
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrTensorShapeProtoList(SG_Operation* oper, const char* attr_name,
                                             SG_Buffer** values, int max_values,
                                             SG_Status* status) {
  Guard("SG_OperationGetAttrTensorShapeProtoList", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrTensorShapeProtoList", "list(shape)", "");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, max_values, "values"));
    const int n = std::min(max_values, v->list().shape_size());
    std::vector<SG_Buffer*> made;
    for (int i = 0; i < n; ++i) {
      std::string bytes = v->list().shape(i).SerializeAsString();
      SG_Buffer* b = SG_NewBufferFromString(bytes.data(), bytes.size());
      if (b == nullptr) {
        for (SG_Buffer* m : made) SG_DeleteBuffer(m);
        return errors::ResourceExhausted("out of memory");
      }
      made.push_back(b);
    }
    for (int i = 0; i < n; ++i) values[i] = made[i];
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrTensor(SG_Operation* oper, const char* attr_name, SG_Tensor** value,
                               SG_Status* status) {
  Guard("SG_OperationGetAttrTensor", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrTensor", "tensor", value);
    SG_ASSIGN_OR_RETURN(sg::Tensor t, sg::Tensor::FromProto(v->tensor()));
    const SG_StringLayout layout = sg::c_api::StringLayoutOf(sg::c_api::ToNode(oper));
    SG_ASSIGN_OR_RETURN(*value, sg::c_api::FromTensor(t, layout));
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrTensorList(SG_Operation* oper, const char* attr_name,
                                   SG_Tensor** values, int max_values, SG_Status* status) {
  Guard("SG_OperationGetAttrTensorList", status, [&]() -> absl::Status {
    SG_GET_ATTR_("SG_OperationGetAttrTensorList", "list(tensor)", "");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(values, max_values, "values"));
    const int n = std::min(max_values, v->list().tensor_size());
    const SG_StringLayout layout = sg::c_api::StringLayoutOf(sg::c_api::ToNode(oper));
    std::vector<SG_Tensor*> made;
    absl::Status s;
    for (int i = 0; i < n && s.ok(); ++i) {
      auto t = sg::Tensor::FromProto(v->list().tensor(i));
      if (!t.ok()) {
        s = t.status();
        break;
      }
      auto c = sg::c_api::FromTensor(*t, layout);
      if (!c.ok()) {
        s = c.status();
        break;
      }
      made.push_back(*c);
    }
    if (!s.ok()) {
      for (SG_Tensor* t : made) SG_DeleteTensor(t);
      return s;
    }
    for (int i = 0; i < n; ++i) values[i] = made[i];
    return absl::OkStatus();
  });
}

void SG_OperationGetAttrValueProto(SG_Operation* oper, const char* attr_name,
                                   SG_Buffer* output_attr_value, SG_Status* status) {
  Guard("SG_OperationGetAttrValueProto", status, [&]() -> absl::Status {
    SG_ASSIGN_OR_RETURN(const sg::AttrValue* v,
                        sg::c_api::FindAttr(oper, attr_name, "SG_OperationGetAttrValueProto"));
    SG_RETURN_IF_ERROR(
        sg::c_api::CheckEmptyBuffer(output_attr_value, "SG_OperationGetAttrValueProto"));
    sg::c_api::FillBuffer(v->SerializeAsString(), output_attr_value);
    return absl::OkStatus();
  });
}

#undef SG_GET_ATTR_

}  // extern "C"
