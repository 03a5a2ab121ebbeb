// Inference latency of one model, one batch size, one intra-op thread count, in one runtime:
// the same source builds three programs (bench/CMakeLists.txt):
//   infer_bench_sg   against sg's C API (sg/tf_c_api.h, libsg)
//   infer_bench_tf   against TensorFlow's C library (SG_BENCH_TENSORFLOW: the tensorflow-cpu
//                    wheel's headers and libtensorflow_cc.so.2)
//   infer_bench_ort  against ONNX Runtime's C API (SG_BENCH_ORT: onnxruntime_c_api.h and
//                    libonnxruntime.so.1)
// bench/infer_bench.sh runs them as separate processes, interleaved, and tabulates the medians;
// bench/make_infer_models.py writes the models and, per model, the NAME.spec read here (the
// frozen GraphDef for sg and TensorFlow, the tf2onnx conversion for ONNX Runtime, the input and
// output tensor names, the range of the inputs, the output tolerance).
//
//   infer_bench_LIB --models DIR --model NAME [--batch 1] [--threads 1] [--inter 1] [--runs 100]
//                   [--max-seconds 2] [--warmup 3] [--mode latency|cold|concurrent]
//                   [--callers 8] [--out FILE]
//
// Every mode reads the model file, imports it and makes a session (timed: load_us, session_us),
// then runs once (first_run_us; cold_us is the sum, all in this fresh process). Then:
//   latency     `warmup` more runs, then up to `runs` timed runs, stopping early once
//               `max-seconds` have passed (at least 3 runs): median, p10, p90, min
//   cold        nothing more
//   concurrent  `callers` threads call Run on the one session at once: `warmup` runs each (at
//               least one), all callers side by side, then, once every caller is done with
//               those, `runs` timed runs each: throughput in inferences (batch items) per second
//               over the timed runs (the serving case's steady state; the one-time costs are
//               cold_us's) and the median latency of a call
// and prints one JSON line on stdout with the figures and the peak resident set (getrusage).
// --out writes the first run's output tensors as raw float32, concatenated, for the caller to
// compare across runtimes. The input is deterministic: the same values in every program.
//
// Threads: sg and TensorFlow get a ConfigProto (TF_SetConfig) with intra_op_parallelism_threads
// = --threads and inter_op_parallelism_threads = --inter; ONNX Runtime gets
// SetIntraOpNumThreads(--threads), SetInterOpNumThreads(--inter) and the graph optimisation
// level ORT_ENABLE_ALL. Otherwise each runtime's defaults (TensorFlow's Grappler and oneDNN on).
// --inter 0 leaves the inter-op count to the runtime, and -1 asks sg and TensorFlow to run steps
// in the caller's thread (ONNX Runtime is given 0 then: it runs sequentially on the caller's).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#if defined(SG_BENCH_ORT)
#include "onnxruntime_c_api.h"
#define SG_BENCH_LIB "ort"
#elif defined(SG_BENCH_TENSORFLOW)
#include "tensorflow/c/c_api.h"
#define SG_BENCH_LIB "tf"
#else
#include "sg/tf_c_api.h"
#define SG_BENCH_LIB "sg"
#endif

