#include "core/graph/functionalize_loop.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/node_def_util.h"
#include "core/gradients/functional_grad.h"

namespace sg {
namespace {

using Output = NodeBuilder::Output;

std::string FrameOf(const Node& n) {
  std::string frame;
  if (!GetAttr(n.def().attr(), "frame_name", &frame).ok()) return "";
  return frame;
}

const Edge* DataInput(const Node& n, int i) {
  return i < n.num_inputs() ? n.input_edge(i) : nullptr;
}

// A function name from the frame's ("while/while_context" -> "while_while_context_<what>"),
// unique in `lib`.
std::string FunctionName(const FunctionLibrary& lib, const std::string& frame,
                         const std::string& what) {
  std::string stem;
  for (char c : frame) stem += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return UniqueFunctionName(lib, absl::StrCat(stem, "_", what));
}

// Copies into `fg` the nodes of `loop`'s frame that `results` need, reading `sources` (outputs of
// frame nodes: a Merge's or a Switch's, an invariant Enter's) as the function's arguments `args`.
// Returns the copies of `results`.
absl::StatusOr<std::vector<Output>> CopyPart(const V1Loop& loop, const std::vector<Output>& results,
                                             const std::map<std::pair<int, int>, Output>& sources,
                                             Graph* fg) {
  std::set<int> members;
  for (Node* n : loop.members) members.insert(n->id());
  auto is_source = [&](const Node* n, int index) { return sources.count({n->id(), index}) > 0; };
  // The nodes to copy: backwards from the results along data and control edges, stopping at the
  // sources and skipping control edges from control-flow nodes (pivots).
  std::map<int, Node*> part;
  std::deque<Node*> queue;
  for (const Output& r : results) {
    if (!is_source(r.node, r.index) && !part.count(r.node->id())) {
      part[r.node->id()] = r.node;
      queue.push_back(r.node);
    }
  }
  while (!queue.empty()) {
    Node* n = queue.front();
    queue.pop_front();
    if (!members.count(n->id())) {
      return errors::InvalidArgument("node '", n->name(), "' is read inside while loop '",
                                     loop.frame, "' without an Enter");
    }
    if (n->IsEnter() || n->IsExit() || n->IsNextIteration() || n->IsLoopCond()) {
      return errors::InvalidArgument("while loop '", loop.frame, "': its condition or body "
                                     "reads control-flow node '", n->name(), "' (",
                                     n->type_string(), ")");
    }
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge()) {
        if (e->src->IsControlFlow() || part.count(e->src->id())) continue;
      } else if (is_source(e->src, e->src_output) || part.count(e->src->id())) {
        continue;
      }
      part[e->src->id()] = e->src;
      queue.push_back(e->src);
    }
  }
  std::map<int, Node*> copies;
  for (const auto& [id, n] : part) {
    NodeDef def = n->def();
    def.clear_input();
    def.clear_device();
    SG_ASSIGN_OR_RETURN(Node * c, fg->AddNode(std::move(def)));
    copies[id] = c;
  }
  auto copy_of = [&](const Node* n, int index) -> Output {
    auto s = sources.find({n->id(), index});
    if (s != sources.end()) return s->second;
    return {copies.at(n->id()), index};
  };
  for (const auto& [id, n] : part) {
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge()) {
        if (copies.count(e->src->id())) fg->AddControlEdge(copies[e->src->id()], copies[id]);
        continue;
      }
      Output src = copy_of(e->src, e->src_output);
      SG_RETURN_IF_ERROR(fg->AddEdge(src.node, src.index, copies[id], e->dst_input).status());
    }
  }
  std::vector<Output> out;
  for (const Output& r : results) out.push_back(copy_of(r.node, r.index));
  return out;
}

}  // namespace

