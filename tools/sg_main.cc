// sg: run or inspect a TensorFlow-1.x GraphDef from the command line, through libsg's C API only.
//
//   sg run GRAPH --feed NAME=VALUES|@file.npy ... --fetch NAME ... [--target NAME]
//          [--repeat N] [--config KEY=VALUE] [--out DIR] [--session_target grpc://HOST:PORT]
//          [--trace FILE.json] [--partition-dot FILE.dot|FILE.svg]
//   sg inspect GRAPH [--dot FILE.dot|FILE.svg]
//   sg inspect GRAPH --partition --fetch NAME ... [--feed NAME ...] [--target NAME]
//          [--config KEY=VALUE] [--dot FILE.dot|FILE.svg]
//   sg convert IN OUT [--strip-default-attrs]          (tools/convert_cmd.h)
//   sg freeze --graph G.pb|--saved_model DIR ...       (tools/freeze_cmd.h)
//
// GRAPH is a binary (.pb) or text (.pbtxt) GraphDef. A tensor NAME is "op" or "op:index".
// VALUES is a nested list ("[[1,2],[3,4]]"), a quoted string ('"a"'), or a comma list optionally
// after a shape ("[2,2]:1,2,3,4") (tools/values.h); the dtype is the graph's.
// Any failure prints one line "sg: <CODE>: <message>" to stderr and exits with 1 (2 for usage).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sg/c_api.h"
#include "tools/cmd_error.h"
#include "tools/convert_cmd.h"
#include "tools/file_util.h"
#include "tools/freeze_cmd.h"
#include "tools/half_float.h"
#include "tools/dot_output.h"
#include "tools/npy.h"
#include "tools/npy_tensor.h"
#include "tools/saved_model_cmd.h"
#include "tools/sg_server.h"
#include "tools/step_runner.h"
#include "tools/values.h"

namespace sg_tool {
namespace {

void Check(SG_Status* s, const std::string& context = "") {
  if (SG_GetCode(s) != SG_OK) {
    CmdFail(SG_GetCode(s), context.empty() ? SG_Message(s) : context + ": " + SG_Message(s));
  }
}

// Owners of C API handles.
struct StatusDeleter {
  void operator()(SG_Status* s) const { SG_DeleteStatus(s); }
};
struct GraphDeleter {
  void operator()(SG_Graph* g) const { SG_DeleteGraph(g); }
};
using Status = std::unique_ptr<SG_Status, StatusDeleter>;
using Graph = std::unique_ptr<SG_Graph, GraphDeleter>;
using Tensor = std::unique_ptr<SG_Tensor, TensorDeleter>;

const char* TypeName(SG_DataType dt) { return DtypeName(dt); }

std::string ShapeString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    s += dims[i] < 0 ? "?" : std::to_string(dims[i]);
  }
  return s + "]";
}

std::string ReadFile(const std::string& path) {
  std::string bytes;
  if (!ReadWholeFile(path, &bytes)) CmdFail(SG_NOT_FOUND, "cannot open '" + path + "'");
  return bytes;
}

Graph LoadGraph(const std::string& path, SG_Status* s) {
  const std::string bytes = ReadFile(path);
  Graph g(SG_NewGraph());
  SG_Buffer* buf = SG_NewBufferFromString(bytes.data(), bytes.size());
  SG_GraphImportGraphDef(g.get(), buf, nullptr, s);
  SG_DeleteBuffer(buf);
  Check(s, path);
  return g;
}

// "op" or "op:index" -> the output, NOT_FOUND when the graph has no such tensor.
SG_Output FindOutput(SG_Graph* g, const std::string& name) {
  std::string op = name;
  int index = 0;
  const size_t colon = name.rfind(':');
  if (colon != std::string::npos) {
    char* end;
    const long v = std::strtol(name.c_str() + colon + 1, &end, 10);
    if (*end == '\0' && end != name.c_str() + colon + 1) {
      op = name.substr(0, colon);
      index = static_cast<int>(v);
    }
  }
  SG_Operation* oper = SG_GraphOperationByName(g, op.c_str());
  if (oper == nullptr) CmdFail(SG_NOT_FOUND, "the graph has no operation '" + op + "'");
  if (index < 0 || index >= SG_OperationNumOutputs(oper)) {
    CmdFail(SG_NOT_FOUND,
            "operation '" + op + "' has " + std::to_string(SG_OperationNumOutputs(oper)) +
                           " outputs, so there is no tensor '" + name + "'");
  }
  return SG_Output{oper, index};
}

