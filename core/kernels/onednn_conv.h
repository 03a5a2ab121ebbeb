// Float convolutions through oneDNN's convolution primitives: the forward pass and both gradients
// of a channels-last convolution with two or three spatial dims, grouped or not (depthwise is
// the grouped case with one input channel per group), on the layouts the TensorFlow ops use
// (input [N, spatial..., C], filter [window..., C / groups, out_c], output channel
// group * (out_c / groups) + o). A kernel keeps one OneDnnConv as a member; it builds a
// primitive per geometry on first use and reuses it.
//
//   OneDnnConv dnnl_;  // member of the kernel
//   ...
//   if (dnnl_.Run(ctx, OneDnnConv::kForward, 2, g, input.data<float>(), filter.data<float>(),
//                 out->data<float>())) {
//     return;  // done, or failed with ctx's status set
//   }
//   ... the im2col path
//
// Without oneDNN (SG_HAVE_DNNL undefined) Run always returns false. The environment variable
// SG_ONEDNN_CONV=0, read once per process, turns the primitives off too (to compare the paths).
#ifndef SG_CORE_KERNELS_ONEDNN_CONV_H_
#define SG_CORE_KERNELS_ONEDNN_CONV_H_

#include <memory>

#include "core/framework/op_kernel.h"
#include "core/kernels/conv_nd.h"
#include "core/kernels/fused_epilogue.h"

namespace sg {

class OneDnnConv {
 public:
  // What Run computes, and what its operands a, b and out are (all float, dense, row-major):
  enum Pass {
    kForward,          // a input, b filter, out = conv(input, filter) [N, out..., out_c]
    kBackwardData,     // a filter, b dy [N, out..., out_c], out = dx, the input's shape
    kBackwardWeights,  // a input, b dy, out = dw, the filter's shape
  };

  // Work a forward pass does on each output channel c after the convolution, inside the
  // primitive (no second pass over the output):
  //   y = act((conv + bias[c]) * scale[c] + shift[c] [+ y_before])
  // each of bias and scale/shift left out when null. With `sum`, `out` must hold a tensor of
  // the output's shape when Run is called (a residual to add: ResNet's shortcut), which the
  // result overwrites; when Run returns false, out is untouched and still holds it. The values
  // are read during Run only.
  struct Epilogue {
    enum class Act { kNone, kRelu, kRelu6, kElu, kLeakyRelu, kSwish };  // kSwish: x * sigmoid(x)
    const float* bias = nullptr;   // out_c values, or null
    const float* scale = nullptr;  // out_c values each, both or neither
    const float* shift = nullptr;
    bool sum = false;
    Act act = Act::kNone;
    float alpha = 0;  // kLeakyRelu's slope: y = x > 0 ? x : alpha * x
  };

  // The NodeDef attr the graph optimiser sets (true) on a convolution whose filter input is a
  // Const node: the kernel may then keep the filter in oneDNN's layout between runs.
  static constexpr const char* kConstFilterAttr = "_sg_const_filter";

  OneDnnConv();
  ~OneDnnConv();
  OneDnnConv(const OneDnnConv&) = delete;
  OneDnnConv& operator=(const OneDnnConv&) = delete;

  // Whether the forward filter (operand b) holds the same values whenever it is at the same
  // address, as a Const node's output does. When true, Run keeps the filter in the primitive's
  // layout after the first forward run and reuses it while the filter's address and the
  // geometry (the filter's shape among it) stay the same; it lays it out again when either
  // changes. Call before the first Run (in the kernel's constructor). Costs the memory of one
  // more copy of the filter, held until the kernel is destroyed.
  void set_constant_filter(bool constant) { constant_filter_ = constant; }
  // The node's kConstFilterAttr: false when absent or not a bool.
  static bool ConstFilterAttr(OpKernelConstruction* ctx);
  // Sets *out to the Epilogue::Act of a fused_ops activation; false, leaving *out, for one the
  // epilogue lacks (Tanh, Sigmoid). Thread-safe.
  static bool EpilogueAct(FusedActivation act, Epilogue::Act* out);

  // Whether oneDNN is built in and not switched off by SG_ONEDNN_CONV=0. Thread-safe.
  static bool Available();

  // Channels (in and out) and input positions per image from which a forward pass may run on
  // blocked activations (BlocksActivations).
  static constexpr int64_t kBlockedMinChannels = 64;
  static constexpr int64_t kBlockedMinPositions = 64;

  // Whether Run lays the input out in oneDNN's blocked channel layout (8 channels innermost on
  // AVX2) before the primitive and its output back to channels-last after it, rather than
  // running the primitive on channels-last data: a forward pass with two spatial dims, one
  // group, a window of at least 2x2, at least kBlockedMinChannels input and output channels,
  // at least kBlockedMinPositions input positions per image, and no residual sum. Why: oneDNN
  // 2.6's AVX2 kernel is slower on channels-last data for such convolutions, by more than the
  // two relayouts cost. VGG16's 64 -> 64 channels 3x3 over 64x64, batch 8, 1 thread took 44-45
  // ms channels-last and 29-34 ms blocked (medians of 8 runs, two processes each, a program
  // calling oneDNN alone); the whole of VGG16 at 64x64 (bench/infer_bench_sg, minimum
  // of each process, median of 3 alternated processes) went from 316 to 275 ms at batch 8 on
  // 1 thread, 154 to 142 on 2, 39.7 to 38.3 at batch 1 on 1 thread (22.9 on 2 either way).
  // Elsewhere (1x1, depthwise, few positions) the relayouts cost more than they save. A pure
  // function of its arguments: thread-safe, no errors.
  static bool BlocksActivations(Pass pass, int nd, const ConvNdGeometry& g,
                                const Epilogue* epilogue);

  // Forward runs in this process that ran on blocked activations (for tests): with `fused`,
  // those given an epilogue (run in the same primitive), else those without. 0 without oneDNN.
  // Thread-safe (an atomic count, read relaxed).
  static int64_t BlockedRuns(bool fused);

  // Runs `pass` for geometry `g` with nd (2 or 3) spatial dims, each operand of the shape the
  // pass gives it; `epilogue` (forward only; may be null) is fused into the primitive. Returns
  // false, touching nothing, when oneDNN cannot take the case (not built in, switched off, an
  // empty geometry, an epilogue on another pass or with only one of scale and shift, or oneDNN
  // offers only its slow reference implementation): the caller then computes it another way.
  // Returns true when it has written `out`, or when it failed while running, in which case
  // ctx's status says why (RESOURCE_EXHAUSTED for a scratch buffer, INTERNAL for oneDNN).
  // Threads: oneDNN's OpenMP team is sized to ctx's intra-op pool, or is the calling thread
  // alone for a convolution under 2^19 multiply-adds. A forward convolution of few output
  // positions with a constant filter runs on sg's FewPositionsConv instead
  // (few_positions_conv.h) when it is 1x1 on 2 or more threads (split where oneDNN would not) or
  // when some of its window's taps meet only padding (skipped). Safe to call concurrently.
  bool Run(OpKernelContext* ctx, Pass pass, int nd, const ConvNdGeometry& g, const float* a,
           const float* b, float* out, const Epilogue* epilogue = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  bool constant_filter_ = false;
};

}  // namespace sg

#endif  // SG_CORE_KERNELS_ONEDNN_CONV_H_
