// The ops whose gradient functions tests/core/gradients_more_test.cc checks (those registered in
// core/gradients/{segment,linalg,math_grad_extra,einsum,resource,image,second_order}_grad.cc and
// the later additions to nn_grad.cc and array_grad.cc), so that
// gradients_test.cc's coverage check can leave them to it.
#ifndef SG_TESTS_CORE_GRADIENTS_MORE_OPS_H_
#define SG_TESTS_CORE_GRADIENTS_MORE_OPS_H_

#include <set>
#include <string>

namespace sg {

inline const std::set<std::string>& MoreGradientOps() {
  static const auto* ops = new std::set<std::string>{
      // segment_grad.cc
      "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd", "UnsortedSegmentProd",
      "UnsortedSegmentMax", "UnsortedSegmentMin", "SparseSegmentSum",
      "SparseSegmentSumWithNumSegments", "SparseSegmentMean", "SparseSegmentMeanWithNumSegments",
      "SparseSegmentSqrtN", "SparseSegmentSqrtNWithNumSegments", "GatherNd", "ScatterNd",
      "TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "ScatterNdNonAliasingAdd",
      "TensorScatterMin", "TensorScatterMax", "DynamicStitch", "ParallelDynamicStitch",
      "DynamicPartition", "TopK", "TopKV2", "ReverseSequence", "Roll", "SparseToDense",
      "SparseFillEmptyRows",
      // linalg_grad.cc
      "MatrixInverse", "MatrixDiag", "MatrixDiagV2", "MatrixDiagV3", "MatrixDiagPart",
      "MatrixDiagPartV2", "MatrixDiagPartV3", "MatrixSetDiag", "MatrixSetDiagV2", "MatrixSetDiagV3",
      // math_grad_extra.cc
      "Xlogy", "Xlog1py", "Xdivy", "DivNoNan", "MulNoNan", "Atan2", "FloorMod", "Erfc", "Prod",
      "Cumprod", "CumulativeLogsumexp", "Complex", "Real", "Imag", "Conj", "Angle", "ComplexAbs",
      "FFT", "IFFT", "FFT2D", "IFFT2D", "FFT3D", "IFFT3D", "ConjugateTranspose", "RFFT", "IRFFT",
      "RFFT2D", "IRFFT2D",
      // einsum_grad.cc
      "Einsum",
      // resource_grad.cc
      "ResourceGather", "ResourceGatherNd",
      // image_grad.cc
      "CropAndResize", "ResizeBicubic", "ExtractImagePatches", "ImageProjectiveTransformV2",
      "ImageProjectiveTransformV3",
      // second_order_grad.cc
      "ReluGrad", "Relu6Grad", "LeakyReluGrad", "EluGrad", "SeluGrad", "SoftplusGrad", "SigmoidGrad",
      "TanhGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad", "InvGrad", "BiasAddGrad",
      "MirrorPadGrad", "StridedSliceGrad", "AvgPoolGrad", "AvgPool3DGrad", "MaxPoolGrad",
      "MaxPoolGradGrad", "MaxPoolGradV2", "MaxPool3DGrad", "MaxPool3DGradGrad",
      "Conv2DBackpropFilter", "Conv3DBackpropFilterV2", "Conv3DBackpropInputV2",
      "DepthwiseConv2dNativeBackpropFilter", "DepthwiseConv2dNativeBackpropInput",
      // nn_grad.cc (the 3-D, v1 and global-normalization forms)
      "Conv3D", "AvgPool3D", "MaxPool3D", "MaxPoolWithArgmax", "BiasAddV1", "FusedBatchNorm",
      "FusedBatchNormV2", "BatchNormWithGlobalNormalization",
      // array_grad.cc (pass-throughs, inverse pairs, straight-through estimators)
      "PlaceholderWithDefault", "EnsureShape", "RefIdentity", "DebugGradientIdentity",
      "DebugGradientRefIdentity", "Print", "QuantizeAndDequantizeV2", "QuantizeAndDequantizeV3",
      "QuantizeAndDequantizeV4",
      "CheckNumerics", "CheckNumericsV2", "Reverse", "Diag", "DiagPart", "SpaceToBatch",
      "BatchToSpace", "SpaceToBatchND", "BatchToSpaceND", "SpaceToDepth", "DepthToSpace",
      "TensorStridedSliceUpdate", "FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxVars",
      "FakeQuantWithMinMaxVarsPerChannel"};
  return *ops;
}

}  // namespace sg

#endif  // SG_TESTS_CORE_GRADIENTS_MORE_OPS_H_