// The static shape of `out`, or nullopt-like {false, {}} when its rank is unknown.
std::pair<bool, std::vector<int64_t>> StaticShape(SG_Graph* g, SG_Output out, SG_Status* s) {
  const int rank = SG_GraphGetTensorNumDims(g, out, s);
  Check(s);
  if (rank < 0) return {false, {}};
  std::vector<int64_t> dims(rank);
  SG_GraphGetTensorShape(g, out, dims.data(), rank, s);
  Check(s);
  return {true, dims};
}

// Parses one value of `dt` from `text` into `dst` (tools/values.h).
void ParseValue(const std::string& text, SG_DataType dt, char* dst, const std::string& feed) {
  std::string error;
  if (!ParseElement(text, dt, dst, &error)) {
    CmdFail(dt == SG_STRING || SG_DataTypeSize(dt) == 0 ? SG_UNIMPLEMENTED : SG_INVALID_ARGUMENT,
            "feed '" + feed + "': " + error);
  }
}

// A feed "NAME=VALUES" or "NAME=@file.npy" as a tensor of the graph's dtype.
std::pair<SG_Output, Tensor> ParseFeed(SG_Graph* g, const std::string& arg, SG_Status* s) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) {
    CmdFail(SG_INVALID_ARGUMENT, "--feed '" + arg + "' is not NAME=VALUES or NAME=@file.npy");
  }
  const std::string name = arg.substr(0, eq);
  std::string value = arg.substr(eq + 1);
  const SG_Output out = FindOutput(g, name);
  const SG_DataType dt = SG_OperationOutputType(out);
  if (!value.empty() && value[0] == '@') {
    NpyArray npy;
    std::string error;
    if (!ReadNpy(value.substr(1), &npy, &error)) {
      CmdFail(SG_INVALID_ARGUMENT, "feed '" + name + "': " + error);
    }
    if (!NpyFeeds(npy.dtype, dt)) {
      CmdFail(SG_INVALID_ARGUMENT, "feed '" + name + "' is " + TypeName(dt) + " but " +
                                    value.substr(1) + " holds " + TypeName(npy.dtype));
    }
    Tensor t(TensorFromNpy(npy, dt, &error));
    if (!t) CmdFail(SG_INVALID_ARGUMENT, "feed '" + name + "': " + error);
    return {out, std::move(t)};
  }
  Literal lit;
  std::string error;
  if (!ParseLiteral(value, &lit, &error)) {
    CmdFail(SG_INVALID_ARGUMENT, "feed '" + name + "': " + error);
  }
  if (lit.any_quoted && dt != SG_STRING) {
    CmdFail(SG_INVALID_ARGUMENT, "feed '" + name + "' is " + TypeName(dt) +
                                  ", but its value holds a quoted string");
  }
  std::vector<int64_t> dims = lit.dims;
  const std::vector<std::string>& items = lit.items;
  const bool have_shape = lit.form != Literal::kFlat;
  if (!have_shape) {
    // The graph's shape when it is fully known and fits, else a scalar or a vector.
    auto known = StaticShape(g, out, s);
    int64_t n = 1;
    bool full = known.first;
    for (int64_t d : known.second) {
      if (d < 0) full = false;
      n *= d;
    }
    if (full && n == static_cast<int64_t>(items.size())) {
      dims = known.second;
    } else if (!(items.size() == 1 && known.first && known.second.empty())) {
      dims = {static_cast<int64_t>(items.size())};
    }
  }
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  if (n != static_cast<int64_t>(items.size())) {
    CmdFail(SG_INVALID_ARGUMENT, "feed '" + name + "': shape " + ShapeString(dims) + " needs " +
                                  std::to_string(n) + " values, got " +
                                  std::to_string(items.size()));
  }
  if (dt == SG_STRING) {
    Tensor t(NewStringTensor(dims, items, &error));
    if (!t) CmdFail(SG_INVALID_ARGUMENT, "feed '" + name + "': " + error);
    return {out, std::move(t)};
  }
  const size_t size = SG_DataTypeSize(dt);
  if (size == 0) {
    CmdFail(SG_UNIMPLEMENTED, std::string("feed '") + name + "' has dtype " + TypeName(dt));
  }
  std::string data(items.size() * size, '\0');
  for (size_t i = 0; i < items.size(); ++i) ParseValue(items[i], dt, &data[i * size], name);
  Tensor t(SG_AllocateTensor(dt, dims.data(), static_cast<int>(dims.size()), data.size()));
  if (!t) {
    CmdFail(SG_INVALID_ARGUMENT, "feed '" + name + "': cannot make a " + TypeName(dt) +
                                  " tensor of shape " + ShapeString(dims) + " from " +
                                  std::to_string(data.size()) + " bytes");
  }
  if (!data.empty()) std::memcpy(SG_TensorData(t.get()), data.data(), data.size());
  return {out, std::move(t)};
}

