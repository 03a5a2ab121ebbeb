#include "tools/freeze_cmd.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <google/protobuf/descriptor.h>

#include "sg/c_api.h"
#include "tools/cmd_error.h"
#include "tools/freeze_handles.h"
#include "tools/npy_tensor.h"
#include "tools/proto_types.h"

namespace sg_tool {
namespace {

namespace pb = google::protobuf;

bool IsVariable(const std::string& op) {
  return op == "VariableV2" || op == "Variable" || op == "VarHandleOp";
}

// The "type" of attr `key` of `node`, or -1.
int AttrType(pb::Message* node, const std::string& key) {
  pb::Message* v = MapValue(node, "attr", key);
  if (v == nullptr) return -1;
  return v->GetReflection()->GetEnumValue(*v, Field(*v, "type"));
}

void SetEnum(pb::Message* m, const char* field, int value) {
  m->GetReflection()->SetEnumValue(m, Field(*m, field), value);
}

// Owners of the C API objects of one restore.
struct Restore {
  SG_Status* status = SG_NewStatus();
  SG_Graph* graph = SG_NewGraph();
  ~Restore() {
    SG_DeleteGraph(graph);
    SG_DeleteStatus(status);
  }
  void Check(const std::string& context) {
    if (SG_GetCode(status) != SG_OK) CmdFail(SG_GetCode(status), context + SG_Message(status));
  }
};

SG_Operation* StringConst(Restore* r, const char* name, const std::vector<int64_t>& dims,
                          const std::vector<std::string>& items) {
  std::string error;
  SG_Tensor* t = NewStringTensor(dims, items, &error);
  if (t == nullptr) CmdFail(SG_INTERNAL, error);
  SG_OperationDescription* d = SG_NewOperation(r->graph, "Const", name);
  SG_SetAttrType(d, "dtype", SG_STRING);
  SG_SetAttrTensor(d, "value", t, r->status);
  SG_DeleteTensor(t);
  r->Check("restore: ");
  SG_Operation* op = SG_FinishOperation(d, r->status);
  r->Check("restore: ");
  return op;
}

// Reads `keys` of dtypes `dtypes` from checkpoint `prefix` with sg's RestoreV2 kernel. The caller
// deletes the tensors.
std::vector<SG_Tensor*> ReadCheckpoint(const std::string& prefix,
                                       const std::vector<std::string>& keys,
                                       const std::vector<SG_DataType>& dtypes) {
  Restore r;
  const int64_t n = static_cast<int64_t>(keys.size());
  SG_Operation* p = StringConst(&r, "prefix", {}, {prefix});
  SG_Operation* names = StringConst(&r, "names", {n}, keys);
  SG_Operation* slices = StringConst(&r, "slices", {n}, std::vector<std::string>(keys.size()));
  SG_OperationDescription* d = SG_NewOperation(r.graph, "RestoreV2", "restore");
  SG_AddInput(d, SG_Output{p, 0});
  SG_AddInput(d, SG_Output{names, 0});
  SG_AddInput(d, SG_Output{slices, 0});
  SG_SetAttrTypeList(d, "dtypes", dtypes.data(), static_cast<int>(dtypes.size()));
  SG_Operation* restore = SG_FinishOperation(d, r.status);
  r.Check("restore: ");
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess = SG_NewSession(r.graph, opts, r.status);
  SG_DeleteSessionOptions(opts);
  r.Check("restore: ");
  std::vector<SG_Output> outs;
  for (int i = 0; i < static_cast<int>(n); ++i) outs.push_back(SG_Output{restore, i});
  std::vector<SG_Tensor*> values(keys.size(), nullptr);
  SG_SessionRun(sess, nullptr, nullptr, nullptr, 0, outs.data(), values.data(),
                static_cast<int>(n), nullptr, 0, nullptr, r.status);
  const SG_Code code = SG_GetCode(r.status);
  const std::string message = SG_Message(r.status);
  SG_Status* close = SG_NewStatus();
  SG_CloseSession(sess, close);
  SG_DeleteSession(sess, close);
  SG_DeleteStatus(close);
  if (code != SG_OK) CmdFail(code, "reading checkpoint '" + prefix + "': " + message);
  return values;
}

// Reads the variables `names` (of `dtypes`; VarHandleOps where `resource`, else VariableV2s) of
// SavedModel `dir` as it loads with SG_LoadSessionFromSavedModel, which restores them as
// TensorFlow's loader does (the MetaGraph's restore op, so TensorFlow 2's object-based checkpoint
// keys too): a ReadVariableOp or Identity of each is added to the loaded graph and run. The caller
// deletes the tensors.
std::vector<SG_Tensor*> ReadLoadedVariables(const std::string& dir,
                                            const std::vector<std::string>& tags,
                                            const std::vector<std::string>& names,
                                            const std::vector<SG_DataType>& dtypes,
                                            const std::vector<bool>& resource) {
  Restore r;
  std::vector<const char*> t;
  for (const auto& tag : tags) t.push_back(tag.c_str());
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess = SG_LoadSessionFromSavedModel(opts, nullptr, dir.c_str(), t.data(),
                                                  static_cast<int>(t.size()), r.graph, nullptr,
                                                  r.status);
  SG_DeleteSessionOptions(opts);
  r.Check("loading SavedModel '" + dir + "': ");
  struct Closer {
    SG_Session* sess;
    ~Closer() {
      SG_Status* s = SG_NewStatus();
      SG_CloseSession(sess, s);
      SG_DeleteSession(sess, s);
      SG_DeleteStatus(s);
    }
  } closer{sess};
  std::vector<SG_Output> reads;
  for (size_t i = 0; i < names.size(); ++i) {
    SG_Operation* var = SG_GraphOperationByName(r.graph, names[i].c_str());
    if (var == nullptr) CmdFail(SG_INTERNAL, "the loaded SavedModel has no '" + names[i] + "'");
    const std::string name = "sg_freeze/read_" + std::to_string(i);
    SG_OperationDescription* d =
        SG_NewOperation(r.graph, resource[i] ? "ReadVariableOp" : "Identity", name.c_str());
    SG_AddInput(d, SG_Output{var, 0});
    SG_SetAttrType(d, resource[i] ? "dtype" : "T", dtypes[i]);
    SG_Operation* op = SG_FinishOperation(d, r.status);
    r.Check("reading variable '" + names[i] + "': ");
    reads.push_back(SG_Output{op, 0});
  }
  std::vector<SG_Tensor*> values(names.size(), nullptr);
  SG_SessionRun(sess, nullptr, nullptr, nullptr, 0, reads.data(), values.data(),
                static_cast<int>(reads.size()), nullptr, 0, nullptr, r.status);
  r.Check("reading the variables of SavedModel '" + dir + "': ");
  return values;
}

// Fills `tensor` (an sg.TensorProto) from `t`.
void ToTensorProto(const SG_Tensor* t, pb::Message* tensor) {
  const pb::Reflection* r = tensor->GetReflection();
  SetEnum(tensor, "dtype", SG_TensorType(t));
  pb::Message* shape = r->MutableMessage(tensor, Field(*tensor, "tensor_shape"));
  for (int i = 0; i < SG_NumDims(t); ++i) {
    pb::Message* dim = shape->GetReflection()->AddMessage(shape, Field(*shape, "dim"));
    dim->GetReflection()->SetInt64(dim, Field(*dim, "size"), SG_Dim(t, i));
  }
  if (SG_TensorType(t) == SG_STRING) {
    std::vector<std::string> items;
    std::string error;
    if (!StringTensorItems(t, &items, &error)) CmdFail(SG_DATA_LOSS, error);
    for (const std::string& s : items) r->AddString(tensor, Field(*tensor, "string_val"), s);
    return;
  }
  r->SetString(tensor, Field(*tensor, "tensor_content"),
               std::string(static_cast<const char*>(SG_TensorData(t)), SG_TensorByteSize(t)));
}

struct Args {
  std::string graph, saved_model, checkpoint, out;
  std::vector<std::string> tags, outputs;
};

std::vector<std::string> SplitComma(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) v.push_back(item);
  }
  return v;
}

