// The diagonal ops. MatrixDiag* build batches of matrices from diagonals, MatrixDiagPart*
// read diagonals out, MatrixSetDiag* replace them; V2 and V3 take a band of diagonals k = lower
// .. upper (a diagonal d holds the elements (i, i + d)), V3 an alignment of the shorter
// diagonals within their rows of the packed [num_diags, max_diag_len] layout (V2 aligns all
// left, V1 and the Batch* ops take the main diagonal only). Diag and DiagPart: a tensor of shape
// D on the diagonal of one of shape D + D, and back.
//
// The kernels move elements as bytes: every dtype but string.
#include <algorithm>
#include <cstring>
#include <string>

#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"

namespace sg {
namespace {

// The band of diagonals and where each sits in its packed row.
struct Band {
  int64_t rows = 0, cols = 0;    // of each matrix
  int64_t lower = 0, upper = 0;  // diagonal indices, lower <= upper
  int64_t max_len = 0;           // length of a packed row
  bool left_super = true, left_sub = true;

  int64_t num_diags() const { return upper - lower + 1; }
  int64_t Length(int64_t d) const {
    return std::min(rows + std::min<int64_t>(0, d), cols - std::max<int64_t>(0, d));
  }
  // Where diagonal d's first element sits in its packed row.
  int64_t Offset(int64_t d) const {
    const bool left = (d >= 0 && left_super) || (d <= 0 && left_sub);
    return left ? 0 : max_len - Length(d);
  }
};

absl::Status ReadAlign(OpKernelConstruction* ctx, Band* band) {
  std::string align = "LEFT_LEFT";  // V2's
  if (ctx->HasAttr("align")) SG_RETURN_IF_ERROR(ctx->GetAttr("align", &align));
  band->left_super = align == "LEFT_LEFT" || align == "LEFT_RIGHT";
  band->left_sub = align == "LEFT_LEFT" || align == "RIGHT_LEFT";
  return absl::OkStatus();
}

// The diagonal indices of input k: a scalar, or a vector of one or two.
absl::Status ReadK(OpKernelContext* ctx, const Tensor& k_t, Band* band) {
  if (k_t.dims() > 1) {
    return NodeError(ctx, "diag_index must be a scalar or vector, received shape: ",
                     k_t.shape().DebugString());
  }
  if (k_t.NumElements() < 1 || k_t.NumElements() > 2) {
    return NodeError(ctx, "diag_index must have one or two elements, received ",
                     k_t.NumElements());
  }
  band->lower = k_t.data<int32_t>()[0];
  band->upper = k_t.NumElements() == 2 ? k_t.data<int32_t>()[1] : band->lower;
  if (band->lower > band->upper) {
    return NodeError(ctx, "lower_diag_index must not be larger than upper_diag_index: ",
                     band->lower, " > ", band->upper);
  }
  return absl::OkStatus();
}

absl::Status ScalarOf(OpKernelContext* ctx, const Tensor& t, const char* what) {
  if (t.dims() != 0) {
    return NodeError(ctx, what, " must be a scalar, received shape: ", t.shape().DebugString());
  }
  return absl::OkStatus();
}

// Element (i, j) of diagonal d at position q along it.
void DiagElement(int64_t d, int64_t q, int64_t* i, int64_t* j) {
  *i = d >= 0 ? q : q - d;
  *j = d >= 0 ? q + d : q;
}

// Writes one element outside the band: `pad` (the padding_value input), or zero bytes without
// one (v1 ops).
void Pad(char* dst, const void* pad, size_t elem) {
  if (pad != nullptr) {
    std::memcpy(dst, pad, elem);
  } else {
    std::memset(dst, 0, elem);
  }
}

// ---- MatrixDiag --------------------------------------------------------------------------

class MatrixDiagOp final : public OpKernel {
 public:
  explicit MatrixDiagOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    v1_ = ctx->num_inputs() == 1;
    OP_REQUIRES_OK(ctx, ReadAlign(ctx, &band_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& diag = ctx->input(0);
    Band band = band_;
    int64_t rows = -1, cols = -1;
    const void* pad = nullptr;
    if (!v1_) {
      OP_REQUIRES_OK(ctx, ReadK(ctx, ctx->input(1), &band));
      OP_REQUIRES_OK(ctx, ScalarOf(ctx, ctx->input(2), "num_rows"));
      OP_REQUIRES_OK(ctx, ScalarOf(ctx, ctx->input(3), "num_cols"));
      OP_REQUIRES_OK(ctx, ScalarOf(ctx, ctx->input(4), "padding_value"));
      rows = ctx->input(2).data<int32_t>()[0];
      cols = ctx->input(3).data<int32_t>()[0];
      pad = ctx->input(4).raw_data();
    }
    const bool single = band.lower == band.upper;
    const int min_rank = single ? 1 : 2;
    OP_REQUIRES(ctx, diag.dims() >= min_rank,
                NodeError(ctx, "diagonal must be at least ", min_rank, "-dim, received shape: ",
                          diag.shape().DebugString()));
    if (!single) {
      OP_REQUIRES(ctx, diag.dim_size(diag.dims() - 2) == band.num_diags(),
                  NodeError(ctx, "The number of diagonals provided in the input does not "
                                 "match the lower_diag_index and upper_diag_index range."));
    }
    band.max_len = diag.dim_size(diag.dims() - 1);
    const int64_t min_rows = band.max_len - std::min<int64_t>(band.upper, 0);
    const int64_t min_cols = band.max_len + std::max<int64_t>(band.lower, 0);
    if (rows == -1 && cols == -1) {
      rows = cols = std::max(min_rows, min_cols);
    } else if (rows == -1) {
      rows = min_rows;
    } else if (cols == -1) {
      cols = min_cols;
    }
    OP_REQUIRES(ctx, rows >= 0 && cols >= 0,
                NodeError(ctx, "num_rows and num_cols must be non-negative or -1, got ", rows,
                          " and ", cols));
    OP_REQUIRES(ctx, rows == min_rows || cols == min_cols,
                NodeError(ctx, "The number of rows or columns is not consistent with the "
                               "specified d_lower, d_upper, and diagonal."));
    band.rows = rows;
    band.cols = cols;
    std::vector<int64_t> out_dims(diag.shape().dim_sizes().begin(),
                                  diag.shape().dim_sizes().end() - (single ? 1 : 2));
    out_dims.push_back(rows);
    out_dims.push_back(cols);
    auto shape = TensorShape::Build(out_dims);
    OP_REQUIRES(ctx, shape.ok(), NodeError(ctx, shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    if (out->NumElements() == 0) return;
    const size_t elem = DataTypeSize(diag.dtype());
    const char* src = static_cast<const char*>(diag.raw_data());
    char* dst = static_cast<char*>(out->raw_data());
    const int64_t batches = out->NumElements() / (rows * cols);
    const int64_t per_batch = band.num_diags() * band.max_len;
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j, dst += elem) {
          const int64_t d = j - i;
          const int64_t p = std::min(i, j) + band.Offset(d);
          if (d >= band.lower && d <= band.upper && p >= 0 && p < band.max_len) {
            std::memcpy(dst, src + (b * per_batch + (band.upper - d) * band.max_len + p) * elem,
                        elem);
          } else {
            Pad(dst, pad, elem);
          }
        }
      }
    }
  }

