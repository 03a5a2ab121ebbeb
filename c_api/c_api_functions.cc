// C API: functions built from C (SG_GraphToFunction and its siblings). A graph's operations are
// turned into a FunctionDef with TensorFlow's naming rules (c_api.h, "Functions built from C"),
// and FunctionDefs are copied into a graph's function library.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "core/framework/node_def_util.h"
#include "core/util/fingerprint.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/util/message_differencer.h"

struct SG_Function {
  sg::FunctionDef fdef;
};

namespace sg {
namespace c_api {
namespace {

// The names of a FunctionDef's arguments, results and body nodes: one namespace, each name made
// unique with a suffix "_0", "_1", ... as TensorFlow's function builder does.
class FunctionNames {
 public:
  // An argument or result name made from an operation name: lowercase letters, digits and '_',
  // starting with a letter ("unknown" when the name has none).
  std::string FromOperation(const std::string& op_name) { return Unique(Normalize(op_name)); }
  // A body node's name: the operation's own name, made unique.
  std::string ForNode(const std::string& op_name) { return Unique(op_name); }
  // A name the caller chose: INVALID_ARGUMENT when it is empty or taken.
  absl::Status Use(const std::string& name, const char* what) {
    if (name.empty()) return errors::InvalidArgument("an empty name in ", what);
    if (!used_.emplace(name, 0).second) {
      return errors::InvalidArgument("Cannot have duplicate output names. Name '", name,
                                     "' appears more than once in '", what, "' array.");
    }
    return absl::OkStatus();
  }

