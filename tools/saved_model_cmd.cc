#include "tools/saved_model_cmd.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "sg/c_api.h"
#include "tools/dot_output.h"
#include "tools/cmd_error.h"
#include "tools/file_util.h"
#include "tools/half_float.h"
#include "tools/npy.h"
#include "tools/npy_tensor.h"
#include "tools/step_runner.h"
#include "tools/values.h"

namespace sg_tool {
namespace {

// ---- A minimal protobuf wire reader: the tool sees libsg's C API only, so it reads the few
// MetaGraphDef fields it prints (field numbers as TensorFlow's meta_graph.proto) itself. -------

class Wire {
 public:
  explicit Wire(const std::string& bytes) : p_(bytes.data()), end_(p_ + bytes.size()) {}
  bool Done() const { return p_ >= end_; }
  // Next field: its number, wire type, and (length-delimited) bytes or (varint) value.
  void Next(int* field, int* type, std::string* bytes, uint64_t* value) {
    const uint64_t tag = Varint();
    *field = static_cast<int>(tag >> 3);
    *type = static_cast<int>(tag & 7);
    switch (*type) {
      case 0: *value = Varint(); break;
      case 1: Skip(8); break;
      case 5: Skip(4); break;
      case 2: {
        const uint64_t n = Varint();
        if (n > static_cast<uint64_t>(end_ - p_)) Bad();
        bytes->assign(p_, n);
        p_ += n;
        break;
      }
      default: Bad();
    }
  }

 private:
  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ >= end_) Bad();
      const uint8_t b = static_cast<uint8_t>(*p_++);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    Bad();
  }
  void Skip(size_t n) {
    if (n > static_cast<size_t>(end_ - p_)) Bad();
    p_ += n;
  }
  [[noreturn]] static void Bad() {
    CmdFail(SG_INVALID_ARGUMENT, "the MetaGraphDef does not parse");
  }
  const char* p_;
  const char* end_;
};

struct TensorInfo {
  std::string name;
  int dtype = 0;
  bool unknown_rank = true;
  std::vector<int64_t> dims;
};

struct Signature {
  std::string method;
  std::map<std::string, TensorInfo> inputs, outputs;
};

struct MetaGraph {
  std::vector<std::string> tags;
  std::map<std::string, Signature> signatures;
};

TensorInfo ParseTensorInfo(const std::string& bytes) {
  TensorInfo t;
  Wire w(bytes);
  int f, type;
  std::string b;
  uint64_t v;
  while (!w.Done()) {
    w.Next(&f, &type, &b, &v);
    if (f == 1 && type == 2) t.name = b;
    if (f == 4 && type == 2) t.name = "(sparse)";
    if (f == 2 && type == 0) t.dtype = static_cast<int>(v);
    if (f == 3 && type == 2) {  // TensorShapeProto: dim = 2 {size = 1}, unknown_rank = 3
      t.unknown_rank = false;
      Wire s(b);
      while (!s.Done()) {
        s.Next(&f, &type, &b, &v);
        if (f == 3 && type == 0 && v) t.unknown_rank = true;
        if (f == 2 && type == 2) {
          Wire d(b);
          int64_t size = 0;
          while (!d.Done()) {
            d.Next(&f, &type, &b, &v);
            if (f == 1 && type == 0) size = static_cast<int64_t>(v);
          }
          t.dims.push_back(size);
        }
      }
    }
  }
  return t;
}

// A map<string, M> entry: key = 1, value = 2.
void ParseMapEntry(const std::string& bytes, std::string* key, std::string* value) {
  Wire w(bytes);
  int f, type;
  std::string b;
  uint64_t v;
  while (!w.Done()) {
    w.Next(&f, &type, &b, &v);
    if (f == 1 && type == 2) *key = b;
    if (f == 2 && type == 2) *value = b;
  }
}

MetaGraph ParseMetaGraph(const std::string& bytes) {
  MetaGraph mg;
  Wire w(bytes);
  int f, type;
  std::string b;
  uint64_t v;
  while (!w.Done()) {
    w.Next(&f, &type, &b, &v);
    if (f == 1 && type == 2) {  // MetaInfoDef: tags = 4
      Wire m(b);
      while (!m.Done()) {
        m.Next(&f, &type, &b, &v);
        if (f == 4 && type == 2) mg.tags.push_back(b);
      }
    } else if (f == 5 && type == 2) {  // signature_def map
      std::string key, value;
      ParseMapEntry(b, &key, &value);
      Signature sig;
      Wire s(value);
      while (!s.Done()) {
        s.Next(&f, &type, &b, &v);
        if ((f == 1 || f == 2) && type == 2) {
          std::string k, tv;
          ParseMapEntry(b, &k, &tv);
          (f == 1 ? sig.inputs : sig.outputs)[k] = ParseTensorInfo(tv);
        } else if (f == 3 && type == 2) {
          sig.method = b;
        }
      }
      mg.signatures[key] = std::move(sig);
    }
  }
  return mg;
}

