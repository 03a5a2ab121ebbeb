// Max, Min, All and Any kernels (ReductionOp, reduction_ops.h).
#include "core/kernels/reduction_ops.h"

namespace sg {
namespace {

REGISTER_KERNEL_BUILDER(Name("Max").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kMax, WideRealTypes>);
REGISTER_KERNEL_BUILDER(Name("Min").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kMin, WideRealTypes>);
REGISTER_KERNEL_BUILDER(Name("All").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kAll, TypeList<bool>>);
REGISTER_KERNEL_BUILDER(Name("Any").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kAny, TypeList<bool>>);

}  // namespace
}  // namespace sg
