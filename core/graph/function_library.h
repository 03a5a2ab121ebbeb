// FunctionLibrary: a graph's FunctionDefLibrary, layered over the global op registry, so that a
// function's name can be used as an op type (its signature is the OpDef).
#ifndef SG_CORE_GRAPH_FUNCTION_LIBRARY_H_
#define SG_CORE_GRAPH_FUNCTION_LIBRARY_H_

#include <map>
#include <memory>
#include <string>

#include "core/framework/op.h"
#include "core/proto/function.pb.h"

namespace sg {

class FunctionLibrary : public OpRegistryInterface {
 public:
  FunctionLibrary() = default;
  FunctionLibrary(const FunctionLibrary& other);
  FunctionLibrary& operator=(const FunctionLibrary& other);

  // Adds the functions of `lib`. INVALID_ARGUMENT when a function has the name of a registered op
  // or differs from a function of the same name already here.
  absl::Status AddLibrary(const FunctionDefLibrary& lib);
  absl::Status AddFunction(const FunctionDef& fdef);
  // Removes function `name` and the gradient mappings recorded for it (GradientDefs whose
  // function_name is `name`). INVALID_ARGUMENT when there is no such function. The caller makes
  // sure nothing points at it anymore: a Node of that op type holds its OpRegistrationData.
  absl::Status RemoveFunction(absl::string_view name);
  const OpRegistrationData* LookUp(absl::string_view op_type) const override;
  const FunctionDef* Find(absl::string_view name) const;
  void ToProto(FunctionDefLibrary* out) const;
  int num_functions() const { return static_cast<int>(functions_.size()); }

 private:
  struct Entry {
    FunctionDef fdef;
    OpRegistrationData reg;
  };
  std::map<std::string, std::unique_ptr<Entry>, std::less<>> functions_;
  std::vector<GradientDef> gradients_;
};

}  // namespace sg

#endif  // SG_CORE_GRAPH_FUNCTION_LIBRARY_H_
