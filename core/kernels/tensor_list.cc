#include "core/kernels/tensor_list.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "core/framework/variant.h"

namespace sg {

std::string TensorList::DebugString() const {
  return absl::StrCat("TensorList<element_dtype: ", DataTypeString(element_dtype),
                      " element_shape: ", element_shape.DebugString(), " size: ", tensors.size(),
                      ">");
}

namespace {

template <typename T>
void AddInto(const Tensor& a, const Tensor& b, Tensor* out) {
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  T* po = out->data<T>();
  for (int64_t i = 0; i < a.NumElements(); ++i) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      po[i] = static_cast<T>(static_cast<U>(pa[i]) + static_cast<U>(pb[i]));
    } else {
      po[i] = static_cast<T>(pa[i] + pb[i]);
    }
  }
}

absl::Status AddTensors(const Tensor& a, const Tensor& b, Tensor* out) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
    return errors::InvalidArgument("cannot add list elements of ", DataTypeString(a.dtype()),
                                   a.shape().DebugString(), " and ", DataTypeString(b.dtype()),
                                   b.shape().DebugString());
  }
  *out = Tensor(a.dtype(), a.shape());
  switch (a.dtype()) {
    case DT_FLOAT: AddInto<float>(a, b, out); break;
    case DT_DOUBLE: AddInto<double>(a, b, out); break;
    case DT_HALF: AddInto<half>(a, b, out); break;
    case DT_BFLOAT16: AddInto<bfloat16>(a, b, out); break;
    case DT_COMPLEX64: AddInto<complex64>(a, b, out); break;
    case DT_COMPLEX128: AddInto<complex128>(a, b, out); break;
    case DT_INT32: AddInto<int32_t>(a, b, out); break;
    case DT_INT64: AddInto<int64_t>(a, b, out); break;
    case DT_VARIANT:
      for (int64_t i = 0; i < a.NumElements(); ++i) {
        const TensorList* la = a.data<Variant>()[i].get<TensorList>();
        const TensorList* lb = b.data<Variant>()[i].get<TensorList>();
        if (la == nullptr || lb == nullptr) {
          return errors::InvalidArgument("cannot add list elements holding variants that are not "
                                         "TensorLists");
        }
        TensorList sum;
        SG_RETURN_IF_ERROR(AddLists(*la, *lb, &sum));
        out->data<Variant>()[i] = Variant(std::move(sum));
      }
      break;
    default:
      return errors::InvalidArgument("cannot add list elements of ", DataTypeString(a.dtype()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ZerosLikeList(const TensorList& list, TensorList* out) {
  TensorList zeros;
  zeros.element_dtype = list.element_dtype;
  zeros.element_shape = list.element_shape;
  zeros.max_num_elements = list.max_num_elements;
  zeros.tensors.reserve(list.tensors.size());
  for (const Tensor& t : list.tensors) {
    if (t.dtype() == DT_INVALID) {
      zeros.tensors.emplace_back();
      continue;
    }
    Tensor z(t.dtype(), t.shape());
    if (t.dtype() == DT_VARIANT) {
      for (int64_t i = 0; i < t.NumElements(); ++i) {
        const TensorList* inner = t.data<Variant>()[i].get<TensorList>();
        if (inner == nullptr) {
          return errors::InvalidArgument("ZerosLike of a list holding a variant that is not a "
                                         "TensorList");
        }
        TensorList inner_zeros;
        SG_RETURN_IF_ERROR(ZerosLikeList(*inner, &inner_zeros));
        z.data<Variant>()[i] = Variant(std::move(inner_zeros));
      }
    } else if (DataTypeIsPod(t.dtype()) && z.NumElements() > 0) {
      std::memset(z.raw_data(), 0, z.NumElements() * DataTypeSize(t.dtype()));
    }  // strings are "" already
    zeros.tensors.push_back(std::move(z));
  }
  *out = std::move(zeros);
  return absl::OkStatus();
}

absl::Status AddLists(const TensorList& a, const TensorList& b, TensorList* out) {
  if (a.element_dtype != b.element_dtype) {
    return errors::InvalidArgument("Trying to add two lists of tensors of different dtypes: ",
                                   DataTypeString(a.element_dtype), " and ",
                                   DataTypeString(b.element_dtype));
  }
  if (a.tensors.size() != b.tensors.size()) {
    return errors::InvalidArgument("Trying to add two lists of tensors with different lengths. "
                                   "One is ", a.tensors.size(), " and the other is ",
                                   b.tensors.size());
  }
  TensorList sum;
  sum.element_dtype = a.element_dtype;
  sum.element_shape = a.element_shape;
  sum.max_num_elements = a.max_num_elements;
  sum.tensors.resize(a.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    const Tensor& x = a.tensors[i];
    const Tensor& y = b.tensors[i];
    if (x.dtype() == DT_INVALID) {
      sum.tensors[i] = y;
    } else if (y.dtype() == DT_INVALID) {
      sum.tensors[i] = x;
    } else {
      SG_RETURN_IF_ERROR(AddTensors(x, y, &sum.tensors[i]));
    }
  }
  *out = std::move(sum);
  return absl::OkStatus();
}

}  // namespace sg