namespace {

using Clock = std::chrono::steady_clock;

double MicrosSince(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// ---- the model's spec (make_infer_models.py) ---------------------------------------------------

struct InputSpec {
  std::string tf_name, onnx_name;
  std::vector<int64_t> dims;  // -1: the batch
  float lo = 0, hi = 0;       // uniform in [lo, hi]; a constant when lo == hi
};

struct Spec {
  std::string graph, onnx;  // file names in the models directory; onnx empty: no ONNX form
  std::vector<InputSpec> inputs;
  std::vector<std::string> tf_outputs, onnx_outputs;
  double tolerance = 0;
};

bool ReadFile(const std::string& path, std::string* bytes, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  // One copy, into a string of the file's size (a stringstream would copy it twice).
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0) {
    *error = "cannot size " + path;
    return false;
  }
  bytes->resize(static_cast<size_t>(size));
  if (!in.read(bytes->data(), size)) {
    *error = "cannot read " + path;
    return false;
  }
  return true;
}

bool ParseSpec(const std::string& text, Spec* spec, std::string* error) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream f(line);
    std::string key;
    if (!(f >> key)) continue;
    bool ok = true;
    if (key == "graph") {
      ok = static_cast<bool>(f >> spec->graph);
    } else if (key == "onnx") {
      ok = static_cast<bool>(f >> spec->onnx);
    } else if (key == "input") {
      InputSpec in;
      std::string dims;
      ok = static_cast<bool>(f >> in.tf_name >> in.onnx_name >> dims >> in.lo >> in.hi);
      if (ok && dims != "scalar") {
        std::istringstream d(dims);
        std::string item;
        while (std::getline(d, item, ',')) in.dims.push_back(std::strtoll(item.c_str(), nullptr, 10));
      }
      spec->inputs.push_back(in);
    } else if (key == "output") {
      std::string tf_name, onnx_name;
      ok = static_cast<bool>(f >> tf_name >> onnx_name);
      spec->tf_outputs.push_back(tf_name);
      spec->onnx_outputs.push_back(onnx_name);
    } else if (key == "tolerance") {
      ok = static_cast<bool>(f >> spec->tolerance);
    }  // other keys: later additions, ignored
    if (!ok) {
      *error = "malformed spec line: " + line;
      return false;
    }
  }
  if (spec->graph.empty() || spec->inputs.empty() || spec->tf_outputs.empty()) {
    *error = "the spec lacks a graph, an input or an output";
    return false;
  }
  return true;
}

// The input values: the batch substituted for -1, values from a generator seeded by the input's
// position, so that the three programs feed the same numbers.
struct InputValues {
  std::vector<int64_t> dims;
  std::vector<float> data;
};

std::vector<InputValues> MakeInputs(const Spec& spec, int64_t batch) {
  std::vector<InputValues> out;
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    const InputSpec& in = spec.inputs[i];
    InputValues v;
    int64_t n = 1;
    for (int64_t d : in.dims) {
      v.dims.push_back(d < 0 ? batch : d);
      n *= v.dims.back();
    }
    std::mt19937 rng(static_cast<uint32_t>(1234 + i));
    // Not std::uniform_real_distribution: its results may differ between standard libraries.
    v.data.resize(static_cast<size_t>(n));
    for (float& x : v.data) x = in.lo + (in.hi - in.lo) * static_cast<float>(rng() >> 8) / 16777216.0f;
    out.push_back(std::move(v));
  }
  return out;
}

// ---- the runtimes: Load once, then Run from any thread ----------------------------------------

#if defined(SG_BENCH_ORT)

class Runner {
 public:
  ~Runner() {
    for (OrtValue* v : inputs_) api_->ReleaseValue(v);
    if (session_ != nullptr) api_->ReleaseSession(session_);
    if (memory_ != nullptr) api_->ReleaseMemoryInfo(memory_);
    if (env_ != nullptr) api_->ReleaseEnv(env_);
  }