 private:
  bool v1_;
  Band band_;
};

// ---- MatrixDiagPart ----------------------------------------------------------------------

// Checks the band against [rows, cols] matrices and sets its packed row length.
absl::Status FitBand(OpKernelContext* ctx, Band* band) {
  for (int64_t d : {band->lower, band->upper}) {
    if (!((-band->rows < d && d < band->cols) || d == 0)) {
      return NodeError(ctx, "diagonal index ", d, " is out of bound for matrices of ",
                       band->rows, " rows and ", band->cols, " columns");
    }
  }
  band->max_len = std::min(band->rows + std::min<int64_t>(band->upper, 0),
                           band->cols - std::max<int64_t>(band->lower, 0));
  band->max_len = std::max<int64_t>(band->max_len, 0);
  return absl::OkStatus();
}

class MatrixDiagPartOp final : public OpKernel {
 public:
  explicit MatrixDiagPartOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    v1_ = ctx->num_inputs() == 1;
    OP_REQUIRES_OK(ctx, ReadAlign(ctx, &band_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    Band band = band_;
    const void* pad = nullptr;
    if (!v1_) {
      OP_REQUIRES_OK(ctx, ReadK(ctx, ctx->input(1), &band));
      OP_REQUIRES_OK(ctx, ScalarOf(ctx, ctx->input(2), "padding_value"));
      pad = ctx->input(2).raw_data();
    }
    OP_REQUIRES(ctx, in.dims() >= 2,
                NodeError(ctx, "input must be at least 2-dim, received shape: ",
                          in.shape().DebugString()));
    band.rows = in.dim_size(in.dims() - 2);
    band.cols = in.dim_size(in.dims() - 1);
    OP_REQUIRES_OK(ctx, FitBand(ctx, &band));
    const bool single = band.lower == band.upper;
    std::vector<int64_t> out_dims(in.shape().dim_sizes().begin(),
                                  in.shape().dim_sizes().end() - 2);
    if (!single) out_dims.push_back(band.num_diags());
    out_dims.push_back(band.max_len);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(out_dims), &out));
    if (out->NumElements() == 0) return;
    const size_t elem = DataTypeSize(in.dtype());
    const char* src = static_cast<const char*>(in.raw_data());
    char* dst = static_cast<char*>(out->raw_data());
    const int64_t batches = out->NumElements() / (band.num_diags() * band.max_len);
    for (int64_t b = 0; b < batches; ++b) {
      const char* matrix = src + b * band.rows * band.cols * elem;
      for (int64_t d = band.upper; d >= band.lower; --d) {
        const int64_t offset = band.Offset(d), len = band.Length(d);
        for (int64_t p = 0; p < band.max_len; ++p, dst += elem) {
          const int64_t q = p - offset;
          if (q >= 0 && q < len) {
            int64_t i, j;
            DiagElement(d, q, &i, &j);
            std::memcpy(dst, matrix + (i * band.cols + j) * elem, elem);
          } else {
            Pad(dst, pad, elem);
          }
        }
      }
    }
  }