std::string FormatValue(SG_DataType dt, const char* p) {
  char buf[64];
  switch (dt) {
    case SG_FLOAT: { float v; std::memcpy(&v, p, 4); std::snprintf(buf, sizeof buf, "%.7g", v); break; }
    case SG_DOUBLE: { double v; std::memcpy(&v, p, 8); std::snprintf(buf, sizeof buf, "%.15g", v); break; }
    case SG_INT8: std::snprintf(buf, sizeof buf, "%d", static_cast<int>(*reinterpret_cast<const int8_t*>(p))); break;
    case SG_UINT8: std::snprintf(buf, sizeof buf, "%u", static_cast<unsigned>(*reinterpret_cast<const uint8_t*>(p))); break;
    case SG_BOOL: return *p ? "true" : "false";
    case SG_INT16: { int16_t v; std::memcpy(&v, p, 2); std::snprintf(buf, sizeof buf, "%d", v); break; }
    case SG_UINT16: { uint16_t v; std::memcpy(&v, p, 2); std::snprintf(buf, sizeof buf, "%u", v); break; }
    case SG_INT32: { int32_t v; std::memcpy(&v, p, 4); std::snprintf(buf, sizeof buf, "%" PRId32, v); break; }
    case SG_UINT32: { uint32_t v; std::memcpy(&v, p, 4); std::snprintf(buf, sizeof buf, "%" PRIu32, v); break; }
    case SG_INT64: { int64_t v; std::memcpy(&v, p, 8); std::snprintf(buf, sizeof buf, "%" PRId64, v); break; }
    case SG_UINT64: { uint64_t v; std::memcpy(&v, p, 8); std::snprintf(buf, sizeof buf, "%" PRIu64, v); break; }
    case SG_COMPLEX64: { float v[2]; std::memcpy(v, p, 8); std::snprintf(buf, sizeof buf, "(%.7g,%.7g)", v[0], v[1]); break; }
    case SG_COMPLEX128: { double v[2]; std::memcpy(v, p, 16); std::snprintf(buf, sizeof buf, "(%.15g,%.15g)", v[0], v[1]); break; }
    // Enough digits to tell any two values apart (5 for float16, 4 for bfloat16).
    case SG_HALF: { uint16_t v; std::memcpy(&v, p, 2); std::snprintf(buf, sizeof buf, "%.5g", HalfToFloat(v)); break; }
    case SG_BFLOAT16: { uint16_t v; std::memcpy(&v, p, 2); std::snprintf(buf, sizeof buf, "%.4g", Bfloat16ToFloat(v)); break; }
    default: return "?";
  }
  return buf;
}

std::vector<int64_t> Dims(const SG_Tensor* t) {
  std::vector<int64_t> dims(SG_NumDims(t));
  for (size_t i = 0; i < dims.size(); ++i) dims[i] = SG_Dim(t, static_cast<int>(i));
  return dims;
}

// Prints "NAME dtype [shape]" and the values, one row of the last dim per line.
void PrintTensor(const std::string& name, const SG_Tensor* t, SG_Status* s) {
  const SG_DataType dt = SG_TensorType(t);
  const std::vector<int64_t> dims = Dims(t);
  std::printf("%s %s %s\n", name.c_str(), TypeName(dt), ShapeString(dims).c_str());
  const int64_t n = SG_TensorElementCount(t);
  const int64_t row = dims.empty() ? 1 : std::max<int64_t>(dims.back(), 1);
  const char* data = static_cast<const char*>(SG_TensorData(t));
  std::string line;
  for (int64_t i = 0; i < n; ++i) {
    std::string v;
    if (dt == SG_STRING) {
      const char* str = nullptr;
      size_t len = 0;
      SG_StringTensorGet(t, i, &str, &len, s);
      Check(s);
      v = "\"" + std::string(str, len) + "\"";
    } else {
      v = FormatValue(dt, data + i * SG_DataTypeSize(dt));
    }
    line += (line.empty() ? "  " : " ") + v;
    if ((i + 1) % row == 0 || i + 1 == n) {
      std::printf("%s\n", line.c_str());
      line.clear();
    }
  }
}

