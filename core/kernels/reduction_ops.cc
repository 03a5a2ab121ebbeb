// Sum, Mean and Prod kernels (ReductionOp, reduction_ops.h).
#include "core/kernels/reduction_ops.h"

namespace sg {
namespace {

REGISTER_KERNEL_BUILDER(Name("Sum").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kSum, WideRealTypes>);
REGISTER_KERNEL_BUILDER(Name("Mean").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kMean, WideRealTypes>);
REGISTER_KERNEL_BUILDER(Name("Prod").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kProd, WideRealTypes>);

}  // namespace
}  // namespace sg
