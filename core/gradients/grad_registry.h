// The gradient registry: for each op type, the function that adds the nodes computing the
// gradients of the op's inputs from the gradients of its outputs, with TensorFlow's formulas
// (tensorflow/cc/gradients/*.cc and tensorflow/python/ops/*_grad.py). core/graph/gradients.h
// walks the graph backwards and calls these. One file per op family registers its functions:
//
//   absl::Status NegGrad(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx) {
//     dx->push_back(s.Op("Neg", {dy[0]}));
//     return s.status();
//   }
//   SG_REGISTER_GRADIENT("Neg", NegGrad);
//   SG_REGISTER_NO_GRADIENT("Shape");   // no gradient flows through, and that is not an error
//
// A gradient function returns one entry per data input of `op` (in input order); NoGradient()
// marks an input that receives none. It builds nodes through its GradScope, which records the
// first error (as TensorFlow's Scope does) so a function can chain calls and return s.status().
#ifndef SG_CORE_GRADIENTS_GRAD_REGISTRY_H_
#define SG_CORE_GRADIENTS_GRAD_REGISTRY_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "core/graph/graph.h"
#include "core/graph/node_builder.h"

namespace sg {

using GradOutput = NodeBuilder::Output;
using GradOutputs = std::vector<GradOutput>;

// "No gradient flows here" (TensorFlow's NoGradient()).
inline GradOutput NoGradient() { return {nullptr, -1}; }
inline bool IsNoGradient(const GradOutput& o) { return o.node == nullptr; }

// One input arg of a node being built: a tensor, or a list (AddN, ConcatV2, Pack...).
struct GradInput {
  GradInput(GradOutput o) : outputs{o} {}  // NOLINT: a tensor converts implicitly
  static GradInput List(GradOutputs outs) {
    GradInput in(NoGradient());
    in.is_list = true;
    in.outputs = std::move(outs);
    return in;
  }
  bool is_list = false;
  GradOutputs outputs;
};

using GradAttrs = std::vector<std::pair<std::string, AttrValue>>;

// Adds nodes to a graph under a name scope ("<prefix>/<forward op>_grad/<Type>", made unique)
// and keeps the first error. Not thread-safe (a Graph is built by one thread).
class GradScope {
 public:
  GradScope(Graph* graph, std::string prefix) : graph_(graph), prefix_(std::move(prefix)) {}

  Graph* graph() const { return graph_; }
  const absl::Status& status() const { return status_; }
  void UpdateStatus(const absl::Status& s) {
    if (status_.ok() && !s.ok()) status_ = s;
  }
  // The sub-scope nodes go to ("<op>_grad"); empty for the scope itself.
  void set_sub_scope(std::string sub) { sub_ = std::move(sub); }
  // A name "<prefix>[/<sub>]/<base>" no node has, with _1, _2... appended when needed.
  std::string UniqueName(const std::string& base) const;

  // Adds a node of `type` with `inputs` and `attrs` (type and length attrs inferred from the
  // inputs by NodeBuilder); returns output `index`, or NoGradient() after an error (recorded).
  GradOutput Op(const std::string& type, std::vector<GradInput> inputs, GradAttrs attrs = {},
                int index = 0);
  // All outputs of such a node (empty after an error).
  GradOutputs OpN(const std::string& type, std::vector<GradInput> inputs, GradAttrs attrs = {});

  // Constants.
  GradOutput Const(const Tensor& value);
  GradOutput ConstI32(const std::vector<int64_t>& values);  // 1-D int32
  GradOutput ScalarI32(int64_t v);
  // A scalar of dtype `dt` holding `v` (made as a float constant cast to `dt`).
  GradOutput ScalarOf(DataType dt, double v);

  // Shorthands for the ops gradients use most.
  GradOutput Shape(GradOutput x, DataType out_type = DT_INT32);
  GradOutput Reshape(GradOutput x, GradOutput shape) { return Op("Reshape", {x, shape}); }
  GradOutput Sum(GradOutput x, GradOutput axes, bool keep_dims = false);
  GradOutput Mul(GradOutput a, GradOutput b) { return Op("Mul", {a, b}); }
  GradOutput Add(GradOutput a, GradOutput b) { return Op("AddV2", {a, b}); }
  GradOutput Sub(GradOutput a, GradOutput b) { return Op("Sub", {a, b}); }
  GradOutput Neg(GradOutput a) { return Op("Neg", {a}); }
  GradOutput RealDiv(GradOutput a, GradOutput b) { return Op("RealDiv", {a, b}); }
  GradOutput Conj(GradOutput a);  // the identity on real dtypes (no node)
  GradOutput ZerosLike(GradOutput a) { return Op("ZerosLike", {a}); }
  GradOutput Cast(GradOutput x, DataType dst);
  GradOutput MatMul(GradOutput a, GradOutput b, bool ta, bool tb);
  GradOutput Transpose(GradOutput x, GradOutput perm) { return Op("Transpose", {x, perm}); }
  GradOutput ExpandDims(GradOutput x, int64_t axis) { return Op("ExpandDims", {x, ScalarI32(axis)}); }

