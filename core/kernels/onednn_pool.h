// Float AvgPool over NHWC windows through oneDNN's pooling primitive, as TensorFlow defines it:
// the padding is left out of each window's count. A kernel keeps one OneDnnPool as a member; it
// builds a primitive per geometry on first use and reuses it. (MaxPool stays on sg's own loop:
// oneDNN's measured 1.2-1.3x slower than it, where oneDNN's average pooling measured as fast as
// sg's loop on windows that do not overlap and twice as fast on 3x3 windows at stride 1;
// bench/conv_bench, measured on an earlier machine than the AVX2 one of MakePlan's figures. On
// an AVX2 CPU oneDNN's AVX2 kernel is passed over for its SSE4.1 one: see MakePlan in
// onednn_pool.cc.)
//
//   OneDnnPool dnnl_;  // member of the kernel
//   ...
//   if (dnnl_.Run(ctx, g, input.data<float>(), out->data<float>())) return;
//   ... sg's own loop
//
// Without oneDNN (SG_HAVE_DNNL undefined) Run always returns false, as it does when the
// environment variable SG_ONEDNN_CONV (onednn_conv.h) is 0.
#ifndef SG_CORE_KERNELS_ONEDNN_POOL_H_
#define SG_CORE_KERNELS_ONEDNN_POOL_H_

#include <cstdint>
#include <memory>

#include "core/framework/op_kernel.h"

namespace sg {

class OneDnnPool {
 public:
  // An input [n, h, w, c], a window kh x kw moved by sh x sw, with pad_top rows and pad_left
  // columns of padding before the input, making an output [n, oh, ow, c].
  struct Geometry {
    int64_t n, h, w, c, kh, kw, sh, sw, oh, ow, pad_top, pad_left;
  };

  OneDnnPool();
  ~OneDnnPool();
  OneDnnPool(const OneDnnPool&) = delete;
  OneDnnPool& operator=(const OneDnnPool&) = delete;

  // Average-pools `in` into `out` (both dense float, the shapes of g). Returns false, touching
  // nothing, when oneDNN cannot take the case (not built in, switched off, an empty geometry, a
  // window that can lie wholly in the padding, or only a reference implementation); true when
  // it has written `out`, or when it failed while running (ctx's status says why: INTERNAL for
  // oneDNN, RESOURCE_EXHAUSTED for its scratch buffer). oneDNN's OpenMP team is sized to ctx's
  // intra-op pool (the calling thread alone for under 2^18 window reads). Safe to call
  // concurrently.
  bool Run(OpKernelContext* ctx, const Geometry& g, const float* in, float* out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sg

#endif  // SG_CORE_KERNELS_ONEDNN_POOL_H_