Args ParseArgs(const std::vector<std::string>& a) {
  Args args;
  for (size_t i = 0; i < a.size(); ++i) {
    auto value = [&]() -> const std::string& {
      if (i + 1 >= a.size()) CmdFail(SG_INVALID_ARGUMENT, a[i] + " needs a value");
      return a[++i];
    };
    if (a[i] == "--graph") {
      args.graph = value();
    } else if (a[i] == "--saved_model") {
      args.saved_model = value();
    } else if (a[i] == "--tag") {
      for (const auto& t : SplitComma(value())) args.tags.push_back(t);
    } else if (a[i] == "--checkpoint") {
      args.checkpoint = value();
    } else if (a[i] == "--outputs") {
      for (const auto& o : SplitComma(value())) args.outputs.push_back(o);
    } else if (a[i] == "--out") {
      args.out = value();
    } else {
      CmdFail(SG_INVALID_ARGUMENT, "freeze: unexpected argument '" + a[i] + "'");
    }
  }
  if (args.graph.empty() == args.saved_model.empty()) {
    CmdFail(SG_INVALID_ARGUMENT, "freeze needs one of --graph G.pb and --saved_model DIR");
  }
  if (args.checkpoint.empty() && args.saved_model.empty()) {
    CmdFail(SG_INVALID_ARGUMENT, "freeze --graph needs --checkpoint PREFIX");
  }
  if (args.outputs.empty()) CmdFail(SG_INVALID_ARGUMENT, "freeze needs --outputs a,b");
  if (args.out.empty()) CmdFail(SG_INVALID_ARGUMENT, "freeze needs --out FILE.pb");
  if (args.tags.empty()) args.tags = {"serve"};
  return args;
}