// The tag sets of <dir>/saved_model.pb (SavedModel.meta_graphs = 2); empty for a text model.
std::vector<std::vector<std::string>> TagSets(const std::string& dir) {
  std::vector<std::vector<std::string>> sets;
  std::string bytes;
  if (!ReadWholeFile(dir + "/saved_model.pb", &bytes)) return sets;
  Wire w(bytes);
  int f, type;
  std::string b;
  uint64_t v;
  while (!w.Done()) {
    w.Next(&f, &type, &b, &v);
    if (f == 2 && type == 2) sets.push_back(ParseMetaGraph(b).tags);
  }
  return sets;
}

// ---- Loading ----------------------------------------------------------------------------------

const char* BaseTypeName(int dt) {
  const char* name = DtypeName(static_cast<SG_DataType>(dt));
  return std::strcmp(name, "invalid") == 0 ? "other" : name;
}

// TensorFlow's names; a reference (a variable's output, dtype + 100) gets "_ref".
std::string TypeName(int dt) {
  return dt > 100 ? std::string(BaseTypeName(dt - 100)) + "_ref" : BaseTypeName(dt);
}

std::string ShapeString(const TensorInfo& t) {
  if (t.unknown_rank) return "<unknown>";
  std::string s = "[";
  for (size_t i = 0; i < t.dims.size(); ++i) {
    s += (i ? "," : "") + (t.dims[i] < 0 ? std::string("?") : std::to_string(t.dims[i]));
  }
  return s + "]";
}

// A loaded model: its graph, session and MetaGraphDef.
struct Model {
  SG_Status* status = SG_NewStatus();
  SG_Graph* graph = SG_NewGraph();
  SG_Session* session = nullptr;
  MetaGraph meta;

  Model(const std::string& dir, const std::vector<std::string>& tags) {
    std::vector<const char*> t;
    for (const auto& s : tags) t.push_back(s.c_str());
    SG_SessionOptions* opts = SG_NewSessionOptions();
    SG_Buffer* buf = SG_NewBuffer();
    session = SG_LoadSessionFromSavedModel(opts, nullptr, dir.c_str(), t.data(),
                                           static_cast<int>(t.size()), graph, buf, status);
    SG_DeleteSessionOptions(opts);
    std::string bytes;
    if (session != nullptr) {
      bytes.assign(static_cast<const char*>(buf->data), buf->length);
    }
    SG_DeleteBuffer(buf);
    if (session == nullptr) {
      const SG_Code code = SG_GetCode(status);
      const std::string message = SG_Message(status);
      Release();
      CmdFail(code, message);
    }
    meta = ParseMetaGraph(bytes);
  }
  ~Model() { Release(); }
  void Release() {
    if (session != nullptr) {
      SG_CloseSession(session, status);
      SG_DeleteSession(session, status);
      session = nullptr;
    }
    if (graph != nullptr) SG_DeleteGraph(graph);
    graph = nullptr;
    if (status != nullptr) SG_DeleteStatus(status);
    status = nullptr;
  }
};

SG_Output FindTensor(SG_Graph* g, const std::string& name) {
  std::string op = name;
  int index = 0;
  const size_t colon = name.rfind(':');
  if (colon != std::string::npos) {
    op = name.substr(0, colon);
    index = std::atoi(name.c_str() + colon + 1);
  }
  SG_Operation* o = SG_GraphOperationByName(g, op.c_str());
  if (o == nullptr) CmdFail(SG_NOT_FOUND, "the model's graph has no tensor '" + name + "'");
  return SG_Output{o, index};
}

// ---- Inputs and outputs ------------------------------------------------------------------------

