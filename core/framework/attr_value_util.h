// Reading and writing the attrs of a NodeDef (map<string, AttrValue>), typed as TensorFlow's
// attr types are: "int" -> int64_t, "float", "bool", "type" -> DataType, "shape", "tensor",
// "string", "func" -> NameAttrList, and list(...) of each.
#ifndef SG_CORE_FRAMEWORK_ATTR_VALUE_UTIL_H_
#define SG_CORE_FRAMEWORK_ATTR_VALUE_UTIL_H_

#include <string>
#include <vector>

#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "core/framework/tensor_shape.h"
#include "core/proto/attr_value.pb.h"
#include "core/proto/node_def.pb.h"

namespace sg {

using AttrMap = google::protobuf::Map<std::string, AttrValue>;

// Each overload reads attr `name` of `attrs` into `value`: NOT_FOUND when absent,
// INVALID_ARGUMENT when the attr holds another type. The message names the attr.
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, std::string* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, int64_t* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, int32_t* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, float* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, bool* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, DataType* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, PartialTensorShape* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, Tensor* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, NameAttrList* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name,
                     std::vector<std::string>* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, std::vector<int64_t>* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, std::vector<int32_t>* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, std::vector<float>* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, std::vector<bool>* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name,
                     std::vector<DataType>* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name,
                     std::vector<PartialTensorShape>* value);
absl::Status GetAttr(const AttrMap& attrs, absl::string_view name, const AttrValue** value);

// Setters for building NodeDefs in code.
void SetAttrValue(const std::string& v, AttrValue* out);
void SetAttrValue(const char* v, AttrValue* out);
void SetAttrValue(int64_t v, AttrValue* out);
void SetAttrValue(int v, AttrValue* out);
void SetAttrValue(float v, AttrValue* out);
void SetAttrValue(bool v, AttrValue* out);
void SetAttrValue(DataType v, AttrValue* out);
void SetAttrValue(const PartialTensorShape& v, AttrValue* out);
void SetAttrValue(const Tensor& v, AttrValue* out);
void SetAttrValue(absl::Span<const int64_t> v, AttrValue* out);
void SetAttrValue(absl::Span<const DataType> v, AttrValue* out);
void SetAttrValue(absl::Span<const std::string> v, AttrValue* out);
template <typename T>
void AddNodeAttr(absl::string_view name, const T& value, NodeDef* node) {
  SetAttrValue(value, &(*node->mutable_attr())[std::string(name)]);
}

// "int", "list(type)" ... of the value, as OpDef attr types name them; "" when unset.
std::string AttrValueTypeString(const AttrValue& v);
std::string SummarizeAttrValue(const AttrValue& v);

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_ATTR_VALUE_UTIL_H_