std::string FileNameFor(const std::string& tensor) {
  std::string f = tensor;
  for (char& c : f) {
    if (c == '/' || c == ':') c = '_';
  }
  return f + ".npy";
}

// The keys that are fields of the ConfigProto without a typed setter: they are written into one
// serialized ConfigProto (concatenated messages merge), which SG_SetConfig sets before the typed
// keys apply.
bool IsProtoKey(const std::string& key) {
  return key == "round_robin_placement" || key == "graph_optimizer";
}

void ApplyConfig(SG_SessionOptions* opts, const std::string& kv, std::string* proto,
                 SG_Status* s) {
  const size_t eq = kv.find('=');
  const std::string key = kv.substr(0, eq);
  const std::string value = eq == std::string::npos ? "" : kv.substr(eq + 1);
  char* end;
  const long long v = std::strtoll(value.c_str(), &end, 10);
  if (eq == std::string::npos || value.empty() || *end != '\0') {
    CmdFail(SG_INVALID_ARGUMENT, "--config '" + kv + "' is not KEY=INTEGER");
  }
  if (key == "intra_op_threads") {
    SG_SetIntraOpParallelismThreads(opts, static_cast<int>(v), s);
  } else if (key == "inter_op_threads") {
    SG_SetInterOpParallelismThreads(opts, static_cast<int>(v), s);
  } else if (key == "timeout_ms") {
    SG_SetOperationTimeoutInMs(opts, v, s);
  } else if (key == "cpu_devices") {
    SG_SetDeviceCount(opts, "CPU", static_cast<int>(v), s);
  } else if (key == "round_robin_placement") {
    // ConfigProto.experimental (field 16) holding sg_round_robin_placement (field 1000) = v != 0.
    const unsigned char bytes[] = {0x82, 0x01, 0x03, 0xC0, 0x3E,
                                   static_cast<unsigned char>(v != 0)};
    proto->append(reinterpret_cast<const char*>(bytes), sizeof(bytes));
  } else if (key == "graph_optimizer") {
    // 0: ConfigProto.graph_options (field 10) .optimizer_options (3) .opt_level (3) = L0 (-1, a
    // ten-byte varint), which turns sg's graph optimisation pass off. 1: the default (L1).
    if (v == 0) {
      const unsigned char bytes[] = {0x52, 0x0D, 0x1A, 0x0B, 0x18, 0xFF, 0xFF, 0xFF, 0xFF,
                                     0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01};
      proto->append(reinterpret_cast<const char*>(bytes), sizeof(bytes));
    }
  } else {
    CmdFail(SG_INVALID_ARGUMENT, "--config: unknown key '" + key +
                                  "' (intra_op_threads, inter_op_threads, timeout_ms, cpu_devices, "
                                  "round_robin_placement, graph_optimizer)");
  }
  Check(s, "--config " + key);
}

// A session of `g` with the options of --config KEY=VALUE ... and --session_target (empty: in
// process). The caller deletes it.
SG_Session* NewSession(SG_Graph* g, const std::vector<std::string>& configs,
                       const std::string& session_target, SG_Status* s) {
  std::unique_ptr<SG_SessionOptions, void (*)(SG_SessionOptions*)> opts(SG_NewSessionOptions(),
                                                                         SG_DeleteSessionOptions);
  // SG_SetConfig sets the whole ConfigProto: first, so that the typed keys add to it.
  std::string proto;
  auto is_proto_key = [](const std::string& c) { return IsProtoKey(c.substr(0, c.find('='))); };
  for (const auto& c : configs) {
    if (is_proto_key(c)) ApplyConfig(opts.get(), c, &proto, s);
  }
  if (!proto.empty()) {
    SG_SetConfig(opts.get(), proto.data(), proto.size(), s);
    Check(s, "--config");
  }
  for (const auto& c : configs) {
    if (!is_proto_key(c)) ApplyConfig(opts.get(), c, &proto, s);
  }
  if (!session_target.empty()) SG_SetTarget(opts.get(), session_target.c_str());
  SG_Session* sess = SG_NewSession(g, opts.get(), s);
  Check(s);
  return sess;
}