  // Timed by the caller in two parts: `model` is the file's bytes (read: load_us); this makes the
  // environment and the session (session_us).
  bool Load(const Spec& spec, const std::string& model, std::vector<InputValues>* values,
            int threads, int inter, std::string* error) {
    api_ = OrtGetApiBase()->GetApi(ORT_API_VERSION);
    if (api_ == nullptr) {
      *error = "libonnxruntime does not offer API version " + std::to_string(ORT_API_VERSION);
      return false;
    }
    OrtSessionOptions* options = nullptr;
    bool ok = Check(api_->CreateEnv(ORT_LOGGING_LEVEL_WARNING, "infer_bench", &env_), error) &&
              Check(api_->CreateSessionOptions(&options), error) &&
              Check(api_->SetIntraOpNumThreads(options, threads), error) &&
              Check(api_->SetInterOpNumThreads(options, inter < 0 ? 0 : inter), error) &&
              Check(api_->SetSessionGraphOptimizationLevel(options, ORT_ENABLE_ALL), error) &&
              Check(api_->CreateSessionFromArray(env_, model.data(), model.size(), options,
                                                 &session_), error) &&
              Check(api_->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &memory_),
                    error);
    if (options != nullptr) api_->ReleaseSessionOptions(options);
    if (!ok) return false;
    for (size_t i = 0; i < values->size(); ++i) {
      InputValues& v = (*values)[i];
      OrtValue* value = nullptr;
      if (!Check(api_->CreateTensorWithDataAsOrtValue(
                     memory_, v.data.data(), v.data.size() * sizeof(float), v.dims.data(),
                     v.dims.size(), ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT, &value),
                 error)) {
        return false;
      }
      inputs_.push_back(value);
      input_names_.push_back(spec.inputs[i].onnx_name.c_str());
    }
    for (const std::string& name : spec.onnx_outputs) output_names_.push_back(name.c_str());
    return true;
  }

  // One inference; the outputs are appended to `output` when it is not null. Thread-safe.
  bool Run(std::vector<float>* output, std::string* error) {
    std::vector<OrtValue*> outs(output_names_.size(), nullptr);
    bool ok = Check(api_->Run(session_, nullptr, input_names_.data(), inputs_.data(),
                              inputs_.size(), output_names_.data(), outs.size(), outs.data()),
                    error);
    for (OrtValue* v : outs) {
      if (ok && output != nullptr) ok = Append(v, output, error);
      if (v != nullptr) api_->ReleaseValue(v);
    }
    return ok;
  }

 private:
  bool Check(OrtStatus* status, std::string* error) {
    if (status == nullptr) return true;
    *error = api_->GetErrorMessage(status);
    api_->ReleaseStatus(status);
    return false;
  }

  bool Append(OrtValue* v, std::vector<float>* output, std::string* error) {
    OrtTensorTypeAndShapeInfo* info = nullptr;
    size_t count = 0;
    ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
    float* data = nullptr;
    bool ok = Check(api_->GetTensorTypeAndShape(v, &info), error) &&
              Check(api_->GetTensorElementType(info, &type), error) &&
              Check(api_->GetTensorShapeElementCount(info, &count), error) &&
              Check(api_->GetTensorMutableData(v, reinterpret_cast<void**>(&data)), error);
    if (info != nullptr) api_->ReleaseTensorTypeAndShapeInfo(info);
    if (ok && type != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT) {
      *error = "an output is not float32";
      ok = false;
    }
    if (ok) output->insert(output->end(), data, data + count);
    return ok;
  }

  const OrtApi* api_ = nullptr;
  OrtEnv* env_ = nullptr;
  OrtSession* session_ = nullptr;
  OrtMemoryInfo* memory_ = nullptr;
  std::vector<OrtValue*> inputs_;
  std::vector<const char*> input_names_, output_names_;
};

#else  // sg or TensorFlow: the same C API

