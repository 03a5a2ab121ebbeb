// Shape functions: what an op's outputs' shapes are, given its inputs' shapes (and the values of
// inputs that are constants). Shapes are PartialTensorShape: unknown rank or -1 dims allowed.
#ifndef SG_CORE_FRAMEWORK_SHAPE_INFERENCE_H_
#define SG_CORE_FRAMEWORK_SHAPE_INFERENCE_H_

#include <vector>

#include "core/framework/attr_value_util.h"
#include "core/framework/tensor.h"
#include "core/framework/tensor_shape.h"
#include "core/proto/node_def.pb.h"

namespace sg {

class InferenceContext {
 public:
  // `input_tensors[i]` is the value of input i when known (a Const), else nullptr.
  InferenceContext(const NodeDef* node, std::vector<PartialTensorShape> input_shapes,
                   std::vector<const Tensor*> input_tensors, std::vector<DataType> input_types,
                   std::vector<DataType> output_types);

  const NodeDef& node_def() const { return *node_; }
  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  int num_outputs() const { return static_cast<int>(outputs_.size()); }
  const PartialTensorShape& input(int i) const { return inputs_[i]; }
  const Tensor* input_tensor(int i) const { return input_tensors_[i]; }
  DataType input_type(int i) const { return input_types_[i]; }
  DataType output_type(int i) const { return output_types_[i]; }
  void set_output(int i, PartialTensorShape shape) { outputs_[i] = std::move(shape); }
  const PartialTensorShape& output(int i) const { return outputs_[i]; }

  template <typename T>
  absl::Status GetAttr(absl::string_view name, T* value) const {
    return ::sg::GetAttr(node_->attr(), name, value);
  }

  // Input i merged with "rank `rank`": INVALID_ARGUMENT naming the node when the rank differs.
  absl::Status WithRank(int i, int rank, PartialTensorShape* out) const;
  absl::Status WithRankAtLeast(int i, int rank, PartialTensorShape* out) const;
  // The value of input i as a shape (an int16/int32/int64 vector), with -1 entries unknown; unknown
  // rank when the value is not a known constant.
  PartialTensorShape InputAsShape(int i) const;
  // An error for this node: INVALID_ARGUMENT "node 'x' (op Y): ...".
  template <typename... Args>
  absl::Status Error(const Args&... args) const {
    return errors::InvalidArgument("node '", node_->name(), "' (op ", node_->op(), "): ",
                                   args...);
  }

 private:
  const NodeDef* node_;
  std::vector<PartialTensorShape> inputs_;
  std::vector<const Tensor*> input_tensors_;
  std::vector<DataType> input_types_, output_types_;
  std::vector<PartialTensorShape> outputs_;
};

// Common shape functions, as TensorFlow's common_shape_fns define them.
namespace shape_fns {
// Every output unknown (the default when an op has no shape function).
absl::Status Unknown(InferenceContext* c);
// Output 0 has the shape of input 0.
absl::Status Unchanged(InferenceContext* c);
// Every output is a scalar.
absl::Status Scalar(InferenceContext* c);
// Numpy broadcasting of inputs 0 and 1; INVALID_ARGUMENT when known dims conflict.
absl::Status BroadcastBinary(InferenceContext* c);
// [m,k] x [k,n] with transpose_a / transpose_b attrs.
absl::Status MatMul(InferenceContext* c);
// Reduction over the axes of input 1 (a constant) with attr keep_dims.
absl::Status Reduction(InferenceContext* c);
// Broadcasts two shapes; returns INVALID_ARGUMENT when incompatible.
absl::StatusOr<PartialTensorShape> Broadcast(const PartialTensorShape& a,
                                             const PartialTensorShape& b);
}  // namespace shape_fns

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_SHAPE_INFERENCE_H_