// The operations of --target NAME ..., NOT_FOUND for a name the graph does not have.
std::vector<const SG_Operation*> FindTargets(SG_Graph* g, const std::vector<std::string>& names) {
  std::vector<const SG_Operation*> targets;
  for (const auto& t : names) {
    SG_Operation* op = SG_GraphOperationByName(g, t.c_str());
    if (op == nullptr) CmdFail(SG_NOT_FOUND, "--target: the graph has no operation '" + t + "'");
    targets.push_back(op);
  }
  return targets;
}

struct RunArgs {
  std::string graph;
  std::vector<std::string> feeds, fetches, targets, configs;
  std::string session_target;  // "" runs in process; "grpc://host:port" on a cluster
  int repeat = 1;
  std::string out_dir;
  std::string trace;          // --trace FILE.json: the last run as a Chrome trace
  std::string partition_dot;  // --partition-dot FILE: the last run's partition graphs drawn
};

int Run(const RunArgs& args) {
  Status s(SG_NewStatus());
  Graph g = LoadGraph(args.graph, s.get());
  std::vector<SG_Output> inputs;
  std::vector<Tensor> owned;
  for (const auto& f : args.feeds) {
    auto feed = ParseFeed(g.get(), f, s.get());
    inputs.push_back(feed.first);
    owned.push_back(std::move(feed.second));
  }
  std::vector<SG_Tensor*> values;
  for (auto& t : owned) values.push_back(t.get());
  std::vector<SG_Output> outputs;
  for (const auto& f : args.fetches) outputs.push_back(FindOutput(g.get(), f));
  const std::vector<const SG_Operation*> targets = FindTargets(g.get(), args.targets);

  SG_Session* sess = NewSession(g.get(), args.configs, args.session_target, s.get());
  const Step step{sess, inputs, values, outputs, targets};
  StepResult result =
      RunStep(step, args.repeat, !args.trace.empty() || !args.partition_dot.empty());
  Status close_status(SG_NewStatus());
  SG_DeleteSession(sess, close_status.get());
  if (result.code != SG_OK) CmdFail(result.code, result.message);
  WriteRunViews(result.run_metadata, args.trace, args.partition_dot, args.graph);

  for (size_t i = 0; i < result.outputs.size(); ++i) {
    const SG_Tensor* t = result.outputs[i].get();
    if (args.out_dir.empty()) {
      PrintTensor(args.fetches[i], t, s.get());
      continue;
    }
    const std::string path = args.out_dir + "/" + FileNameFor(args.fetches[i]);
    std::string error;
    if (!WriteTensorNpy(path, t, &error)) {
      CmdFail(SG_INVALID_ARGUMENT, args.fetches[i] + ": " + error);
    }
    std::printf("%s %s %s -> %s\n", args.fetches[i].c_str(), TypeName(SG_TensorType(t)),
                ShapeString(Dims(t)).c_str(), path.c_str());
  }
  if (args.repeat > 1) PrintRepeatStats(result.micros, values);
  return 0;
}

