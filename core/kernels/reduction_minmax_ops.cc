// Max, Min, All and Any kernels (ReductionOp, reduction_ops.h).
#include "core/kernels/reduction_ops.h"

namespace sg {
namespace {

using MinMaxTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                             uint8_t, uint16_t, uint32_t, uint64_t>;

REGISTER_KERNEL_BUILDER(Name("Max").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kMax, MinMaxTypes>);
REGISTER_KERNEL_BUILDER(Name("Min").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kMin, MinMaxTypes>);
REGISTER_KERNEL_BUILDER(Name("All").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kAll, TypeList<bool>>);
REGISTER_KERNEL_BUILDER(Name("Any").Device(DEVICE_CPU),
                        ReductionOp<ReduceKind::kAny, TypeList<bool>>);

}  // namespace
}  // namespace sg
