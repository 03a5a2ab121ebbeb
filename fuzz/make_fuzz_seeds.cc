// Writes the seed corpus of the fuzz targets (fuzz/corpus/<target>/) from the repository's test
// data:
//
//   make_fuzz_seeds SOURCE_DIR OUT_DIR
//
//   graph         small graphs of tests/testdata and tests/oracle (v1 and v2 control flow,
//                 functions, variables, TensorArrays, TensorLists)
//   tensor_proto  tensors of several dtypes in both encodings
//   checkpoint    the digits SavedModel's variables, and a bundle written here (strings, ints)
//   saved_model   the digits SavedModel, with and without its variables
//   master        call sequences on graphs of tests/testdata (create, run, partial run, extend,
//                 list devices, close, reset), with the tensors that make them run
//   worker        the WorkerService calls a Master makes for those sequences, as recorded here
//                 (graph handles rewritten to "$K", see worker_fuzzer.cc)
//
// Run it again after changing a target's input format; it overwrites the files it writes.
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/framework/tensor.h"
#include "core/util/tensor_bundle.h"
#include "distributed/rpc/tensor_coding.h"
#include "fuzz/fuzz_util.h"
#include "fuzz/in_process_task.h"

namespace sg {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "make_fuzz_seeds: cannot read " << path << "\n";
    std::exit(1);
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void Write(const std::string& dir, const std::string& name, const std::string& bytes) {
  mkdir(dir.c_str(), 0755);
  fuzz::WriteFile(dir + "/" + name, bytes);
}

void GraphSeeds(const std::string& src, const std::string& out) {
  for (const char* f : {"cond.pb", "while_loop.pb", "function_call.pb", "variables.pb",
                        "tensor_array.pb", "conv_net.pb"}) {
    Write(out, f, ReadFile(src + "/tests/testdata/" + f));
  }
  for (const char* f : {"cond_v2.pb", "while_v2.pb", "switch_case_v2.pb", "variables_v2.pb",
                        "tensor_list_v2.pb"}) {
    Write(out, f, ReadFile(src + "/tests/oracle/tf2_graphs/" + f));
  }
}

void TensorSeeds(const std::string& out) {
  std::map<std::string, Tensor> tensors;
  tensors["float_vector"] = Tensor::Vector<float>({1.5f, -2.0f, 0.0f});
  tensors["int32_scalar"] = Tensor::Scalar<int32_t>(7);
  tensors["int64_vector"] = Tensor::Vector<int64_t>({1, -1, int64_t{1} << 40});
  tensors["bool_vector"] = Tensor::Vector<bool>({true, false});
  tensors["string_vector"] = Tensor::Vector<tstring>({"", "ab", "c"});
  tensors["double_matrix"] = Tensor(DT_DOUBLE, TensorShape({2, 2}));
  for (int i = 0; i < 4; ++i) tensors["double_matrix"].data<double>()[i] = i * 0.25;
  tensors["uint8_empty"] = Tensor(DT_UINT8, TensorShape({0, 3}));
  for (const auto& [name, t] : tensors) {
    TensorProto content, field;
    t.AsProtoTensorContent(&content);
    t.AsProtoField(&field);
    Write(out, name + "_content", content.SerializeAsString());
    Write(out, name + "_field", field.SerializeAsString());
  }
}

void CheckpointSeeds(const std::string& src, const std::string& out) {
  const std::string vars = src + "/tests/testdata/digits_saved_model/variables/variables";
  std::string seed;
  fuzz::AppendRecord(0, ReadFile(BundleIndexFilename(vars)), &seed);
  fuzz::AppendRecord(1, ReadFile(BundleDataFilename(vars, 0, 1)), &seed);
  Write(out, "digits_variables", seed);

  const std::string prefix = fuzz::TempDir() + "/seed_ckpt";
  BundleWriter w(prefix);
  (void)w.Add("ints", Tensor::Vector<int32_t>({1, 2, 3}));
  (void)w.Add("strings", Tensor::Vector<tstring>({"x", "", "yz"}));
  (void)w.Add("scalar", Tensor::Scalar<double>(0.5));
  if (!w.Finish().ok()) {
    std::cerr << "make_fuzz_seeds: cannot write a checkpoint under " << prefix << "\n";
    std::exit(1);
  }
  seed.clear();
  fuzz::AppendRecord(0, ReadFile(BundleIndexFilename(prefix)), &seed);
  fuzz::AppendRecord(1, ReadFile(BundleDataFilename(prefix, 0, 1)), &seed);
  fuzz::AppendRecord(2, "3 4 0,2:-", &seed);
  Write(out, "small_bundle_and_slice", seed);
}

void SavedModelSeeds(const std::string& src, const std::string& out) {
  const std::string dir = src + "/tests/testdata/digits_saved_model";
  std::string seed;
  fuzz::AppendRecord(0, ReadFile(dir + "/saved_model.pb"), &seed);
  Write(out, "digits_graph_only", seed);
  fuzz::AppendRecord(1, ReadFile(dir + "/variables/variables.index"), &seed);
  fuzz::AppendRecord(2, ReadFile(dir + "/variables/variables.data-00000-of-00001"), &seed);
  Write(out, "digits", seed);
}

NamedTensorProto Named(const std::string& name, const Tensor& t) {
  NamedTensorProto n;
  n.set_name(name);
  t.AsProtoTensorContent(n.mutable_tensor());
  return n;
}

// One master call sequence: the records of the master target.
struct MasterCalls {
  std::string records;
  void Create(const GraphDef& g) {
    CreateSessionRequest req;
    *req.mutable_graph_def() = g;
    fuzz::AppendRecord(0, req.SerializeAsString(), &records);
  }
  void Run(std::vector<NamedTensorProto> feeds, std::vector<std::string> fetches,
           std::vector<std::string> targets, const std::string& partial_run = "") {
    RunStepRequest req;
    req.set_session_handle("$0");
    for (auto& f : feeds) *req.add_feed() = f;
    for (auto& f : fetches) req.add_fetch(f);
    for (auto& t : targets) req.add_target(t);
    req.set_partial_run_handle(partial_run);
    fuzz::AppendRecord(3, req.SerializeAsString(), &records);
  }
  void Close() {
    CloseSessionRequest req;
    req.set_session_handle("$0");
    fuzz::AppendRecord(4, req.SerializeAsString(), &records);
  }
};

// A WorkerInterface in front of the task's Worker that records every call as a worker-target
// record. Not InProcess(), so that the master sends feeds in RunGraph requests as a remote
// master would.
class RecordingWorker : public WorkerInterface {
 public:
  explicit RecordingWorker(WorkerInterface* inner) : inner_(inner) {}
  std::string records() {
    absl::MutexLock lock(&mu_);
    return records_;
  }

