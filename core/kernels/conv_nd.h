// Channels-last convolutions with two or three spatial dims, as im2col (or its transpose for the
// input gradient) in bounded chunks and one matrix product per chunk through BatchedMatMul
// (matmul_op.h), so no kernel file instantiates another Eigen contraction. Shared by Conv3D,
// Conv2D for half and bfloat16, the Conv2D/Conv3D backprop ops and _FusedConv2D.
//
//   ConvNdGeometry g;
//   OP_REQUIRES_OK(ctx, MakeConvNdGeometry(2, input.shape(), filter.shape(), strides, dilations,
//                                          padding, explicit_paddings, &g));
//   OP_REQUIRES_OK(ctx, ConvNdForward(ctx, g, input, filter, out));
#ifndef SG_CORE_KERNELS_CONV_ND_H_
#define SG_CORE_KERNELS_CONV_ND_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "core/framework/op_kernel.h"
#include "core/framework/tensor.h"
#include "core/kernels/window_util.h"

namespace sg {

// The geometry of a convolution on an input [N, spatial..., C] with a filter
// [window..., C / groups, out_c]. The spatial arrays always have three entries: a 2-D
// convolution's two dims are entries 1 and 2, and entry 0 is a dim of size 1.
struct ConvNdGeometry {
  int64_t n = 0, c = 0, filter_c = 0, out_c = 0;
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, d[3] = {1, 1, 1};
  int64_t out[3] = {1, 1, 1}, pad[3] = {0, 0, 0};

  int64_t InPositions() const { return in[0] * in[1] * in[2]; }
  int64_t OutPositions() const { return out[0] * out[1] * out[2]; }
  int64_t WindowSize() const { return k[0] * k[1] * k[2]; }
  int64_t Groups() const { return filter_c > 0 ? c / filter_c : 1; }
};

// Fills `g` from a channels-last input shape and a filter shape, both of rank nd + 2 (nd is 2
// or 3). strides and dilations have nd + 2 entries (batch and channel entries ignored);
// explicit_paddings has 2 * (nd + 2) entries for Padding::kExplicit. Checks the ranks, that the
// input's channels are a positive multiple of the filter's and that out_c divides into the
// groups; INVALID_ARGUMENT (without the node's name) otherwise.
absl::Status MakeConvNdGeometry(int nd, const TensorShape& input, const TensorShape& filter,
                                absl::Span<const int64_t> strides,
                                absl::Span<const int64_t> dilations, Padding padding,
                                absl::Span<const int64_t> explicit_paddings, ConvNdGeometry* g);

// The attrs of a convolution node (strides, dilations, padding, explicit_paddings, data_format;
// those the op lacks keep their defaults), checked as TensorFlow's CPU kernels check them:
// INVALID_ARGUMENT for the wrong number of strides or dilations, a stride or dilation in the
// batch or channel dim, a dilation above 1 unless `allow_dilation`, or malformed explicit
// paddings. The data format is left to the caller (its error code differs between ops).
struct ConvNdAttrs {
  int nd = 2;
  std::vector<int64_t> strides, dilations, explicit_paddings;
  Padding padding = Padding::kValid;
  std::string data_format;
  bool channels_last = true;

  absl::Status Read(OpKernelConstruction* ctx, int nd, bool allow_dilation);
  // MakeConvNdGeometry with these attrs.
  absl::Status Geometry(const TensorShape& input, const TensorShape& filter,
                        ConvNdGeometry* g) const {
    return MakeConvNdGeometry(nd, input, filter, strides, dilations, padding, explicit_paddings,
                              g);
  }
};

// The output shape [N, out..., out_c] of `g` for nd spatial dims.
TensorShape ConvNdOutputShape(int nd, const ConvNdGeometry& g);

// Writes rows [r0, r1) of the patch matrix of `input` (channels-last, elements of `elem_size`
// bytes, g.c channels): row r is output position r, batch-major, and holds its window's pixels,
// window position-major, all g.c channels each, zero bytes where the window is off the input.
// The caller sizes `patches` for (r1 - r0) * g.WindowSize() * g.c elements.
void ConvNdPatches(const ConvNdGeometry& g, const void* input, size_t elem_size, int64_t r0,
                   int64_t r1, void* patches);

// out = conv(input, filter), grouped when g.Groups() > 1. Dtypes half and bfloat16 (computed in
// float), float, double, int32; `out` is the caller's tensor of ConvNdOutputShape and the
// input's dtype. UNIMPLEMENTED for another dtype.
absl::Status ConvNdForward(OpKernelContext* ctx, const ConvNdGeometry& g, const Tensor& input,
                           const Tensor& filter, Tensor* out);

// dx = the gradient of conv(x, filter) with respect to x given dy (shape [N, out..., out_c]);
// dx is the caller's tensor of the input's shape. Ungrouped only. Dtypes as ConvNdForward.
absl::Status ConvNdBackpropInput(OpKernelContext* ctx, const ConvNdGeometry& g,
                                 const Tensor& filter, const Tensor& dy, Tensor* dx);

// dw = the gradient of conv(input, w) with respect to w given dy; dw is the caller's tensor of
// the filter's shape [window..., C, out_c]. Ungrouped only. Dtypes as ConvNdForward.
absl::Status ConvNdBackpropFilter(OpKernelContext* ctx, const ConvNdGeometry& g,
                                  const Tensor& input, const Tensor& dy, Tensor* dw);

}  // namespace sg

#endif  // SG_CORE_KERNELS_CONV_ND_H_
