#include "tools/freeze_functions.h"

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

// The value of map entry `key` of the map<string, AttrValue> `field` of `m`, or nullptr.
pb::Message* MapValue(pb::Message* m, const char* field, const std::string& key) {
  for (int i = 0; i < Count(*m, field); ++i) {
    pb::Message* e = At(m, field, i);
    if (StringField(*e, "key") == key) return Sub(e, "value");
  }
  return nullptr;
}

pb::Message* FindFunction(pb::Message* graph, const std::string& name) {
  pb::Message* library = Sub(graph, "library");
  for (int i = 0; i < Count(*library, "function"); ++i) {
    pb::Message* f = At(library, "function", i);
    if (StringField(*Sub(f, "signature"), "name") == name) return f;
  }
  return nullptr;
}

// The func attr "f" of a call node.
std::string CalledFunction(pb::Message* node) {
  pb::Message* f = MapValue(node, "attr", "f");
  if (f == nullptr) return "";
  const pb::Message& func = f->GetReflection()->GetMessage(*f, Field(*f, "func"));
  return StringField(func, "name");
}

// Rewrites the uses of `from` as an input or a return value in function `f` to `to`.
void RenameUses(pb::Message* f, const std::string& from, const std::string& to) {
  const pb::FieldDescriptor* input = nullptr;
  for (int n = 0; n < Count(*f, "node_def"); ++n) {
    pb::Message* node = At(f, "node_def", n);
    if (input == nullptr) input = Field(*node, "input");
    const pb::Reflection* r = node->GetReflection();
    for (int i = 0; i < r->FieldSize(*node, input); ++i) {
      if (r->GetRepeatedString(*node, input, i) == from) r->SetRepeatedString(node, input, i, to);
    }
  }
  for (int i = 0; i < Count(*f, "ret"); ++i) {
    pb::Message* e = At(f, "ret", i);
    if (StringField(*e, "value") == from) e->GetReflection()->SetString(e, Field(*e, "value"), to);
  }
}

class Converter {
 public:
  explicit Converter(pb::Message* graph) : graph_(graph) {}

  void Call(pb::Message* call, int index, int dtype) {
    const std::string op = StringField(*call, "op");
    const std::string name = StringField(*call, "name");
    if (!IsFunctionCall(op)) {
      CmdFail(SG_UNIMPLEMENTED, "node '" + name + "' (" + op +
                                    ") takes a variable's handle; only reads and function calls of "
                                    "variables can be frozen");
    }
    pb::Message* tin = MapValue(call, "attr", "Tin");
    if (tin == nullptr) CmdFail(SG_INVALID_ARGUMENT, "call '" + name + "' has no Tin attr");
    pb::Message* list = Sub(tin, "list");
    const pb::FieldDescriptor* types = Field(*list, "type");
    if (index >= list->GetReflection()->FieldSize(*list, types)) {
      CmdFail(SG_INVALID_ARGUMENT, "call '" + name + "' has no input " + std::to_string(index));
    }
    list->GetReflection()->SetRepeatedEnumValue(list, types, index, dtype);
    Argument(CalledFunction(call), index, dtype);
  }

 private:
  void Argument(const std::string& fname, int k, int dtype) {
    if (!done_.insert(fname + "#" + std::to_string(k)).second) return;
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
    arg->GetReflection()->SetEnumValue(arg, type, dtype);
    Uses(f, fname, StringField(*arg, "name"), dtype);
  }

  // Converts the nodes of `f` that use `ref` (an argument, or an output "node:output:0").
  void Uses(pb::Message* f, const std::string& fname, const std::string& ref, int dtype) {
    for (int i = 0; i < Count(*f, "ret"); ++i) {
      if (StringField(*At(f, "ret", i), "value") == ref) {
        CmdFail(SG_UNIMPLEMENTED, "function '" + fname + "' returns the handle of a variable ('" +
                                      ref + "'), which a constant cannot stand for");
      }
    }
    for (int n = 0; n < Count(*f, "node_def"); ++n) {
      pb::Message* node = At(f, "node_def", n);
      const std::vector<std::string> inputs = NodeInputs(*node);
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i] != ref) continue;
        const std::string op = StringField(*node, "op");
        const std::string name = StringField(*node, "name");
        if (op == "ReadVariableOp") {
          node->GetReflection()->SetString(node, Field(*node, "op"), "Identity");
          for (int a = 0; a < Count(*node, "attr"); ++a) {
            pb::Message* e = At(node, "attr", a);
            if (StringField(*e, "key") == "dtype") e->GetReflection()->SetString(e, Field(*e, "key"), "T");
          }
          RenameUses(f, name + ":value:0", name + ":output:0");
        } else if (op == "Identity") {
          pb::Message* t = MapValue(node, "attr", "T");
          if (t != nullptr) t->GetReflection()->SetEnumValue(t, Field(*t, "type"), dtype);
          Uses(f, fname, name + ":output:0", dtype);
        } else if (IsFunctionCall(op)) {
          Call(node, static_cast<int>(i), dtype);
        } else {
          CmdFail(SG_UNIMPLEMENTED, "node '" + name + "' (" + op + ") of function '" + fname +
                                        "' uses the handle of a variable ('" + ref +
                                        "') in a way a constant cannot stand for");
        }
      }
    }
  }

  pb::Message* graph_;
  std::set<std::string> done_;  // "function#argument" converted
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

bool IsFunctionCall(const std::string& op) {
  return op == "StatefulPartitionedCall" || op == "PartitionedCall";
}

void ConvertCallInput(pb::Message* graph, pb::Message* call, int index, int dtype) {
  Converter(graph).Call(call, index, dtype);
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
