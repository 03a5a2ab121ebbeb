// Float MaxPool and AvgPool over NHWC windows through oneDNN's pooling primitive, as TensorFlow
// defines them: padding never wins a maximum and is left out of an average's count. A kernel
// keeps one OneDnnPool as a member; it builds a primitive per geometry on first use and reuses
// it.
//
//   OneDnnPool dnnl_;  // member of the kernel
//   ...
//   if (dnnl_.Run(ctx, OneDnnPool::kMax, g, input.data<float>(), out->data<float>())) return;
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
  enum Kind { kMax, kAvg };

  // An input [n, h, w, c], a window kh x kw moved by sh x sw, with pad_top rows and pad_left
  // columns of padding before the input, making an output [n, oh, ow, c].
  struct Geometry {
    int64_t n, h, w, c, kh, kw, sh, sw, oh, ow, pad_top, pad_left;
  };

  OneDnnPool();
  ~OneDnnPool();
  OneDnnPool(const OneDnnPool&) = delete;
  OneDnnPool& operator=(const OneDnnPool&) = delete;

  // Pools `in` into `out` (both dense float, the shapes of g). Returns false, touching nothing,
  // when oneDNN cannot take the case (not built in, switched off, an empty geometry, a window
  // that can lie wholly in the padding, or only a reference implementation); true when it has
  // written `out`, or when it failed while running (ctx's status says why). oneDNN's OpenMP team
  // is sized to ctx's intra-op pool. Safe to call concurrently.
  bool Run(OpKernelContext* ctx, Kind kind, const Geometry& g, const float* in, float* out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sg

#endif  // SG_CORE_KERNELS_ONEDNN_POOL_H_
