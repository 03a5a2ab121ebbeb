#include "core/kernels/tensor_list.h"

#include "absl/strings/str_cat.h"

namespace sg {

std::string TensorList::DebugString() const {
  return absl::StrCat("TensorList<element_dtype: ", DataTypeString(element_dtype),
                      " element_shape: ", element_shape.DebugString(), " size: ", tensors.size(),
                      ">");
}

}  // namespace sg
