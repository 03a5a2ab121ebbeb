#include "distributed/rpc/tensor_coding.h"

#include <grpcpp/support/proto_buffer_reader.h>
#include <grpcpp/support/slice.h>

#include <limits>
#include <vector>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/wire_format_lite.h"
#include "distributed/proto/worker.pb.h"

namespace sg {
namespace {

using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;
using google::protobuf::io::StringOutputStream;
using google::protobuf::internal::WireFormatLite;

// Field numbers of RecvTensorResponse and TensorProto.
constexpr int kResponseTensor = 1;
constexpr int kResponseIsDead = 2;
constexpr int kTensorDtype = 1;
constexpr int kTensorShape = 2;
constexpr int kTensorContent = 4;
// ... of RunGraphResponse and NamedTensorProto.
constexpr int kRunGraphRecv = 1;
constexpr int kNamedName = 1;
constexpr int kNamedTensor = 2;

// Below this, one copy into a single slice costs less than a second slice.
constexpr size_t kZeroCopyMinBytes = 1024;

uint32_t Tag(int field, WireFormatLite::WireType type) {
  return WireFormatLite::MakeTag(field, type);
}

// Keeps the tensor's buffer alive while gRPC holds the slice.
void ReleaseBuffer(void* arg) { delete static_cast<std::shared_ptr<TensorBuffer>*>(arg); }

void EncodeWithProtobuf(const Tensor& tensor, bool is_dead, ::grpc::ByteBuffer* out) {
  RecvTensorResponse resp;
  tensor.AsProtoTensorContent(resp.mutable_tensor());
  resp.set_is_dead(is_dead);
  SerializeToByteBuffer(resp, out);
}

}  // namespace

void SerializeToByteBuffer(const google::protobuf::MessageLite& msg, ::grpc::ByteBuffer* out) {
  std::string bytes = msg.SerializeAsString();
  ::grpc::Slice slice(bytes);
  *out = ::grpc::ByteBuffer(&slice, 1);
}

absl::Status ParseFromByteBuffer(::grpc::ByteBuffer* in, google::protobuf::MessageLite* msg) {
  ::grpc::ProtoBufferReader reader(in);
  if (!msg->ParseFromZeroCopyStream(&reader)) {
    return errors::InvalidArgument("cannot parse a ", msg->GetTypeName(), " from the request");
  }
  return absl::OkStatus();
}

namespace {

// Whether a tensor's bytes go into gRPC as a slice of its own buffer.
bool ZeroCopyable(const Tensor& tensor) {
  return DataTypeIsPod(BaseType(tensor.dtype())) && tensor.TotalBytes() >= kZeroCopyMinBytes &&
         tensor.raw_data() != nullptr;
}

// Writes a TensorProto of a ZeroCopyable tensor up to its content: dtype, tensor_shape, then the
// tag and length of tensor_content. Returns the whole TensorProto's size, content included.
size_t WriteTensorProtoHeader(const Tensor& tensor, CodedOutputStream* cos) {
  const DataType dtype = BaseType(tensor.dtype());
  const size_t nbytes = tensor.TotalBytes();
  TensorShapeProto shape;
  tensor.shape().AsProto(&shape);
  const size_t shape_bytes = shape.ByteSizeLong();
  if (cos != nullptr) {
    cos->WriteTag(Tag(kTensorDtype, WireFormatLite::WIRETYPE_VARINT));
    cos->WriteVarint32SignExtended(dtype);
    cos->WriteTag(Tag(kTensorShape, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
    cos->WriteVarint64(shape_bytes);
    shape.SerializeWithCachedSizes(cos);
    cos->WriteTag(Tag(kTensorContent, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
    cos->WriteVarint64(nbytes);
  }
  return CodedOutputStream::VarintSize32(Tag(kTensorDtype, WireFormatLite::WIRETYPE_VARINT)) +
         CodedOutputStream::VarintSize32SignExtended(dtype) +
         CodedOutputStream::VarintSize32(
             Tag(kTensorShape, WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) +
         CodedOutputStream::VarintSize64(shape_bytes) + shape_bytes +
         CodedOutputStream::VarintSize32(
             Tag(kTensorContent, WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) +
         CodedOutputStream::VarintSize64(nbytes) + nbytes;
}

// A slice of the tensor's own buffer, which it keeps alive until gRPC lets go of it.
::grpc::Slice ContentSlice(const Tensor& tensor) {
  // The slice only reads the buffer (gRPC's constructor takes a non-const pointer).
  return ::grpc::Slice(tensor.buffer() ? tensor.buffer()->data() : nullptr, tensor.TotalBytes(),
                       &ReleaseBuffer, new std::shared_ptr<TensorBuffer>(tensor.buffer()));
}

}  // namespace

void EncodeRecvTensorResponse(const Tensor& tensor, bool is_dead, ::grpc::ByteBuffer* out) {
  if (!ZeroCopyable(tensor)) {
    EncodeWithProtobuf(tensor, is_dead, out);
    return;
  }
  std::string header;
  {
    StringOutputStream sos(&header);
    CodedOutputStream cos(&sos);
    cos.WriteTag(Tag(kResponseTensor, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
    cos.WriteVarint64(WriteTensorProtoHeader(tensor, nullptr));
    WriteTensorProtoHeader(tensor, &cos);
  }
  std::string trailer;
  if (is_dead) {
    StringOutputStream sos(&trailer);
    CodedOutputStream cos(&sos);
    cos.WriteTag(Tag(kResponseIsDead, WireFormatLite::WIRETYPE_VARINT));
    cos.WriteVarint32(1);
  }
  std::vector<::grpc::Slice> slices;
  slices.emplace_back(header);
  slices.push_back(ContentSlice(tensor));
  if (!trailer.empty()) slices.emplace_back(trailer);
  *out = ::grpc::ByteBuffer(slices.data(), slices.size());
}

namespace {

// Reads the TensorProto under the current limit. A numeric tensor_content that follows its dtype
// and shape (the order every protobuf writer uses) is read straight into the result's buffer;
// anything else goes through an ordinary TensorProto.
absl::Status DecodeTensorProto(CodedInputStream* in, Tensor* out) {
  DataType dtype = DT_INVALID;
  TensorShapeProto shape_proto;
  bool have_shape = false;
  bool have_content = false;
  Tensor direct;
  TensorProto rest;  // every other field, and the content when it cannot go direct
  std::string rest_bytes;
  {
    StringOutputStream sos(&rest_bytes);
    CodedOutputStream rest_out(&sos);
    while (uint32_t tag = in->ReadTag()) {
      const int field = WireFormatLite::GetTagFieldNumber(tag);
      const auto type = WireFormatLite::GetTagWireType(tag);
      if (field == kTensorDtype && type == WireFormatLite::WIRETYPE_VARINT) {
        uint32_t v;
        if (!in->ReadVarint32(&v)) return errors::DataLoss("RecvTensor: truncated dtype");
        dtype = static_cast<DataType>(v);
      } else if (field == kTensorShape && type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
        uint32_t len;
        if (!in->ReadVarint32(&len)) return errors::DataLoss("RecvTensor: truncated shape");
        auto limit = in->PushLimit(len);
        if (!shape_proto.MergeFromCodedStream(in) || !in->ConsumedEntireMessage()) {
          return errors::DataLoss("RecvTensor: malformed shape");
        }
        in->PopLimit(limit);
        have_shape = true;
      } else if (field == kTensorContent && type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED &&
                 !have_content && have_shape && DataTypeIsPod(dtype)) {
        uint32_t len;
        if (!in->ReadVarint32(&len)) return errors::DataLoss("RecvTensor: truncated content");
        SG_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromProto(shape_proto));
        SG_ASSIGN_OR_RETURN(direct, Tensor::Allocate(dtype, shape));
        if (len != direct.TotalBytes()) {
          return errors::InvalidArgument("RecvTensor: tensor_content has ", len,
                                         " bytes but a ", DataTypeString(dtype), " tensor of shape ",
                                         shape.DebugString(), " needs ", direct.TotalBytes());
        }
        if (len > 0 && !in->ReadRaw(direct.raw_data(), static_cast<int>(len))) {
          return errors::DataLoss("RecvTensor: truncated content");
        }
        have_content = true;
      } else if (!WireFormatLite::SkipField(in, tag, &rest_out)) {
        return errors::DataLoss("RecvTensor: malformed tensor");
      }
    }
  }
  if (!rest.ParseFromString(rest_bytes)) return errors::DataLoss("RecvTensor: malformed tensor");
  rest.set_dtype(dtype);
  if (have_shape) *rest.mutable_tensor_shape() = shape_proto;
  if (have_content) {
    *out = std::move(direct);
    return absl::OkStatus();
  }
  if (dtype == DT_INVALID) {  // a dead value carries no tensor
    *out = Tensor();
    return absl::OkStatus();
  }
  SG_ASSIGN_OR_RETURN(*out, Tensor::FromProto(rest));
  return absl::OkStatus();
}

}  // namespace

absl::Status DecodeRecvTensorResponse(::grpc::ByteBuffer* in, RecvTensorResult* result) {
  ::grpc::ProtoBufferReader reader(in);
  CodedInputStream cis(&reader);
  cis.SetTotalBytesLimit(std::numeric_limits<int>::max());
  bool have_tensor = false;
  result->is_dead = false;
  while (uint32_t tag = cis.ReadTag()) {
    const int field = WireFormatLite::GetTagFieldNumber(tag);
    const auto type = WireFormatLite::GetTagWireType(tag);
    if (field == kResponseTensor && type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint32_t len;
      if (!cis.ReadVarint32(&len)) return errors::DataLoss("RecvTensor: truncated response");
      auto limit = cis.PushLimit(len);
      SG_RETURN_IF_ERROR(DecodeTensorProto(&cis, &result->tensor));
      if (!cis.ConsumedEntireMessage()) return errors::DataLoss("RecvTensor: malformed tensor");
      cis.PopLimit(limit);
      have_tensor = true;
    } else if (field == kResponseIsDead && type == WireFormatLite::WIRETYPE_VARINT) {
      uint32_t v;
      if (!cis.ReadVarint32(&v)) return errors::DataLoss("RecvTensor: truncated response");
      result->is_dead = v != 0;
    } else if (!WireFormatLite::SkipField(&cis, tag)) {
      return errors::DataLoss("RecvTensor: malformed response");
    }
  }
  if (!have_tensor) result->tensor = Tensor();
  return absl::OkStatus();
}

void EncodeRunGraphResponse(const RunGraphResponse& resp,
                            const std::vector<std::pair<std::string, Tensor>>& recv,
                            ::grpc::ByteBuffer* out) {
  // Fields may come in any order: the rest of the message first, then one NamedTensorProto per
  // value (field 1, recv), a numeric tensor's content as a slice of its own.
  std::vector<::grpc::Slice> slices;
  std::string head = resp.SerializeAsString();
  for (const auto& [key, value] : recv) {
    const bool zero_copy = ZeroCopyable(value);
    {
      StringOutputStream sos(&head);  // appends
      CodedOutputStream cos(&sos);
      cos.WriteTag(Tag(kRunGraphRecv, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
      if (!zero_copy) {
        NamedTensorProto named;
        named.set_name(key);
        value.AsProtoTensorContent(named.mutable_tensor());
        cos.WriteVarint64(named.ByteSizeLong());
        named.SerializeWithCachedSizes(&cos);
      } else {
        const size_t tensor_bytes = WriteTensorProtoHeader(value, nullptr);
        const uint32_t name_tag = Tag(kNamedName, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
        const uint32_t tensor_tag = Tag(kNamedTensor, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
        cos.WriteVarint64(CodedOutputStream::VarintSize32(name_tag) +
                          CodedOutputStream::VarintSize64(key.size()) + key.size() +
                          CodedOutputStream::VarintSize32(tensor_tag) +
                          CodedOutputStream::VarintSize64(tensor_bytes) + tensor_bytes);
        cos.WriteTag(name_tag);
        cos.WriteVarint64(key.size());
        cos.WriteRaw(key.data(), static_cast<int>(key.size()));
        cos.WriteTag(tensor_tag);
        cos.WriteVarint64(tensor_bytes);
        WriteTensorProtoHeader(value, &cos);
      }
    }
    if (zero_copy) {
      slices.emplace_back(head);
      head.clear();
      slices.push_back(ContentSlice(value));
    }
  }
  if (!head.empty() || slices.empty()) slices.emplace_back(head);
  *out = ::grpc::ByteBuffer(slices.data(), slices.size());
}

absl::Status DecodeRunGraphResponse(::grpc::ByteBuffer* in, RunGraphResponse* resp,
                                    TensorHandoff* handoff) {
  ::grpc::ProtoBufferReader reader(in);
  CodedInputStream cis(&reader);
  cis.SetTotalBytesLimit(std::numeric_limits<int>::max());
  resp->Clear();
  std::string rest_bytes;  // every field but recv, parsed by protobuf at the end
  {
    StringOutputStream sos(&rest_bytes);
    CodedOutputStream rest_out(&sos);
    while (uint32_t tag = cis.ReadTag()) {
      if (WireFormatLite::GetTagFieldNumber(tag) != kRunGraphRecv ||
          WireFormatLite::GetTagWireType(tag) != WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
        if (!WireFormatLite::SkipField(&cis, tag, &rest_out)) {
          return errors::DataLoss("RunGraph: malformed response");
        }
        continue;
      }
      uint32_t len;
      if (!cis.ReadVarint32(&len)) return errors::DataLoss("RunGraph: truncated response");
      auto limit = cis.PushLimit(len);
      std::string name;
      Tensor value;
      while (uint32_t inner = cis.ReadTag()) {
        const int field = WireFormatLite::GetTagFieldNumber(inner);
        const auto type = WireFormatLite::GetTagWireType(inner);
        if (field == kNamedName && type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
          uint32_t n;
          if (!cis.ReadVarint32(&n) || !cis.ReadString(&name, static_cast<int>(n))) {
            return errors::DataLoss("RunGraph: truncated recv name");
          }
        } else if (field == kNamedTensor && type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
          uint32_t n;
          if (!cis.ReadVarint32(&n)) return errors::DataLoss("RunGraph: truncated recv tensor");
          auto tensor_limit = cis.PushLimit(n);
          SG_RETURN_IF_ERROR(DecodeTensorProto(&cis, &value));
          if (!cis.ConsumedEntireMessage()) return errors::DataLoss("RunGraph: malformed tensor");
          cis.PopLimit(tensor_limit);
        } else if (!WireFormatLite::SkipField(&cis, inner)) {
          return errors::DataLoss("RunGraph: malformed recv entry");
        }
      }
      if (!cis.ConsumedEntireMessage()) return errors::DataLoss("RunGraph: malformed recv entry");
      cis.PopLimit(limit);
      if (handoff != nullptr) {
        handoff->Put(name, value);
      } else {
        NamedTensorProto* named = resp->add_recv();
        named->set_name(name);
        if (value.dtype() != DT_INVALID) value.AsProtoTensorContent(named->mutable_tensor());
      }
    }
  }
  if (!resp->MergeFromString(rest_bytes)) return errors::DataLoss("RunGraph: malformed response");
  return absl::OkStatus();
}

}  // namespace sg
