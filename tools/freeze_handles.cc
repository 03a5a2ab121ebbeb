#include "tools/freeze_handles.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "sg/c_api.h"
#include "tools/cmd_error.h"
#include "tools/proto_types.h"

namespace sg_tool {
namespace {

namespace pb = google::protobuf;

int Count(const pb::Message& m, const char* field) {
  return m.GetReflection()->FieldSize(m, Field(m, field));
}

pb::Message* At(pb::Message* m, const char* field, int i) {
  return m->GetReflection()->MutableRepeatedMessage(m, Field(*m, field), i);
}

pb::Message* Sub(pb::Message* m, const char* field) {
  return m->GetReflection()->MutableMessage(m, Field(*m, field));
}

void SetString(pb::Message* m, const char* field, const std::string& value) {
  m->GetReflection()->SetString(m, Field(*m, field), value);
}

pb::Message* FindFunction(pb::Message* graph, const std::string& name) {
  pb::Message* library = Sub(graph, "library");
  for (int i = 0; i < Count(*library, "function"); ++i) {
    pb::Message* f = At(library, "function", i);
    if (StringField(*Sub(f, "signature"), "name") == name) return f;
  }
  return nullptr;
}

// The function named by func attr `key` of `node`, or "".
std::string FuncAttr(pb::Message* node, const char* key) {
  pb::Message* f = MapValue(node, "attr", key);
  if (f == nullptr) return "";
  const pb::Message& func = f->GetReflection()->GetMessage(*f, Field(*f, "func"));
  return StringField(func, "name");
}

// Attr `from` of `node` renamed `to` (when it has it).
void RenameAttr(pb::Message* node, const char* from, const char* to) {
  for (int a = 0; a < Count(*node, "attr"); ++a) {
    pb::Message* e = At(node, "attr", a);
    if (StringField(*e, "key") == from) SetString(e, "key", to);
  }
}

// Sets type attr `key` of `node` to `dtype`, adding it when absent.
void SetTypeAttr(pb::Message* node, const char* key, int dtype) {
  pb::Message* v = MapValue(node, "attr", key);
  if (v == nullptr) v = AddMapValue(node, "attr", key);
  v->GetReflection()->SetEnumValue(v, Field(*v, "type"), dtype);
}

// Sets entry `index` of list(type) attr `key` of `node` to `dtype`.
void SetListTypeAttr(pb::Message* node, const char* key, int index, int dtype) {
  pb::Message* v = MapValue(node, "attr", key);
  pb::Message* list = v == nullptr ? nullptr : Sub(v, "list");
  if (list == nullptr || index >= Count(*list, "type")) {
    CmdFail(SG_INVALID_ARGUMENT, "node '" + StringField(*node, "name") + "' (" +
                                     StringField(*node, "op") + ") has no type " +
                                     std::to_string(index) + " in attr " + key);
  }
  list->GetReflection()->SetRepeatedEnumValue(list, Field(*list, "type"), index, dtype);
}

// The nodes of the graph or of one function of its library, and how a tensor is named there.
class Scope {
 public:
  explicit Scope(pb::Message* graph) : msg_(graph), nodes_("node") {}
  Scope(pb::Message* function, const std::string& name)
      : msg_(function), nodes_("node_def"), function_(name) {}

  int size() const { return Count(*msg_, nodes_); }
  pb::Message* node(int i) const { return At(msg_, nodes_, i); }
  bool is_function() const { return !function_.empty(); }
  const std::string& function() const { return function_; }
  pb::Message* function_def() const { return msg_; }
  // " of function 'f'", or "" for the graph: for messages.
  std::string Where() const { return is_function() ? " of function '" + function_ + "'" : ""; }

  // Output `port` of node `name`, which is entry `index` of its output arg `arg`: "name:port"
  // ("name" for port 0) in the graph, "name:arg:index" in a function.
  std::string Output(const std::string& name, const char* arg, int index, int port) const {
    if (is_function()) return name + ":" + arg + ":" + std::to_string(index);
    return port == 0 ? name : name + ":" + std::to_string(port);
  }