absl::StatusOr<V1Loop> FindV1Loop(const Graph& g, const std::string& frame_name) {
  V1Loop loop;
  loop.frame = frame_name;
  std::vector<Node*> enters;
  for (Node* n : g.nodes()) {
    if (n->IsEnter() && FrameOf(*n) == frame_name) enters.push_back(n);
  }
  if (enters.empty()) {
    return errors::InvalidArgument("no Enter node has frame_name '", frame_name, "'");
  }
  std::sort(enters.begin(), enters.end(), [](Node* a, Node* b) { return a->id() < b->id(); });
  // The frame: forwards from its Enters, up to its Exits.
  std::set<int> seen;
  std::deque<Node*> queue;
  for (Node* e : enters) {
    seen.insert(e->id());
    queue.push_back(e);
  }
  Node* loop_cond = nullptr;
  while (!queue.empty()) {
    Node* n = queue.front();
    queue.pop_front();
    loop.members.push_back(n);
    if (n->IsEnter() && FrameOf(*n) != frame_name) {
      return errors::Unimplemented("while loop '", frame_name, "' has a loop inside it ('",
                                   FrameOf(*n), "'); nested v1 loops are not supported");
    }
    if (n->IsLoopCond()) {
      if (loop_cond != nullptr) {
        return errors::InvalidArgument("while loop '", frame_name, "' has two LoopCond nodes, '",
                                       loop_cond->name(), "' and '", n->name(), "'");
      }
      loop_cond = n;
    }
    if (n->IsExit()) continue;
    for (const Edge* e : n->out_edges()) {
      if (seen.insert(e->dst->id()).second) queue.push_back(e->dst);
    }
  }
  if (loop_cond == nullptr) {
    return errors::InvalidArgument("while loop '", frame_name, "' has no LoopCond node");
  }
  bool is_constant = false;
  int64_t parallel = 10;
  for (Node* enter : enters) {
    if (GetAttr(enter->def().attr(), "parallel_iterations", &parallel).ok()) {
      loop.parallel_iterations = parallel;
    }
    is_constant = false;
    (void)GetAttr(enter->def().attr(), "is_constant", &is_constant);
    if (is_constant) {
      loop.invariants.push_back(enter);
      continue;
    }
    // A variable: Enter -> Merge -> Switch -> Exit.
    Node* merge = nullptr;
    for (const Edge* e : enter->out_edges()) {
      if (!e->IsControlEdge() && e->dst->IsMerge()) merge = e->dst;
    }
    if (merge == nullptr || merge->num_inputs() != 2) {
      return errors::InvalidArgument("while loop '", frame_name, "': Enter '", enter->name(),
                                     "' does not feed a Merge of two inputs");
    }
    const Edge* other = DataInput(*merge, 0);
    if (other != nullptr && other->src == enter) other = DataInput(*merge, 1);
    if (other == nullptr || !other->src->IsNextIteration()) {
      return errors::InvalidArgument("while loop '", frame_name, "': Merge '", merge->name(),
                                     "' is not fed by an Enter and a NextIteration");
    }
    Node* sw = nullptr;
    for (const Edge* e : merge->out_edges()) {
      if (!e->IsControlEdge() && e->dst->IsSwitch() && e->src_output == 0) {
        const Edge* pred = DataInput(*e->dst, 1);
        if (pred != nullptr && pred->src == loop_cond) sw = e->dst;
      }
    }
    if (sw == nullptr) {
      return errors::InvalidArgument("while loop '", frame_name, "': Merge '", merge->name(),
                                     "' has no Switch on the loop condition");
    }
    Node* exit = nullptr;
    for (const Edge* e : sw->out_edges()) {
      if (!e->IsControlEdge() && e->src_output == 0 && e->dst->IsExit()) exit = e->dst;
    }
    loop.enters.push_back(enter);
    loop.exits.push_back(exit);
    loop.merges.push_back(merge);
    loop.switches.push_back(sw);
    loop.nexts.push_back(other->src);
  }
  loop.loop_cond = loop_cond;
  for (Node* e : loop.enters) loop.types.push_back(BaseType(e->output_type(0)));
  for (Node* e : loop.invariants) loop.types.push_back(BaseType(e->output_type(0)));
  return loop;
}

absl::Status FunctionalizeV1Loop(const Graph& g, FunctionLibrary* lib, V1Loop* loop) {
  const size_t nv = loop->enters.size();
  const std::vector<Node*>& merges = loop->merges;
  const std::vector<Node*>& switches = loop->switches;
  const std::vector<Node*>& nexts = loop->nexts;
  Node* loop_cond = loop->loop_cond;
  auto make = [&](const std::string& what, bool cond) -> absl::StatusOr<std::string> {
    Graph fg;
    *fg.mutable_flib() = *lib;
    std::vector<Output> args;
    std::map<std::pair<int, int>, Output> sources;
    for (size_t i = 0; i < loop->types.size(); ++i) {
      NodeDef def;
      def.set_name(absl::StrCat("arg_", i));
      def.set_op("Placeholder");
      AddNodeAttr("dtype", loop->types[i], &def);
      SG_ASSIGN_OR_RETURN(Node * a, fg.AddNode(std::move(def)));
      args.push_back({a, 0});
      if (i < nv) {
        sources[cond ? std::make_pair(merges[i]->id(), 0) : std::make_pair(switches[i]->id(), 1)] =
            args.back();
      } else {
        sources[{loop->invariants[i - nv]->id(), 0}] = args.back();
      }
    }
    std::vector<Output> results;
    if (cond) {
      const Edge* pred = DataInput(*loop_cond, 0);
      if (pred == nullptr) return errors::InvalidArgument("LoopCond has no input");
      results.push_back({pred->src, pred->src_output});
    } else {
      for (Node* next : nexts) {
        const Edge* in = DataInput(*next, 0);
        if (in == nullptr) return errors::InvalidArgument("NextIteration has no input");
        results.push_back({in->src, in->src_output});
      }
    }
    SG_ASSIGN_OR_RETURN(std::vector<Output> outs, CopyPart(*loop, results, sources, &fg));
    std::vector<std::pair<std::string, Output>> named;
    for (size_t k = 0; k < outs.size(); ++k) named.push_back({absl::StrCat("out_", k), outs[k]});
    if (!cond) {  // the invariants, unchanged
      for (size_t j = nv; j < args.size(); ++j) {
        named.push_back({absl::StrCat("out_", j), args[j]});
      }
    }
    const std::string name = FunctionName(*lib, loop->frame, what);
    SG_ASSIGN_OR_RETURN(FunctionDef fdef, FunctionDefFromGraph(fg, name, args, named));
    SG_RETURN_IF_ERROR(lib->AddFunction(fdef));
    return name;
  };
  SG_ASSIGN_OR_RETURN(std::string cond_name, make("cond", true));
  SG_ASSIGN_OR_RETURN(std::string body_name, make("body", false));
  loop->cond.set_name(cond_name);
  loop->body.set_name(body_name);
  return absl::OkStatus();
}

}  // namespace sg
