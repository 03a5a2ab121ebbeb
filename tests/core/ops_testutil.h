// Test helpers that run one op's kernel on given inputs, outside any graph or executor.
#ifndef SG_TESTS_CORE_OPS_TESTUTIL_H_
#define SG_TESTS_CORE_OPS_TESTUTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "core/framework/attr_value_util.h"
#include "core/framework/device.h"
#include "core/framework/op_kernel.h"
#include "core/framework/tensor.h"

namespace sg {
namespace test {

// Builds a NodeDef for `op` named "test_node" with attrs, e.g.
//   NodeDefFor("MatMul", {{"T", DT_FLOAT}, {"transpose_a", true}})
struct AttrArg {
  std::string name;
  AttrValue value;
  template <typename T>
  AttrArg(std::string n, const T& v) : name(std::move(n)) {
    SetAttrValue(v, &value);
  }
  AttrArg(std::string n, std::initializer_list<int64_t> v) : name(std::move(n)) {
    SetAttrValue(absl::Span<const int64_t>(v.begin(), v.size()), &value);
  }
};
NodeDef NodeDefFor(const std::string& op, std::vector<AttrArg> attrs, int num_inputs = 0);

// Runs the kernel of `node` (defaults from its OpDef added, then validated) on `inputs`.
// Also runs the op's shape function with the inputs' shapes (and values as constants) and
// returns INTERNAL if an output's shape contradicts what the shape function said.
absl::StatusOr<std::vector<Tensor>> RunKernel(const NodeDef& node,
                                              const std::vector<Tensor>& inputs);

// Shorthand: a float/int tensor of `shape` from values.
template <typename T>
Tensor MakeTensor(std::vector<int64_t> shape, std::vector<T> values) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape(shape));
  std::copy(values.begin(), values.end(), t.data<T>());
  return t;
}
template <typename T>
std::vector<T> Values(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.NumElements());
}

// A process-wide CPU device with a 2-thread intra-op pool, for kernel tests.
Device* TestDevice();

}  // namespace test
}  // namespace sg

#endif  // SG_TESTS_CORE_OPS_TESTUTIL_H_
