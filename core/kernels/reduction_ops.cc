// Sum, Mean and Prod kernels (ReductionOp, reduction_ops.h), for the real and complex types.
#include "core/kernels/reduction_ops.h"

namespace sg {
namespace {

using SumTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                          uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;

REGISTER_KERNEL_BUILDER(Name("Sum").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kSum, SumTypes>);
REGISTER_KERNEL_BUILDER(Name("Mean").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kMean, SumTypes>);
REGISTER_KERNEL_BUILDER(Name("Prod").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kProd, SumTypes>);

}  // namespace
}  // namespace sg