  // A data input in the form Output gives ("name:0" in the graph is "name").
  std::string Canonical(const std::string& input) const {
    if (!is_function() && input.size() > 2 && input.compare(input.size() - 2, 2, ":0") == 0) {
      return input.substr(0, input.size() - 2);
    }
    return input;
  }

  // Rewrites the uses of `from` as an input or a return value to `to`.
  void RenameUses(const std::string& from, const std::string& to) const {
    for (int n = 0; n < size(); ++n) {
      pb::Message* node = this->node(n);
      const pb::Reflection* r = node->GetReflection();
      const pb::FieldDescriptor* input = Field(*node, "input");
      for (int i = 0; i < r->FieldSize(*node, input); ++i) {
        if (Canonical(r->GetRepeatedString(*node, input, i)) == from) {
          r->SetRepeatedString(node, input, i, to);
        }
      }
    }
    if (!is_function()) return;
    for (int i = 0; i < Count(*msg_, "ret"); ++i) {
      pb::Message* e = At(msg_, "ret", i);
      if (StringField(*e, "value") == from) SetString(e, "value", to);
    }
  }

 private:
  pb::Message* msg_;
  const char* nodes_;
  std::string function_;  // empty for the graph
};

struct Var {
  std::string name;
  int dtype;
  const pb::Message* shape;
};

class Converter {
 public:
  explicit Converter(pb::Message* graph) : graph_(graph) {}

  void Variable(const FrozenHandle& v) {
    Scope graph(graph_);
    Walk(&graph, v.name, Var{v.name, v.dtype, v.shape});
  }

 private:
  // Rewrites the uses of `ref`, a tensor of `scope` that holds the handle of `var`.
  void Walk(Scope* scope, const std::string& ref, const Var& var) {
    auto seen = seen_.emplace(scope->function() + "\n" + ref, var.dtype);
    if (!seen.second) return;
    if (scope->is_function()) {
      pb::Message* f = scope->function_def();
      for (int i = 0; i < Count(*f, "ret"); ++i) {
        if (StringField(*At(f, "ret", i), "value") == ref) {
          CmdFail(SG_UNIMPLEMENTED, "function '" + scope->function() + "' returns the handle of variable '" +
                                        var.name + "' ('" + ref + "'), which a constant cannot stand for");
        }
      }
    }
    for (int n = 0; n < scope->size(); ++n) {
      pb::Message* node = scope->node(n);
      const std::vector<std::string> inputs = NodeInputs(*node);
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i][0] != '^' && scope->Canonical(inputs[i]) == ref) {
          Use(scope, node, static_cast<int>(i), var);
        }
      }
    }
  }

  // Rewrites `node` of `scope`, whose data input `k` holds the handle of `var`.
  void Use(Scope* scope, pb::Message* node, int k, const Var& var) {
    const std::string op = StringField(*node, "op");
    const std::string name = StringField(*node, "name");
    if (op == "ReadVariableOp") {
      SetString(node, "op", "Identity");
      RenameAttr(node, "dtype", "T");
      if (scope->is_function()) scope->RenameUses(name + ":value:0", name + ":output:0");
    } else if (op == "Identity") {
      SetTypeAttr(node, "T", var.dtype);
      Walk(scope, scope->Output(name, "output", 0, 0), var);
    } else if (op == "StatefulPartitionedCall" || op == "PartitionedCall") {
      SetListTypeAttr(node, "Tin", k, var.dtype);
      Argument(FuncAttr(node, "f"), k, var);
    } else {
      CmdFail(SG_UNIMPLEMENTED, "node '" + name + "' (" + op + ")" + scope->Where() + " uses variable '" +
                                    var.name + "' in a way a constant cannot stand for; the outputs " +
                                    "must need only reads of the variables");
    }
  }

  // Argument `k` of function `fname` takes the value of `var` instead of its handle.
  void Argument(const std::string& fname, int k, const Var& var) {
    auto done = arguments_.emplace(fname + "#" + std::to_string(k), var.dtype);
    if (!done.second) {
      if (done.first->second != var.dtype) {
        CmdFail(SG_UNIMPLEMENTED, "argument " + std::to_string(k) + " of function '" + fname +
                                      "' takes the handles of variables of two dtypes");
      }
      return;
    }
    pb::Message* f = FindFunction(graph_, fname);
    if (f == nullptr) CmdFail(SG_INVALID_ARGUMENT, "the library has no function '" + fname + "'");
    pb::Message* sig = Sub(f, "signature");
    if (k >= Count(*sig, "input_arg")) {
      CmdFail(SG_INVALID_ARGUMENT, "function '" + fname + "' has no argument " + std::to_string(k));
    }
    pb::Message* arg = At(sig, "input_arg", k);
    const pb::FieldDescriptor* type = Field(*arg, "type");
    if (arg->GetReflection()->GetEnumValue(*arg, type) != SG_RESOURCE) {
      CmdFail(SG_INVALID_ARGUMENT, "argument '" + StringField(*arg, "name") + "' of function '" + fname +
                                       "' is not a resource");
    }
    arg->GetReflection()->SetEnumValue(arg, type, var.dtype);
    Scope scope(f, fname);
    Walk(&scope, StringField(*arg, "name"), var);
  }

  pb::Message* graph_;
  std::map<std::string, int> seen_;       // "function\nref" walked (function "" for the graph) -> dtype
  std::map<std::string, int> arguments_;  // "function#index" converted -> dtype
};