// A ConfigProto written by hand (no protobuf here): field 2 intra_op_parallelism_threads and
// field 5 inter_op_parallelism_threads, both int32 varints.
std::string ThreadConfig(int intra, int inter) {
  std::string proto;
  auto varint = [&proto](uint64_t v) {
    while (v >= 0x80) {
      proto.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    proto.push_back(static_cast<char>(v));
  };
  proto.push_back(0x10);
  varint(static_cast<uint64_t>(intra));
  proto.push_back(0x28);
  varint(static_cast<uint64_t>(inter));
  return proto;
}

class Runner {
 public:
  ~Runner() {
    for (TF_Tensor* t : inputs_) TF_DeleteTensor(t);
    TF_Status* status = TF_NewStatus();
    if (session_ != nullptr) {
      TF_CloseSession(session_, status);
      TF_DeleteSession(session_, status);
    }
    TF_DeleteStatus(status);
    TF_DeleteGraph(graph_);
  }

  // The GraphDef's import into the graph: main times it with the file's reading as load_us.
  bool Import(const std::string& model, std::string* error) {
    TF_Status* status = TF_NewStatus();
    // The file's bytes, not a copy of them (TF_NewBufferFromString would copy 98 MiB for
    // ResNet50): the buffer borrows them, with no deallocator, for the import only.
    TF_Buffer* buf = TF_NewBuffer();
    buf->data = model.data();
    buf->length = model.size();
    TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
    TF_GraphImportGraphDef(graph_, buf, opts, status);
    TF_DeleteImportGraphDefOptions(opts);
    TF_DeleteBuffer(buf);
    bool ok = Check(status, "import", error);
    TF_DeleteStatus(status);
    return ok;
  }

  bool Load(const Spec& spec, const std::string& /*model*/, std::vector<InputValues>* values,
            int threads, int inter, std::string* error) {
    for (size_t i = 0; i < spec.inputs.size(); ++i) {
      TF_Output out;
      if (!Find(spec.inputs[i].tf_name, &out, error)) return false;
      const InputValues& v = (*values)[i];
      TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, v.dims.data(), static_cast<int>(v.dims.size()),
                                       v.data.size() * sizeof(float));
      std::memcpy(TF_TensorData(t), v.data.data(), v.data.size() * sizeof(float));
      inputs_.push_back(t);
      feeds_.push_back(out);
    }
    for (const std::string& name : spec.tf_outputs) {
      TF_Output out;
      if (!Find(name, &out, error)) return false;
      fetches_.push_back(out);
    }
    TF_Status* status = TF_NewStatus();
    TF_SessionOptions* options = TF_NewSessionOptions();
    const std::string config = ThreadConfig(threads, inter);
    TF_SetConfig(options, config.data(), config.size(), status);
    bool ok = Check(status, "config", error);
    if (ok) {
      session_ = TF_NewSession(graph_, options, status);
      ok = Check(status, "session", error);
    }
    TF_DeleteSessionOptions(options);
    TF_DeleteStatus(status);
    return ok;
  }

  bool Run(std::vector<float>* output, std::string* error) {
    std::vector<TF_Tensor*> outs(fetches_.size(), nullptr);
    TF_Status* status = TF_NewStatus();
    TF_SessionRun(session_, nullptr, feeds_.data(), inputs_.data(), static_cast<int>(feeds_.size()),
                  fetches_.data(), outs.data(), static_cast<int>(outs.size()), nullptr, 0, nullptr,
                  status);
    bool ok = Check(status, "run", error);
    TF_DeleteStatus(status);
    for (TF_Tensor* t : outs) {
      if (t == nullptr) continue;
      if (ok && output != nullptr) {
        if (TF_TensorType(t) != TF_FLOAT) {
          *error = "an output is not float32";
          ok = false;
        } else {
          const float* data = static_cast<const float*>(TF_TensorData(t));
          output->insert(output->end(), data, data + TF_TensorByteSize(t) / sizeof(float));
        }
      }
      TF_DeleteTensor(t);
    }
    return ok;
  }

 private:
  static bool Check(TF_Status* status, const char* what, std::string* error) {
    if (TF_GetCode(status) == TF_OK) return true;
    *error = std::string(what) + ": " + TF_Message(status);
    return false;
  }

  bool Find(const std::string& tensor, TF_Output* out, std::string* error) {
    const size_t colon = tensor.rfind(':');
    const std::string op = tensor.substr(0, colon);
    const int index = colon == std::string::npos ? 0 : std::atoi(tensor.c_str() + colon + 1);
    TF_Operation* oper = TF_GraphOperationByName(graph_, op.c_str());
    if (oper == nullptr) {
      *error = "no operation " + op + " in the graph";
      return false;
    }
    *out = TF_Output{oper, index};
    return true;
  }

  TF_Graph* graph_ = TF_NewGraph();
  TF_Session* session_ = nullptr;
  std::vector<TF_Output> feeds_, fetches_;
  std::vector<TF_Tensor*> inputs_;
};

