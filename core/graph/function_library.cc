#include "core/graph/function_library.h"

#include <algorithm>

#include "google/protobuf/util/message_differencer.h"

namespace sg {

FunctionLibrary::FunctionLibrary(const FunctionLibrary& other) { *this = other; }

FunctionLibrary& FunctionLibrary::operator=(const FunctionLibrary& other) {
  if (this == &other) return *this;
  functions_.clear();
  for (const auto& kv : other.functions_) AddFunction(kv.second->fdef).IgnoreError();
  gradients_ = other.gradients_;
  return *this;
}

absl::Status FunctionLibrary::AddLibrary(const FunctionDefLibrary& lib) {
  for (const auto& f : lib.function()) SG_RETURN_IF_ERROR(AddFunction(f));
  for (const auto& g : lib.gradient()) gradients_.push_back(g);
  return absl::OkStatus();
}

absl::Status FunctionLibrary::AddFunction(const FunctionDef& fdef) {
  const std::string& name = fdef.signature().name();
  if (name.empty()) return errors::InvalidArgument("a function in the library has no name");
  if (OpRegistry::Global()->LookUp(name) != nullptr) {
    return errors::InvalidArgument("function '", name, "' has the name of a registered op");
  }
  auto it = functions_.find(name);
  if (it != functions_.end()) {
    if (google::protobuf::util::MessageDifferencer::Equals(it->second->fdef, fdef)) {
      return absl::OkStatus();
    }
    return errors::InvalidArgument("two different functions are named '", name, "'");
  }
  auto e = std::make_unique<Entry>();
  e->fdef = fdef;
  e->reg.op_def = fdef.signature();
  e->reg.function = &e->fdef;
  functions_.emplace(name, std::move(e));
  return absl::OkStatus();
}

absl::Status FunctionLibrary::RemoveFunction(absl::string_view name) {
  auto it = functions_.find(name);
  if (it == functions_.end()) {
    return errors::InvalidArgument("Tried to remove non-existent function '", name, "'.");
  }
  functions_.erase(it);
  gradients_.erase(std::remove_if(gradients_.begin(), gradients_.end(),
                                  [&](const GradientDef& g) { return g.function_name() == name; }),
                   gradients_.end());
  return absl::OkStatus();
}

const OpRegistrationData* FunctionLibrary::LookUp(absl::string_view op_type) const {
  auto it = functions_.find(op_type);
  if (it != functions_.end()) return &it->second->reg;
  return OpRegistry::Global()->LookUp(op_type);
}

const FunctionDef* FunctionLibrary::Find(absl::string_view name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : &it->second->fdef;
}

void FunctionLibrary::ToProto(FunctionDefLibrary* out) const {
  out->Clear();
  for (const auto& kv : functions_) *out->add_function() = kv.second->fdef;
  for (const auto& g : gradients_) *out->add_gradient() = g;
}

}  // namespace sg
