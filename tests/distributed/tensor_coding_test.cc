// RecvTensorResponse and RunGraphResponse coding: hand-written bytes must be what protobuf itself
// writes and reads, and the decoders must take what protobuf writes.
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

// A RunGraphResponse with a recv list of a large float tensor (zero-copy), a small one, strings
// and an empty one, and other fields around them.
RunGraphResponse ResponseFields() {
  RunGraphResponse resp;
  resp.mutable_step_stats()->add_dev_stats()->set_device("/job:ps/replica:0/task:0/device:CPU:0");
  resp.add_partition_graph()->add_node()->set_name("n");
  return resp;
}

std::vector<std::pair<std::string, Tensor>> RecvValues() {
  Tensor strings(DT_STRING, TensorShape({2}));
  strings.data<tstring>()[0] = "hello";
  strings.data<tstring>()[1] = "";
  return {{"big", Ramp(DT_FLOAT, 1 << 20)},
          {"small", Tensor::Scalar<float>(3.5f)},
          {"strings", strings},
          {"empty", Tensor(DT_INT64, TensorShape({0, 3}))},
          {"int64", Ramp(DT_INT64, 4096)}};
}

TEST(EncodeRunGraphResponse, WritesWhatProtobufParsesWithoutCopyingLargeTensors) {
  const auto values = RecvValues();
  ::grpc::ByteBuffer bb;
  EncodeRunGraphResponse(ResponseFields(), values, &bb);
  std::vector<::grpc::Slice> slices;
  ASSERT_TRUE(bb.Dump(&slices).ok());
  bool shares = false;
  for (auto& s : slices) shares = shares || s.begin() == values[0].second.raw_data();
  EXPECT_TRUE(shares);
  RunGraphResponse parsed;
  ASSERT_TRUE(parsed.ParseFromString(Flatten(bb)));
  EXPECT_EQ(parsed.step_stats().dev_stats(0).device(), "/job:ps/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(parsed.partition_graph(0).node(0).name(), "n");
  ASSERT_EQ(parsed.recv_size(), static_cast<int>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(parsed.recv(i).name(), values[i].first);
    auto back = Tensor::FromProto(parsed.recv(i).tensor());
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->shape(), values[i].second.shape());
    EXPECT_EQ(back->DebugString(16), values[i].second.DebugString(16));
  }
}

TEST(DecodeRunGraphResponse, PutsTheTensorsInTheHandoffOrInTheRecvList) {
  const auto values = RecvValues();
  for (bool with_handoff : {true, false}) {
    ::grpc::ByteBuffer bb;
    EncodeRunGraphResponse(ResponseFields(), values, &bb);
    TensorHandoff handoff;
    RunGraphResponse resp;
    resp.set_status_error_message("stale, cleared by the decoder");
    absl::Status s = DecodeRunGraphResponse(&bb, &resp, with_handoff ? &handoff : nullptr);
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_EQ(resp.status_error_message(), "");
    EXPECT_EQ(resp.partition_graph(0).node(0).name(), "n");
    EXPECT_EQ(resp.recv_size(), with_handoff ? 0 : static_cast<int>(values.size()));
    for (size_t i = 0; i < values.size(); ++i) {
      Tensor got;
      if (with_handoff) {
        ASSERT_TRUE(handoff.Take(values[i].first, &got)) << values[i].first;
      } else {
        EXPECT_EQ(resp.recv(i).name(), values[i].first);
        auto back = Tensor::FromProto(resp.recv(i).tensor());
        ASSERT_TRUE(back.ok()) << back.status();
        got = *back;
      }
      EXPECT_EQ(got.dtype(), values[i].second.dtype());
      EXPECT_EQ(got.shape(), values[i].second.shape());
      EXPECT_EQ(got.DebugString(16), values[i].second.DebugString(16));
      if (got.dtype() == DT_FLOAT && got.NumElements() > 1) {
        EXPECT_EQ(std::memcmp(got.raw_data(), values[i].second.raw_data(), got.TotalBytes()), 0);
        EXPECT_EQ(reinterpret_cast<uintptr_t>(got.raw_data()) % kTensorAlignment, 0u);
      }
    }
  }
}

TEST(DecodeRunGraphResponse, ReadsWhatProtobufWritesAndRejectsJunk) {
  RunGraphResponse resp = ResponseFields();
  resp.set_status_code(error::ABORTED);
  NamedTensorProto* r = resp.add_recv();
  r->set_name("k");
  Ramp(DT_FLOAT, 4096).AsProtoTensorContent(r->mutable_tensor());
  ::grpc::ByteBuffer bb;
  SerializeToByteBuffer(resp, &bb);
  TensorHandoff handoff;
  RunGraphResponse got;
  ASSERT_TRUE(DecodeRunGraphResponse(&bb, &got, &handoff).ok());
  EXPECT_EQ(got.status_code(), error::ABORTED);
  Tensor k;
  ASSERT_TRUE(handoff.Take("k", &k));
  EXPECT_EQ(k.data<float>()[4095], 4095 * 0.25f);

  r->mutable_tensor()->set_tensor_content(std::string(15, 'x'));
  SerializeToByteBuffer(resp, &bb);
  EXPECT_EQ(DecodeRunGraphResponse(&bb, &got, &handoff).code(),
            absl::StatusCode::kInvalidArgument);
  ::grpc::Slice junk(std::string("\x0a\xff\xff\x01garbage"));
  ::grpc::ByteBuffer bad(&junk, 1);
  EXPECT_FALSE(DecodeRunGraphResponse(&bad, &got, &handoff).ok());
}

}  // namespace
}  // namespace sg
