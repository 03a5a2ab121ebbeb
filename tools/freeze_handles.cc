#include "tools/freeze_handles.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <google/protobuf/unknown_field_set.h>

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

  // A new node named `name`, or `name` with a suffix when that is taken.
  pb::Message* AddNode(const std::string& name) const {
    std::set<std::string> names;
    for (int n = 0; n < size(); ++n) names.insert(StringField(*node(n), "name"));
    std::string unique = name;
    for (int i = 1; names.count(unique); ++i) unique = name + "_" + std::to_string(i);
    pb::Message* node = msg_->GetReflection()->AddMessage(msg_, Field(*msg_, nodes_));
    SetString(node, "name", unique);
    return node;
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

constexpr int kHandleDataField = 7;

struct Var {
  std::string name;
  int dtype;
  const pb::Message* shape;  // the VarHandleOp's declared shape, or nullptr
};

// Entry `index` of list(shape) attr value `v` (when it has one) becomes `shape` (unknown when
// nullptr): the shape recorded for a handle is a scalar's, the value has the variable's.
void SetListShape(pb::Message* v, int index, const pb::Message* shape) {
  if (v == nullptr) return;
  pb::Message* list = Sub(v, "list");
  if (index >= Count(*list, "shape")) return;
  pb::Message* s = At(list, "shape", index);
  if (shape != nullptr) {
    s->CopyFrom(*shape);
  } else {
    s->Clear();
    s->GetReflection()->SetBool(s, Field(*s, "unknown_rank"), true);
  }
}

void RemoveAttr(pb::Message* node, const char* key) {
  const pb::Reflection* r = node->GetReflection();
  const pb::FieldDescriptor* f = Field(*node, "attr");
  for (int a = 0; a < r->FieldSize(*node, f); ++a) {
    if (StringField(r->GetRepeatedMessage(*node, f, a), "key") != key) continue;
    r->SwapElements(node, f, a, r->FieldSize(*node, f) - 1);
    r->RemoveLast(node, f);
    return;
  }
}

// The functions of list(func) attr `key` of `node`.
std::vector<std::string> FuncListAttr(pb::Message* node, const char* key) {
  std::vector<std::string> names;
  pb::Message* v = MapValue(node, "attr", key);
  if (v == nullptr) return names;
  pb::Message* list = Sub(v, "list");
  for (int i = 0; i < Count(*list, "func"); ++i) {
    names.push_back(StringField(*At(list, "func", i), "name"));
  }
  return names;
}

bool Is(const std::string& op, std::initializer_list<const char*> ops) {
  for (const char* o : ops) {
    if (op == o) return true;
  }
  return false;
}

class Converter {
 public:
  explicit Converter(pb::Message* graph) : graph_(graph) {}

  void Variable(const FrozenHandle& v) {
    Scope graph(graph_);
    std::vector<int> returned;  // stays empty: the graph returns nothing
    Walk(&graph, v.name, Var{v.name, v.dtype, v.shape}, &returned);
  }

  // Each Merge that took a handle joins only handles of variables being frozen (else the value
  // would meet a handle there).
  void CheckMerges() {
    for (const Merge& m : merges_) {
      pb::Message* f = m.function.empty() ? nullptr : FindFunction(graph_, m.function);
      Scope scope = f == nullptr ? Scope(graph_) : Scope(f, m.function);
      for (int n = 0; n < scope.size(); ++n) {
        pb::Message* node = scope.node(n);
        if (StringField(*node, "name") != m.node) continue;
        for (const std::string& in : NodeInputs(*node)) {
          if (in[0] == '^' || seen_.count(m.function + "\n" + scope.Canonical(in))) continue;
          CmdFail(SG_UNIMPLEMENTED,
                  "node '" + m.node + "' (Merge)" + scope.Where() +
                      " joins the handle of variable '" + m.variable + "' with '" + in +
                      "', which is not the handle of a variable being frozen");
        }
      }
    }
  }

 private:
  struct Merge {
    std::string function, node, variable;
  };
  struct Argument {
    int dtype;
    std::vector<int> returned;
  };

  [[noreturn]] static void Refuse(Scope* scope, const std::string& name, const std::string& op,
                                  const Var& var) {
    CmdFail(SG_UNIMPLEMENTED, "node '" + name + "' (" + op + ")" + scope->Where() +
                                  " uses variable '" + var.name +
                                  "' in a way a constant cannot stand for; the outputs must need " +
                                  "only reads, gathers and shapes of the variables");
  }

  // Rewrites the uses of `ref`, a tensor of `scope` that holds the handle of `var`; adds to
  // `returned` the function's outputs that return it.
  void Walk(Scope* scope, const std::string& ref, const Var& var, std::vector<int>* returned) {
    auto seen = seen_.emplace(scope->function() + "\n" + ref, var.dtype);
    if (!seen.second) {
      if (seen.first->second != var.dtype) {
        CmdFail(SG_UNIMPLEMENTED, "'" + ref + "'" + scope->Where() +
                                      " holds the handles of variables of two dtypes, one of " +
                                      "them '" + var.name + "'");
      }
      return;
    }
    if (scope->is_function()) {
      pb::Message* f = scope->function_def();
      pb::Message* sig = Sub(f, "signature");
      for (int j = 0; j < Count(*sig, "output_arg"); ++j) {
        for (int i = 0; i < Count(*f, "ret"); ++i) {
          pb::Message* e = At(f, "ret", i);
          if (StringField(*e, "key") == StringField(*At(sig, "output_arg", j), "name") &&
              StringField(*e, "value") == ref) {
            returned->push_back(j);
          }
        }
      }
    }
    for (int n = 0; n < scope->size(); ++n) {
      pb::Message* node = scope->node(n);
      const std::vector<std::string> inputs = NodeInputs(*node);
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i][0] != '^' && scope->Canonical(inputs[i]) == ref) {
          Use(scope, node, static_cast<int>(i), var, returned);
        }
      }
    }
  }

  // Rewrites `node` of `scope`, whose data input `k` holds the handle of `var`.
  void Use(Scope* scope, pb::Message* node, int k, const Var& var, std::vector<int>* returned) {
    const std::string op = StringField(*node, "op");
    const std::string name = StringField(*node, "name");
    if (op == "ReadVariableOp") {
      SetString(node, "op", "Identity");
      RenameAttr(node, "dtype", "T");
      if (scope->is_function()) scope->RenameUses(name + ":value:0", name + ":output:0");
    } else if (op == "ResourceGather" && k == 0) {
      ToGatherV2(scope, node);
    } else if (op == "ResourceGatherNd" && k == 0) {
      SetString(node, "op", "GatherNd");
      RenameAttr(node, "dtype", "Tparams");
    } else if (op == "VariableShape") {
      SetString(node, "op", "Shape");
      SetTypeAttr(node, "T", var.dtype);
    } else if (Is(op, {"Identity", "Enter", "Exit", "NextIteration", "Merge"}) ||
               (op == "Switch" && k == 0)) {
      // v1 control flow (and Identity) pass the handle on, as they will pass the value.
      SetTypeAttr(node, "T", var.dtype);
      RemoveAttr(node, "_output_shapes");
      if (op == "Merge") merges_.push_back({scope->function(), name, var.name});
      const char* arg = op == "Switch" ? "output_false" : "output";
      Walk(scope, scope->Output(name, arg, 0, 0), var, returned);
      if (op == "Switch") Walk(scope, scope->Output(name, "output_true", 0, 1), var, returned);
    } else if (op == "IdentityN") {
      SetListTypeAttr(node, "T", k, var.dtype);
      RemoveAttr(node, "_output_shapes");
      Walk(scope, scope->Output(name, "output", k, k), var, returned);
    } else if (Is(op, {"StatefulPartitionedCall", "PartitionedCall"})) {
      SetListTypeAttr(node, "Tin", k, var.dtype);
      NothingReturned(scope, node, FuncAttr(node, "f"), k, var);
    } else if (Is(op, {"If", "StatelessIf", "Case", "StatelessCase"}) && k > 0) {
      // Input 0 is the condition or branch index; the rest are the branches' arguments.
      SetListTypeAttr(node, "Tin", k - 1, var.dtype);
      std::vector<std::string> branches = FuncListAttr(node, "branches");
      if (op == "If" || op == "StatelessIf") {
        branches = {FuncAttr(node, "then_branch"), FuncAttr(node, "else_branch")};
      }
      for (const std::string& b : branches) NothingReturned(scope, node, b, k - 1, var);
    } else if (Is(op, {"While", "StatelessWhile"})) {
      SetListTypeAttr(node, "T", k, var.dtype);
      SetListShape(MapValue(node, "attr", "output_shapes"), k, var.shape);
      NothingReturned(scope, node, FuncAttr(node, "cond"), k, var);
      // The body must give the handle back as the same loop variable, as a loop over a
      // captured variable does: then the While's output k is the value too.
      const std::string body = FuncAttr(node, "body");
      if (ConvertArgument(body, k, var) != std::vector<int>{k}) {
        CmdFail(SG_UNIMPLEMENTED,
                "node '" + name + "' (" + op + ")" + scope->Where() + " passes variable '" +
                    var.name + "' as loop variable " + std::to_string(k) + ", which its body '" +
                    body + "' does not return unchanged; a constant cannot stand for it");
      }
      Walk(scope, scope->Output(name, "output", k, k), var, returned);
    } else {
      Refuse(scope, name, op, var);
    }
  }

  // `node` of `scope` calls `fname` with the handle of `var` as argument `k`, which the function
  // must not return.
  void NothingReturned(Scope* scope, pb::Message* node, const std::string& fname, int k,
                       const Var& var) {
    const std::vector<int> returned = ConvertArgument(fname, k, var);
    if (returned.empty()) return;
    CmdFail(SG_UNIMPLEMENTED,
            "function '" + fname + "', called by node '" + StringField(*node, "name") + "' (" +
                StringField(*node, "op") + ")" + scope->Where() +
                ", returns the handle of variable '" + var.name + "' (output " +
                std::to_string(returned[0]) + "), which a constant cannot stand for");
  }

  // Argument `k` of function `fname` takes the value of `var` instead of its handle; returns the
  // function's outputs that return it (their type becomes the dtype too).
  std::vector<int> ConvertArgument(const std::string& fname, int k, const Var& var) {
    auto done = arguments_.emplace(fname + "#" + std::to_string(k), Argument{var.dtype, {}});
    if (!done.second) {
      if (done.first->second.dtype != var.dtype) {
        CmdFail(SG_UNIMPLEMENTED, "argument " + std::to_string(k) + " of function '" + fname +
                                      "' takes the handles of variables of two dtypes, one of " +
                                      "them '" + var.name + "'");
      }
      return done.first->second.returned;
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
      CmdFail(SG_INVALID_ARGUMENT, "argument '" + StringField(*arg, "name") + "' of function '" +
                                       fname + "' is not a resource");
    }
    arg->GetReflection()->SetEnumValue(arg, type, var.dtype);
    // TensorFlow's ArgDef.handle_data (field 7, which sg's proto lacks) described the resource.
    arg->GetReflection()->MutableUnknownFields(arg)->DeleteByNumber(kHandleDataField);
    // The shapes recorded for the argument (the function's "_input_shapes", the argument's
    // "_output_shapes") were the handle's.
    SetListShape(MapValue(f, "attr", "_input_shapes"), k, var.shape);
    for (int i = 0; i < Count(*f, "arg_attr"); ++i) {
      pb::Message* e = At(f, "arg_attr", i);
      if (e->GetReflection()->GetUInt32(*e, Field(*e, "key")) != static_cast<uint32_t>(k)) continue;
      SetListShape(MapValue(Sub(e, "value"), "attr", "_output_shapes"), 0, var.shape);
    }
    Scope scope(f, fname);
    std::vector<int> returned;
    Walk(&scope, StringField(*arg, "name"), var, &returned);
    for (int j : returned) {
      pb::Message* out = At(sig, "output_arg", j);
      out->GetReflection()->SetEnumValue(out, Field(*out, "type"), var.dtype);
      out->GetReflection()->MutableUnknownFields(out)->DeleteByNumber(kHandleDataField);
    }
    arguments_[fname + "#" + std::to_string(k)].returned = returned;
    return returned;
  }

  // ResourceGather(handle, indices) -> GatherV2(value, indices, axis): the axis a new Const of
  // batch_dims (ResourceGather gathers along its first non-batch dimension), batch_dims and
  // Tindices kept, dtype renamed Tparams, validate_indices (which GatherV2 lacks) dropped.
  void ToGatherV2(Scope* scope, pb::Message* node) {
    const std::string name = StringField(*node, "name");
    pb::Message* b = MapValue(node, "attr", "batch_dims");
    const int64_t batch_dims = b == nullptr ? 0 : b->GetReflection()->GetInt64(*b, Field(*b, "i"));
    pb::Message* axis = scope->AddNode(name + "/axis");
    SetString(axis, "op", "Const");
    SetString(axis, "device", StringField(*node, "device"));
    const std::vector<std::string> inputs = NodeInputs(*node);
    // In the graph the Const runs where the indices are made: in the same while frame or cond
    // branch as the gather.
    if (!scope->is_function() && inputs.size() > 1) {
      axis->GetReflection()->AddString(axis, Field(*axis, "input"), "^" + NodeOf(inputs[1]));
    }
    SetTypeAttr(axis, "dtype", SG_INT32);
    pb::Message* t = Sub(AddMapValue(axis, "attr", "value"), "tensor");
    t->GetReflection()->SetEnumValue(t, Field(*t, "dtype"), SG_INT32);
    Sub(t, "tensor_shape");
    t->GetReflection()->AddInt32(t, Field(*t, "int_val"), static_cast<int32_t>(batch_dims));
    // The axis goes in as input 2, before the control inputs.
    const pb::Reflection* r = node->GetReflection();
    const pb::FieldDescriptor* in = Field(*node, "input");
    r->AddString(node, in, scope->Output(StringField(*axis, "name"), "output", 0, 0));
    for (int i = r->FieldSize(*node, in) - 1; i > 2; --i) r->SwapElements(node, in, i, i - 1);
    SetString(node, "op", "GatherV2");
    RenameAttr(node, "dtype", "Tparams");
    RemoveAttr(node, "validate_indices");
    SetTypeAttr(node, "Taxis", SG_INT32);
  }

  pb::Message* graph_;
  std::map<std::string, int> seen_;  // "function\nref" walked (function "" for the graph) -> dtype
  std::map<std::string, Argument> arguments_;  // "function#index" converted
  std::vector<Merge> merges_;
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
      for (int i = 0; i < Count(*list, "func"); ++i) {
        out->push_back(StringField(*At(list, "func", i), "name"));
      }
    }
  }
}

}  // namespace

void ConvertHandleUses(pb::Message* graph, const std::vector<FrozenHandle>& variables) {
  Converter converter(graph);
  for (const FrozenHandle& v : variables) converter.Variable(v);
  converter.CheckMerges();
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
