// Tensor's element views: a const Tensor gives read-only views (as TensorFlow's ConstFlat and
// friends), since tensors share buffers and a kernel writing through its input would change every
// tensor sharing it; a non-const Tensor gives writable ones over the same memory.
#include "core/framework/tensor.h"

#include <type_traits>
#include <utility>

#include <gtest/gtest.h>

namespace sg {
namespace {

template <typename T>
using Element = std::remove_reference_t<decltype(std::declval<T>()(0))>;

// Before views were split, each of these handed out T* or a writable map from a const Tensor.
static_assert(std::is_same_v<decltype(std::declval<const Tensor&>().data<float>()), const float*>);
static_assert(std::is_same_v<decltype(std::declval<const Tensor&>().raw_data()), const void*>);
static_assert(std::is_same_v<decltype(std::declval<const Tensor&>().flat<float>()),
                             TTypes<float>::ConstFlat>);
static_assert(std::is_same_v<decltype(std::declval<const Tensor&>().vec<float>()),
                             TTypes<float>::ConstFlat>);
static_assert(std::is_same_v<decltype(std::declval<const Tensor&>().matrix<float>()),
                             TTypes<float>::ConstMatrix>);
static_assert(std::is_same_v<decltype(std::declval<const Tensor&>().scalar<float>()),
                             TTypes<float, 0>::ConstTensor>);
static_assert(std::is_same_v<decltype(std::declval<const Tensor&>().tensor<float, 3>()),
                             TTypes<float, 3>::ConstTensor>);
static_assert(std::is_same_v<decltype(std::declval<const Tensor&>().flat_inner_dims<float, 2>()),
                             TTypes<float, 2>::ConstTensor>);
static_assert(std::is_const_v<Element<TTypes<float>::ConstFlat>>);
// Non-const tensors stay writable.
static_assert(std::is_same_v<decltype(std::declval<Tensor&>().data<float>()), float*>);
static_assert(std::is_same_v<decltype(std::declval<Tensor&>().flat<float>()), TTypes<float>::Flat>);
static_assert(!std::is_const_v<Element<TTypes<float>::Flat>>);

TEST(Tensor, ConstAndWritableViewsSeeTheSameElements) {
  Tensor t(DT_FLOAT, TensorShape({2, 3}));
  for (int i = 0; i < 6; ++i) t.data<float>()[i] = static_cast<float>(i);
  const Tensor& c = t;
  EXPECT_EQ(c.data<float>(), t.data<float>());
  EXPECT_EQ(c.flat<float>()(4), 4.0f);
  EXPECT_EQ(c.matrix<float>()(1, 2), 5.0f);
  EXPECT_EQ((c.flat_inner_dims<float, 2>()(1, 0)), 3.0f);
  t.matrix<float>()(0, 1) = 10.0f;
  EXPECT_EQ(c.flat<float>()(1), 10.0f);
  // A copy shares the buffer: writing through it is seen by both, which is why kernels get their
  // inputs const and write only into tensors they own (OpKernelContext::input_if_unique).
  Tensor shared = t;
  EXPECT_TRUE(shared.SharesBufferWith(t));
  EXPECT_FALSE(t.RefCountIsOne());
  shared.flat<float>()(0) = -1.0f;
  EXPECT_EQ(c.flat<float>()(0), -1.0f);
}

}  // namespace
}  // namespace sg
