// Checking a NodeDef against its OpDef: attrs present and of the right type, defaults filled in,
// and the dtypes of every input and output (lists expanded).
#ifndef SG_CORE_FRAMEWORK_NODE_DEF_UTIL_H_
#define SG_CORE_FRAMEWORK_NODE_DEF_UTIL_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/framework/attr_value_util.h"
#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "core/framework/types.h"
#include "core/proto/node_def.pb.h"
#include "core/proto/op_def.pb.h"

namespace sg {

// Attrs of type "tensor" held decoded, as Tensors beside a NodeDef, instead of as TensorProtos in
// it: a Const the graph optimiser computes (a folded constant, a batch-norm-folded filter) keeps
// its value so (Node::tensor_attrs in core/graph/graph.h), and the kernel made for the node shares
// that Tensor (OpKernelConstruction::GetAttr), so the value is never encoded into the NodeDef and
// decoded again, each a copy of the weights. An attr named here is absent from the NodeDef; a
// GraphDef written from the graph gets it back (AddTensorAttrsToNodeDef). The Tensors are never
// written once held here (they may be shared with kernels and other graphs).
using TensorAttrs = std::map<std::string, Tensor, std::less<>>;

// Writes each of `attrs` into `node` as a tensor attr (TensorProto with tensor_content, as
// Tensor::AsProtoTensorContent encodes it), replacing an attr of the same name.
void AddTensorAttrsToNodeDef(const TensorAttrs& attrs, NodeDef* node);

// Adds every attr the OpDef gives a default to and `node` lacks.
void AddDefaultsToNodeDef(const OpDef& op_def, NodeDef* node);

// INVALID_ARGUMENT naming the node when an attr the OpDef requires is missing, has the wrong
// type, is not among the allowed values or is under the minimum. Attrs whose names start with
// '_' are internal and always allowed; unknown other attrs are an error (see below). An attr
// of `tensor_attrs` (may be null) counts as present when the OpDef gives it type "tensor" (or
// its name starts with '_'); one of another type, one the OpDef does not define, or one also in
// the NodeDef is INVALID_ARGUMENT.
absl::Status ValidateNodeDef(const NodeDef& node, const OpDef& op_def,
                             const TensorAttrs* tensor_attrs = nullptr);

// Means "the node does not come from a GraphDef" for ValidateNodeDefAttrsDefined.
constexpr int kNoProducer = -1;

// INVALID_ARGUMENT naming the op, the node and the attr when `node` has an attr (other than an
// internal "_..." one) that `op_def` does not define; usually the graph was written by a newer
// TensorFlow that added the attr. `producer` is the producer version of the GraphDef the node
// comes from, which the message names along with the remedy, or kNoProducer.
absl::Status ValidateNodeDefAttrsDefined(const NodeDef& node, const OpDef& op_def, int producer);

// The dtypes of each input and output of `node`, with N * T and list(type) args expanded.
absl::Status InOutTypesForNode(const NodeDef& node, const OpDef& op_def,
                               std::vector<DataType>* inputs, std::vector<DataType>* outputs);

// Maps each arg name to its [start, stop) range among the node's inputs (or outputs).
using NameRangeMap = std::map<std::string, std::pair<int, int>, std::less<>>;
absl::Status NameRangesForNode(const NodeDef& node, const OpDef& op_def, NameRangeMap* inputs,
                               NameRangeMap* outputs);

// "name = Op[attr=value, ...](input, input)" for messages.
std::string SummarizeNodeDef(const NodeDef& node);

// Splits "node:3" into ("node", 3), "node" into ("node", 0), "^node" into ("node", -1).
// Returns false when the text is not a tensor or control-input name.
bool ParseTensorName(absl::string_view name, std::string* node, int* index);

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_NODE_DEF_UTIL_H_
