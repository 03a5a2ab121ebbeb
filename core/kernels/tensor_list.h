// TensorList: the value a DT_VARIANT scalar holds between TensorFlow's list ops (EmptyTensorList,
// TensorListPushBack, TensorListStack, ...; core/ops/list_ops.cc, core/kernels/list_kernels.cc).
//
// A list is a vector of tensors of one dtype whose shapes fit `element_shape`. An element that
// was reserved (TensorListReserve, TensorListResize, a SetItem past the end) but never set is a
// Tensor of DT_INVALID; reading it gives zeros of the element shape.
//
// Once in a variant a list is never changed while anything else can see it: an op that
// "modifies" a list outputs a new TensorList whose elements share the input's element buffers
// (copying a Tensor copies a pointer, not data). The one exception is invisible: when the op
// holds the only reference to the input tensor and to its list, it takes the list over and
// updates it in place (ClaimOrCopyList in list_kernels.cc), so a loop that pushes n items costs
// O(n), not O(n^2).
//
//   const TensorList* list = t.scalar<Variant>()().get<TensorList>();  // nullptr: not a list
//   if (list != nullptr) n = list->tensors.size();
#ifndef SG_CORE_KERNELS_TENSOR_LIST_H_
#define SG_CORE_KERNELS_TENSOR_LIST_H_

#include <string>
#include <vector>

#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "core/framework/tensor_shape.h"
#include "core/framework/types.h"

namespace sg {

struct TensorList {
  static constexpr const char* kTypeName = "tensorflow::TensorList";

  std::vector<Tensor> tensors;  // DT_INVALID marks an element never set
  DataType element_dtype = DT_INVALID;
  PartialTensorShape element_shape;  // what every element's shape must be compatible with
  int max_num_elements = -1;         // -1: no limit (EmptyTensorList's max_num_elements)

  // "TensorList<element_dtype: float element_shape: [?,3] size: 2>".
  std::string DebugString() const;
};

// Arithmetic on lists, as TensorFlow's variant ZerosLike and AddN (TensorListZerosLike,
// TensorListBinaryAdd), which gradients of list ops sum and start from.
//
// ZerosLikeList: a list of `list`'s length, dtype and element shape whose set elements are zeros
// of their shapes (lists in it recursively); unset elements stay unset. INVALID_ARGUMENT when an
// element holds a variant that is not a list.
absl::Status ZerosLikeList(const TensorList& list, TensorList* out);
// AddLists: element i of the sum is a[i] + b[i] (elementwise, same shape), or whichever of the two
// is set; unset where both are. INVALID_ARGUMENT for lists of other lengths or dtypes, elements of
// other shapes, or an element dtype that cannot be added (bool, string).
absl::Status AddLists(const TensorList& a, const TensorList& b, TensorList* out);

}  // namespace sg

#endif  // SG_CORE_KERNELS_TENSOR_LIST_H_
