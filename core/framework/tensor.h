// Tensor: a dtype, a shape and a reference-counted, 64-byte aligned buffer.
//
// Copying a Tensor shares the buffer (cheap); DeepCopy() makes an independent one. DT_STRING tensors
// hold std::string elements, DT_RESOURCE tensors ResourceHandles, DT_VARIANT tensors Variants
// (core/framework/variant.h). Eigen views (flat, vec, matrix, tensor) are provided as in TensorFlow.
// Thread safety: a Tensor object is a value; concurrent reads are safe, writes need external locking.
#ifndef SG_CORE_FRAMEWORK_TENSOR_H_
#define SG_CORE_FRAMEWORK_TENSOR_H_

#include <functional>
#include <memory>
#include <string>

#include "core/framework/tensor_shape.h"
#include "core/framework/types.h"
#include "core/proto/tensor.pb.h"

namespace sg {

constexpr size_t kTensorAlignment = 64;

// Owns (or borrows, with a release callback) the bytes of one or more tensors.
class TensorBuffer {
 public:
  using Release = std::function<void(void* data, size_t size)>;
  // Wraps caller memory; `release` runs once when the last tensor lets go.
  TensorBuffer(void* data, size_t size, Release release);
  TensorBuffer(const TensorBuffer&) = delete;
  TensorBuffer& operator=(const TensorBuffer&) = delete;
  ~TensorBuffer();

  // Allocates room for `n` elements of `dt`, aligned to kTensorAlignment; strings, resource
  // handles and variants are constructed empty. Returns nullptr when the memory cannot be had.
  static std::shared_ptr<TensorBuffer> Allocate(DataType dt, int64_t n);

  void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void* data_;
  size_t size_;
  Release release_;
};

template <typename T, int NDIMS = 1>
struct TTypes {
  using Tensor = Eigen::TensorMap<Eigen::Tensor<T, NDIMS, Eigen::RowMajor, Eigen::DenseIndex>,
                                  Eigen::Aligned>;
  using ConstTensor = Eigen::TensorMap<
      Eigen::Tensor<const T, NDIMS, Eigen::RowMajor, Eigen::DenseIndex>, Eigen::Aligned>;
  using Flat = Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor, Eigen::DenseIndex>,
                                Eigen::Aligned>;
  using ConstFlat = Eigen::TensorMap<
      Eigen::Tensor<const T, 1, Eigen::RowMajor, Eigen::DenseIndex>, Eigen::Aligned>;
  using Matrix = Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor, Eigen::DenseIndex>,
                                  Eigen::Aligned>;
  using ConstMatrix = Eigen::TensorMap<
      Eigen::Tensor<const T, 2, Eigen::RowMajor, Eigen::DenseIndex>, Eigen::Aligned>;
};

class Tensor {
 public:
  // An uninitialized tensor of DT_INVALID (IsInitialized() is false).
  Tensor() = default;
  // Allocates a tensor; numeric contents are uninitialized, strings and variants empty. Aborts only if memory
  // cannot be had; use Tensor::Allocate for a status instead.
  Tensor(DataType dtype, const TensorShape& shape);
  // Shares `buffer`, which must hold at least shape.num_elements() elements of dtype.
  Tensor(DataType dtype, const TensorShape& shape, std::shared_ptr<TensorBuffer> buffer);

  // Allocates, or RESOURCE_EXHAUSTED when the memory cannot be had.
  static absl::StatusOr<Tensor> Allocate(DataType dtype, const TensorShape& shape);

  template <typename T>
  static Tensor Scalar(T value) {
    Tensor t(DataTypeToEnum<T>::value, TensorShape());
    t.scalar<T>()() = value;
    return t;
  }
  template <typename T>
  static Tensor Vector(std::initializer_list<T> values) {
    Tensor t(DataTypeToEnum<T>::value, TensorShape({static_cast<int64_t>(values.size())}));
    std::copy(values.begin(), values.end(), t.data<T>());
    return t;
  }

  DataType dtype() const { return dtype_; }
  const TensorShape& shape() const { return shape_; }
  int dims() const { return shape_.dims(); }
  int64_t dim_size(int d) const { return shape_.dim_size(d); }
  int64_t NumElements() const { return shape_.num_elements(); }
  bool IsInitialized() const { return dtype_ != DT_INVALID && (buf_ || NumElements() == 0); }
  // Bytes of the elements (for strings and variants: the element objects, not what they hold).
  size_t TotalBytes() const;
  // Bytes a serialization would need: for strings, the sum of the string lengths.
  size_t AllocatedBytes() const;

  // The elements. A const Tensor gives read-only views (as TensorFlow's ConstFlat and friends):
  // tensors share buffers, so writing through one that a kernel was given as input would change
  // every tensor sharing it. Write only into tensors you allocated, or whose RefCountIsOne().
  void* raw_data() { return buf_ ? buf_->data() : nullptr; }
  const void* raw_data() const { return buf_ ? buf_->data() : nullptr; }
  template <typename T>
  T* data() {
    return static_cast<T*>(raw_data());
  }
  template <typename T>
  const T* data() const {
    return static_cast<const T*>(raw_data());
  }
  const std::shared_ptr<TensorBuffer>& buffer() const { return buf_; }
  bool SharesBufferWith(const Tensor& other) const { return buf_ && buf_ == other.buf_; }
  // True when no other Tensor shares the buffer, so writing in place is safe.
  bool RefCountIsOne() const { return buf_ && buf_.use_count() == 1; }