 private:
  static std::string Normalize(std::string name) {
    for (char& c : name) {
      const unsigned char u = static_cast<unsigned char>(c);
      c = std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '_';
    }
    size_t first = 0;
    while (first < name.size() && !std::isalpha(static_cast<unsigned char>(name[first]))) {
      ++first;
    }
    return first == name.size() ? "unknown" : name.substr(first);
  }
  std::string Unique(const std::string& name) {
    auto it = used_.emplace(name, 0);
    if (it.second) return name;
    while (true) {
      std::string candidate = absl::StrCat(name, "_", it.first->second++);
      if (used_.emplace(candidate, 0).second) return candidate;
    }
  }
  std::map<std::string, int> used_;  // name -> next suffix to try
};

std::string TensorKey(const Node* n, int index) { return absl::StrCat(n->name(), ":", index); }

// Serialized with map entries in key order, so that equal messages give equal bytes.
std::string DeterministicBytes(const google::protobuf::MessageLite& msg) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    msg.SerializeToCodedStream(&coded);
  }
  return bytes;
}

// The arguments of SG_GraphToFunctionWithControlOutputs, counts and arrays checked.
struct ToFunctionArgs {
  const char* fn_name;
  bool append_hash;
  int num_opers;
  const SG_Operation* const* opers;
  std::vector<SG_Output> inputs, outputs;
  const char* const* output_names;
  std::vector<const SG_Operation*> control_outputs;
  const char* const* control_output_names;
  const char* description;
};

absl::Status CheckTensor(const Graph& g, SG_Output o, const std::string& what) {
  SG_RETURN_IF_ERROR(CheckOwned(g, o.oper, what));
  const Node* n = ToNode(o.oper);
  if (o.index < 0 || o.index >= n->num_outputs()) {
    return errors::InvalidArgument(what, ": output index ", o.index, " of operation '", n->name(),
                                   "' is out of range [0, ", n->num_outputs(), ")");
  }
  return absl::OkStatus();
}

// Builds the FunctionDef; the caller holds the graph's lock.
absl::Status BuildFunctionDef(const Graph& g, const ToFunctionArgs& a, FunctionDef* fdef) {
  const std::string fn_name = a.fn_name;
  // Inputs.
  std::set<std::string> input_keys;
  std::set<const Node*> input_nodes;
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    const std::string what = absl::StrCat("input ", i);
    SG_RETURN_IF_ERROR(CheckTensor(g, a.inputs[i], what));
    const Node* n = ToNode(a.inputs[i].oper);
    if (!input_keys.insert(TensorKey(n, a.inputs[i].index)).second) {
      return errors::InvalidArgument("TF_Output ", TensorKey(n, a.inputs[i].index),
                                     " appears more than once in the input list of function '",
                                     fn_name, "'");
    }
    input_nodes.insert(n);
  }
  // Body.
  std::vector<const Node*> body;
  if (a.num_opers == -1) {
    for (const Node* n : g.nodes()) {
      if (input_nodes.count(n) != 0) {
        if (n->num_outputs() != 1) {
          return errors::InvalidArgument(
              "When `num_opers` is set to -1, nodes referenced in `inputs` must have a single "
              "output. Node ", n->name(), " has ", n->num_outputs(),
              " outputs. Encountered while creating function '", fn_name, "'");
        }
        continue;
      }
      body.push_back(n);
    }
  } else {
    std::set<const Node*> seen;
    for (int i = 0; i < a.num_opers; ++i) {
      SG_RETURN_IF_ERROR(CheckOwned(g, a.opers[i], absl::StrCat("opers[", i, "]")));
      const Node* n = ToNode(a.opers[i]);
      if (seen.insert(n).second) body.push_back(n);
    }
    std::sort(body.begin(), body.end(),
              [](const Node* x, const Node* y) { return x->id() < y->id(); });
  }
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    SG_RETURN_IF_ERROR(CheckTensor(g, a.outputs[i], absl::StrCat("output ", i)));
  }

  FunctionNames names;
  std::map<std::string, std::string> renamed;  // "op:index" of the graph -> function tensor
  OpDef* sig = fdef->mutable_signature();
  // Names: results first, then arguments, then body nodes (a name taken is made unique), as
  // TensorFlow's function builder gives them.
  for (size_t r = 0; r < a.outputs.size(); ++r) {
    const Node* n = ToNode(a.outputs[r].oper);
    OpDef::ArgDef* arg = sig->add_output_arg();
    arg->set_type(n->output_type(a.outputs[r].index));
    if (a.output_names != nullptr) {
      if (a.output_names[r] == nullptr) {
        return errors::InvalidArgument("output_names[", r, "] is NULL");
      }
      SG_RETURN_IF_ERROR(names.Use(a.output_names[r], "output_names"));
      arg->set_name(a.output_names[r]);
    } else {
      arg->set_name(names.FromOperation(n->name()));
    }
  }
  // Arguments, named after the results as TensorFlow does. Each records the shape its tensor
  // has in the graph (arg_attr "_output_shapes"), as TensorFlow's function builder does.
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    const Node* n = ToNode(a.inputs[i].oper);
    const int index = a.inputs[i].index;
    OpDef::ArgDef* arg = sig->add_input_arg();
    arg->set_name(names.FromOperation(n->name()));
    arg->set_type(n->output_type(index));
    renamed[TensorKey(n, index)] = arg->name();
    PartialTensorShape shape;
    if (index < static_cast<int>(n->output_shapes().size())) shape = n->output_shapes()[index];
    AttrValue shapes;
    shape.AsProto(shapes.mutable_list()->add_shape());
    (*(*fdef->mutable_arg_attr())[static_cast<uint32_t>(i)].mutable_attr())["_output_shapes"] =
        std::move(shapes);
  }
  std::map<const Node*, std::string> node_name;  // body node -> its name in the function
  for (const Node* n : body) {
    NodeDef* def = fdef->add_node_def();
    *def = n->def();
    def->clear_input();
    if (!n->assigned_device_name().empty()) def->set_device(n->assigned_device_name());
    def->set_name(names.ForNode(n->name()));
    node_name[n] = def->name();
    NameRangeMap in_ranges, out_ranges;
    SG_RETURN_IF_ERROR(NameRangesForNode(n->def(), n->op_def(), &in_ranges, &out_ranges));
    for (const auto& range : out_ranges) {
      for (int i = range.second.first; i < range.second.second; ++i) {
        // A tensor that is also an input stays that argument.
        renamed.emplace(TensorKey(n, i),
                        absl::StrCat(def->name(), ":", range.first, ":", i - range.second.first));
      }
    }
  }
  // Body node inputs, now that every tensor has its function name.
  for (size_t b = 0; b < body.size(); ++b) {
    const Node* n = body[b];
    NodeDef* def = fdef->mutable_node_def(static_cast<int>(b));
    for (int i = 0; i < n->num_inputs(); ++i) {
      const Edge* e = n->input_edge(i);
      if (e == nullptr) {
        return errors::InvalidArgument("Input ", i, " of node '", n->name(), "' in function '",
                                       fn_name, "' is not connected");
      }
      auto it = renamed.find(TensorKey(e->src, e->src_output));
      if (it == renamed.end()) {
        return errors::InvalidArgument(
            "Input ", i, ", '", TensorKey(e->src, e->src_output), "', of node '", n->name(),
            "' in function '", fn_name,
            "' is not available. You might need to include it in inputs or include its source "
            "node in the body");
      }
      def->add_input(it->second);
    }
    std::vector<std::string> controls;
    for (const Edge* e : n->in_edges()) {
      if (!e->IsControlEdge()) continue;
      auto it = node_name.find(e->src);
      if (it == node_name.end()) {
        return errors::InvalidArgument(
            "Node '", n->name(), "' in function '", fn_name, "' has a control input from '",
            e->src->name(), "', which is not in the function body");
      }
      controls.push_back("^" + it->second);
    }
    std::sort(controls.begin(), controls.end());
    for (auto& c : controls) def->add_input(std::move(c));
  }
  // Results.
  for (size_t r = 0; r < a.outputs.size(); ++r) {
    const Node* n = ToNode(a.outputs[r].oper);
    auto it = renamed.find(TensorKey(n, a.outputs[r].index));
    if (it == renamed.end()) {
      return errors::InvalidArgument("TF_Output ", TensorKey(n, a.outputs[r].index),
                                     " is neither in the function body nor among function "
                                     "inputs. Encountered while creating function '",
                                     fn_name, "'");
    }
    (*fdef->mutable_ret())[sig->output_arg(static_cast<int>(r)).name()] = it->second;
  }
  std::vector<std::string> control_names;
  for (size_t c = 0; c < a.control_outputs.size(); ++c) {
    SG_RETURN_IF_ERROR(
        CheckOwned(g, a.control_outputs[c], absl::StrCat("control_outputs[", c, "]")));
    const Node* n = ToNode(a.control_outputs[c]);
    auto it = node_name.find(n);
    if (it == node_name.end()) {
      return errors::InvalidArgument("control output '", n->name(), "' of function '", fn_name,
                                     "' is not in the function body");
    }
    std::string name = n->name();
    if (a.control_output_names != nullptr) {
      if (a.control_output_names[c] == nullptr) {
        return errors::InvalidArgument("control_output_names[", c, "] is NULL");
      }
      name = a.control_output_names[c];
    }
    if (name.empty() || fdef->control_ret().count(name) != 0) {
      return errors::InvalidArgument("control output name '", name, "' of function '", fn_name,
                                     "' is empty or repeated");
    }
    (*fdef->mutable_control_ret())[name] = it->second;
    control_names.push_back(name);
  }
  std::sort(control_names.begin(), control_names.end());
  for (const auto& name : control_names) sig->add_control_output(name);
  if (a.description != nullptr) sig->set_description(a.description);
  for (const Node* n : body) {
    if (n->op_def().is_stateful()) sig->set_is_stateful(true);
  }

  sig->set_name(fn_name);
  if (a.append_hash) {
    const std::string bytes = DeterministicBytes(*fdef);
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016llx",
                  static_cast<unsigned long long>(Fingerprint64(bytes)));
    sig->set_name(absl::StrCat(fn_name, "_", hex));
  }
  return absl::OkStatus();
}