  void GetStatusAsync(CallOptions* o, const GetStatusRequest* req, GetStatusResponse* resp,
                      StatusCallback done) override {
    Record(0, *req);
    inner_->GetStatusAsync(o, req, resp, std::move(done));
  }
  void CreateWorkerSessionAsync(CallOptions* o, const CreateWorkerSessionRequest* req,
                                CreateWorkerSessionResponse* resp, StatusCallback done) override {
    Record(1, *req);
    inner_->CreateWorkerSessionAsync(o, req, resp, std::move(done));
  }
  void DeleteWorkerSessionAsync(CallOptions* o, const DeleteWorkerSessionRequest* req,
                                DeleteWorkerSessionResponse* resp, StatusCallback done) override {
    Record(2, *req);
    inner_->DeleteWorkerSessionAsync(o, req, resp, std::move(done));
  }
  void RegisterGraphAsync(CallOptions* o, const RegisterGraphRequest* req,
                          RegisterGraphResponse* resp, StatusCallback done) override {
    Record(3, *req);
    inner_->RegisterGraphAsync(o, req, resp, [this, resp, done](const absl::Status& s) {
      if (s.ok()) {
        absl::MutexLock lock(&mu_);
        const std::string k = "$" + std::to_string(handles_.size());
        handles_[resp->graph_handle()] = k;
      }
      done(s);
    });
  }
  void DeregisterGraphAsync(CallOptions* o, const DeregisterGraphRequest* req,
                            DeregisterGraphResponse* resp, StatusCallback done) override {
    DeregisterGraphRequest r = *req;
    r.set_graph_handle(Handle(r.graph_handle()));
    Record(4, r);
    inner_->DeregisterGraphAsync(o, req, resp, std::move(done));
  }
  void RunGraphAsync(CallOptions* o, const RunGraphRequest* req, RunGraphResponse* resp,
                     StatusCallback done) override {
    RunGraphRequest r = *req;
    r.set_graph_handle(Handle(r.graph_handle()));
    Record(5, r);
    inner_->RunGraphAsync(o, req, resp, std::move(done));
  }
  void CleanupGraphAsync(CallOptions* o, const CleanupGraphRequest* req,
                         CleanupGraphResponse* resp, StatusCallback done) override {
    Record(6, *req);
    inner_->CleanupGraphAsync(o, req, resp, std::move(done));
  }
  void CleanupAllAsync(CallOptions* o, const CleanupAllRequest* req, CleanupAllResponse* resp,
                       StatusCallback done) override {
    Record(7, *req);
    inner_->CleanupAllAsync(o, req, resp, std::move(done));
  }
  void RecvTensorAsync(CallOptions* o, const RecvTensorRequest* req, RecvTensorResult* result,
                       StatusCallback done) override {
    Record(8, *req);
    inner_->RecvTensorAsync(o, req, result, std::move(done));
  }

