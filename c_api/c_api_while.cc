// C API: while loops built from C (SG_NewWhile, SG_FinishWhile, SG_AbortWhile), TensorFlow's
// TF_NewWhile and its siblings. The cond and body are built in graphs of their own; finishing the
// loop writes one GraphDef holding a TensorFlow 1.x frame (Enter, Merge, Switch, LoopCond,
// NextIteration, Exit) around copies of their operations and imports it into the outer graph,
// so that the import's checks, shape inference and all-or-nothing rule apply to the loop too.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/node_def_util.h"
#include "core/graph/graph_constructor.h"

namespace sg {
namespace c_api {
namespace {

// What SG_NewWhile made for one loop. The params handed to the caller point into it; it is found
// again by the params' cond graph.
struct WhileLoop {
  SG_Graph* outer = nullptr;  // holds a use (num_sessions) until the loop is finished or aborted
  std::vector<SG_Output> inputs;
  SG_Graph* cond = nullptr;
  SG_Graph* body = nullptr;
  std::unique_ptr<SG_Output[]> cond_inputs, body_inputs, body_outputs;
  int ninputs = 0;

  ~WhileLoop() {
    SG_DeleteGraph(cond);
    SG_DeleteGraph(body);
    if (outer != nullptr) ReleaseGraph(outer, /*from_session=*/true);
  }
};

absl::Mutex loops_mu(absl::kConstInit);
std::map<const SG_Graph*, std::unique_ptr<WhileLoop>>& Loops() {
  static auto* loops = new std::map<const SG_Graph*, std::unique_ptr<WhileLoop>>;
  return *loops;
}

// Takes the loop `params` describes out of the table when every member SG_NewWhile set is as it
// set it; nullptr (the table unchanged) otherwise.
std::unique_ptr<WhileLoop> TakeLoop(const SG_WhileParams& params) {
  absl::MutexLock lock(&loops_mu);
  auto it = Loops().find(params.cond_graph);
  if (it == Loops().end()) return nullptr;
  const WhileLoop& l = *it->second;
  if (params.ninputs != l.ninputs || params.body_graph != l.body ||
      params.cond_inputs != l.cond_inputs.get() || params.body_inputs != l.body_inputs.get() ||
      params.body_outputs != l.body_outputs.get()) {
    return nullptr;
  }
  std::unique_ptr<WhileLoop> taken = std::move(it->second);
  Loops().erase(it);
  return taken;
}

// A placeholder of `dtype` named `name` in `g`, standing for a loop variable.
absl::StatusOr<SG_Output> AddVariable(SG_Graph* g, const std::string& name, DataType dtype) {
  NodeDef def;
  def.set_name(name);
  def.set_op("Placeholder");
  AttrValue type;
  type.set_type(dtype);
  (*def.mutable_attr())["dtype"] = type;
  absl::MutexLock lock(&g->mu);
  SG_ASSIGN_OR_RETURN(Node * n, g->graph.AddNode(std::move(def)));
  SG_RETURN_IF_ERROR(InferNodeShapes(n));
  return SG_Output{ToOperation(n), 0};
}

// The dtype of `out`, checked to be an output of `sub` (the outer, cond or body graph; `what`
// names it).
absl::StatusOr<DataType> CheckedOutputType(const Graph& sub, SG_Output out,
                                            const std::string& what) {
  SG_RETURN_IF_ERROR(CheckOwned(sub, out.oper, what));
  const Node* n = ToNode(out.oper);
  if (out.index < 0 || out.index >= n->num_outputs()) {
    return errors::InvalidArgument(what, ": output index ", out.index, " of operation '",
                                   n->name(), "' is out of range [0, ", n->num_outputs(), ")");
  }
  return BaseType(n->output_type(out.index));
}

std::string TensorName(const std::string& node, int index) {
  return index == 0 ? node : absl::StrCat(node, ":", index);
}

// One of the loop's own nodes: "<op>", "<op>_1", ... for variable i.
std::string Numbered(const char* op, int i) {
  return i == 0 ? std::string(op) : absl::StrCat(op, "_", i);
}

// Appends the nodes of `sub` (the cond or the body) to `loop` under `scope` ("cond" or "body").
// variables[i] is the operation standing for loop variable i in `sub`; its uses become uses of
// values[i] (a tensor of `loop`). A node without an input from another node of `sub` gets a
// control input from `pivot`, so that it runs in the loop's frame, once per iteration.
void CopySubgraph(const GraphDef& sub, const std::string& scope,
                  const std::vector<const Node*>& variables,
                  const std::vector<std::string>& values, const std::string& pivot,
                  GraphDef* loop) {
  std::map<std::string, int> variable_of;
  for (size_t i = 0; i < variables.size(); ++i) variable_of[variables[i]->name()] = i;
  for (const NodeDef& in : sub.node()) {
    if (variable_of.count(in.name())) continue;
    NodeDef* def = loop->add_node();
    *def = in;
    def->set_name(absl::StrCat(scope, "/", in.name()));
    def->clear_input();
    bool reads_subgraph = false;
    for (const std::string& input : in.input()) {
      std::string src;
      int index;
      ParseTensorName(input, &src, &index);
      const bool control = index == kControlSlot;
      auto var = variable_of.find(src);
      std::string name;
      if (var != variable_of.end()) {
        // A placeholder has one output: index is 0 here.
        name = values[var->second];
        if (control) name = "^" + name.substr(0, name.find(':'));
      } else {
        reads_subgraph = true;
        name = control ? absl::StrCat("^", scope, "/", src)
                       : TensorName(absl::StrCat(scope, "/", src), index);
      }
      def->add_input(name);
    }
    if (!reads_subgraph) def->add_input("^" + pivot);
  }
}

NodeDef* AddLoopNode(GraphDef* loop, const std::string& name, const char* op, DataType dtype,
                     std::vector<std::string> inputs) {
  NodeDef* def = loop->add_node();
  def->set_name(name);
  def->set_op(op);
  for (auto& in : inputs) def->add_input(std::move(in));
  AttrValue t;
  t.set_type(dtype);
  (*def->mutable_attr())["T"] = t;
  return def;
}

// The scope the loop's nodes go under: `name`, or the first of name_1, name_2, ... that no node
// of `g` has as its name or as a scope of its name (as TensorFlow's NewSubScope picks it).
std::string UniqueScope(const Graph& g, const std::string& name) {
  std::set<std::string> taken;
  for (const Node* n : g.nodes()) {
    const std::string& full = n->name();
    taken.insert(full);
    for (size_t slash = full.find('/'); slash != std::string::npos;
         slash = full.find('/', slash + 1)) {
      taken.insert(full.substr(0, slash));
    }
  }
  if (!taken.count(name)) return name;
  for (int k = 1;; ++k) {
    std::string candidate = absl::StrCat(name, "_", k);
    if (!taken.count(candidate)) return candidate;
  }
}

// Key of the input_map entries standing for the loop's initial values: not a name a GraphDef node
// can have after the loop's prefix is added, and only ever looked up in the input_map.
constexpr char kInitialValue[] = "_sg_while_initial_value";

absl::Status FinishLoop(const SG_WhileParams& params, const WhileLoop& l, SG_Output* outputs) {
  const int n = l.ninputs;
  if (outputs == nullptr) return errors::InvalidArgument("SG_FinishWhile: outputs is NULL");
  if (params.cond_output.oper == nullptr) {
    return errors::InvalidArgument("SG_WhileParams `cond_output` field isn't set");
  }
  for (int i = 0; i < n; ++i) {
    if (l.body_outputs[i].oper == nullptr) {
      return errors::InvalidArgument("SG_WhileParams `body_outputs[", i, "]` field isn't set");
    }
  }
  if (params.name == nullptr) {
    return errors::InvalidArgument("SG_WhileParams `name` field is null");
  }
  const std::string name = params.name;
  if (name.empty()) return errors::InvalidArgument("SG_WhileParams `name` field is empty");

  std::vector<DataType> types(n);
  GraphDef cond, body;
  std::vector<const Node*> cond_vars(n), body_vars(n);
  std::string cond_result;
  {
    absl::MutexLock lock(&l.cond->mu);
    SG_ASSIGN_OR_RETURN(DataType t, CheckedOutputType(l.cond->graph, params.cond_output,
                                                       "SG_WhileParams `cond_output`"));
    if (t != DT_BOOL) {
      return errors::InvalidArgument("SG_WhileParams `cond_output` ('",
                                     OutputName(params.cond_output), "') is ", DataTypeString(t),
                                     ", not bool");
    }
    for (int i = 0; i < n; ++i) {
      cond_vars[i] = ToNode(l.cond_inputs[i].oper);
      types[i] = cond_vars[i]->output_type(0);
    }
    l.cond->graph.ToGraphDef(&cond);
  }
  {
    absl::MutexLock lock(&l.body->mu);
    for (int i = 0; i < n; ++i) {
      const std::string what = absl::StrCat("SG_WhileParams `body_outputs[", i, "]`");
      SG_ASSIGN_OR_RETURN(DataType t, CheckedOutputType(l.body->graph, l.body_outputs[i], what));
      if (t != types[i]) {
        return errors::InvalidArgument(what, " ('", OutputName(l.body_outputs[i]), "') is ",
                                       DataTypeString(t), " but loop variable ", i, " is ",
                                       DataTypeString(types[i]));
      }
      body_vars[i] = ToNode(l.body_inputs[i].oper);
    }
    l.body->graph.ToGraphDef(&body);
  }

  // The frame is named `name`, as TensorFlow names it, and two loops of one graph may not share
  // a frame name (TensorFlow: its WhileContext); the executor and the gradient builder tell loops
  // apart by it. The scope is made unique as TensorFlow's NewSubScope makes it.
  std::string scope;
  {
    absl::MutexLock lock(&l.outer->mu);
    for (const Node* node : l.outer->graph.nodes()) {
      std::string frame;
      if (node->IsEnter() && GetAttr(node->def().attr(), "frame_name", &frame).ok() &&
          frame == name) {
        return errors::InvalidArgument("While loop with frame name '", name,
                                       "' already exists (operation '", node->name(), "')");
      }
    }
    scope = UniqueScope(l.outer->graph, name);
  }
  GraphDef loop;
  std::vector<std::string> merges(n), switch_trues(n);
  for (int i = 0; i < n; ++i) {
    NodeDef* enter = AddLoopNode(&loop, Numbered("Enter", i), "Enter", types[i],
                                 {absl::StrCat(kInitialValue, ":", i)});
    AttrValue v;
    v.set_s(name);
    (*enter->mutable_attr())["frame_name"] = v;
    v.Clear();
    v.set_b(false);
    (*enter->mutable_attr())["is_constant"] = v;
    v.Clear();
    v.set_i(10);
    (*enter->mutable_attr())["parallel_iterations"] = v;
  }
  for (int i = 0; i < n; ++i) {
    merges[i] = Numbered("Merge", i);
    NodeDef* merge = AddLoopNode(&loop, merges[i], "Merge", types[i],
                                 {Numbered("Enter", i), Numbered("NextIteration", i)});
    AttrValue count;
    count.set_i(2);
    (*merge->mutable_attr())["N"] = count;
  }
  CopySubgraph(cond, "cond", cond_vars, merges, merges[0], &loop);
  {
    // The cond's result, as copied (it may be a loop variable itself).
    const Node* c = ToNode(params.cond_output.oper);
    std::string result = TensorName("cond/" + c->name(), params.cond_output.index);
    for (int i = 0; i < n; ++i) {
      if (c == cond_vars[i]) result = merges[i];
    }
    NodeDef* loop_cond = loop.add_node();
    loop_cond->set_name("LoopCond");
    loop_cond->set_op("LoopCond");
    loop_cond->add_input(result);
  }
  for (int i = 0; i < n; ++i) {
    AddLoopNode(&loop, Numbered("Switch", i), "Switch", types[i], {merges[i], "LoopCond"});
    switch_trues[i] = Numbered("Switch", i) + ":1";
  }
  CopySubgraph(body, "body", body_vars, switch_trues, "Switch", &loop);
  for (int i = 0; i < n; ++i) {
    const Node* b = ToNode(l.body_outputs[i].oper);
    std::string next = TensorName("body/" + b->name(), l.body_outputs[i].index);
    for (int j = 0; j < n; ++j) {
      if (b == body_vars[j]) next = switch_trues[j];
    }
    AddLoopNode(&loop, Numbered("NextIteration", i), "NextIteration", types[i], {next});
  }
  ImportOptions opts;
  for (int i = 0; i < n; ++i) {
    AddLoopNode(&loop, Numbered("Exit", i), "Exit", types[i], {Numbered("Switch", i)});
    opts.input_map[{kInitialValue, i}] = {ToNode(l.inputs[i].oper), l.inputs[i].index};
    opts.return_tensors.push_back({Numbered("Exit", i), 0});
  }
  // Functions the cond and body call come along.
  for (const GraphDef* sub : {&cond, &body}) {
    for (const FunctionDef& f : sub->library().function()) {
      *loop.mutable_library()->add_function() = f;
    }
    for (const GradientDef& g : sub->library().gradient()) {
      *loop.mutable_library()->add_gradient() = g;
    }
  }

  ImportResults results;
  {
    absl::MutexLock lock(&l.outer->mu);
    Graph& g = l.outer->graph;
    *loop.mutable_versions() = g.versions();
    // Another thread may have taken the scope meanwhile: the import then fails on the
    // duplicate name rather than mixing two loops.
    opts.prefix = scope;
    absl::Status s = ImportGraphDef(std::move(loop), opts, &g, &results);
    if (!s.ok()) return errors::Annotate(s, absl::StrCat("while loop '", name, "': "));
  }
  for (int i = 0; i < n; ++i) {
    outputs[i] = SG_Output{ToOperation(results.return_tensors[i].first),
                           results.return_tensors[i].second};
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace c_api
}  // namespace sg

using sg::c_api::Guard;
namespace errors = sg::errors;

extern "C" {

SG_WhileParams SG_NewWhile(SG_Graph* g, SG_Output* inputs, int ninputs, SG_Status* status) {
  std::unique_ptr<sg::c_api::WhileLoop> loop;
  Guard("SG_NewWhile", status, [&]() -> absl::Status {
    if (g == nullptr) return errors::InvalidArgument("SG_NewWhile: graph is NULL");
    if (ninputs < 1) {
      return errors::InvalidArgument("SG_NewWhile must be passed at least one input (ninputs is ",
                                     ninputs, ")");
    }
    if (inputs == nullptr) return errors::InvalidArgument("SG_NewWhile: inputs is NULL");
    auto l = std::make_unique<sg::c_api::WhileLoop>();
    l->ninputs = ninputs;
    l->inputs.assign(inputs, inputs + ninputs);
    std::vector<sg::DataType> types;
    {
      absl::MutexLock lock(&g->mu);
      for (int i = 0; i < ninputs; ++i) {
        SG_ASSIGN_OR_RETURN(sg::DataType t, sg::c_api::CheckedOutputType(
                                                g->graph, inputs[i], absl::StrCat("input ", i)));
        types.push_back(t);
      }
      ++g->num_sessions;
      l->outer = g;
    }
    l->cond = SG_NewGraph();
    l->body = SG_NewGraph();
    if (l->cond == nullptr || l->body == nullptr) {
      return errors::ResourceExhausted("SG_NewWhile: out of memory");
    }
    SG_StringLayout layout = SG_GraphStringLayout(g);
    l->cond->string_layout.store(layout);
    l->body->string_layout.store(layout);
    l->cond_inputs.reset(new SG_Output[ninputs]);
    l->body_inputs.reset(new SG_Output[ninputs]);
    l->body_outputs.reset(new SG_Output[ninputs]);
    for (int i = 0; i < ninputs; ++i) {
      SG_ASSIGN_OR_RETURN(l->cond_inputs[i], sg::c_api::AddVariable(
                                                 l->cond, absl::StrCat("cond_input", i), types[i]));
      SG_ASSIGN_OR_RETURN(l->body_inputs[i], sg::c_api::AddVariable(
                                                 l->body, absl::StrCat("body_input", i), types[i]));
      l->body_outputs[i] = SG_Output{nullptr, -1};
    }
    loop = std::move(l);
    return absl::OkStatus();
  });
  if (loop == nullptr) {
    SG_WhileParams none = {0, nullptr, nullptr, {nullptr, 0}, nullptr, nullptr, nullptr, nullptr};
    return none;
  }
  SG_WhileParams params = {loop->ninputs,           loop->cond,        loop->cond_inputs.get(),
                           SG_Output{nullptr, -1},  loop->body,        loop->body_inputs.get(),
                           loop->body_outputs.get(), nullptr};
  absl::MutexLock lock(&sg::c_api::loops_mu);
  sg::c_api::Loops()[loop->cond] = std::move(loop);
  return params;
}

void SG_FinishWhile(const SG_WhileParams* params, SG_Status* status, SG_Output* outputs) {
  Guard("SG_FinishWhile", status, [&]() -> absl::Status {
    if (params == nullptr) return errors::InvalidArgument("SG_FinishWhile: params is NULL");
    std::unique_ptr<sg::c_api::WhileLoop> loop = sg::c_api::TakeLoop(*params);
    if (loop == nullptr) {
      return errors::InvalidArgument(
          "SG_WhileParams must be created by a successful SG_NewWhile() call (and finished or "
          "aborted once)");
    }
    return sg::c_api::FinishLoop(*params, *loop, outputs);
  });
}

void SG_AbortWhile(const SG_WhileParams* params) {
  if (params == nullptr) return;
  sg::c_api::GuardValue<int>(0, [&] {
    sg::c_api::TakeLoop(*params);
    return 0;
  });
}

}  // extern "C"