int Inspect(const std::string& path, const std::string& dot) {
  Status s(SG_NewStatus());
  Graph g = LoadGraph(path, s.get());
  if (!dot.empty()) {
    std::string error;
    const SG_Code code = WriteGraphDot(g.get(), dot, path, &error);
    if (code != SG_OK) CmdFail(code, error);
  }
  std::map<std::string, int> histogram;
  std::vector<SG_Operation*> placeholders, outputs;
  size_t pos = 0;
  int total = 0;
  while (SG_Operation* op = SG_GraphNextOperation(g.get(), &pos)) {
    ++total;
    const std::string type = SG_OperationOpType(op);
    ++histogram[type];
    if (type == "Placeholder" || type == "PlaceholderV2" || type == "PlaceholderWithDefault") {
      placeholders.push_back(op);
    }
    bool consumed = SG_OperationNumControlOutputs(op) > 0;
    for (int i = 0; i < SG_OperationNumOutputs(op) && !consumed; ++i) {
      consumed = SG_OperationOutputNumConsumers(SG_Output{op, i}) > 0;
    }
    if (!consumed) outputs.push_back(op);
  }
  std::printf("graph: %s (%d operations)\n", path.c_str(), total);
  std::vector<std::pair<std::string, int>> ops(histogram.begin(), histogram.end());
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::printf("ops:\n");
  for (const auto& o : ops) std::printf("  %6d  %s\n", o.second, o.first.c_str());
  auto describe = [&](SG_Operation* op) {
    std::string line = std::string("  ") + SG_OperationName(op);
    for (int i = 0; i < SG_OperationNumOutputs(op); ++i) {
      const SG_Output out{op, i};
      auto shape = StaticShape(g.get(), out, s.get());
      line += std::string(i == 0 ? "  " : ", ") + (SG_OperationNumOutputs(op) > 1 ? ":" + std::to_string(i) + " " : "") +
              TypeName(SG_OperationOutputType(out)) + " " +
              (shape.first ? ShapeString(shape.second) : "<unknown>");
    }
    if (SG_OperationNumOutputs(op) == 0) line += "  (no outputs)";
    std::printf("%s  (%s)\n", line.c_str(), SG_OperationOpType(op));
  };
  std::printf("placeholders:\n");
  for (SG_Operation* op : placeholders) describe(op);
  std::printf("likely outputs (consumed by no other operation):\n");
  for (SG_Operation* op : outputs) describe(op);
  if (!dot.empty()) std::printf("graph drawn to %s\n", dot.c_str());
  return 0;
}

// `sg inspect GRAPH --partition`: the step of these feeds, fetches and targets placed and
// partitioned by a session without running it (SG_SessionGetPartitionGraphs), summarised per
// device and drawn to `dot` when it is not empty.
struct PartitionArgs {
  std::string graph, dot;
  std::vector<std::string> feeds;  // tensor names; "NAME=VALUES" as sg run takes them is fine
  std::vector<std::string> fetches, targets, configs;
  std::string session_target;
};

int InspectPartitions(const PartitionArgs& args) {
  Status s(SG_NewStatus());
  Graph g = LoadGraph(args.graph, s.get());
  std::vector<SG_Output> feeds, fetches;
  // Nothing runs, so a value after '=' is not read: sg run's --feed arguments can be reused.
  for (const auto& f : args.feeds) feeds.push_back(FindOutput(g.get(), f.substr(0, f.find('='))));
  for (const auto& f : args.fetches) fetches.push_back(FindOutput(g.get(), f));
  const std::vector<const SG_Operation*> targets = FindTargets(g.get(), args.targets);
  SG_Session* sess = NewSession(g.get(), args.configs, args.session_target, s.get());
  SG_Buffer* buf = SG_NewBuffer();
  SG_SessionGetPartitionGraphs(sess, feeds.data(), static_cast<int>(feeds.size()),
                               fetches.data(), static_cast<int>(fetches.size()), targets.data(),
                               static_cast<int>(targets.size()), buf, s.get());
  const SG_Code code = SG_GetCode(s.get());
  const std::string message = SG_Message(s.get());
  const std::string metadata =
      buf->length > 0 ? std::string(static_cast<const char*>(buf->data), buf->length) : "";
  SG_DeleteBuffer(buf);
  Status close_status(SG_NewStatus());
  SG_DeleteSession(sess, close_status.get());
  if (code == SG_UNIMPLEMENTED) {
    CmdFail(code, "--partition: " + message + " (sg run ... --partition-dot FILE draws a run's)");
  }
  if (code != SG_OK) CmdFail(code, "--partition: " + message);

  std::vector<PartitionSummary> parts;
  std::string error;
  SG_Code c = SummarizePartitions(metadata, &parts, &error);
  if (c != SG_OK) CmdFail(c, "--partition: " + error);
  if (!args.dot.empty()) {
    c = WritePartitionsDot(metadata, args.dot, args.graph, &error);
    if (c != SG_OK) CmdFail(c, error);
  }
  std::printf("partitions of %s: %zu\n", args.graph.c_str(), parts.size());
  for (const PartitionSummary& p : parts) {
    std::printf("  %s  %d nodes  %d _Send  %d _Recv\n", p.device.c_str(), p.nodes, p.sends,
                p.recvs);
  }
  if (!args.dot.empty()) std::printf("partitions drawn to %s\n", args.dot.c_str());
  return 0;
}

