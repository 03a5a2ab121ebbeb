// The ops whose gradient functions tests/core/gradients_more_test.cc checks (those registered in
// core/gradients/{segment,linalg,math_grad_extra,einsum,resource,image}_grad.cc), so that
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
      "ResourceGather",
      // image_grad.cc
      "CropAndResize", "ResizeBicubic", "ExtractImagePatches", "ImageProjectiveTransformV2",
      "ImageProjectiveTransformV3"};
  return *ops;
}

}  // namespace sg

#endif  // SG_TESTS_CORE_GRADIENTS_MORE_OPS_H_