SG_Tensor* MakeInput(const std::string& key, const TensorInfo& info, const std::string& text) {
  std::vector<int64_t> dims;
  bool have_shape = false;
  if (!text.empty() && text[0] == '@') {
    NpyArray npy;
    std::string error;
    if (!ReadNpy(text.substr(1), &npy, &error)) {
      CmdFail(SG_INVALID_ARGUMENT, "--input " + key + ": " + error);
    }
    const SG_DataType want = static_cast<SG_DataType>(info.dtype);
    if (!NpyFeeds(npy.dtype, want)) {
      CmdFail(SG_INVALID_ARGUMENT, "--input " + key + " is " + TypeName(info.dtype) + " but " +
                                    text.substr(1) + " holds " + TypeName(npy.dtype));
    }
    SG_Tensor* t = TensorFromNpy(npy, want, &error);
    if (t == nullptr) CmdFail(SG_INVALID_ARGUMENT, "--input " + key + ": " + error);
    return t;
  }
  Literal lit;
  std::string error;
  if (!ParseLiteral(text, &lit, &error)) {
    CmdFail(SG_INVALID_ARGUMENT, "--input " + key + ": " + error);
  }
  if (lit.any_quoted && info.dtype != SG_STRING) {
    CmdFail(SG_INVALID_ARGUMENT, "--input " + key + " is " + TypeName(info.dtype) +
                                  ", but its value holds a quoted string");
  }
  dims = lit.dims;
  have_shape = lit.form != Literal::kFlat;
  const std::vector<std::string>& items = lit.items;
  const int64_t n = static_cast<int64_t>(items.size());
  if (!have_shape) {
    // The signature's shape, its one unknown dim sized from the count; else a vector.
    int unknown = 0;
    int64_t known = 1;
    for (int64_t d : info.dims) {
      if (d < 0) ++unknown; else known *= d;
    }
    if (!info.unknown_rank && unknown <= 1 && known > 0 && n % known == 0 &&
        (unknown == 1 || known == n)) {
      for (int64_t d : info.dims) dims.push_back(d < 0 ? n / known : d);
    } else {
      dims = {n};
    }
  }
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  if (count != n) {
    CmdFail(SG_INVALID_ARGUMENT, "--input " + key + ": " + std::to_string(n) +
                                  " values do not fill the shape");
  }
  const int dt = info.dtype;
  if (dt == SG_STRING) {
    SG_Tensor* t = NewStringTensor(dims, items, &error);
    if (t == nullptr) CmdFail(SG_INVALID_ARGUMENT, "--input " + key + ": " + error);
    return t;
  }
  const SG_DataType type = static_cast<SG_DataType>(dt);
  const size_t size = SG_DataTypeSize(type);
  if (size == 0) CmdFail(SG_UNIMPLEMENTED, "--input of dtype " + TypeName(dt));
  std::string data(size * n, '\0');
  for (int64_t i = 0; i < n; ++i) {
    if (!ParseElement(items[i], type, &data[size * i], &error)) {
      CmdFail(SG_INVALID_ARGUMENT, "--input " + key + ": " + error);
    }
  }
  SG_Tensor* t = SG_AllocateTensor(type, dims.data(), static_cast<int>(dims.size()), data.size());
  if (t == nullptr) CmdFail(SG_INVALID_ARGUMENT, "--input " + key + ": cannot make the tensor");
  if (!data.empty()) std::memcpy(SG_TensorData(t), data.data(), data.size());
  return t;
}

// Prints "KEY (TENSOR): dtype [shape]" and the values. false with `error` for a string tensor
// whose encoding is malformed (nothing is printed then).
bool PrintOutput(const std::string& key, const std::string& tensor, SG_Tensor* t,
                 std::string* error) {
  const int dt = SG_TensorType(t);
  std::vector<std::string> strings;
  if (dt == SG_STRING && !StringTensorItems(t, &strings, error)) return false;
  std::string shape = "[";
  for (int i = 0; i < SG_NumDims(t); ++i) shape += (i ? "," : "") + std::to_string(SG_Dim(t, i));
  shape += "]";
  std::printf("%s (%s): %s %s\n  ", key.c_str(), tensor.c_str(), TypeName(dt).c_str(),
              shape.c_str());
  const int64_t n = SG_TensorElementCount(t);
  const char* p = static_cast<const char*>(SG_TensorData(t));
  for (int64_t i = 0; i < n; ++i) {
    if (i) std::printf(" ");
    switch (dt) {
      case SG_FLOAT: { float v; std::memcpy(&v, p + 4 * i, 4); std::printf("%.9g", v); break; }
      case SG_DOUBLE: { double v; std::memcpy(&v, p + 8 * i, 8); std::printf("%.17g", v); break; }
      case SG_INT32: { int32_t v; std::memcpy(&v, p + 4 * i, 4); std::printf("%" PRId32, v); break; }
      case SG_INT64: { int64_t v; std::memcpy(&v, p + 8 * i, 8); std::printf("%" PRId64, v); break; }
      case SG_BOOL: std::printf("%s", p[i] ? "true" : "false"); break;
      case SG_HALF: { uint16_t v; std::memcpy(&v, p + 2 * i, 2); std::printf("%.5g", HalfToFloat(v)); break; }
      case SG_BFLOAT16: { uint16_t v; std::memcpy(&v, p + 2 * i, 2); std::printf("%.4g", Bfloat16ToFloat(v)); break; }
      case SG_STRING:
        std::printf("\"%.*s\"", static_cast<int>(strings[i].size()), strings[i].data());
        break;
      default: std::printf("?");
    }
  }
  std::printf("\n");
  return true;
}