const char kUsage[] =
    "usage:\n"
    "  sg run GRAPH --feed NAME=VALUES|@file.npy ... --fetch NAME ... [--target NAME]\n"
    "         [--session_target grpc://HOST:PORT]   run on a cluster of `sg server` tasks\n"
    "         [--repeat N] [--config KEY=VALUE] [--out DIR] [--trace FILE.json]\n"
    "         [--partition-dot FILE.dot|FILE.svg]   the run's per-device partitions drawn\n"
    "  sg inspect GRAPH [--dot FILE.dot|FILE.svg]\n"
    "  sg inspect GRAPH --partition --fetch NAME ... [--feed NAME ...] [--target NAME]\n"
    "         [--config KEY=VALUE] [--dot FILE.dot|FILE.svg]   a step's partitions, not run\n"
    "  sg run --saved_model DIR [--tag serve] [--signature serving_default]\n"
    "         --input KEY=VALUES|@file.npy ... [--output KEY] [--out DIR] [--repeat N]\n"
    "         [--trace FILE.json] [--partition-dot FILE.dot|FILE.svg]\n"
    "  sg inspect --saved_model DIR [--tag serve] [--dot FILE.dot|FILE.svg]\n"
    "  sg convert IN OUT [--strip-default-attrs]   .pb <-> .pbtxt by extension\n"
    "  sg freeze --graph G.pb --checkpoint PREFIX | --saved_model DIR [--tag serve]\n"
    "         [--checkpoint PREFIX] --outputs a,b --out frozen.pb\n"
    "  sg server --cluster SPEC --job JOB --task INDEX [--tls-cert F --tls-key F --tls-ca F]\n"
    "GRAPH is a .pb or .pbtxt GraphDef; NAME is op or op:index. VALUES, in the dtype the graph\n"
    "or signature gives: nested lists ([[1,2],[3,4]]: shape [2,2]); a quoted string ('\"a b\"',\n"
    "escapes \\\" and \\\\) or a list of them ('[\"a\",\"b\"]'); bools true/false or 1/0;\n"
    "complex as 1+2j; float16/bfloat16 rounded to nearest even; or a comma list, optionally\n"
    "after a shape ([2,2]:1,2,3,4). @file.npy: any dtype sg has, strings from NumPy S or U\n"
    "arrays, float32 for bfloat16 (NumPy has none). --out writes strings as S (bytes) arrays,\n"
    "float16 as <f2 and bfloat16 as float32 (<f4, exact). --config keys: intra_op_threads,\n"
    "inter_op_threads, timeout_ms, cpu_devices, round_robin_placement (1: spread nodes over\n"
    "the devices or tasks, for trying partitioning), graph_optimizer (0: run the graph as\n"
    "written, without constant folding and fusions). --repeat N prints latency percentiles\n"
    "(min, p50, p90, p99) and runs/s (items/s with a batch dim); progress shows on a terminal.\n"
    "--trace FILE.json writes the (last) run as a Chrome trace (chrome://tracing, Perfetto).\n"
    "--dot draws the graph with Graphviz (.svg needs `dot`); over 200 nodes, by name scope.\n"
    "inspect --partition places and partitions the step of those feeds, fetches and targets as\n"
    "sg run would (--config cpu_devices=N, round_robin_placement, graph_optimizer) without\n"
    "running it: a feed is a tensor NAME (NAME=VALUES is taken too, the value unread); it prints\n"
    "each device's node and _Send/_Recv counts, and --dot draws the partitions, a cluster per\n"
    "device, each _Send joined to its _Recv. A cluster (--session_target) partitions a step\n"
    "only when it runs it (UNIMPLEMENTED here): use sg run ... --partition-dot FILE there.\n"
    "freeze --saved_model without --checkpoint restores as the SavedModel loader does, so\n"
    "TensorFlow 2 models (object-based checkpoints, variables passed to functions) freeze too.\n";

