// The graph optimisation pass a step's graph goes through once, when the step is built
// (StepBuilder::Build, after placement and before partitioning), as TensorFlow's Grappler and
// classic graph optimiser do at session creation. In order:
//   0. control-only nodes: a stateless node (not control flow, not a source or sink, reading no
//      reference, resource or control-flow output) whose outputs nobody reads, kept only by
//      control edges, becomes a NoOp under its name waiting for what it read (a gradient that
//      tf.tuple groups but the step never uses, as TensorFlow's dependency optimizer does);
//   1. identity removal: Identity, IdentityN, Snapshot and StopGradient nodes without control
//      edges, on the device of their input and consumers, whose consumers are not fetch sinks
//      nor control-flow nodes: their consumers read the input instead;
//   2. constant folding: a stateless node (not random, not a variable or resource op, not
//      control flow, not _Arg/_Retval/_Send/_Recv) whose data inputs are all constants is
//      evaluated once on the CPU with sg's kernels and replaced by a Const of the same name,
//      keeping the control dependencies of what it was computed from (so a constant inside a
//      loop or a cond branch stays in its frame and keeps its deadness); outputs larger than
//      max_constant_bytes are left alone. Shape, Size and Rank of tensors whose shape was
//      inferred fully fold too (use_static_shapes), with a control edge from that tensor;
//   3. pad folding: a Pad / PadV2 (of zeros) with constant, non-negative paddings of H and W
//      only, feeding a Conv2D, DepthwiseConv2dNative or _FusedConv2D (NHWC, padding VALID or
//      EXPLICIT) and nothing else, becomes the convolution's EXPLICIT padding;
//   4. batch norm folding: Conv2D, DepthwiseConv2dNative and MatMul with a Const filter,
//      optionally followed by a BiasAdd, followed by a per-channel Mul, Add/AddV2/Sub of a
//      constant or an inference FusedBatchNorm (V1/V2/V3, NHWC): the scale goes into a new
//      filter, the shift into a BiasAdd (Keras's BatchNormalization freezes to the Mul/Add form);
//   5. fusion: Conv2D (NHWC) + BiasAdd [+ Relu|Relu6|Elu|LeakyRelu] into _FusedConv2D,
//      DepthwiseConv2dNative (NHWC; padding SAME, VALID, or EXPLICIT equal to one of them) +
//      BiasAdd [+ the same] into _FusedDepthwiseConv2dNative, MatMul + BiasAdd
//      [+ Relu|Relu6|Elu|LeakyRelu|Tanh|Sigmoid] into _FusedMatMul; then, with static shapes,
//      _FusedConv2D [BiasAdd] + Add/AddV2 of a tensor of the same shape [+ Relu|Relu6|Elu|
//      LeakyRelu] into _FusedConv2D [BiasAdd, Add(, act)] (ResNet's residual blocks);
//   6. Conv2D, _FusedConv2D, DepthwiseConv2dNative and _FusedDepthwiseConv2dNative nodes whose
//      filter is a Const, and MatMul and _FusedMatMul nodes whose b is, get the attr
//      `_sg_const_filter` = true (their kernels may then keep that input in their own layout).
// A Const a pass makes (a folded value, a scaled filter, a bias) holds its value as a Tensor
// beside its NodeDef (Node::tensor_attrs), which the Const kernel shares: the value is never
// encoded into a TensorProto and decoded again. GraphDefs written from the graph (ToGraphDef,
// PartitionGraph, so RunMetadata.partition_graphs) get the value in the NodeDef.
// A rewrite fires only when every node it removes has no other consumer, is not fetched, has no
// control edges (the last node of a pattern may have control inputs, which the new node takes)
// and sits on the same device. The node that replaces a pattern takes the name of its last node,
// so fetches and control dependencies by name still find it. Only float patterns are rewritten
// in 3 to 5; outputs agree with the unoptimised graph's within float rounding.
//
// Switch: ConfigProto.graph_options.optimizer_options (GraphOptimizerOptionsFromConfig):
// opt_level L0 turns the whole pass off; do_constant_folding = true turns constant folding back
// on under L0 (TensorFlow's meaning of both fields).
//
//   GraphOptimizerOptions opts = GraphOptimizerOptionsFromConfig(config.graph_options());
//   SG_RETURN_IF_ERROR(OptimizeGraph(graph, opts, /*preserve=*/{"init"}));
//
// Thread safety: none on one graph; different graphs may be optimised concurrently.
#ifndef SG_CORE_GRAPH_OPTIMIZER_H_
#define SG_CORE_GRAPH_OPTIMIZER_H_

#include <cstdint>
#include <set>
#include <string>

#include "core/framework/status.h"
#include "core/graph/graph.h"
#include "core/proto/config.pb.h"

namespace sg {

struct GraphOptimizerOptions {
  bool control_only_to_noops = true;
  bool remove_identities = true;
  bool constant_folding = true;
  bool fold_batch_norms = true;
  bool fold_pads = true;
  bool fuse_ops = true;
  bool mark_const_filters = true;
  // Constant folding leaves a node whose outputs together exceed this many bytes.
  int64_t max_constant_bytes = 10 << 20;
  // Fold Shape/Size/Rank from the graph's inferred static shapes. StepBuilder turns it off for a
  // step that feeds a tensor declared as a scalar, which sg accepts with any shape (old graphs).
  bool use_static_shapes = true;

  bool any() const {
    return control_only_to_noops || remove_identities || constant_folding || fold_batch_norms || fold_pads || fuse_ops ||
           mark_const_filters;
  }
};

// What one OptimizeGraph call did (for tests and logs).
struct GraphOptimizerStats {
  int nodes_before = 0, nodes_after = 0;
  int control_only_to_noops = 0;  // nodes made NoOps
  int identities_removed = 0;
  int nodes_folded = 0;       // nodes replaced by Consts (not counting the ones removed as dead)
  int batch_norms_folded = 0;  // Mul/Add/Sub/FusedBatchNorm nodes folded into a filter or bias
  int pads_folded = 0;        // Pad / PadV2 nodes folded into a convolution's padding
  int nodes_fused = 0;        // _FusedConv2D / _FusedDepthwiseConv2dNative / _FusedMatMul made
  int const_filters_marked = 0;
};

// All on by default; opt_level L0 turns everything off, and do_constant_folding then turns
// constant folding (only) back on.
GraphOptimizerOptions GraphOptimizerOptionsFromConfig(const GraphOptions& graph_options);

// Rewrites `g` in place. `preserve` names nodes (a step's targets) that are neither removed nor
// replaced; nodes feeding a _Retval or client-terminated _Send (fetches) keep their name and
// value. Errors: only INTERNAL for a rewrite that could not rebuild the graph (a bug): a node that
// cannot be evaluated (no CPU kernel, an error) is simply left for the step to run.
// `stats` may be null.
absl::Status OptimizeGraph(Graph* g, const GraphOptimizerOptions& options,
                           const std::set<std::string>& preserve,
                           GraphOptimizerStats* stats = nullptr);

}  // namespace sg

#endif  // SG_CORE_GRAPH_OPTIMIZER_H_