std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

template <typename Map>
std::string Keys(const Map& m) {
  std::vector<std::string> k;
  for (const auto& e : m) k.push_back(e.first);
  return Join(k, ", ");
}

struct Args {
  std::string dir, signature = "serving_default", out_dir, trace, dot, partition_dot;
  std::vector<std::string> tags, inputs, outputs;
  int repeat = 1;
};

Args ParseArgs(const std::vector<std::string>& a, bool run) {
  Args args;
  for (size_t i = 0; i < a.size(); ++i) {
    auto value = [&]() -> const std::string& {
      if (i + 1 >= a.size()) CmdFail(SG_INVALID_ARGUMENT, a[i] + " needs a value");
      return a[++i];
    };
    if (a[i] == "--saved_model") {
      args.dir = value();
    } else if (a[i] == "--tag") {
      std::stringstream ss(value());
      std::string t;
      while (std::getline(ss, t, ',')) args.tags.push_back(t);
    } else if (run && a[i] == "--signature") {
      args.signature = value();
    } else if (run && a[i] == "--input") {
      args.inputs.push_back(value());
    } else if (run && a[i] == "--output") {
      args.outputs.push_back(value());
    } else if (run && a[i] == "--out") {
      args.out_dir = value();
    } else if (run && a[i] == "--trace") {
      args.trace = value();
    } else if (run && a[i] == "--partition-dot") {
      args.partition_dot = value();
    } else if (run && a[i] == "--repeat") {
      args.repeat = ParseRepeat(value());
    } else if (!run && a[i] == "--dot") {
      args.dot = value();
    } else {
      CmdFail(SG_INVALID_ARGUMENT, "unexpected argument '" + a[i] + "' with --saved_model");
    }
  }
  if (args.dir.empty()) CmdFail(SG_INVALID_ARGUMENT, "--saved_model needs a directory");
  if (args.tags.empty()) args.tags = {"serve"};
  return args;
}

int Run(const std::vector<std::string>& a) {
  const Args args = ParseArgs(a, true);
  Model m(args.dir, args.tags);
  auto sig_it = m.meta.signatures.find(args.signature);
  if (sig_it == m.meta.signatures.end()) {
    CmdFail(SG_NOT_FOUND, "the model has no signature '" + args.signature + "'; it has: " +
                           Keys(m.meta.signatures));
  }
  const Signature& sig = sig_it->second;
  std::vector<SG_Output> feeds;
  std::vector<SG_Tensor*> values;
  struct Cleanup {
    std::vector<SG_Tensor*>* v;
    ~Cleanup() { for (SG_Tensor* t : *v) SG_DeleteTensor(t); }
  } cleanup{&values};
  std::map<std::string, bool> given;
  for (const std::string& in : args.inputs) {
    const size_t eq = in.find('=');
    if (eq == std::string::npos || eq == 0) {
      CmdFail(SG_INVALID_ARGUMENT, "--input '" + in + "' is not KEY=VALUES");
    }
    const std::string key = in.substr(0, eq);
    auto it = sig.inputs.find(key);
    if (it == sig.inputs.end()) {
      CmdFail(SG_NOT_FOUND, "signature '" + args.signature + "' has no input '" + key +
                             "'; its inputs are: " + Keys(sig.inputs));
    }
    given[key] = true;
    TensorInfo info = it->second;
    const SG_Output out = FindTensor(m.graph, info.name);
    info.dtype = SG_OperationOutputType(out) % 100;  // the graph's dtype (not a ref)
    values.push_back(MakeInput(key, info, in.substr(eq + 1)));
    feeds.push_back(out);
  }
  for (const auto& [key, info] : sig.inputs) {
    if (!given.count(key)) {
      CmdFail(SG_INVALID_ARGUMENT,
              "signature input '" + key + "' (" + info.name + ") needs --input " + key + "=VALUES");
    }
  }
  std::vector<std::string> keys = args.outputs;
  if (keys.empty()) for (const auto& e : sig.outputs) keys.push_back(e.first);
  std::vector<SG_Output> fetches;
  for (const auto& k : keys) {
    auto it = sig.outputs.find(k);
    if (it == sig.outputs.end()) {
      CmdFail(SG_NOT_FOUND, "signature '" + args.signature + "' has no output '" + k +
                             "'; its outputs are: " + Keys(sig.outputs));
    }
    fetches.push_back(FindTensor(m.graph, it->second.name));
  }
  const Step step{m.session, feeds, values, fetches, {}};
  StepResult result =
      RunStep(step, args.repeat, !args.trace.empty() || !args.partition_dot.empty());
  if (result.code != SG_OK) {
    CmdFail(result.code, "signature '" + args.signature + "': " + result.message);
  }
  WriteRunViews(result.run_metadata, args.trace, args.partition_dot, args.dir);
  for (size_t i = 0; i < result.outputs.size(); ++i) {
    const std::string tensor = sig.outputs.at(keys[i]).name;
    SG_Tensor* t = result.outputs[i].get();
    std::string error;
    if (args.out_dir.empty()) {
      if (!PrintOutput(keys[i], tensor, t, &error)) {
        CmdFail(SG_INVALID_ARGUMENT, keys[i] + ": " + error);
      }
    } else {
      const std::string path = args.out_dir + "/" + keys[i] + ".npy";
      if (!WriteTensorNpy(path, t, &error)) CmdFail(SG_INVALID_ARGUMENT, keys[i] + ": " + error);
      std::printf("%s (%s) -> %s\n", keys[i].c_str(), tensor.c_str(), path.c_str());
    }
  }
  if (args.repeat > 1) PrintRepeatStats(result.micros, values);
  return 0;
}

