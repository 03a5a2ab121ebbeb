// SpaceToBatchND, BatchToSpaceND and their 4-D forms SpaceToBatch and BatchToSpace (one
// block_size for both spatial dims).
//
// The "space" tensor is [B, S_1..S_M, R...], the "batch" tensor [B * prod(block), s_1..s_M, R...].
// Batch row (o * B + n), o the row-major index of the block offsets (o_1..o_M), position
// (j_1..j_M) holds space element (n, j_1 * block_1 + o_1 - lo_1, ...), where lo is the padding
// (SpaceToBatch) or the crop (BatchToSpace) at the start of each dim. One walk over the batch
// tensor serves both ops: SpaceToBatch writes zeros where the space position is padding,
// BatchToSpace skips what is cropped.
#include <cstring>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

struct BlockGeometry {
  int64_t batch = 0;          // B
  DimVector block;            // block_1..block_M
  DimVector lo;               // padding or crop before each spatial dim
  DimVector space, small;     // S_i and s_i
  int64_t inner = 1;          // elements of R...
};

// Moves the elements from `from` to `to`: space to batch when `to_batch`, else batch to space.
// Both are raw buffers of `elem` bytes per element.
void MoveBlocks(const BlockGeometry& g, size_t elem, bool to_batch, const char* from, char* to) {
  const int m = static_cast<int>(g.block.size());
  int64_t blocks = 1;
  for (int64_t b : g.block) blocks *= b;
  const size_t row_bytes = static_cast<size_t>(g.inner) * elem;
  int64_t positions = 1;
  for (int64_t s : g.small) positions *= s;
  size_t batch_at = 0;  // bytes into the batch tensor, which is walked in order
  DimVector offset(m), j(m);
  for (int64_t o = 0; o < blocks; ++o) {
    int64_t rest = o;
    for (int i = m - 1; i >= 0; --i) {
      offset[i] = rest % g.block[i];
      rest /= g.block[i];
    }
    for (int64_t n = 0; n < g.batch; ++n) {
      std::fill(j.begin(), j.end(), 0);
      for (int64_t p = 0; p < positions; ++p, batch_at += row_bytes) {
        int64_t space_row = n;
        bool inside = true;
        for (int i = 0; i < m; ++i) {
          const int64_t x = j[i] * g.block[i] + offset[i] - g.lo[i];
          inside = inside && x >= 0 && x < g.space[i];
          space_row = space_row * g.space[i] + x;
        }
        const size_t space_at = static_cast<size_t>(space_row) * row_bytes;
        if (inside) {
          if (to_batch) {
            std::memcpy(to + batch_at, from + space_at, row_bytes);
          } else {
            std::memcpy(to + space_at, from + batch_at, row_bytes);
          }
        } else if (to_batch) {
          std::memset(to + batch_at, 0, row_bytes);  // padding
        }
        for (int i = m - 1; i >= 0; --i) {
          if (++j[i] < g.small[i]) break;
          j[i] = 0;
        }
      }
    }
  }
}