 private:
  bool v1_;
  Band band_;
};

// ---- MatrixSetDiag -----------------------------------------------------------------------

class MatrixSetDiagOp final : public OpKernel {
 public:
  explicit MatrixSetDiagOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    v1_ = ctx->num_inputs() == 2;
    OP_REQUIRES_OK(ctx, ReadAlign(ctx, &band_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& diag = ctx->input(1);
    Band band = band_;
    if (!v1_) OP_REQUIRES_OK(ctx, ReadK(ctx, ctx->input(2), &band));
    OP_REQUIRES(ctx, in.dims() >= 2,
                NodeError(ctx, "input must be at least 2-dim, received shape: ",
                          in.shape().DebugString()));
    band.rows = in.dim_size(in.dims() - 2);
    band.cols = in.dim_size(in.dims() - 1);
    OP_REQUIRES_OK(ctx, FitBand(ctx, &band));
    const bool single = band.lower == band.upper;
    std::vector<int64_t> want(in.shape().dim_sizes().begin(), in.shape().dim_sizes().end() - 2);
    if (!single) want.push_back(band.num_diags());
    want.push_back(band.max_len);
    OP_REQUIRES(ctx, diag.shape() == TensorShape(want),
                NodeError(ctx, "diagonal must have shape ", TensorShape(want).DebugString(),
                          " for input of shape ", in.shape().DebugString(), ", received ",
                          diag.shape().DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in.shape(), &out));
    if (out->NumElements() == 0) return;
    const size_t elem = DataTypeSize(in.dtype());
    std::memcpy(out->raw_data(), in.raw_data(), out->TotalBytes());
    const char* src = static_cast<const char*>(diag.raw_data());
    char* dst = static_cast<char*>(out->raw_data());
    const int64_t batches = out->NumElements() / (band.rows * band.cols);
    const int64_t per_batch = band.num_diags() * band.max_len;
    for (int64_t b = 0; b < batches; ++b) {
      char* matrix = dst + b * band.rows * band.cols * elem;
      for (int64_t d = band.lower; d <= band.upper; ++d) {
        const int64_t offset = band.Offset(d), len = band.Length(d);
        const char* row = src + (b * per_batch + (band.upper - d) * band.max_len) * elem;
        for (int64_t q = 0; q < len; ++q) {
          int64_t i, j;
          DiagElement(d, q, &i, &j);
          std::memcpy(matrix + (i * band.cols + j) * elem, row + (q + offset) * elem, elem);
        }
      }
    }
  }

 private:
  bool v1_;
  Band band_;
};

// ---- Diag, DiagPart ----------------------------------------------------------------------

class DiagOp final : public OpKernel {
 public:
  explicit DiagOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, in.dims() >= 1,
                NodeError(ctx, "Input must be at least rank 1, got ", in.dims()));
    const int64_t n = in.NumElements();
    int64_t total;
    OP_REQUIRES(ctx, MultiplySizes(n, n, &total),
                NodeError(ctx, "the output of ", n, " x ", n, " elements is too large"));
    std::vector<int64_t> dims(in.shape().dim_sizes().begin(), in.shape().dim_sizes().end());
    dims.insert(dims.end(), in.shape().dim_sizes().begin(), in.shape().dim_sizes().end());
    auto shape = TensorShape::Build(dims);
    OP_REQUIRES(ctx, shape.ok(), NodeError(ctx, shape.status().message()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, *shape, &out));
    if (total == 0) return;
    const size_t elem = DataTypeSize(in.dtype());
    char* dst = static_cast<char*>(out->raw_data());
    std::memset(dst, 0, out->TotalBytes());
    const char* src = static_cast<const char*>(in.raw_data());
    for (int64_t i = 0; i < n; ++i) std::memcpy(dst + (i * n + i) * elem, src + i * elem, elem);
  }
};

