// The op registry: every op type's OpDef (inputs, outputs, attrs, as TensorFlow defines them) and
// its shape function. Ops are registered at static-initialization time:
//
//   REGISTER_OP("MatMul")
//       .Input("a: T").Input("b: T").Output("product: T")
//       .Attr("transpose_a: bool = false").Attr("transpose_b: bool = false")
//       .Attr("T: {half, float, double, int32, int64}")
//       .SetShapeFn(shape_fns::MatMul);
//
// Input/output specs: "name: T" (type attr), "name: float" (fixed type), "name: N * T" (a list of N
// tensors of one type), "name: Tlist" (a list(type) attr), "name: Ref(T)" (a reference input).
// Attr specs: "name: type|int|float|bool|string|shape|tensor|func|list(...)", "name: {float, int32}"
// (allowed types), "name: {'SAME', 'VALID'}" (allowed strings), "name: int >= 1", "... = default".
// Thread safety: registration happens before main(); lookups are safe from any thread.
#ifndef SG_CORE_FRAMEWORK_OP_H_
#define SG_CORE_FRAMEWORK_OP_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/framework/status.h"
#include "core/proto/op_def.pb.h"

namespace sg {

class InferenceContext;
using ShapeInferenceFn = std::function<absl::Status(InferenceContext*)>;

struct OpRegistrationData {
  OpDef op_def;
  ShapeInferenceFn shape_fn;  // may be empty: outputs get unknown shapes
  // Set for functions called as op types (FunctionDefLibrary): the function's definition.
  const class FunctionDef* function = nullptr;
};

// What graph construction looks op types up in: the global registry, or a graph's function
// library layered over it.
class OpRegistryInterface {
 public:
  virtual ~OpRegistryInterface() = default;
  // The op's registration, or nullptr when the op type is unknown.
  virtual const OpRegistrationData* LookUp(absl::string_view op_type) const = 0;
  // NOT_FOUND "Op type not registered 'X'" when unknown.
  absl::Status LookUpOpDef(absl::string_view op_type, const OpDef** op_def) const;
};

class OpRegistry : public OpRegistryInterface {
 public:
  static OpRegistry* Global();
  // ALREADY_EXISTS for a second registration of one name.
  absl::Status Register(std::unique_ptr<OpRegistrationData> data);
  const OpRegistrationData* LookUp(absl::string_view op_type) const override;
  std::vector<std::string> ListOpNames() const;
  void Export(OpList* ops) const;

 private:
  mutable absl::Mutex mu_;
  std::map<std::string, std::unique_ptr<OpRegistrationData>, std::less<>> ops_
      ABSL_GUARDED_BY(mu_);
};

class OpDefBuilder {
 public:
  explicit OpDefBuilder(std::string op_name);
  OpDefBuilder& Input(std::string spec);
  OpDefBuilder& Output(std::string spec);
  OpDefBuilder& Attr(std::string spec);
  OpDefBuilder& SetIsStateful();
  OpDefBuilder& SetIsCommutative();
  OpDefBuilder& SetIsAggregate();
  OpDefBuilder& SetAllowsUninitializedInput();
  OpDefBuilder& SetIsDistributedCommunication();
  // GraphDefs from producer `version` on no longer use this op; `explanation` says what to use.
  OpDefBuilder& Deprecated(int version, std::string explanation);
  OpDefBuilder& SetShapeFn(ShapeInferenceFn fn);
  // Parses the specs; INVALID_ARGUMENT naming the op and the spec at fault.
  absl::Status Finalize(OpRegistrationData* data) const;

 private:
  OpDef op_def_;
  std::vector<std::string> inputs_, outputs_, attrs_;
  ShapeInferenceFn shape_fn_;
};

// Helper for REGISTER_OP: finalizes and registers; a bad spec aborts at start-up with a message,
// since it is a programming error in sg itself.
struct OpDefBuilderReceiver {
  OpDefBuilderReceiver(const OpDefBuilder& builder);  // NOLINT
};

#define SG_REGISTER_OP_CONCAT_(a, b) a##b
#define SG_REGISTER_OP_UNIQ_(ctr, name)                                                 \
  static ::sg::OpDefBuilderReceiver SG_REGISTER_OP_CONCAT_(sg_register_op_, ctr)       \
      __attribute__((unused)) = ::sg::OpDefBuilder(name)
#define SG_REGISTER_OP_UNIQ_HELPER_(ctr, name) SG_REGISTER_OP_UNIQ_(ctr, name)
#define REGISTER_OP(name) SG_REGISTER_OP_UNIQ_HELPER_(__COUNTER__, name)

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_OP_H_
