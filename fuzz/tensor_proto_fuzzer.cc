// Fuzz target: a TensorProto (binary proto) made into a Tensor, and back.
//
// Tensor::FromProto must accept or refuse any proto without crashing (a tensor_content that
// does not fit the shape, repeated values fewer or more than the elements, negative or huge
// dims, strings, variants, resources). A tensor it accepts must survive both encodings:
// AsProtoTensorContent and AsProtoField each give a proto that FromProto reads back to the same
// dtype, shape and content (resource and variant tensors excepted: their elements have no
// encoding, tensor.h says).
//
// A few bytes can declare a tensor of up to the allocator's limit (a shape and one value that
// fills it, as TensorFlow reads such protos), and the round trips hold four copies of it at once:
// over libFuzzer's memory limit for a 1 GiB tensor. Tensors over kMaxRoundTripBytes are made and
// printed but not round-tripped.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/framework/tensor.h"
#include "core/proto/tensor.pb.h"

namespace sg {
namespace {

constexpr size_t kMaxRoundTripBytes = size_t{64} << 20;

// Aborts (a finding) when `t` does not come back from `proto` as it was.
void CheckRoundTrip(const Tensor& t, const TensorProto& proto, const char* encoding) {
  auto back = Tensor::FromProto(proto);
  if (!back.ok()) {
    std::fprintf(stderr, "%s of an accepted tensor does not parse: %s\n", encoding,
                 std::string(back.status().message()).c_str());
    std::abort();
  }
  TensorProto a, b;
  t.AsProtoTensorContent(&a);
  back->AsProtoTensorContent(&b);
  if (a.SerializeAsString() != b.SerializeAsString()) {
    std::fprintf(stderr, "%s round trip changed the tensor: %s became %s\n", encoding,
                 t.DebugString().c_str(), back->DebugString().c_str());
    std::abort();
  }
}

}  // namespace
}  // namespace sg

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sg::TensorProto proto;
  if (!proto.ParseFromArray(data, static_cast<int>(size))) return 0;
  auto t = sg::Tensor::FromProto(proto);
  if (!t.ok()) return 0;
  (void)t->DebugString();
  (void)t->SummarizeValue(10);
  if (t->dtype() == sg::DT_RESOURCE || t->dtype() == sg::DT_VARIANT) return 0;
  if (t->TotalBytes() > sg::kMaxRoundTripBytes) return 0;
  sg::TensorProto content, field;
  t->AsProtoTensorContent(&content);
  sg::CheckRoundTrip(*t, content, "AsProtoTensorContent");
  t->AsProtoField(&field);
  sg::CheckRoundTrip(*t, field, "AsProtoField");
  return 0;
}