 private:
  template <typename Proto>
  void Record(uint8_t tag, const Proto& req) {
    absl::MutexLock lock(&mu_);
    fuzz::AppendRecord(tag, req.SerializeAsString(), &records_);
  }
  std::string Handle(const std::string& h) {
    absl::MutexLock lock(&mu_);
    auto it = handles_.find(h);
    return it == handles_.end() ? h : it->second;
  }

  WorkerInterface* const inner_;
  absl::Mutex mu_;
  std::string records_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::string> handles_ ABSL_GUARDED_BY(mu_);
};

// Serves the task's worker through a RecordingWorker while `calls` run on its master.
class RecordingTask : public fuzz::InProcessTask {
 public:
  WorkerInterface* GetOrCreateWorker(const std::string& task) override {
    return task == kTask ? recorder_.get() : nullptr;
  }
  std::string Replay(const std::string& calls) {
    NewInput(/*with_master=*/true);
    recorder_ = std::make_unique<RecordingWorker>(worker());
    for (const auto& r : fuzz::SplitRecords(reinterpret_cast<const uint8_t*>(calls.data()),
                                            calls.size(), 64)) {
      CallOptions opts;
      opts.SetTimeout(10000);
      absl::Status s;
      if (r.tag == 0) {
        CreateSessionRequest req;
        CreateSessionResponse resp;
        req.ParseFromArray(r.bytes.data(), static_cast<int>(r.bytes.size()));
        s = master()->CreateSession(&opts, req, &resp);
        handle_ = resp.session_handle();
      } else if (r.tag == 3) {
        RunStepRequest req;
        RunStepResponse resp;
        req.ParseFromArray(r.bytes.data(), static_cast<int>(r.bytes.size()));
        req.set_session_handle(handle_);
        s = master()->RunStep(&opts, req, &resp);
      } else if (r.tag == 4) {
        CloseSessionRequest req;
        CloseSessionResponse resp;
        req.set_session_handle(handle_);
        s = master()->CloseSession(&opts, req, &resp);
      }
      if (!s.ok()) {
        std::cerr << "make_fuzz_seeds: a master call failed while recording: " << s << "\n";
        std::exit(1);
      }
    }
    EndInput();
    std::string out = recorder_->records();
    recorder_.reset();
    return out;
  }