  template <typename T>
  typename TTypes<T>::Flat flat() {
    return typename TTypes<T>::Flat(data<T>(), NumElements());
  }
  template <typename T>
  typename TTypes<T>::ConstFlat flat() const {
    return typename TTypes<T>::ConstFlat(data<T>(), NumElements());
  }
  template <typename T>
  typename TTypes<T>::Flat vec() {
    return flat<T>();
  }
  template <typename T>
  typename TTypes<T>::ConstFlat vec() const {
    return flat<T>();
  }
  template <typename T>
  typename TTypes<T, 0>::Tensor scalar() {
    return typename TTypes<T, 0>::Tensor(data<T>());
  }
  template <typename T>
  typename TTypes<T, 0>::ConstTensor scalar() const {
    return typename TTypes<T, 0>::ConstTensor(data<T>());
  }
  template <typename T>
  typename TTypes<T>::Matrix matrix() {
    return typename TTypes<T>::Matrix(data<T>(), dim_size(0), dim_size(1));
  }
  template <typename T>
  typename TTypes<T>::ConstMatrix matrix() const {
    return typename TTypes<T>::ConstMatrix(data<T>(), dim_size(0), dim_size(1));
  }
  template <typename T, int N>
  typename TTypes<T, N>::Tensor tensor() {
    return typename TTypes<T, N>::Tensor(data<T>(), Dims<N>());
  }
  template <typename T, int N>
  typename TTypes<T, N>::ConstTensor tensor() const {
    return typename TTypes<T, N>::ConstTensor(data<T>(), Dims<N>());
  }
  // A view with N dims: the last N-1 dims kept, all leading dims folded into the first; a
  // tensor of lower rank gets leading dims of 1.
  template <typename T, int N>
  typename TTypes<T, N>::Tensor flat_inner_dims() {
    return typename TTypes<T, N>::Tensor(data<T>(), InnerDims<N>());
  }
  template <typename T, int N>
  typename TTypes<T, N>::ConstTensor flat_inner_dims() const {
    return typename TTypes<T, N>::ConstTensor(data<T>(), InnerDims<N>());
  }
  template <typename T, int N>
  typename TTypes<T, N>::Tensor shaped(absl::Span<const int64_t> dims) {
    return typename TTypes<T, N>::Tensor(data<T>(), ShapedDims<N>(dims));
  }
  template <typename T, int N>
  typename TTypes<T, N>::ConstTensor shaped(absl::Span<const int64_t> dims) const {
    return typename TTypes<T, N>::ConstTensor(data<T>(), ShapedDims<N>(dims));
  }

  // Makes this tensor share `other`'s buffer under `shape`; false if element counts differ.
  bool CopyFrom(const Tensor& other, const TensorShape& shape);
  // A tensor with its own buffer and the same contents. Variant elements are copied as Variants,
  // so the copy shares their (immutable) values.
  Tensor DeepCopy() const;

  // Decodes a TensorProto: tensor_content or the typed *_val fields, a short *_val list repeating
  // its last value (as TensorFlow does). INVALID_ARGUMENT when the proto does not fit.
  static absl::StatusOr<Tensor> FromProto(const TensorProto& proto);
  // Encodes with tensor_content for numeric types and string_val for strings. Resource and
  // variant elements cannot be encoded: only the dtype and shape are written, which FromProto
  // refuses.
  void AsProtoTensorContent(TensorProto* proto) const;
  // Encodes with the typed *_val fields.
  void AsProtoField(TensorProto* proto) const;

  // "Tensor<type: float shape: [2] values: 1 2>"; at most `max_entries` values.
  std::string DebugString(int max_entries = 6) const;
  std::string SummarizeValue(int max_entries) const;

 private:
  template <int N>
  Eigen::array<Eigen::DenseIndex, N> Dims() const {
    Eigen::array<Eigen::DenseIndex, N> d;
    for (int i = 0; i < N; ++i) d[i] = dim_size(i);
    return d;
  }
  template <int N>
  Eigen::array<Eigen::DenseIndex, N> InnerDims() const {
    Eigen::array<Eigen::DenseIndex, N> d;
    const int r = dims();
    for (int i = 0; i < N; ++i) d[i] = 1;
    for (int k = 0; k < N - 1 && k < r; ++k) d[N - 1 - k] = dim_size(r - 1 - k);
    if (r >= N) {
      int64_t outer = 1;
      for (int i = 0; i <= r - N; ++i) outer *= dim_size(i);
      d[0] = outer;
    }
    return d;
  }
  template <int N>
  static Eigen::array<Eigen::DenseIndex, N> ShapedDims(absl::Span<const int64_t> dims) {
    Eigen::array<Eigen::DenseIndex, N> d;
    for (int i = 0; i < N; ++i) d[i] = dims[i];
    return d;
  }

  DataType dtype_ = DT_INVALID;
  TensorShape shape_;
  std::shared_ptr<TensorBuffer> buf_;
};

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_TENSOR_H_
