// A convolution over few output positions, as a product of one row per position (the input
// values its window meets) and the filter's rows for those taps (kept packed in panels of 16
// output channels: PanelProduct, panel_product.h), the panels split over the calling thread's
// OpenMP team (oneDNN's; the intra-op pool without OpenMP).
//
// Two cases, both where oneDNN's kernels do poorly:
//   - A 1x1 window over at most kMaxSplitPositions positions, on more than one thread. At batch
//     1 the last stages of a convolution network have 2x2 to 4x4 positions and filters of up to
//     2048 x 2048 channels, and reading the filter is most of the work. oneDNN's 1x1 kernels
//     (jit_1x1) do not get faster with a second thread there: ResNet50's 512 -> 2048 channels
//     over 2x2 positions (64x64 input) took 0.26 ms on 2 threads against 0.25 on one,
//     MobileNetV2's 160 -> 960 0.023 against 0.024 (ONEDNN_VERBOSE=1 times, this 2-core VM).
//     Here each thread reads only its own panels: bench/conv_bench's 512 -> 2048 over 2x2 went
//     from 97-101 us to 59-73 on 2 threads.
//   - A window some of whose taps meet only padding at every output position, over at most
//     kMaxPositions positions, on any number of threads: InceptionV3's last stage at a 75x75
//     input has 1x1 positions and 1x3, 3x1 and 3x3 windows (SAME), where only the centre tap
//     meets data. oneDNN's kernels (jit:avx2) took 8.55 ms a run for its ten such convolutions
//     at batch 8 on 1 thread (384-448 -> 384 channels; ONEDNN_VERBOSE=1, median of 10 runs):
//     1.4 G multiply-adds a second counted over the centre taps, where the 1x1 convolutions of
//     the stage before ran at 26. Here the row holds the taps that meet data only.
//
// The taps used are the smallest run of taps, in the filter's order, that holds every tap
// meeting data at some output position; a position's row holds zeros for those of them that
// meet its padding. The geometry: a forward convolution, float, channels-last (input
// [N, spatial..., C], filter [window..., C, out_c], output [N, out spatial..., out_c]), one
// group, any stride, dilation and padding. The epilogue is OneDnnConv's:
// y = act((conv + bias) * scale + shift [+ y_before]), with TensorFlow's activations (Relu and
// Relu6 keep NaN; Elu is expm1 below zero).
#ifndef SG_CORE_KERNELS_FEW_POSITIONS_CONV_H_
#define SG_CORE_KERNELS_FEW_POSITIONS_CONV_H_

#include <cstdint>

#include "core/framework/op_kernel.h"
#include "core/kernels/conv_nd.h"
#include "core/kernels/onednn_conv.h"
#include "core/kernels/panel_product.h"

namespace sg {

// Owned by a convolution kernel (through its OneDnnConv) whose filter is a Const: the filter's
// rows for the taps used are kept in panels of output channels, packed on the first run and
// again whenever the filter's address, the taps used or the shape change. Thread-safe: runs may
// be concurrent.
class FewPositionsConv {
 public:
  // Output positions (N times the spatial positions) up to which a convolution that skips taps
  // runs here: PanelProduct's rows.
  static constexpr int64_t kMaxPositions = PanelProduct::kMaxRows;
  // Output positions up to which a 1x1 convolution runs here on 2 or more threads: above that,
  // oneDNN's kernels split the work themselves, and were faster at 4x4.
  static constexpr int64_t kMaxSplitPositions = 8;

  // The run of taps, in the filter's order (flattened window index), that a convolution of
  // geometry `g` uses: [first, first + count). A pure function.
  struct Taps {
    int64_t first = 0, count = 0;
  };
  static Taps UsedTaps(const ConvNdGeometry& g);

  FewPositionsConv();
  ~FewPositionsConv();
  FewPositionsConv(const FewPositionsConv&) = delete;
  FewPositionsConv& operator=(const FewPositionsConv&) = delete;

  // Whether Run takes geometry `g` with `threads` intra-op threads (see above): one group, and
  // either fewer taps used than the window has and at most kMaxPositions positions, or a 1x1
  // window, at most kMaxSplitPositions positions, 2 or more threads and no other kernel call
  // splitting its work.
  static bool Takes(const ConvNdGeometry& g, int threads);

  // Computes out = epilogue(conv(input, filter)) for a geometry Takes accepts, on the calling
  // thread and its OpenMP team, device.numThreads() threads in all (the device's pool without
  // OpenMP). `epilogue` may be null (none); with epilogue->sum, out holds the tensor to add on
  // entry. input, filter and out are the caller's (float, dense, the shapes above), read or
  // written during the call only; the filter's packed copy is kept by this object. Returns
  // false, touching nothing, when the packed filter or the rows cannot be allocated.
  bool Run(const Eigen::ThreadPoolDevice& device, const ConvNdGeometry& g, const float* input,
           const float* filter, float* out, const OneDnnConv::Epilogue* epilogue);

 private:
  PanelProduct product_;
};

}  // namespace sg

#endif  // SG_CORE_KERNELS_FEW_POSITIONS_CONV_H_