#endif

// ---- the command line and the measurements -----------------------------------------------------

struct Options {
  std::string models = ".", model, mode = "latency", out;
  int batch = 1, threads = 1, inter = 1, runs = 100, warmup = 3, callers = 8;
  double max_seconds = 2;
};

bool ParseArgs(int argc, char** argv, Options* o, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) {
      *error = "missing value after " + flag;
      return false;
    }
    const std::string value = argv[++i];
    if (flag == "--models") o->models = value;
    else if (flag == "--model") o->model = value;
    else if (flag == "--mode") o->mode = value;
    else if (flag == "--out") o->out = value;
    else if (flag == "--batch") o->batch = std::atoi(value.c_str());
    else if (flag == "--threads") o->threads = std::atoi(value.c_str());
    else if (flag == "--inter") o->inter = std::atoi(value.c_str());
    else if (flag == "--runs") o->runs = std::atoi(value.c_str());
    else if (flag == "--warmup") o->warmup = std::atoi(value.c_str());
    else if (flag == "--callers") o->callers = std::atoi(value.c_str());
    else if (flag == "--max-seconds") o->max_seconds = std::atof(value.c_str());
    else {
      *error = "unknown flag " + flag;
      return false;
    }
  }
  if (o->model.empty() || o->batch < 1 || o->threads < 1 || o->inter < -1 || o->runs < 1 ||
      o->warmup < 0 || o->callers < 1 ||
      (o->mode != "latency" && o->mode != "cold" && o->mode != "concurrent")) {
    *error = "usage: " + std::string(argv[0]) +
             " --models DIR --model NAME [--batch B] [--threads T] [--inter I] [--runs N]"
             " [--max-seconds S] [--warmup W] [--mode latency|cold|concurrent] [--callers C]"
             " [--out FILE]";
    return false;
  }
  return true;
}

double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(q * (v.size() - 1) + 0.5));
  return v[i];
}

long PeakRssKb() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // kilobytes on Linux
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    out += c;
  }
  return out + "\"";
}