int Inspect(const std::vector<std::string>& a) {
  const Args args = ParseArgs(a, false);
  const auto sets = TagSets(args.dir);
  std::printf("SavedModel: %s\n", args.dir.c_str());
  if (!sets.empty()) {
    std::printf("tag sets:\n");
    for (const auto& s : sets) std::printf("  %s\n", Join(s, ", ").c_str());
  }
  Model m(args.dir, args.tags);
  std::printf("MetaGraphDef with tags %s:\n", Join(m.meta.tags, ", ").c_str());
  for (const auto& [name, sig] : m.meta.signatures) {
    std::printf("  signature '%s' (method %s):\n", name.c_str(), sig.method.c_str());
    for (int io = 0; io < 2; ++io) {
      for (const auto& [key, t] : io == 0 ? sig.inputs : sig.outputs) {
        std::printf("    %s %s: %s %s %s\n", io == 0 ? "input " : "output", key.c_str(),
                    TypeName(t.dtype).c_str(), ShapeString(t).c_str(), t.name.c_str());
      }
    }
  }
  std::printf("variables:\n");
  size_t pos = 0;
  while (SG_Operation* op = SG_GraphNextOperation(m.graph, &pos)) {
    const std::string type = SG_OperationOpType(op);
    if (type != "VariableV2" && type != "Variable" && type != "VarHandleOp") continue;
    SG_DataType dt;
    SG_OperationGetAttrType(op, "dtype", &dt, m.status);
    TensorInfo t;
    t.dtype = SG_GetCode(m.status) == SG_OK ? dt : 0;
    const SG_AttrMetadata md = SG_OperationGetAttrMetadata(op, "shape", m.status);
    if (SG_GetCode(m.status) == SG_OK && md.total_size >= 0) {
      t.unknown_rank = false;
      t.dims.resize(md.total_size);
      SG_OperationGetAttrShape(op, "shape", t.dims.data(), static_cast<int>(md.total_size),
                               m.status);
    }
    std::printf("  %s: %s %s (%s)\n", SG_OperationName(op), TypeName(t.dtype).c_str(),
                ShapeString(t).c_str(), type.c_str());
  }
  if (!args.dot.empty()) {
    std::string error;
    const SG_Code code = WriteGraphDot(m.graph, args.dot, args.dir, &error);
    if (code != SG_OK) CmdFail(code, error);
    std::printf("graph drawn to %s\n", args.dot.c_str());
  }
  return 0;
}

}  // namespace

bool HasSavedModelFlag(const std::vector<std::string>& args) {
  return std::find(args.begin(), args.end(), "--saved_model") != args.end();
}

int RunSavedModel(const std::vector<std::string>& args) {
  return Guarded([&] { return Run(args); });
}

int InspectSavedModel(const std::vector<std::string>& args) {
  return Guarded([&] { return Inspect(args); });
}

}  // namespace sg_tool