class DiagPartOp final : public OpKernel {
 public:
  explicit DiagPartOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const int rank = in.dims();
    OP_REQUIRES(ctx, rank >= 2 && rank % 2 == 0,
                NodeError(ctx, "The rank of the tensor should be even and positive, got shape ",
                          in.shape().DebugString()));
    const int k = rank / 2;
    for (int d = 0; d < k; ++d) {
      OP_REQUIRES(ctx, in.dim_size(d) == in.dim_size(d + k),
                  NodeError(ctx, "Invalid shape ", in.shape().DebugString(), ": dimensions ", d,
                            " and ", d + k, " do not match."));
    }
    std::vector<int64_t> dims(in.shape().dim_sizes().begin(),
                              in.shape().dim_sizes().begin() + k);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(dims), &out));
    const int64_t n = out->NumElements();
    const size_t elem = DataTypeSize(in.dtype());
    const char* src = static_cast<const char*>(in.raw_data());
    char* dst = static_cast<char*>(out->raw_data());
    for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * elem, src + (i * n + i) * elem, elem);
  }
};

// TensorFlow's CPU kernels: every type but string (Diag and DiagPart: the types of their OpDef).
const std::vector<DataType> kDiagTypes = {
    DT_FLOAT, DT_DOUBLE, DT_HALF,   DT_BFLOAT16, DT_INT8,      DT_INT16,      DT_INT32, DT_INT64,
    DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64,   DT_COMPLEX64, DT_COMPLEX128, DT_BOOL};

#define SG_REGISTER_DIAG_(op, kernel) \
  REGISTER_KERNEL_BUILDER(Name(op).Device(DEVICE_CPU).TypeConstraint("T", kDiagTypes), kernel)
SG_REGISTER_DIAG_("MatrixDiag", MatrixDiagOp);
SG_REGISTER_DIAG_("MatrixDiagV2", MatrixDiagOp);
SG_REGISTER_DIAG_("MatrixDiagV3", MatrixDiagOp);
SG_REGISTER_DIAG_("BatchMatrixDiag", MatrixDiagOp);
SG_REGISTER_DIAG_("MatrixDiagPart", MatrixDiagPartOp);
SG_REGISTER_DIAG_("MatrixDiagPartV2", MatrixDiagPartOp);
SG_REGISTER_DIAG_("MatrixDiagPartV3", MatrixDiagPartOp);
SG_REGISTER_DIAG_("BatchMatrixDiagPart", MatrixDiagPartOp);
SG_REGISTER_DIAG_("MatrixSetDiag", MatrixSetDiagOp);
SG_REGISTER_DIAG_("MatrixSetDiagV2", MatrixSetDiagOp);
SG_REGISTER_DIAG_("MatrixSetDiagV3", MatrixSetDiagOp);
SG_REGISTER_DIAG_("BatchMatrixSetDiag", MatrixSetDiagOp);
SG_REGISTER_DIAG_("Diag", DiagOp);
SG_REGISTER_DIAG_("DiagPart", DiagPartOp);
#undef SG_REGISTER_DIAG_

}  // namespace
}  // namespace sg