int Freeze(const std::vector<std::string>& a) {
  const Args args = ParseArgs(a);
  auto graph = NewMessage("sg.GraphDef");
  std::string error;
  const bool read = args.graph.empty()
                        ? ReadSavedModelGraph(args.saved_model, args.tags, graph.get(), &error)
                        : ReadProtoFile(args.graph, graph.get(), &error);
  if (!read) CmdFail(SG_INVALID_ARGUMENT, error);
  const pb::Reflection* gr = graph->GetReflection();
  const pb::FieldDescriptor* node_f = Field(*graph, "node");
  const int total = gr->FieldSize(*graph, node_f);
  std::map<std::string, int> index;
  for (int i = 0; i < total; ++i) {
    index[StringField(gr->GetRepeatedMessage(*graph, node_f, i), "name")] = i;
  }

  // What the outputs need, through data and control inputs.
  std::vector<bool> keep(total, false);
  std::vector<int> stack;
  for (const std::string& o : args.outputs) {
    auto it = index.find(NodeOf(o));
    if (it == index.end()) CmdFail(SG_NOT_FOUND, "--outputs: the graph has no node '" + NodeOf(o) + "'");
    stack.push_back(it->second);
  }
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    if (keep[i]) continue;
    keep[i] = true;
    const pb::Message& node = gr->GetRepeatedMessage(*graph, node_f, i);
    for (const std::string& in : NodeInputs(node)) {
      auto it = index.find(NodeOf(in));
      if (it == index.end()) {
        CmdFail(SG_INVALID_ARGUMENT, "node '" + StringField(node, "name") + "' has input '" + in +
                                         "', which is not in the graph");
      }
      stack.push_back(it->second);
    }
  }

  // The variables left. A ref variable (VariableV2) is used as a tensor; the uses of a
  // VarHandleOp's handle are rewritten in the frozen graph (tools/freeze_handles.h).
  std::vector<int> variables;
  std::vector<std::string> keys;
  std::vector<SG_DataType> dtypes;
  std::vector<bool> resource;
  std::vector<FrozenHandle> handles;
  for (int i = 0; i < total; ++i) {
    if (!keep[i]) continue;
    pb::Message* node = gr->MutableRepeatedMessage(graph.get(), node_f, i);
    const std::string op = StringField(*node, "op");
    if (IsVariable(op)) {
      const int dt = AttrType(node, "dtype");
      if (dt <= 0) CmdFail(SG_INVALID_ARGUMENT, "variable '" + StringField(*node, "name") + "' has no dtype");
      variables.push_back(i);
      keys.push_back(StringField(*node, "name"));
      dtypes.push_back(static_cast<SG_DataType>(dt));
      resource.push_back(op == "VarHandleOp");
      if (op == "VarHandleOp") {
        const pb::Message* shape = MapValue(node, "attr", "shape");
        if (shape != nullptr) shape = &shape->GetReflection()->GetMessage(*shape, Field(*shape, "shape"));
        handles.push_back({keys.back(), dt, shape});
      }
    }
    const std::vector<std::string> inputs = NodeInputs(*node);
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (inputs[k][0] == '^') continue;
      const pb::Message& src = gr->GetRepeatedMessage(*graph, node_f, index[NodeOf(inputs[k])]);
      const std::string src_op = StringField(src, "op");
      if (!IsVariable(src_op) || src_op == "VarHandleOp") continue;
      if (op == "Assign" || op == "AssignAdd" || op == "AssignSub" || op.rfind("Scatter", 0) == 0) {
        CmdFail(SG_UNIMPLEMENTED, "node '" + StringField(*node, "name") + "' (" + op +
                                      ") uses variable '" + StringField(src, "name") +
                                      "' in a way a constant cannot stand for; the outputs " +
                                      "must need only reads of the variables");
      }
    }
  }

  // The frozen graph: the kept nodes in their order, the uses of the handles rewritten; the
  // variables become constants once their values are read.
  auto frozen = NewMessage("sg.GraphDef");
  frozen->CopyFrom(*graph);
  const pb::Reflection* fr = frozen->GetReflection();
  fr->ClearField(frozen.get(), node_f);
  std::map<int, int> frozen_at;  // graph node -> frozen node
  for (int i = 0; i < total; ++i) {
    if (!keep[i]) continue;
    frozen_at[i] = fr->FieldSize(*frozen, node_f);
    fr->AddMessage(frozen.get(), node_f)->CopyFrom(gr->GetRepeatedMessage(*graph, node_f, i));
  }
  ConvertHandleUses(frozen.get(), handles);

  std::vector<SG_Tensor*> values;
  if (!variables.empty()) {
    values = args.checkpoint.empty()
                 ? ReadLoadedVariables(args.saved_model, args.tags, keys, dtypes, resource)
                 : ReadCheckpoint(args.checkpoint, keys, dtypes);
  }
  struct Cleanup {
    std::vector<SG_Tensor*>* v;
    ~Cleanup() {
      for (SG_Tensor* t : *v) SG_DeleteTensor(t);
    }
  } cleanup{&values};

  for (size_t v = 0; v < variables.size(); ++v) {
    pb::Message* out = fr->MutableRepeatedMessage(frozen.get(), node_f, frozen_at[variables[v]]);
    const std::string name = StringField(*out, "name"), device = StringField(*out, "device");
    out->Clear();
    const pb::Reflection* r = out->GetReflection();
    r->SetString(out, Field(*out, "name"), name);
    r->SetString(out, Field(*out, "op"), "Const");
    r->SetString(out, Field(*out, "device"), device);
    SetEnum(AddMapValue(out, "attr", "dtype"), "type", SG_TensorType(values[v]));
    pb::Message* value = AddMapValue(out, "attr", "value");
    ToTensorProto(values[v], value->GetReflection()->MutableMessage(value, Field(*value, "tensor")));
  }
  PruneLibrary(frozen.get());
  if (!WriteProtoFile(args.out, *frozen, &error)) CmdFail(SG_INVALID_ARGUMENT, error);
  int kept = 0;
  for (bool k : keep) kept += k;
  std::printf("froze %zu variables into constants; kept %d of %d nodes -> %s\n", variables.size(),
              kept, total, args.out.c_str());
  for (const std::string& k : keys) std::printf("  %s\n", k.c_str());
  return 0;
}

}  // namespace

int FreezeMain(const std::vector<std::string>& args) {
  return Guarded([&] { return Freeze(args); });
}

}  // namespace sg_tool
