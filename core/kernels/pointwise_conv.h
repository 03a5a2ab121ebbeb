// A 1x1 convolution over few output positions, as a product of the positions' input rows and the
// filter (kept packed in panels of 16 output channels: PanelProduct, panel_product.h), its
// panels split over the calling thread's OpenMP team (oneDNN's; the intra-op pool without
// OpenMP).
//
// Why: at batch 1 the last stages of a convolution network have 2x2 to 4x4 positions and filters
// of up to 2048 x 2048 channels, and reading the filter is most of such a convolution's work.
// oneDNN's 1x1 kernels (jit_1x1) do not get faster with a second thread there: ResNet50's
// 512 -> 2048 channels over 2x2 positions (64x64 input) took 0.26 ms on 2 threads against 0.25
// on one, MobileNetV2's 160 -> 960 0.023 against 0.024 (ONEDNN_VERBOSE=1 times, this 2-core
// VM). Here each thread reads only its own panels: bench/conv_bench's 512 -> 2048 over 2x2 went
// from 97-101 us to 59-73 on 2 threads.
//
// The case taken (Takes): a forward convolution, float, channels-last (input [N, spatial..., C],
// filter [1, 1(, 1), C, out_c], output [N, out spatial..., out_c]), every window dim 1, no
// padding, any stride, one group, at most kMaxPositions output positions in all (N times the
// spatial positions: above that, oneDNN's kernels split the work themselves, and were faster at
// 4x4), on more than one intra-op thread while no other kernel call splits its work.
// The epilogue is OneDnnConv's: y = act((conv + bias) * scale + shift [+ y_before]), with
// TensorFlow's activations (Relu and Relu6 keep NaN; Elu is expm1 below zero).
#ifndef SG_CORE_KERNELS_POINTWISE_CONV_H_
#define SG_CORE_KERNELS_POINTWISE_CONV_H_

#include <cstdint>

#include "core/framework/op_kernel.h"
#include "core/kernels/conv_nd.h"
#include "core/kernels/onednn_conv.h"
#include "core/kernels/panel_product.h"

namespace sg {

// Owned by a convolution kernel (through its OneDnnConv) whose filter is a Const: the filter is
// kept in panels of output channels, packed on the first run and again whenever its address or
// shape changes. Thread-safe: runs may be concurrent.
class PointwiseConv {
 public:
  // Output positions up to which a 1x1 convolution runs here (see above).
  static constexpr int64_t kMaxPositions = 8;

  PointwiseConv();
  ~PointwiseConv();
  PointwiseConv(const PointwiseConv&) = delete;
  PointwiseConv& operator=(const PointwiseConv&) = delete;

  // Whether Run takes geometry `g` with `threads` intra-op threads.
  static bool Takes(const ConvNdGeometry& g, int threads);

  // Computes out = epilogue(conv(input, filter)) for a geometry Takes accepts, on the calling
  // thread and its OpenMP team, device.numThreads() threads in all (the device's pool without
  // OpenMP). `epilogue` may be null (none); with epilogue->sum, out holds the tensor to add on
  // entry. Returns false, touching nothing, when the packed filter cannot be allocated.
  bool Run(const Eigen::ThreadPoolDevice& device, const ConvNdGeometry& g, const float* input,
           const float* filter, float* out, const OneDnnConv::Epilogue* epilogue);

 private:
  PanelProduct product_;
};

}  // namespace sg

#endif  // SG_CORE_KERNELS_POINTWISE_CONV_H_