 private:
  std::unique_ptr<RecordingWorker> recorder_;
  std::string handle_;
};

GraphDef ReadGraph(const std::string& path) {
  GraphDef g;
  if (!g.ParseFromString(ReadFile(path))) {
    std::cerr << "make_fuzz_seeds: " << path << " is not a binary GraphDef\n";
    std::exit(1);
  }
  return g;
}

void MasterAndWorkerSeeds(const std::string& src, const std::string& master_out,
                          const std::string& worker_out) {
  const std::string td = src + "/tests/testdata/";
  std::map<std::string, MasterCalls> seqs;

  MasterCalls& loop = seqs["while_loop"];
  loop.Create(ReadGraph(td + "while_loop.pb"));
  loop.Run({Named("x:0", Tensor::Vector<float>({1, 2, 3})),
            Named("n:0", Tensor::Scalar<int32_t>(3))},
           {"sum:0", "doubled:0", "iterations:0"}, {});
  loop.Close();

  MasterCalls& cond = seqs["cond"];
  cond.Create(ReadGraph(td + "cond.pb"));
  cond.Run({Named("pred:0", Tensor::Scalar<bool>(true)),
            Named("x:0", Tensor::Vector<float>({1, 2, 3, 4}))},
           {"out:0", "out2:0"}, {});
  cond.Run({Named("pred:0", Tensor::Scalar<bool>(false)),
            Named("x:0", Tensor::Vector<float>({1, 2, 3, 4}))},
           {"out:0"}, {});
  cond.Close();

  MasterCalls& vars = seqs["variables"];
  vars.Create(ReadGraph(td + "variables.pb"));
  vars.Run({}, {}, {"init"});
  vars.Run({}, {"counter_value:0", "w_value:0"}, {});
  vars.Close();

  MasterCalls& fn = seqs["function_call"];
  fn.Create(ReadGraph(td + "function_call.pb"));
  fn.Run({Named("x:0", Tensor::Vector<float>({1, 2, 3})),
          Named("y:0", Tensor::Vector<float>({4, 5, 6}))},
         {"out_defun:0", "out_sq:0", "out_neg:0"}, {});
  fn.Close();

  RecordingTask recording;
  for (auto& [name, calls] : seqs) {
    Write(master_out, name, calls.records);
    Write(worker_out, name, recording.Replay(calls.records));
  }

  // Calls the recording does not cover: a partial run, an extension, devices and a reset.
  std::string more;
  CreateSessionRequest create;
  *create.mutable_graph_def() = ReadGraph(td + "cond.pb");
  fuzz::AppendRecord(0, create.SerializeAsString(), &more);
  PartialRunSetupRequest prun;
  prun.set_session_handle("$0");
  prun.add_feed("pred:0");
  prun.add_feed("x:0");
  prun.add_fetch("out:0");
  fuzz::AppendRecord(2, prun.SerializeAsString(), &more);
  RunStepRequest step;
  step.set_session_handle("$0");
  step.set_partial_run_handle("$0");
  *step.add_feed() = Named("pred:0", Tensor::Scalar<bool>(true));
  *step.add_feed() = Named("x:0", Tensor::Vector<float>({1, 2, 3, 4}));
  step.add_fetch("out:0");
  fuzz::AppendRecord(3, step.SerializeAsString(), &more);
  ExtendSessionRequest extend;
  extend.set_session_handle("$0");
  *extend.mutable_graph_def() = ReadGraph(td + "while_loop.pb");
  fuzz::AppendRecord(1, extend.SerializeAsString(), &more);
  ListDevicesRequest list;
  list.set_session_handle("$0");
  fuzz::AppendRecord(5, list.SerializeAsString(), &more);
  fuzz::AppendRecord(6, ResetRequest().SerializeAsString(), &more);
  Write(master_out, "partial_run_extend_reset", more);
}

// Replies as a remote task writes them: a kind byte (wire_fuzzer.cc), then the message.
void WireSeeds(const std::string& out) {
  Tensor big(DT_FLOAT, TensorShape({64, 8}));
  for (int i = 0; i < 512; ++i) big.data<float>()[i] = i * 0.5f;
  const std::vector<std::pair<std::string, Tensor>> values = {
      {"/job:ps/replica:0/task:0/device:CPU:0;1;/job:worker/replica:0/task:0/device:CPU:0;y:0;0:0",
       big},
      {"small", Tensor::Scalar<int32_t>(7)},
      {"strings", Tensor::Vector<tstring>({"", "ab"})}};
  RunGraphResponse fields;
  fields.set_status_code(error::OK);
  fields.add_partition_graph()->add_node()->set_name("n");
  auto flatten = [](const ::grpc::ByteBuffer& bb) {
    std::vector<::grpc::Slice> slices;
    std::string bytes;
    if (bb.Dump(&slices).ok()) {
      for (auto& s : slices) bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
    }
    return bytes;
  };
  ::grpc::ByteBuffer bb;
  EncodeRunGraphResponse(fields, values, &bb);
  Write(out, "run_graph_recv_list", std::string(1, '\x01') + flatten(bb));
  Write(out, "run_graph_handoff", std::string(1, '\x03') + flatten(bb));
  EncodeRecvTensorResponse(big, false, &bb);
  Write(out, "recv_tensor_float", std::string(1, '\x00') + flatten(bb));
  EncodeRecvTensorResponse(Tensor::Vector<tstring>({"x"}), false, &bb);
  Write(out, "recv_tensor_string", std::string(1, '\x00') + flatten(bb));
}

}  // namespace
}  // namespace sg

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make_fuzz_seeds SOURCE_DIR OUT_DIR\n";
    return 2;
  }
  const std::string src = argv[1], out = argv[2];
  mkdir(out.c_str(), 0755);
  sg::GraphSeeds(src, out + "/graph");
  sg::TensorSeeds(out + "/tensor_proto");
  sg::CheckpointSeeds(src, out + "/checkpoint");
  sg::SavedModelSeeds(src, out + "/saved_model");
  sg::MasterAndWorkerSeeds(src, out + "/master", out + "/worker");
  sg::WireSeeds(out + "/wire");
  std::cout << "make_fuzz_seeds: wrote " << out << "\n";
  return 0;
}