  // `grad` summed over the dims broadcasting added to `x`, reshaped to x's shape: with
  // constants when both static shapes are known, else BroadcastGradientArgs(Shape(x),
  // Shape(grad)) + Sum + Reshape.
  GradOutput SumToShapeOf(GradOutput grad, GradOutput x);
  // Both sides of a broadcasting binary op's gradient, as TensorFlow's BinaryGradCommon:
  // BroadcastGradientArgs(Shape(x), Shape(y)) + Sum + Reshape (constants when shapes are known).
  void ReduceBinary(GradOutput x, GradOutput y, GradOutput gx, GradOutput gy, GradOutputs* dx);

 private:
  Graph* graph_;
  std::string prefix_;
  std::string sub_;
  absl::Status status_;
};

// Facts about an output of the forward graph.
DataType DTypeOf(GradOutput o);                           // base type (references stripped)
PartialTensorShape StaticShapeOf(GradOutput o);           // unknown when not inferred
// The int values of `o` when it is a Const node's output (axes, perm, multiples...).
std::optional<std::vector<int64_t>> ConstIntValues(GradOutput o);
// Whether gradients flow through values of `dt`: floating point, complex, resources (to the
// variable's values) and variants (TensorLists, to their elements).
bool IsDifferentiable(DataType dt);
// The forward op's attrs named in `names` that it has, to pass on to a gradient op.
GradAttrs CopyAttrs(const Node& op, std::initializer_list<const char*> names);
AttrValue BoolAttr(bool b);
AttrValue IntAttr(int64_t i);
AttrValue TypeAttr(DataType dt);
// The forward op's bool / int attr, or `fallback` when it has none.
bool BoolAttrOf(const Node& op, const char* name, bool fallback = false);
int64_t IntAttrOf(const Node& op, const char* name, int64_t fallback = 0);
// Input `i` of `op` (the output feeding it) and output `i`.
GradOutput InputOf(const Node& op, int i);
inline GradOutput OutputOf(const Node& op, int i) { return {const_cast<Node*>(&op), i}; }

using GradFunc =
    std::function<absl::Status(GradScope& s, const Node& op, const GradOutputs& dy, GradOutputs* dx)>;

class GradRegistry {
 public:
  static GradRegistry* Global();
  // Registers `fn` for `op`; an empty fn declares that no gradient flows through `op`.
  // Returns false (and keeps the first) on a second registration, which Duplicates() lists.
  bool Register(const std::string& op, GradFunc fn);
  // The entry for `op`: nullptr when none is registered; an empty function for "no gradient".
  const GradFunc* Lookup(absl::string_view op) const;
  std::vector<std::string> ListOps() const;
  // The ops registered more than once (a second file's registration is ignored, so two
  // families claiming one op is a mistake a test must catch).
  std::vector<std::string> Duplicates() const;

 private:
  mutable absl::Mutex mu_;
  std::map<std::string, GradFunc, std::less<>> fns_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> duplicates_ ABSL_GUARDED_BY(mu_);
};

#define SG_GRAD_CONCAT_INNER_(a, b) a##b
#define SG_GRAD_CONCAT_(a, b) SG_GRAD_CONCAT_INNER_(a, b)
#define SG_REGISTER_GRADIENT(op, fn)                                                  \
  static const bool SG_GRAD_CONCAT_(sg_grad_registered_, __COUNTER__) [[maybe_unused]] = \
      ::sg::GradRegistry::Global()->Register(op, fn)
#define SG_REGISTER_NO_GRADIENT(op)                                                   \
  static const bool SG_GRAD_CONCAT_(sg_grad_registered_, __COUNTER__) [[maybe_unused]] = \
      ::sg::GradRegistry::Global()->Register(op, ::sg::GradFunc())

}  // namespace sg

#endif  // SG_CORE_GRADIENTS_GRAD_REGISTRY_H_