// The function names `node` refers to: its op (when a library function) and func attrs.
void Refs(pb::Message* node, const std::set<std::string>& library, std::vector<std::string>* out) {
  const std::string op = StringField(*node, "op");
  if (library.count(op)) out->push_back(op);
  for (int a = 0; a < Count(*node, "attr"); ++a) {
    pb::Message* v = Sub(At(node, "attr", a), "value");
    const pb::Reflection* r = v->GetReflection();
    if (r->HasField(*v, Field(*v, "func"))) out->push_back(StringField(*Sub(v, "func"), "name"));
    if (r->HasField(*v, Field(*v, "list"))) {
      pb::Message* list = Sub(v, "list");
      for (int i = 0; i < Count(*list, "func"); ++i) out->push_back(StringField(*At(list, "func", i), "name"));
    }
  }
}

}  // namespace

void ConvertHandleUses(pb::Message* graph, const std::vector<FrozenHandle>& variables) {
  Converter converter(graph);
  for (const FrozenHandle& v : variables) converter.Variable(v);
}

void PruneLibrary(pb::Message* graph) {
  pb::Message* library = Sub(graph, "library");
  std::set<std::string> all;
  for (int i = 0; i < Count(*library, "function"); ++i) {
    all.insert(StringField(*Sub(At(library, "function", i), "signature"), "name"));
  }
  if (all.empty()) return;
  std::vector<std::string> stack;
  for (int n = 0; n < Count(*graph, "node"); ++n) Refs(At(graph, "node", n), all, &stack);
  std::set<std::string> used;
  while (!stack.empty()) {
    const std::string name = stack.back();
    stack.pop_back();
    if (!all.count(name) || !used.insert(name).second) continue;
    pb::Message* f = FindFunction(graph, name);
    for (int n = 0; n < Count(*f, "node_def"); ++n) Refs(At(f, "node_def", n), all, &stack);
  }
  // Keep the used functions in their order, and the gradients of kept functions.
  const pb::Reflection* r = library->GetReflection();
  for (const char* field : {"function", "gradient"}) {
    const pb::FieldDescriptor* fd = Field(*library, field);
    int kept = 0;
    for (int i = 0; i < r->FieldSize(*library, fd); ++i) {
      pb::Message* m = r->MutableRepeatedMessage(library, fd, i);
      const std::string name = std::string(field) == "function"
                                   ? StringField(*Sub(m, "signature"), "name")
                                   : StringField(*m, "function_name");
      if (!used.count(name)) continue;
      if (kept != i) r->SwapElements(library, fd, kept, i);
      ++kept;
    }
    while (r->FieldSize(*library, fd) > kept) r->RemoveLast(library, fd);
  }
}

}  // namespace sg_tool
