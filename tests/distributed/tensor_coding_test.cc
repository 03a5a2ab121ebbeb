// RecvTensorResponse coding: hand-written bytes must be what protobuf itself writes and reads, and
// the decoder must take what protobuf writes.
#include "distributed/rpc/tensor_coding.h"

#include <gtest/gtest.h>

#include <cstring>

#include "distributed/proto/worker.pb.h"

namespace sg {
namespace {

std::string Flatten(const ::grpc::ByteBuffer& bb) {
  std::vector<::grpc::Slice> slices;
  EXPECT_TRUE(bb.Dump(&slices).ok());
  std::string out;
  for (auto& s : slices) out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return out;
}

Tensor Ramp(DataType dt, int64_t n) {
  Tensor t(dt, TensorShape({n / 4, 4}));
  for (int64_t i = 0; i < n; ++i) {
    if (dt == DT_FLOAT) t.data<float>()[i] = i * 0.25f;
    if (dt == DT_INT64) t.data<int64_t>()[i] = i * 1000003;
  }
  return t;
}

TEST(EncodeRecvTensorResponse, WritesWhatProtobufParses) {
  for (DataType dt : {DT_FLOAT, DT_INT64}) {
    for (int64_t n : {4, 1024, 1 << 20}) {
      Tensor t = Ramp(dt, n);
      ::grpc::ByteBuffer bb;
      EncodeRecvTensorResponse(t, false, &bb);
      RecvTensorResponse parsed;
      ASSERT_TRUE(parsed.ParseFromString(Flatten(bb))) << n;
      auto back = Tensor::FromProto(parsed.tensor());
      ASSERT_TRUE(back.ok());
      EXPECT_EQ(back->shape(), t.shape());
      EXPECT_EQ(std::memcmp(back->raw_data(), t.raw_data(), t.TotalBytes()), 0);
      EXPECT_FALSE(parsed.is_dead());
    }
  }
}

TEST(EncodeRecvTensorResponse, DoesNotCopyALargeTensor) {
  Tensor t = Ramp(DT_FLOAT, 1 << 16);
  ::grpc::ByteBuffer bb;
  EncodeRecvTensorResponse(t, true, &bb);
  std::vector<::grpc::Slice> slices;
  ASSERT_TRUE(bb.Dump(&slices).ok());
  bool shares = false;
  for (auto& s : slices) shares = shares || s.begin() == t.raw_data();
  EXPECT_TRUE(shares);
  EXPECT_FALSE(t.RefCountIsOne());  // the slice keeps the buffer alive
  bb.Clear();
  slices.clear();
  EXPECT_TRUE(t.RefCountIsOne());
}

TEST(DecodeRecvTensorResponse, RoundTripsLargeSmallStringAndDead) {
  Tensor big = Ramp(DT_FLOAT, 1 << 20);
  Tensor small = Tensor::Scalar<float>(3.5f);
  Tensor strings(DT_STRING, TensorShape({2}));
  strings.data<tstring>()[0] = "hello";
  strings.data<tstring>()[1] = "";
  Tensor empty(DT_FLOAT, TensorShape({0, 3}));
  for (const Tensor* t : {&big, &small, &strings, &empty}) {
    ::grpc::ByteBuffer bb;
    EncodeRecvTensorResponse(*t, false, &bb);
    RecvTensorResult r;
    absl::Status s = DecodeRecvTensorResponse(&bb, &r);
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_EQ(r.tensor.dtype(), t->dtype());
    EXPECT_EQ(r.tensor.shape(), t->shape());
    EXPECT_EQ(r.tensor.DebugString(8), t->DebugString(8));
    if (t->dtype() == DT_FLOAT && t->NumElements() > 0) {
      EXPECT_EQ(std::memcmp(r.tensor.raw_data(), t->raw_data(), t->TotalBytes()), 0);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(r.tensor.raw_data()) % kTensorAlignment, 0u);
    }
  }
  ::grpc::ByteBuffer dead;
  EncodeRecvTensorResponse(Tensor(), true, &dead);
  RecvTensorResult r;
  ASSERT_TRUE(DecodeRecvTensorResponse(&dead, &r).ok());
  EXPECT_TRUE(r.is_dead);
}

TEST(DecodeRecvTensorResponse, ReadsWhatProtobufWrites) {
  RecvTensorResponse resp;
  Ramp(DT_FLOAT, 4096).AsProtoTensorContent(resp.mutable_tensor());
  resp.set_send_start_micros(12345);
  ::grpc::ByteBuffer bb;
  SerializeToByteBuffer(resp, &bb);
  RecvTensorResult r;
  ASSERT_TRUE(DecodeRecvTensorResponse(&bb, &r).ok());
  EXPECT_EQ(r.tensor.NumElements(), 4096);
  EXPECT_EQ(r.tensor.data<float>()[4095], 4095 * 0.25f);
}

TEST(DecodeRecvTensorResponse, RejectsContentOfTheWrongSize) {
  RecvTensorResponse resp;
  resp.mutable_tensor()->set_dtype(DT_FLOAT);
  resp.mutable_tensor()->mutable_tensor_shape()->add_dim()->set_size(4);
  resp.mutable_tensor()->set_tensor_content(std::string(15, 'x'));
  ::grpc::ByteBuffer bb;
  SerializeToByteBuffer(resp, &bb);
  RecvTensorResult r;
  EXPECT_EQ(DecodeRecvTensorResponse(&bb, &r).code(), absl::StatusCode::kInvalidArgument);
  ::grpc::Slice junk(std::string("\x0a\xff\xff\x01garbage"));
  ::grpc::ByteBuffer bad(&junk, 1);
  EXPECT_FALSE(DecodeRecvTensorResponse(&bad, &r).ok());
}

}  // namespace
}  // namespace sg
