// SparseCross, SparseCrossV2 and SparseCrossHashed, as TensorFlow's CPU kernels.
//
// Columns are the N sparse inputs in order, then the dense ones. Batch row b of a sparse column
// holds the values whose first index is b, taken in input order (TensorFlow counts the entries of
// each row and reads the values in that many consecutive runs, so the indices are expected to be
// sorted by row); row b of a dense [batch, k] column holds its k values. The crosses of row b are
// every combination of one feature per column, the last column varying fastest; a row with an
// empty column has none. Output: indices (b, j) for the j-th cross of row b, the crosses, and the
// dense shape [batch, most crosses of a row].
//
// A cross is a string (features joined by a separator, int64s in decimal), or a hash:
//   SparseCross with out_type int64:  h = hash_key; h = FingerprintCat64(h, f) for each feature,
//   SparseCrossHashed:                h = f_0;      h = FingerprintCat64(h, f_i) for i >= 1,
// where f is a string's Fingerprint64 (SparseCrossHashed with strong_hash: its SipHash-2-4 keyed
// by salt) or an int64 itself (in SparseCrossHashed's sparse columns: the Fingerprint64 of its low
// four bytes, as TensorFlow's), and the output is h % num_buckets (h % INT64_MAX when 0).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/util/fingerprint.h"

namespace sg {
namespace {

// SipHash-2-4 (Aumasson and Bernstein) of `s` under the 128-bit key (k0, k1): TensorFlow's
// StrongKeyedHash.
uint64_t SipHash24(uint64_t k0, uint64_t k1, const std::string& s) {
  uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL;
  uint64_t v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
  auto rotl = [](uint64_t x, int b) { return (x << b) | (x >> (64 - b)); };
  auto round = [&] {
    v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);
    v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;
    v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;
    v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);
  };
  const size_t n = s.size();
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
  auto load = [](const unsigned char* q, size_t len) {  // little-endian, len <= 8
    uint64_t m = 0;
    for (size_t i = 0; i < len; ++i) m |= static_cast<uint64_t>(q[i]) << (8 * i);
    return m;
  };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t m = load(p + i, 8);
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  const uint64_t last = (static_cast<uint64_t>(n & 0xff) << 56) | load(p + i, n - i);
  v3 ^= last;
  round();
  round();
  v0 ^= last;
  v2 ^= 0xff;
  for (int r = 0; r < 4; ++r) round();
  return v0 ^ v1 ^ v2 ^ v3;
}

// One input column: a sparse one (values, and each row's first value and count) or a dense one.
struct Column {
  const Tensor* values;
  std::vector<int64_t> start, count;  // sparse only
  int64_t width = -1;                 // dense only: values per row

  int64_t Count(int64_t b) const { return width >= 0 ? width : count[b]; }
  int64_t Index(int64_t b, int64_t n) const { return width >= 0 ? b * width + n : start[b] + n; }
  bool IsString() const { return values->dtype() == DT_STRING; }
  std::string Str(int64_t b, int64_t n) const {
    const int64_t i = Index(b, n);
    return IsString() ? values->data<tstring>()[i] : std::to_string(values->data<int64_t>()[i]);
  }
  // `v2`: SparseCrossHashed, whose sparse int64 features hash as the Fingerprint64 of their low
  // four bytes (little-endian), as TensorFlow's kernel computes them; dense ones stay as is.
  uint64_t Hash(int64_t b, int64_t n, bool v2) const {
    const int64_t i = Index(b, n);
    if (IsString()) return Fingerprint64(values->data<tstring>()[i]);
    const uint64_t v = static_cast<uint64_t>(values->data<int64_t>()[i]);
    if (!v2 || width >= 0) return v;
    const char low[4] = {static_cast<char>(v & 0xff), static_cast<char>((v >> 8) & 0xff),
                         static_cast<char>((v >> 16) & 0xff), static_cast<char>((v >> 24) & 0xff)};
    return Fingerprint64(absl::string_view(low, 4));
  }
};

enum class Mode { kString, kHashV1, kHashV2 };

