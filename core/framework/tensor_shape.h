// TensorShape: the fully known shape of a tensor (row-major, dim 0 outermost).
// PartialTensorShape: a shape as graph construction knows it: unknown rank, or dims of -1.
#ifndef SG_CORE_FRAMEWORK_TENSOR_SHAPE_H_
#define SG_CORE_FRAMEWORK_TENSOR_SHAPE_H_

#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "core/framework/status.h"
#include "core/proto/tensor_shape.pb.h"

namespace sg {

// Largest element count a tensor may have: 2^62, so byte sizes never overflow int64.
constexpr int64_t kMaxTensorElements = int64_t{1} << 62;
constexpr int kMaxTensorRank = 254;

class TensorShape {
 public:
  TensorShape() = default;  // a scalar
  TensorShape(std::initializer_list<int64_t> dims);
  explicit TensorShape(absl::Span<const int64_t> dims);

  // Checked construction: every dim >= 0, rank <= 254, element count <= 2^62.
  static absl::StatusOr<TensorShape> Build(absl::Span<const int64_t> dims);
  static absl::StatusOr<TensorShape> FromProto(const TensorShapeProto& proto);

  int dims() const { return static_cast<int>(dims_.size()); }
  int64_t dim_size(int d) const { return dims_[d]; }
  int64_t num_elements() const { return num_elements_; }
  absl::Span<const int64_t> dim_sizes() const { return dims_; }

  void AddDim(int64_t size);
  void InsertDim(int d, int64_t size);
  void RemoveDim(int d);
  void set_dim(int d, int64_t size);

  bool IsSameSize(const TensorShape& other) const { return dims_ == other.dims_; }
  bool operator==(const TensorShape& other) const { return dims_ == other.dims_; }
  bool operator!=(const TensorShape& other) const { return dims_ != other.dims_; }

  void AsProto(TensorShapeProto* proto) const;
  std::string DebugString() const;  // "[2,3]"

 private:
  void Recount();
  absl::InlinedVector<int64_t, 4> dims_;
  int64_t num_elements_ = 1;
};

class PartialTensorShape {
 public:
  PartialTensorShape() = default;  // unknown rank
  explicit PartialTensorShape(absl::Span<const int64_t> dims);  // -1 marks an unknown dim
  PartialTensorShape(std::initializer_list<int64_t> dims)
      : PartialTensorShape(absl::Span<const int64_t>(dims.begin(), dims.size())) {}
  PartialTensorShape(const TensorShape& shape);                 // NOLINT: fully known
  static PartialTensorShape Scalar() { return PartialTensorShape(absl::Span<const int64_t>()); }
  static absl::StatusOr<PartialTensorShape> FromProto(const TensorShapeProto& proto);

  bool unknown_rank() const { return unknown_rank_; }
  int dims() const { return unknown_rank_ ? -1 : static_cast<int>(dims_.size()); }
  int64_t dim_size(int d) const { return dims_[d]; }
  absl::Span<const int64_t> dim_sizes() const { return dims_; }
  bool IsFullyDefined() const;
  // Element count, or -1 when any dim or the rank is unknown.
  int64_t num_elements() const;

  // Whether some fully defined shape agrees with both.
  bool IsCompatibleWith(const PartialTensorShape& other) const;
  bool IsCompatibleWith(const TensorShape& shape) const {
    return IsCompatibleWith(PartialTensorShape(shape));
  }
  // The most specific shape compatible with both, or INVALID_ARGUMENT.
  absl::StatusOr<PartialTensorShape> Merge(const PartialTensorShape& other) const;
  bool AsTensorShape(TensorShape* shape) const;

  void AsProto(TensorShapeProto* proto) const;
  std::string DebugString() const;  // "<unknown>", "[?,3]"
  bool operator==(const PartialTensorShape& o) const {
    return unknown_rank_ == o.unknown_rank_ && dims_ == o.dims_;
  }

 private:
  bool unknown_rank_ = true;
  absl::InlinedVector<int64_t, 4> dims_;
};

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_TENSOR_SHAPE_H_
