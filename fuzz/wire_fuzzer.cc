// Fuzz target: the replies a task reads off the wire with sg's own decoders, RecvTensorResponse
// and RunGraphResponse (distributed/rpc/tensor_coding.h), which read tensor contents straight
// into aligned Tensors instead of going through protobuf.
//
// The first byte picks the message (even: RecvTensorResponse, odd: RunGraphResponse, whose
// tensors go into a TensorHandoff when bit 1 is set and into the recv list otherwise); the rest
// is the message. Any bytes must decode or fail with a status, never crash. A RunGraphResponse
// that decodes must come back the same through the encoder: same fields, same tensors.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/slice.h>

#include "distributed/rpc/tensor_coding.h"

namespace sg {
namespace {

::grpc::ByteBuffer Buffer(const uint8_t* data, size_t size) {
  ::grpc::Slice slice(data, size);
  return ::grpc::ByteBuffer(&slice, 1);
}

std::string Flatten(const ::grpc::ByteBuffer& bb) {
  std::vector<::grpc::Slice> slices;
  if (!bb.Dump(&slices).ok()) std::abort();
  std::string out;
  for (auto& s : slices) out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return out;
}

void RunGraph(const uint8_t* data, size_t size, bool with_handoff) {
  ::grpc::ByteBuffer in = Buffer(data, size);
  TensorHandoff handoff;
  RunGraphResponse resp;
  if (!DecodeRunGraphResponse(&in, &resp, with_handoff ? &handoff : nullptr).ok()) return;
  // Encode what was decoded (the recv list as protos), decode it again with a handoff: the
  // fields other than recv and every recv tensor must be as before.
  std::vector<std::pair<std::string, Tensor>> values;
  std::vector<std::string> names;
  for (const NamedTensorProto& nt : resp.recv()) {
    auto t = Tensor::FromProto(nt.tensor());
    if (!t.ok()) continue;  // a tensor the decoder let through as a proto for protobuf to judge
    values.emplace_back(nt.name(), *t);
  }
  RunGraphResponse rest = resp;
  rest.clear_recv();
  ::grpc::ByteBuffer again;
  EncodeRunGraphResponse(rest, values, &again);
  TensorHandoff back;
  RunGraphResponse resp2;
  absl::Status s = DecodeRunGraphResponse(&again, &resp2, &back);
  if (!s.ok() || resp2.SerializeAsString() != rest.SerializeAsString()) {
    std::fprintf(stderr, "RunGraphResponse did not survive encoding: %s\n",
                 std::string(s.message()).c_str());
    std::abort();
  }
  std::map<std::string, Tensor> last;  // a name given twice keeps its last value in the handoff
  for (const auto& [name, t] : values) last[name] = t;
  for (const auto& [name, t] : last) {
    Tensor got;
    if (!back.Take(name, &got)) {
      std::fprintf(stderr, "recv '%s' is missing after the round trip\n", name.c_str());
      std::abort();
    }
    if (got.dtype() != t.dtype() || got.shape() != t.shape()) {
      std::fprintf(stderr, "recv '%s' changed: %s became %s\n", name.c_str(),
                   t.DebugString().c_str(), got.DebugString().c_str());
      std::abort();
    }
  }
  (void)Flatten(again);
}

}  // namespace
}  // namespace sg

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t kind = data[0];
  if ((kind & 1) == 0) {
    ::grpc::ByteBuffer in = sg::Buffer(data + 1, size - 1);
    sg::RecvTensorResult result;
    if (sg::DecodeRecvTensorResponse(&in, &result).ok()) (void)result.tensor.DebugString();
    return 0;
  }
  sg::RunGraph(data + 1, size - 1, (kind & 2) != 0);
  return 0;
}