class SparseCrossOp final : public OpKernel {
 public:
  explicit SparseCrossOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("N", &n_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("sparse_types", &sparse_types_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dense_types", &dense_types_));
    if (type_string() == "SparseCross") {
      DataType out_type;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("out_type", &out_type));
      OP_REQUIRES_OK(ctx, ctx->GetAttr("internal_type", &internal_type_));
      mode_ = out_type == DT_INT64 ? Mode::kHashV1 : Mode::kString;
      if (mode_ == Mode::kHashV1) {
        int64_t buckets;
        OP_REQUIRES_OK(ctx, ctx->GetAttr("num_buckets", &buckets));
        OP_REQUIRES_OK(ctx, ctx->GetAttr("hash_key", &hash_key_));
        num_buckets_ = static_cast<uint64_t>(buckets);
      }
    } else {
      mode_ = type_string() == "SparseCrossHashed" ? Mode::kHashV2 : Mode::kString;
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const int n = static_cast<int>(n_);
    const int nd = static_cast<int>(dense_types_.size());
    const int dense0 = 3 * n;  // inputs: indices[n], values[n], shapes[n], dense[nd], extras
    std::string sep = "_X_";
    bool strong = false;
    uint64_t salt[2] = {0, 0};
    if (type_string() == "SparseCrossV2") {
      const Tensor& s = ctx->input(dense0 + nd);
      OP_REQUIRES(ctx, s.dims() == 0,
                  KernelError(*this, "sep must be a scalar, got shape ", s.shape().DebugString()));
      sep = s.data<tstring>()[0];
    } else if (mode_ == Mode::kHashV2) {
      const Tensor& buckets = ctx->input(dense0 + nd);
      const Tensor& strong_t = ctx->input(dense0 + nd + 1);
      const Tensor& salt_t = ctx->input(dense0 + nd + 2);
      OP_REQUIRES(ctx, buckets.NumElements() == 1,
                  KernelError(*this, "num_buckets must be a scalar"));
      OP_REQUIRES(ctx, buckets.data<int64_t>()[0] >= 0,
                  KernelError(*this, "num_buckets must be non-negative, got ",
                              buckets.data<int64_t>()[0]));
      OP_REQUIRES(ctx, strong_t.NumElements() == 1,
                  KernelError(*this, "strong_hash must be a scalar"));
      num_buckets_ = static_cast<uint64_t>(buckets.data<int64_t>()[0]);
      strong = strong_t.data<bool>()[0];
      if (strong) {
        OP_REQUIRES(ctx, salt_t.NumElements() == 2,
                    KernelError(*this, "salt must hold 2 values for strong_hash, got shape ",
                                salt_t.shape().DebugString()));
        salt[0] = static_cast<uint64_t>(salt_t.data<int64_t>()[0]);
        salt[1] = static_cast<uint64_t>(salt_t.data<int64_t>()[1]);
      }
    }

    // The batch size: the first sparse column's shape[0], else the first dense column's rows.
    int64_t batch = 0;
    for (int i = 0; i < n; ++i) {
      const Tensor& indices = ctx->input(i);
      const Tensor& values = ctx->input(n + i);
      const Tensor& shape = ctx->input(2 * n + i);
      OP_REQUIRES(ctx, indices.dims() == 2 && indices.dim_size(1) == 2,
                  KernelError(*this, "Input indices should be a matrix of 2 columns but "
                                     "received shape ",
                              indices.shape().DebugString(), " at position ", i));
      OP_REQUIRES(ctx, values.dims() == 1 && values.dim_size(0) == indices.dim_size(0),
                  KernelError(*this, "Expected values to be a vector of ", indices.dim_size(0),
                              " values, got shape ", values.shape().DebugString(),
                              " at position ", i));
      OP_REQUIRES(ctx, shape.dims() == 1 && shape.NumElements() == 2,
                  KernelError(*this, "Expected shape to be a vector of 2 dimensions, got shape ",
                              shape.shape().DebugString(), " at position ", i));
      if (i == 0) batch = shape.data<int64_t>()[0];
      OP_REQUIRES(ctx, shape.data<int64_t>()[0] == batch,
                  KernelError(*this, "Expected batch size ", batch, " got ",
                              shape.data<int64_t>()[0], " at position ", i));
    }
    for (int i = 0; i < nd; ++i) {
      const Tensor& dense = ctx->input(dense0 + i);
      OP_REQUIRES(ctx, dense.dims() == 2,
                  KernelError(*this, "Dense inputs should be a matrix but received shape ",
                              dense.shape().DebugString(), " at position ", i));
      if (n == 0 && i == 0) batch = dense.dim_size(0);
      OP_REQUIRES(ctx, dense.dim_size(0) == batch,
                  KernelError(*this, "Expected batch size ", batch, " got ", dense.dim_size(0),
                              " at dense tensor ", i));
    }
    OP_REQUIRES(ctx, batch >= 0, KernelError(*this, "Batch size ", batch, " is negative"));
    // SparseCross with internal_type string takes string columns only, as TensorFlow's kernel.
    if (type_string() == "SparseCross" && internal_type_ == DT_STRING) {
      for (int i = 0; i < n + nd; ++i) {
        const DataType dt = i < n ? sparse_types_[i] : dense_types_[i - n];
        OP_REQUIRES(ctx, dt == DT_STRING,
                    KernelError(*this, i < n ? "Sparse" : "Dense", " inputs should be of "
                                "internal type string but received ", DataTypeString(dt)));
      }
    }

    std::vector<Column> columns(n + nd);
    for (int i = 0; i < n; ++i) {
      Column& c = columns[i];
      c.values = &ctx->input(n + i);
      // A batch size too large to hold fails here as an allocation error, not below.
      OP_REQUIRES_OK(ctx, Tensor::Allocate(DT_INT64, TensorShape({batch})).status());
      c.count.assign(batch, 0);
      c.start.assign(batch, 0);
      const Tensor& indices = ctx->input(i);
      const int64_t* ix = indices.data<int64_t>();
      for (int64_t k = 0; k < indices.dim_size(0); ++k) {
        OP_REQUIRES(ctx, ix[2 * k] >= 0 && ix[2 * k] < batch,
                    KernelError(*this, "indices[", k, ", 0] = ", ix[2 * k], " of sparse input ",
                                i, " is not in [0, ", batch, ")"));
        ++c.count[ix[2 * k]];
      }
      for (int64_t b = 1; b < batch; ++b) c.start[b] = c.start[b - 1] + c.count[b - 1];
    }
    for (int i = 0; i < nd; ++i) {
      columns[n + i].values = &ctx->input(dense0 + i);
      columns[n + i].width = ctx->input(dense0 + i).dim_size(1);
    }
    for (const Column& c : columns) {
      OP_REQUIRES(ctx, !strong || c.IsString(),
                  KernelError(*this, "strong_hash takes string columns only"));
    }

    // Crosses per row, then the outputs.
    std::vector<int64_t> crosses(batch, 1);
    int64_t total = 0, widest = 0;
    for (int64_t b = 0; b < batch; ++b) {
      for (const Column& c : columns) {
        const int64_t k = c.Count(b);
        OP_REQUIRES(ctx, k == 0 || crosses[b] <= std::numeric_limits<int64_t>::max() / k,
                    KernelError(*this, "too many crosses in batch row ", b));
        crosses[b] *= k;
      }
      OP_REQUIRES(ctx, total <= std::numeric_limits<int64_t>::max() - crosses[b],
                  KernelError(*this, "too many crosses"));
      total += crosses[b];
      widest = std::max(widest, crosses[b]);
    }
    Tensor *indices, *values, *shape;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({total, 2}), &indices));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({total}), &values));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({2}), &shape));
    shape->data<int64_t>()[0] = batch;
    shape->data<int64_t>()[1] = widest;
    int64_t* ix = indices->data<int64_t>();
    const uint64_t modulus =
        num_buckets_ > 0 ? num_buckets_ : static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    int64_t at = 0;
    std::vector<int64_t> pick(columns.size());
    for (int64_t b = 0; b < batch; ++b) {
      std::fill(pick.begin(), pick.end(), 0);
      for (int64_t j = 0; j < crosses[b]; ++j, ++at) {
        ix[2 * at] = b;
        ix[2 * at + 1] = j;
        if (mode_ == Mode::kString) {
          std::string s;
          for (size_t c = 0; c < columns.size(); ++c) {
            if (c > 0) s += sep;
            s += columns[c].Str(b, pick[c]);
          }
          values->data<tstring>()[at] = std::move(s);
        } else {
          uint64_t h = static_cast<uint64_t>(hash_key_);
          for (size_t c = 0; c < columns.size(); ++c) {
            const uint64_t f = strong ? SipHash24(salt[0], salt[1], columns[c].Str(b, pick[c]))
                                      : columns[c].Hash(b, pick[c], mode_ == Mode::kHashV2);
            h = (mode_ == Mode::kHashV2 && c == 0) ? f : FingerprintCat64(h, f);
          }
          values->data<int64_t>()[at] = static_cast<int64_t>(h % modulus);
        }
        // Next combination: the last column fastest.
        for (int c = static_cast<int>(columns.size()) - 1; c >= 0; --c) {
          if (++pick[c] < columns[c].Count(b)) break;
          pick[c] = 0;
        }
      }
    }
  }

 private:
  int64_t n_;
  std::vector<DataType> sparse_types_, dense_types_;
  DataType internal_type_ = DT_INT64;
  Mode mode_;
  uint64_t num_buckets_ = 0;
  int64_t hash_key_ = 0;
};
REGISTER_KERNEL_BUILDER(Name("SparseCross").Device(DEVICE_CPU), SparseCrossOp);
REGISTER_KERNEL_BUILDER(Name("SparseCrossV2").Device(DEVICE_CPU), SparseCrossOp);
REGISTER_KERNEL_BUILDER(Name("SparseCrossHashed").Device(DEVICE_CPU), SparseCrossOp);

}  // namespace
}  // namespace sg