int Fail(const Options& o, const std::string& error) {
  std::printf("{\"lib\": \"%s\", \"model\": %s, \"batch\": %d, \"threads\": %d, \"mode\": %s, "
              "\"error\": %s}\n", SG_BENCH_LIB, JsonString(o.model).c_str(), o.batch, o.threads,
              JsonString(o.mode).c_str(), JsonString(error).c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::string error;
  if (!ParseArgs(argc, argv, &o, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  std::string spec_text;
  Spec spec;
  if (!ReadFile(o.models + "/" + o.model + ".spec", &spec_text, &error) ||
      !ParseSpec(spec_text, &spec, &error)) {
    return Fail(o, error);
  }
  std::vector<InputValues> values = MakeInputs(spec, o.batch);

  // Cold start: the model file read and imported (TensorFlow's C API imports into a graph before
  // the session; ONNX Runtime parses inside its session), the session made, the first run.
  Clock::time_point t0 = Clock::now();
  std::string model;
  Runner runner;
#if defined(SG_BENCH_ORT)
  if (spec.onnx.empty()) return Fail(o, "no ONNX form of this model (see manifest.json)");
  if (!ReadFile(o.models + "/" + spec.onnx, &model, &error)) return Fail(o, error);
#else
  if (!ReadFile(o.models + "/" + spec.graph, &model, &error) || !runner.Import(model, &error)) {
    return Fail(o, error);
  }
#endif
  const double load_us = MicrosSince(t0);
  t0 = Clock::now();
  if (!runner.Load(spec, model, &values, o.threads, o.inter, &error)) return Fail(o, error);
  const double session_us = MicrosSince(t0);
  // As a server would, the file's bytes are not kept: swapped out, since assigning an empty
  // string keeps the capacity (libstdc++), and the peak resident set counted them.
  std::string().swap(model);
  std::vector<float> output;
  t0 = Clock::now();
  if (!runner.Run(&output, &error)) return Fail(o, error);
  const double first_run_us = MicrosSince(t0);

  if (!o.out.empty()) {
    FILE* f = std::fopen(o.out.c_str(), "wb");
    if (f == nullptr || std::fwrite(output.data(), sizeof(float), output.size(), f) != output.size() ||
        std::fclose(f) != 0) {
      return Fail(o, "cannot write " + o.out);
    }
  }

  std::vector<double> times;
  double wall_us = 0;
  if (o.mode == "latency") {
    for (int i = 0; i < o.warmup; ++i) {
      if (!runner.Run(nullptr, &error)) return Fail(o, error);
    }
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < o.runs; ++i) {
      t0 = Clock::now();
      if (!runner.Run(nullptr, &error)) return Fail(o, error);
      times.push_back(MicrosSince(t0));
      if (i >= 2 && MicrosSince(start) > o.max_seconds * 1e6) break;
    }
    wall_us = MicrosSince(start);
  } else if (o.mode == "concurrent") {
    std::mutex mu;
    std::condition_variable cv;
    int warm = 0;  // callers done with their warm-up runs (or failed in them)
    bool go = false;  // the timed runs may start
    Clock::time_point start;
    std::vector<std::thread> callers;
    std::vector<std::string> errors(o.callers);
    for (int c = 0; c < o.callers; ++c) {
      callers.emplace_back([&, c] {
        std::vector<double> mine;
        bool ok = true;
        for (int i = 0; i < std::max(o.warmup, 1) && ok; ++i) ok = runner.Run(nullptr, &errors[c]);
        {
          std::unique_lock<std::mutex> lock(mu);
          ++warm;
          cv.notify_all();
          cv.wait(lock, [&] { return go; });
        }
        if (!ok) return;
        for (int i = 0; i < o.runs; ++i) {
          const Clock::time_point t = Clock::now();
          if (!runner.Run(nullptr, &errors[c])) return;
          mine.push_back(MicrosSince(t));
        }
        std::lock_guard<std::mutex> lock(mu);
        times.insert(times.end(), mine.begin(), mine.end());
      });
    }
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return warm == o.callers; });
      start = Clock::now();
      go = true;
      cv.notify_all();
    }
    for (std::thread& t : callers) t.join();
    wall_us = MicrosSince(start);
    for (const std::string& e : errors) {
      if (!e.empty()) return Fail(o, e);
    }
  }

  std::printf("{\"lib\": \"%s\", \"model\": %s, \"batch\": %d, \"threads\": %d, \"inter\": %d, "
              "\"mode\": %s, \"load_us\": %.0f, \"session_us\": %.0f, \"first_run_us\": %.0f, "
              "\"cold_us\": %.0f, \"runs\": %zu, \"median_us\": %.1f, \"p10_us\": %.1f, "
              "\"p90_us\": %.1f, \"min_us\": %.1f, \"peak_rss_kb\": %ld",
              SG_BENCH_LIB, JsonString(o.model).c_str(), o.batch, o.threads, o.inter,
              JsonString(o.mode).c_str(), load_us, session_us, first_run_us,
              load_us + session_us + first_run_us, times.size(), Percentile(times, 0.5),
              Percentile(times, 0.1), Percentile(times, 0.9),
              times.empty() ? 0.0 : *std::min_element(times.begin(), times.end()), PeakRssKb());
  if (o.mode == "concurrent") {
    // Every timed call of every caller over the wall time from the end of the warm-up to the
    // last caller's end.
    std::printf(", \"callers\": %d, \"items_per_s\": %.1f", o.callers,
                static_cast<double>(o.callers) * o.runs * o.batch / (wall_us * 1e-6));
  }
  std::printf(", \"outputs\": %zu}\n", output.size());
  return 0;
}
