#include "core/framework/tensor_shape.h"

#include "absl/strings/str_join.h"

namespace sg {

TensorShape::TensorShape(std::initializer_list<int64_t> dims) : dims_(dims) { Recount(); }
TensorShape::TensorShape(absl::Span<const int64_t> dims) : dims_(dims.begin(), dims.end()) {
  Recount();
}

absl::StatusOr<TensorShape> TensorShape::Build(absl::Span<const int64_t> dims) {
  if (dims.size() > static_cast<size_t>(kMaxTensorRank)) {
    return errors::InvalidArgument("shape has rank ", dims.size(), ", more than ",
                                   kMaxTensorRank);
  }
  int64_t n = 1;
  bool zero = false;
  for (int64_t d : dims) {
    if (d < 0) {
      return errors::InvalidArgument("shape [", absl::StrJoin(dims, ","),
                                     "] has a negative dimension");
    }
    if (d == 0) zero = true;
    if (!zero && d != 0 && n > kMaxTensorElements / d) {
      return errors::InvalidArgument("shape [", absl::StrJoin(dims, ","),
                                     "] has more than 2^62 elements");
    }
    if (!zero) n *= d;
  }
  return TensorShape(dims);
}

absl::StatusOr<TensorShape> TensorShape::FromProto(const TensorShapeProto& proto) {
  if (proto.unknown_rank()) {
    return errors::InvalidArgument("a tensor's shape must be known; got unknown rank");
  }
  absl::InlinedVector<int64_t, 4> dims;
  for (const auto& d : proto.dim()) dims.push_back(d.size());
  return Build(dims);
}

void TensorShape::Recount() {
  num_elements_ = 1;
  for (int64_t d : dims_) num_elements_ *= d;
}
void TensorShape::AddDim(int64_t size) {
  dims_.push_back(size);
  num_elements_ *= size;
}
void TensorShape::InsertDim(int d, int64_t size) {
  dims_.insert(dims_.begin() + d, size);
  Recount();
}
void TensorShape::RemoveDim(int d) {
  dims_.erase(dims_.begin() + d);
  Recount();
}
void TensorShape::set_dim(int d, int64_t size) {
  dims_[d] = size;
  Recount();
}
void TensorShape::AsProto(TensorShapeProto* proto) const {
  proto->Clear();
  for (int64_t d : dims_) proto->add_dim()->set_size(d);
}
std::string TensorShape::DebugString() const {
  return absl::StrCat("[", absl::StrJoin(dims_, ","), "]");
}

PartialTensorShape::PartialTensorShape(absl::Span<const int64_t> dims)
    : unknown_rank_(false), dims_(dims.begin(), dims.end()) {
  for (auto& d : dims_) {
    if (d < -1) d = -1;
  }
}
PartialTensorShape::PartialTensorShape(const TensorShape& shape)
    : unknown_rank_(false), dims_(shape.dim_sizes().begin(), shape.dim_sizes().end()) {}

absl::StatusOr<PartialTensorShape> PartialTensorShape::FromProto(const TensorShapeProto& proto) {
  if (proto.unknown_rank()) {
    if (proto.dim_size() > 0) {
      return errors::InvalidArgument("a shape with unknown rank must have no dims");
    }
    return PartialTensorShape();
  }
  absl::InlinedVector<int64_t, 4> dims;
  for (const auto& d : proto.dim()) {
    if (d.size() < -1) return errors::InvalidArgument("shape has dimension ", d.size());
    dims.push_back(d.size());
  }
  return PartialTensorShape(dims);
}

bool PartialTensorShape::IsFullyDefined() const {
  if (unknown_rank_) return false;
  for (int64_t d : dims_) {
    if (d < 0) return false;
  }
  return true;
}
int64_t PartialTensorShape::num_elements() const {
  if (!IsFullyDefined()) return -1;
  int64_t n = 1;
  for (int64_t d : dims_) n *= d;
  return n;
}
bool PartialTensorShape::IsCompatibleWith(const PartialTensorShape& other) const {
  if (unknown_rank_ || other.unknown_rank_) return true;
  if (dims_.size() != other.dims_.size()) return false;
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (dims_[i] >= 0 && other.dims_[i] >= 0 && dims_[i] != other.dims_[i]) return false;
  }
  return true;
}
absl::StatusOr<PartialTensorShape> PartialTensorShape::Merge(
    const PartialTensorShape& other) const {
  if (!IsCompatibleWith(other)) {
    return errors::InvalidArgument("shapes ", DebugString(), " and ", other.DebugString(),
                                   " are incompatible");
  }
  if (unknown_rank_) return other;
  if (other.unknown_rank_) return *this;
  PartialTensorShape out = *this;
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (out.dims_[i] < 0) out.dims_[i] = other.dims_[i];
  }
  return out;
}
bool PartialTensorShape::AsTensorShape(TensorShape* shape) const {
  if (!IsFullyDefined()) return false;
  *shape = TensorShape(dims_);
  return true;
}
void PartialTensorShape::AsProto(TensorShapeProto* proto) const {
  proto->Clear();
  if (unknown_rank_) {
    proto->set_unknown_rank(true);
    return;
  }
  for (int64_t d : dims_) proto->add_dim()->set_size(d);
}
std::string PartialTensorShape::DebugString() const {
  if (unknown_rank_) return "<unknown>";
  std::string s = "[";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) s += ",";
    s += dims_[i] < 0 ? "?" : std::to_string(dims_[i]);
  }
  return s + "]";
}

}  // namespace sg