SG_Function* ToFunction(const SG_Graph* fn_body, const char* fn_name,
                        unsigned char append_hash_to_fn_name, int num_opers,
                        const SG_Operation* const* opers, int ninputs, const SG_Output* inputs,
                        int noutputs, const SG_Output* outputs, const char* const* output_names,
                        int ncontrol_outputs, const SG_Operation* const* control_outputs,
                        const char* const* control_output_names, const char* description,
                        SG_Status* status, const char* where) {
  SG_Function* result = nullptr;
  Guard(where, status, [&]() -> absl::Status {
    if (fn_body == nullptr) return errors::InvalidArgument(where, ": the graph is NULL");
    if (fn_name == nullptr || fn_name[0] == '\0') {
      return errors::InvalidArgument(where, ": the function name is NULL or empty");
    }
    if (num_opers < -1) {
      return errors::InvalidArgument(where, ": num_opers is ", num_opers, " (-1 or more)");
    }
    if (num_opers > 0) SG_RETURN_IF_ERROR(CheckArray(opers, num_opers, "opers"));
    SG_RETURN_IF_ERROR(CheckArray(inputs, ninputs, "inputs"));
    SG_RETURN_IF_ERROR(CheckArray(outputs, noutputs, "outputs"));
    SG_RETURN_IF_ERROR(CheckArray(control_outputs, ncontrol_outputs, "control_outputs"));
    ToFunctionArgs a;
    a.fn_name = fn_name;
    a.append_hash = append_hash_to_fn_name != 0;
    a.num_opers = num_opers;
    a.opers = opers;
    a.inputs.assign(inputs, inputs + ninputs);
    a.outputs.assign(outputs, outputs + noutputs);
    a.output_names = output_names;
    a.control_outputs.assign(control_outputs, control_outputs + ncontrol_outputs);
    a.control_output_names = control_output_names;
    a.description = description;
    auto f = std::make_unique<SG_Function>();
    {
      // The graph's lock guards its nodes and edges; the handle is const only to the caller.
      SG_Graph* g = const_cast<SG_Graph*>(fn_body);
      absl::MutexLock lock(&g->mu);
      SG_RETURN_IF_ERROR(BuildFunctionDef(g->graph, a, &f->fdef));
    }
    result = f.release();
    return absl::OkStatus();
  });
  return result;
}

