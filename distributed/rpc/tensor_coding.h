// Tensors on the wire. A RecvTensorResponse is written by hand so that a numeric tensor's bytes go
// into gRPC as one slice pointing at the tensor's own buffer (kept alive until gRPC lets go of
// it), and read back so that tensor_content lands straight in a freshly allocated aligned Tensor:
// no copy on the sending side, the one unavoidable copy out of gRPC's receive buffers on the other.
// The bytes are an ordinary RecvTensorResponse: any protobuf reader parses them.
#ifndef SG_DISTRIBUTED_RPC_TENSOR_CODING_H_
#define SG_DISTRIBUTED_RPC_TENSOR_CODING_H_

#include <grpcpp/support/byte_buffer.h>

#include <string>
#include <utility>
#include <vector>

#include "google/protobuf/message_lite.h"
#include "core/framework/tensor.h"
#include "distributed/call_options.h"
#include "distributed/proto/worker.pb.h"
#include "distributed/worker/worker_interface.h"

namespace sg {

// Encodes {tensor, is_dead} as a RecvTensorResponse. Numeric tensors are not copied.
void EncodeRecvTensorResponse(const Tensor& tensor, bool is_dead, ::grpc::ByteBuffer* out);

// Decodes a RecvTensorResponse. DATA_LOSS when the bytes are not one, INVALID_ARGUMENT when the
// tensor they hold is malformed. `in` is consumed.
absl::Status DecodeRecvTensorResponse(::grpc::ByteBuffer* in, RecvTensorResult* result);

// A RunGraphResponse whose recv list is `recv` (key, value), written like a RecvTensorResponse:
// each numeric tensor's bytes are a slice of its own buffer. `resp` gives every other field (its
// own recv list, if any, is written too). The bytes are an ordinary RunGraphResponse.
void EncodeRunGraphResponse(const RunGraphResponse& resp,
                            const std::vector<std::pair<std::string, Tensor>>& recv,
                            ::grpc::ByteBuffer* out);

// Decodes a RunGraphResponse into *resp. With a `handoff`, each recv entry's tensor is decoded
// straight into an aligned Tensor and put there under its key instead of into resp's recv list
// (one copy out of gRPC's buffers); without one, resp gets the recv list as protobuf reads it.
// DATA_LOSS when the bytes are not a RunGraphResponse, INVALID_ARGUMENT when a tensor in it is
// malformed. `in` is consumed.
absl::Status DecodeRunGraphResponse(::grpc::ByteBuffer* in, RunGraphResponse* resp,
                                    TensorHandoff* handoff);

// Plain protobuf messages to and from byte buffers (for the raw-method requests).
void SerializeToByteBuffer(const google::protobuf::MessageLite& msg, ::grpc::ByteBuffer* out);
absl::Status ParseFromByteBuffer(::grpc::ByteBuffer* in, google::protobuf::MessageLite* msg);

}  // namespace sg

#endif  // SG_DISTRIBUTED_RPC_TENSOR_CODING_H_