// The checks and the work of all four ops, given the block shape and the [M, 2] paddings
// (SpaceToBatch) or crops (BatchToSpace).
void SpaceBatch(OpKernelContext* ctx, bool to_batch, const Tensor& in,
                absl::Span<const int64_t> block, const Tensor& pads_t) {
  const char* what = to_batch ? "paddings" : "crops";
  const int m = static_cast<int>(block.size());
  OP_REQUIRES(ctx, pads_t.dims() == 2 && pads_t.dim_size(0) == m && pads_t.dim_size(1) == 2,
              NodeError(ctx, what, " should have shape [", m, ", 2] instead of ",
                        pads_t.shape().DebugString()));
  OP_REQUIRES(ctx, in.dims() >= 1 + m,
              NodeError(ctx, "input rank should be >= ", 1 + m, " instead of ", in.dims()));
  const auto pads = IntValues(pads_t);
  BlockGeometry g;
  int64_t blocks = 1;
  for (int i = 0; i < m; ++i) {
    OP_REQUIRES(ctx, block[i] >= 1,
                NodeError(ctx, "All values in block_shape must be positive, got value, ",
                          block[i]));
    OP_REQUIRES(ctx, MultiplySizes(blocks, block[i], &blocks),
                NodeError(ctx, "the product of block_shape is too large"));
    const int64_t lo = pads[2 * i], hi = pads[2 * i + 1];
    OP_REQUIRES(ctx, lo >= 0 && hi >= 0,
                NodeError(ctx, to_batch ? "Negative paddings" : "Negative crops", " at dim ", i,
                          ": ", lo, ", ", hi));
    // Small enough that a dim plus both never overflows.
    OP_REQUIRES(ctx, lo <= kMaxTensorElements / 4 && hi <= kMaxTensorElements / 4,
                NodeError(ctx, what, " too large at dim ", i, ": ", lo, ", ", hi));
    g.block.push_back(block[i]);
    g.lo.push_back(lo);
  }
  for (int d = 1 + m; d < in.dims(); ++d) g.inner *= in.dim_size(d);
  std::vector<int64_t> out_dims(in.shape().dim_sizes().begin(), in.shape().dim_sizes().end());
  if (to_batch) {
    g.batch = in.dim_size(0);
    OP_REQUIRES(ctx, MultiplySizes(g.batch, blocks, &out_dims[0]),
                NodeError(ctx, "output batch size is too large"));
    for (int i = 0; i < m; ++i) {
      const int64_t s = in.dim_size(1 + i);
      const int64_t padded = s + pads[2 * i] + pads[2 * i + 1];
      OP_REQUIRES(ctx, padded % block[i] == 0,
                  NodeError(ctx, "padded_shape[", i, "]=", padded,
                            " is not divisible by block_shape[", i, "]=", block[i]));
      g.space.push_back(s);
      g.small.push_back(padded / block[i]);
      out_dims[1 + i] = padded / block[i];
    }
  } else {
    OP_REQUIRES(ctx, in.dim_size(0) % blocks == 0,
                NodeError(ctx, "Input batch dimension (", in.dim_size(0),
                          ") is not divisible by product of block sizes (", blocks, ")"));
    g.batch = in.dim_size(0) / blocks;
    out_dims[0] = g.batch;
    for (int i = 0; i < m; ++i) {
      const int64_t s = in.dim_size(1 + i);
      int64_t full;
      OP_REQUIRES(ctx, MultiplySizes(s, block[i], &full),
                  NodeError(ctx, "dimension ", 1 + i, " times its block is too large"));
      const int64_t cropped = full - pads[2 * i] - pads[2 * i + 1];
      OP_REQUIRES(ctx, cropped >= 0,
                  NodeError(ctx, "Crops must be less than or equal to the uncropped size: ",
                            "crops ", pads[2 * i], " + ", pads[2 * i + 1], " > ", full,
                            " at dim ", i));
      g.small.push_back(s);
      g.space.push_back(cropped);
      out_dims[1 + i] = cropped;
    }
  }
  auto out_shape = TensorShape::Build(out_dims);
  OP_REQUIRES(ctx, out_shape.ok(), NodeError(ctx, out_shape.status().message()));
  Tensor* out;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *out_shape, &out));
  // An empty space tensor may still pad to a non-empty batch tensor (all zeros).
  if (out->NumElements() == 0) return;
  MoveBlocks(g, static_cast<size_t>(DataTypeSize(in.dtype())), to_batch,
             static_cast<const char*>(in.raw_data()), static_cast<char*>(out->raw_data()));
}

class SpaceBatchNDOp final : public OpKernel {
 public:
  explicit SpaceBatchNDOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    to_batch_ = ctx->def().op() == "SpaceToBatchND";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& block_t = ctx->input(1);
    OP_REQUIRES(ctx, block_t.dims() == 1,
                NodeError(ctx, "block_shape rank should be 1 instead of ", block_t.dims()));
    const auto block = IntValues(block_t);
    SpaceBatch(ctx, to_batch_, ctx->input(0), block, ctx->input(2));
  }

 private:
  bool to_batch_;
};

class SpaceBatchOp final : public OpKernel {
 public:
  explicit SpaceBatchOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    to_batch_ = ctx->def().op() == "SpaceToBatch";
    OP_REQUIRES_OK(ctx, ctx->GetAttr("block_size", &block_size_));
    OP_REQUIRES(ctx, block_size_ >= 2,
                errors::InvalidArgument("block_size must be at least 2, got ", block_size_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, in.dims() == 4,
                NodeError(ctx, "Input rank should be: 4 instead of: ", in.dims()));
    const int64_t block[2] = {block_size_, block_size_};
    SpaceBatch(ctx, to_batch_, in, block, ctx->input(1));
  }

 private:
  bool to_batch_;
  int64_t block_size_;
};

// TensorFlow's CPU kernels: the real number types.
const std::vector<DataType> kSpaceBatchTypes = {DT_FLOAT, DT_DOUBLE, DT_HALF,  DT_BFLOAT16,
                                                DT_INT8,  DT_INT16,  DT_INT32, DT_INT64,
                                                DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64};
REGISTER_KERNEL_BUILDER(Name("SpaceToBatchND").Device(DEVICE_CPU).TypeConstraint("T",
                                                                               kSpaceBatchTypes),
                        SpaceBatchNDOp);
REGISTER_KERNEL_BUILDER(Name("BatchToSpaceND").Device(DEVICE_CPU).TypeConstraint("T",
                                                                               kSpaceBatchTypes),
                        SpaceBatchNDOp);
REGISTER_KERNEL_BUILDER(Name("SpaceToBatch").Device(DEVICE_CPU).TypeConstraint("T",
                                                                             kSpaceBatchTypes),
                        SpaceBatchOp);
REGISTER_KERNEL_BUILDER(Name("BatchToSpace").Device(DEVICE_CPU).TypeConstraint("T",
                                                                             kSpaceBatchTypes),
                        SpaceBatchOp);

}  // namespace
}  // namespace sg