absl::Status ParseBytes(const void* proto, size_t len, google::protobuf::MessageLite* msg,
                        const char* what) {
  if (proto == nullptr && len != 0) return errors::InvalidArgument(what, ": NULL bytes");
  if (len > static_cast<size_t>(INT32_MAX) ||
      !msg->ParseFromArray(proto == nullptr ? "" : proto, static_cast<int>(len))) {
    return errors::InvalidArgument("Invalid ", msg->GetTypeName(), " given to ", what);
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace c_api
}  // namespace sg

using sg::c_api::Guard;
namespace errors = sg::errors;

extern "C" {

SG_Function* SG_GraphToFunction(const SG_Graph* fn_body, const char* fn_name,
                                unsigned char append_hash_to_fn_name, int num_opers,
                                const SG_Operation* const* opers, int ninputs,
                                const SG_Output* inputs, int noutputs, const SG_Output* outputs,
                                const char* const* output_names, const SG_FunctionOptions* opts,
                                const char* description, SG_Status* status) {
  return sg::c_api::ToFunction(fn_body, fn_name, append_hash_to_fn_name, num_opers, opers,
                               ninputs, inputs, noutputs, outputs, output_names, 0, nullptr,
                               nullptr, description, status, "SG_GraphToFunction");
}

SG_Function* SG_GraphToFunctionWithControlOutputs(
    const SG_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const SG_Operation* const* opers, int ninputs, const SG_Output* inputs,
    int noutputs, const SG_Output* outputs, const char* const* output_names,
    int ncontrol_outputs, const SG_Operation* const* control_outputs,
    const char* const* control_output_names, const SG_FunctionOptions* opts,
    const char* description, SG_Status* status) {
  return sg::c_api::ToFunction(fn_body, fn_name, append_hash_to_fn_name, num_opers, opers,
                               ninputs, inputs, noutputs, outputs, output_names,
                               ncontrol_outputs, control_outputs, control_output_names,
                               description, status, "SG_GraphToFunctionWithControlOutputs");
}

const char* SG_FunctionName(SG_Function* func) {
  return func == nullptr ? nullptr : func->fdef.signature().name().c_str();
}

void SG_FunctionToFunctionDef(SG_Function* func, SG_Buffer* output_func_def, SG_Status* status) {
  Guard("SG_FunctionToFunctionDef", status, [&]() -> absl::Status {
    if (func == nullptr) return errors::InvalidArgument("SG_FunctionToFunctionDef: NULL function");
    SG_RETURN_IF_ERROR(sg::c_api::CheckEmptyBuffer(output_func_def, "output_func_def"));
    sg::c_api::FillBuffer(sg::c_api::DeterministicBytes(func->fdef), output_func_def);
    return absl::OkStatus();
  });
}

SG_Function* SG_FunctionImportFunctionDef(const void* proto, size_t proto_len,
                                          SG_Status* status) {
  SG_Function* result = nullptr;
  Guard("SG_FunctionImportFunctionDef", status, [&]() -> absl::Status {
    auto f = std::make_unique<SG_Function>();
    SG_RETURN_IF_ERROR(
        sg::c_api::ParseBytes(proto, proto_len, &f->fdef, "SG_FunctionImportFunctionDef"));
    if (f->fdef.signature().name().empty()) {
      return errors::InvalidArgument("SG_FunctionImportFunctionDef: the FunctionDef has no name");
    }
    result = f.release();
    return absl::OkStatus();
  });
  return result;
}

void SG_FunctionSetAttrValueProto(SG_Function* func, const char* attr_name, const void* proto,
                                  size_t proto_len, SG_Status* status) {
  Guard("SG_FunctionSetAttrValueProto", status, [&]() -> absl::Status {
    if (func == nullptr || attr_name == nullptr) {
      return errors::InvalidArgument("SG_FunctionSetAttrValueProto: NULL function or attr name");
    }
    sg::AttrValue value;
    SG_RETURN_IF_ERROR(
        sg::c_api::ParseBytes(proto, proto_len, &value, "SG_FunctionSetAttrValueProto"));
    (*func->fdef.mutable_attr())[attr_name] = std::move(value);
    return absl::OkStatus();
  });
}

void SG_FunctionGetAttrValueProto(SG_Function* func, const char* attr_name,
                                  SG_Buffer* output_attr_value, SG_Status* status) {
  Guard("SG_FunctionGetAttrValueProto", status, [&]() -> absl::Status {
    if (func == nullptr || attr_name == nullptr) {
      return errors::InvalidArgument("SG_FunctionGetAttrValueProto: NULL function or attr name");
    }
    SG_RETURN_IF_ERROR(sg::c_api::CheckEmptyBuffer(output_attr_value, "output_attr_value"));
    auto it = func->fdef.attr().find(attr_name);
    if (it == func->fdef.attr().end()) {
      return errors::InvalidArgument("Function '", func->fdef.signature().name(),
                                     "' has no attr named '", attr_name, "'.");
    }
    sg::c_api::FillBuffer(it->second.SerializeAsString(), output_attr_value);
    return absl::OkStatus();
  });
}

void SG_DeleteFunction(SG_Function* func) { delete func; }

void SG_GraphCopyFunction(SG_Graph* g, const SG_Function* func, const SG_Function* grad,
                          SG_Status* status) {
  Guard("SG_GraphCopyFunction", status, [&]() -> absl::Status {
    if (g == nullptr) return errors::InvalidArgument("SG_GraphCopyFunction: NULL graph");
    if (func == nullptr) return errors::InvalidArgument("SG_GraphCopyFunction: NULL function");
    const std::string& name = func->fdef.signature().name();
    sg::FunctionDefLibrary lib;
    *lib.add_function() = func->fdef;
    if (grad != nullptr) {
      *lib.add_function() = grad->fdef;
      if (grad->fdef.signature().name() == name) {
        return errors::InvalidArgument("SG_GraphCopyFunction: function '", name,
                                       "' cannot be its own gradient");
      }
    }
    absl::MutexLock lock(&g->mu);
    sg::FunctionLibrary* flib = g->graph.mutable_flib();
    // Check everything first, so that an error leaves the library as it was.
    sg::FunctionDefLibrary current;
    flib->ToProto(&current);
    for (const sg::FunctionDef& f : lib.function()) {
      const std::string& fname = f.signature().name();
      if (fname.empty()) return errors::InvalidArgument("SG_GraphCopyFunction: unnamed function");
      if (sg::OpRegistry::Global()->LookUp(fname) != nullptr) {
        return errors::InvalidArgument("Cannot add function '", fname,
                                       "' because an op with the same name already exists.");
      }
      const sg::FunctionDef* existing = flib->Find(fname);
      if (existing != nullptr &&
          !google::protobuf::util::MessageDifferencer::Equals(*existing, f)) {
        return errors::InvalidArgument("Cannot add function '", fname,
                                       "' because a different function with the same name "
                                       "already exists.");
      }
    }
    bool has_gradient = false;
    for (const sg::GradientDef& gd : current.gradient()) {
      if (gd.function_name() != name) continue;
      if (grad == nullptr || gd.gradient_func() == grad->fdef.signature().name()) {
        has_gradient = true;
        continue;
      }
      return errors::InvalidArgument("Cannot assign gradient function '",
                                     grad->fdef.signature().name(), "' to '", name,
                                     "' because it already has gradient function '",
                                     gd.gradient_func(), "'");
    }
    if (grad != nullptr && !has_gradient) {
      sg::GradientDef* gd = lib.add_gradient();
      gd->set_function_name(name);
      gd->set_gradient_func(grad->fdef.signature().name());
    }
    return flib->AddLibrary(lib);
  });
}

int SG_GraphNumFunctions(SG_Graph* g) {
  if (g == nullptr) return 0;
  absl::MutexLock lock(&g->mu);
  return g->graph.flib().num_functions();
}

int SG_GraphGetFunctions(SG_Graph* g, SG_Function** funcs, int max_func, SG_Status* status) {
  int n = 0;
  Guard("SG_GraphGetFunctions", status, [&]() -> absl::Status {
    if (g == nullptr) return errors::InvalidArgument("SG_GraphGetFunctions: NULL graph");
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(funcs, max_func, "funcs"));
    sg::FunctionDefLibrary lib;
    {
      absl::MutexLock lock(&g->mu);
      g->graph.flib().ToProto(&lib);
    }
    const int count = std::min(max_func, lib.function_size());
    std::vector<std::unique_ptr<SG_Function>> made;
    for (int i = 0; i < count; ++i) {
      made.push_back(std::make_unique<SG_Function>());
      made.back()->fdef = lib.function(i);
    }
    for (int i = 0; i < count; ++i) funcs[i] = made[i].release();
    n = count;
    return absl::OkStatus();
  });
  return n;
}

// The first operation of `g` that uses function `name`: as its op type, or in a function-valued
// attr (a call's `f`, a While's `cond` and `body`, a list of functions); nullptr when none does.
static const sg::Node* UserOfFunction(const sg::Graph& g, const std::string& name) {
  for (const sg::Node* n : g.nodes()) {
    if (n->type_string() == name) return n;
    for (const auto& kv : n->def().attr()) {
      const sg::AttrValue& v = kv.second;
      if (v.has_func() && v.func().name() == name) return n;
      for (const sg::NameAttrList& f : v.list().func()) {
        if (f.name() == name) return n;
      }
    }
  }
  return nullptr;
}

void SG_GraphRemoveFunction(SG_Graph* g, const char* func_name, SG_Status* status) {
  Guard("SG_GraphRemoveFunction", status, [&]() -> absl::Status {
    if (g == nullptr) return errors::InvalidArgument("SG_GraphRemoveFunction: NULL graph");
    if (func_name == nullptr) {
      return errors::InvalidArgument("SG_GraphRemoveFunction: NULL function name");
    }
    absl::MutexLock lock(&g->mu);
    if (g->graph.flib().Find(func_name) == nullptr) {
      return errors::InvalidArgument("Tried to remove non-existent function '", func_name, "'.");
    }
    // A node of the function's op type points at the library's entry for it; sg keeps what the
    // graph's operations run rather than leave them dangling.
    if (const sg::Node* user = UserOfFunction(g->graph, func_name)) {
      return errors::FailedPrecondition("Cannot remove function '", func_name,
                                        "': operation '", user->name(), "' uses it");
    }
    SG_RETURN_IF_ERROR(g->graph.mutable_flib()->RemoveFunction(func_name));
    ++g->function_removals;
    return absl::OkStatus();
  });
}

}  // extern "C"