int Main(int argc, char** argv) {
  std::vector<std::string> a(argv + 1, argv + argc);
  if (a.empty() || a[0] == "-h" || a[0] == "--help") {
    std::fputs(kUsage, a.empty() ? stderr : stdout);
    return a.empty() ? 2 : 0;
  }
  if (a[0] == "server") return ServerMain(argc - 1, argv + 1);
  if (a[0] == "convert") return ConvertMain({a.begin() + 1, a.end()});
  if (a[0] == "freeze") return FreezeMain({a.begin() + 1, a.end()});
  // SavedModels: tools/saved_model_cmd.cc.
  if ((a[0] == "run" || a[0] == "inspect") && HasSavedModelFlag(a)) {
    const std::vector<std::string> rest(a.begin() + 1, a.end());
    return a[0] == "run" ? RunSavedModel(rest) : InspectSavedModel(rest);
  }
  if (a[0] == "inspect") {
    PartitionArgs args;
    bool partition = false;
    std::string step_option;  // the first option that only --partition takes
    for (size_t i = 1; i < a.size(); ++i) {
      auto value = [&]() -> const std::string& {
        if (i + 1 >= a.size()) {
          CmdFail(SG_INVALID_ARGUMENT,
                  a[i] == "--dot" ? "--dot needs a FILE.dot or FILE.svg" : a[i] + " needs a value");
        }
        return a[++i];
      };
      const std::string& opt = a[i];
      if (opt == "--dot") {
        args.dot = value();
      } else if (opt == "--partition") {
        partition = true;
      } else if (opt == "--feed" || opt == "--fetch" || opt == "--target" || opt == "--config" ||
                 opt == "--session_target") {
        if (step_option.empty()) step_option = opt;
        const std::string& v = value();
        if (opt == "--feed") args.feeds.push_back(v);
        if (opt == "--fetch") args.fetches.push_back(v);
        if (opt == "--target") args.targets.push_back(v);
        if (opt == "--config") args.configs.push_back(v);
        if (opt == "--session_target") args.session_target = v;
      } else if (opt.rfind("--", 0) == 0 || !args.graph.empty()) {
        CmdFail(SG_INVALID_ARGUMENT,
                "inspect takes one GRAPH argument, --dot FILE and --partition with its options");
      } else {
        args.graph = opt;
      }
    }
    if (args.graph.empty()) CmdFail(SG_INVALID_ARGUMENT, "inspect takes one GRAPH argument");
    if (!partition) {
      if (!step_option.empty()) {
        CmdFail(SG_INVALID_ARGUMENT, "inspect " + step_option + " goes with --partition");
      }
      return Inspect(args.graph, args.dot);
    }
    if (args.fetches.empty() && args.targets.empty()) {
      CmdFail(SG_INVALID_ARGUMENT,
              "inspect --partition needs the step: at least one --fetch or --target");
    }
    return InspectPartitions(args);
  }
  if (a[0] != "run") {
    CmdFail(SG_INVALID_ARGUMENT,
         "unknown command '" + a[0] + "' (run, inspect, convert, freeze, server)");
  }
  RunArgs args;
  for (size_t i = 1; i < a.size(); ++i) {
    auto value = [&]() -> const std::string& {
      if (i + 1 >= a.size()) CmdFail(SG_INVALID_ARGUMENT, a[i] + " needs a value");
      return a[++i];
    };
    if (a[i] == "--feed") {
      args.feeds.push_back(value());
    } else if (a[i] == "--fetch") {
      args.fetches.push_back(value());
    } else if (a[i] == "--target") {
      args.targets.push_back(value());
    } else if (a[i] == "--config") {
      args.configs.push_back(value());
    } else if (a[i] == "--out") {
      args.out_dir = value();
    } else if (a[i] == "--trace") {
      args.trace = value();
    } else if (a[i] == "--partition-dot") {
      args.partition_dot = value();
    } else if (a[i] == "--session_target") {
      args.session_target = value();
    } else if (a[i] == "--repeat") {
      args.repeat = ParseRepeat(value());
    } else if (a[i].rfind("--", 0) == 0) {
      CmdFail(SG_INVALID_ARGUMENT, "unknown option '" + a[i] + "'");
    } else if (args.graph.empty()) {
      args.graph = a[i];
    } else {
      CmdFail(SG_INVALID_ARGUMENT, "unexpected argument '" + a[i] + "'");
    }
  }
  if (args.graph.empty()) CmdFail(SG_INVALID_ARGUMENT, "run needs a GRAPH");
  if (args.fetches.empty() && args.targets.empty()) {
    CmdFail(SG_INVALID_ARGUMENT, "run needs at least one --fetch or --target");
  }
  return Run(args);
}

}  // namespace
}  // namespace sg_tool

int main(int argc, char** argv) {
  try {
    return sg_tool::Guarded([&] { return sg_tool::Main(argc, argv); });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sg: INTERNAL: %s\n", e.what());
    return 1;
  }
}
