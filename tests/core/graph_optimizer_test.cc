// The graph optimisation pass (core/graph/optimizer.h), rewrite by rewrite: each case builds a
// small graph, looks at the step graph StepBuilder makes of it (which nodes are left), and runs
// it in two sessions, optimised and with ConfigProto's opt_level L0, whose outputs must agree
// within float rounding. The cases where a rewrite must not fire (a fetched intermediate, another
// consumer, a stateful op, a fed tensor, control edges, another device) check that the nodes stay.
#include "core/graph/optimizer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "core/framework/attr_value_util.h"
#include "core/framework/op_kernel.h"
#include "core/graph/graph_constructor.h"
#include "core/graph/partition.h"
#include "core/runtime/session.h"
#include "core/runtime/step_builder.h"
#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

const char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
const char kCpu1[] = "/job:localhost/replica:0/task:0/device:CPU:1";

AttrValue TypeAttr(DataType t) {
  AttrValue v;
  v.set_type(t);
  return v;
}
template <typename T>
AttrValue Attr(const T& value) {
  AttrValue v;
  SetAttrValue(value, &v);
  return v;
}
AttrValue IntList(std::vector<int64_t> v) { return Attr(absl::Span<const int64_t>(v)); }

// Builds a GraphDef node by node.
class G {
 public:
  G& Node(const std::string& name, const std::string& op, std::vector<std::string> inputs,
          std::vector<std::pair<std::string, AttrValue>> attrs = {},
          const std::string& device = "") {
    NodeDef* n = def_.add_node();
    n->set_name(name);
    n->set_op(op);
    n->set_device(device);
    for (auto& i : inputs) n->add_input(i);
    for (auto& a : attrs) (*n->mutable_attr())[a.first] = a.second;
    return *this;
  }
  G& Placeholder(const std::string& name, std::vector<int64_t> shape,
                 DataType dtype = DT_FLOAT) {
    AttrValue s;
    PartialTensorShape(shape).AsProto(s.mutable_shape());
    return Node(name, "Placeholder", {}, {{"dtype", TypeAttr(dtype)}, {"shape", s}});
  }
  G& Const(const std::string& name, const Tensor& t, std::vector<std::string> controls = {},
           const std::string& device = "") {
    return Node(name, "Const", std::move(controls),
                {{"dtype", TypeAttr(t.dtype())}, {"value", Attr(t)}}, device);
  }
  // A float op with attr T.
  G& Op(const std::string& name, const std::string& op, std::vector<std::string> inputs,
        std::vector<std::pair<std::string, AttrValue>> attrs = {},
        const std::string& device = "") {
    attrs.push_back({"T", TypeAttr(DT_FLOAT)});
    return Node(name, op, std::move(inputs), std::move(attrs), device);
  }
  G& Conv(const std::string& name, const std::string& x, const std::string& w,
          std::vector<int64_t> strides = {1, 1, 1, 1}, const std::string& padding = "SAME") {
    return Op(name, "Conv2D", {x, w}, {{"strides", IntList(strides)}, {"padding", Attr(padding)}});
  }
  const GraphDef& def() const { return def_; }

 private:
  GraphDef def_;
};

Tensor Random(std::vector<int64_t> dims, float lo = -1, float hi = 1, int seed = 1) {
  Tensor t(DT_FLOAT, TensorShape(dims));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.data<float>()[i] = u(gen);
  return t;
}

ConfigProto Unoptimised() {
  ConfigProto c;
  c.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(OptimizerOptions::L0);
  return c;
}

using Feeds = std::vector<std::pair<std::string, Tensor>>;

std::vector<Tensor> RunSession(const GraphDef& g, const ConfigProto& config, const Feeds& feeds,
                        const std::vector<std::string>& fetches,
                        const std::vector<std::string>& targets = {}) {
  SessionOptions opts;
  opts.config = config;
  std::unique_ptr<Session> s;
  EXPECT_TRUE(NewSession(opts, &s).ok());
  absl::Status st = s->Create(g);
  EXPECT_TRUE(st.ok()) << st;
  std::vector<Tensor> out;
  st = s->Run(feeds, fetches, targets, &out);
  EXPECT_TRUE(st.ok()) << st;
  return out;
}

// Runs optimised and unoptimised; the outputs must agree (floats within `tol`, relative to the
// largest magnitude). Returns the optimised outputs.
std::vector<Tensor> RunBoth(const GraphDef& g, const Feeds& feeds,
                            const std::vector<std::string>& fetches,
                            const std::vector<std::string>& targets = {}, float tol = 1e-5f) {
  std::vector<Tensor> opt = RunSession(g, ConfigProto(), feeds, fetches, targets);
  std::vector<Tensor> ref = RunSession(g, Unoptimised(), feeds, fetches, targets);
  EXPECT_EQ(opt.size(), ref.size());
  for (size_t i = 0; i < opt.size() && i < ref.size(); ++i) {
    EXPECT_EQ(opt[i].dtype(), ref[i].dtype()) << fetches[i];
    EXPECT_EQ(opt[i].shape(), ref[i].shape()) << fetches[i];
    if (opt[i].dtype() != ref[i].dtype() || opt[i].shape() != ref[i].shape()) continue;
    if (opt[i].dtype() == DT_FLOAT) {
      float scale = 1;
      for (int64_t j = 0; j < ref[i].NumElements(); ++j) {
        scale = std::max(scale, std::abs(ref[i].data<float>()[j]));
      }
      int bad = 0;
      for (int64_t j = 0; j < ref[i].NumElements() && bad < 5; ++j) {
        const float a = opt[i].data<float>()[j], b = ref[i].data<float>()[j];
        if (std::abs(a - b) > tol * scale) {
          ADD_FAILURE() << fetches[i] << " element " << j << ": " << a << " optimised, " << b
                        << " unoptimised";
          ++bad;
        }
      }
    } else if (opt[i].dtype() == DT_INT32) {
      for (int64_t j = 0; j < ref[i].NumElements(); ++j) {
        EXPECT_EQ(opt[i].data<int32_t>()[j], ref[i].data<int32_t>()[j]) << fetches[i];
      }
    }
  }
  return opt;
}

// The step graph StepBuilder makes (optimised unless `optimize` is false).
std::unique_ptr<Graph> StepGraph(const GraphDef& g, const std::vector<std::string>& feeds,
                                 const std::vector<std::string>& fetches,
                                 const std::vector<std::string>& targets = {},
                                 bool optimize = true, int devices = 1) {
  StepBuilderOptions o;
  o.devices = {kCpu0};
  if (devices > 1) o.devices.push_back(kCpu1);
  o.incarnation = [](const std::string&) -> uint64_t { return 7; };
  o.client_device = kCpu0;
  o.client_incarnation = 7;
  if (!optimize) o.optimizer = GraphOptimizerOptionsFromConfig(Unoptimised().graph_options());
  StepBuilder b(o);
  absl::Status s = b.Extend(g);
  EXPECT_TRUE(s.ok()) << s;
  StepGraphs step;
  s = b.Build({feeds, fetches, targets}, &step);
  EXPECT_TRUE(s.ok()) << s;
  return std::move(step.graph);
}

std::map<std::string, int> OpCounts(const Graph& g) {
  std::map<std::string, int> counts;
  for (Node* n : g.nodes()) counts[n->type_string()]++;
  return counts;
}

int Count(const Graph& g, const std::string& op) { return OpCounts(g)[op]; }

const Node* Find(const Graph& g, const std::string& name) { return g.FindNode(name); }

std::vector<std::string> FusedOps(const Node* n) {
  std::vector<std::string> ops;
  EXPECT_TRUE(GetAttr(n->def().attr(), "fused_ops", &ops).ok());
  return ops;
}

bool HasControlInputFrom(const Node* n, const std::string& src) {
  for (const Edge* e : n->in_edges()) {
    if (e->IsControlEdge() && e->src->name() == src) return true;
  }
  return false;
}

// ---- The switch ----------------------------------------------------------------------------

TEST(GraphOptimizerOptions, OptLevelL0TurnsEverythingOff) {
  GraphOptions go;
  EXPECT_TRUE(GraphOptimizerOptionsFromConfig(go).constant_folding);
  EXPECT_TRUE(GraphOptimizerOptionsFromConfig(go).fuse_ops);
  go.mutable_optimizer_options()->set_opt_level(OptimizerOptions::L0);
  GraphOptimizerOptions o = GraphOptimizerOptionsFromConfig(go);
  EXPECT_FALSE(o.any());
  go.mutable_optimizer_options()->set_do_constant_folding(true);
  o = GraphOptimizerOptionsFromConfig(go);
  EXPECT_TRUE(o.constant_folding);
  EXPECT_FALSE(o.control_only_to_noops || o.remove_identities || o.fold_batch_norms ||
               o.fold_pads || o.fuse_ops || o.mark_const_filters);
}

// ---- Control-only nodes ----------------------------------------------------------------------

// tf.tuple's shape: `group` waits for two "gradients" by control edges; the step fetches `out`,
// which waits for `group`, and reads only `used`.
G TupleGraph() {
  G g;
  g.Placeholder("x", {2, 3})
      .Op("shape_grad", "Square", {"x"})
      .Op("unused_grad", "Mul", {"x", "shape_grad"})
      .Op("used", "Neg", {"x"})
      .Node("group", "NoOp", {"^unused_grad", "^used"})
      .Op("out", "Identity", {"used", "^group"});
  return g;
}

TEST(ControlOnlyNodes, BecomeNoOpsWaitingForWhatTheyRead) {
  G g = TupleGraph();
  auto step = StepGraph(g.def(), {"x:0"}, {"out:0"});
  // unused_grad only orders group, and then shape_grad only orders it: both become NoOps.
  ASSERT_NE(Find(*step, "unused_grad"), nullptr);
  EXPECT_EQ(Find(*step, "unused_grad")->type_string(), "NoOp");
  ASSERT_NE(Find(*step, "shape_grad"), nullptr);
  EXPECT_EQ(Find(*step, "shape_grad")->type_string(), "NoOp");
  EXPECT_EQ(Count(*step, "Mul"), 0);
  EXPECT_EQ(Count(*step, "Square"), 0);
  EXPECT_EQ(Find(*step, "used")->type_string(), "Neg");  // read by out
  auto before = StepGraph(g.def(), {"x:0"}, {"out:0"}, {}, /*optimize=*/false);
  EXPECT_EQ(Count(*before, "Mul"), 1);
  Tensor x = Random({2, 3});
  std::vector<Tensor> out = RunBoth(g.def(), {{"x:0", x}}, {"out:0"});
  ASSERT_EQ(out.size(), 1u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[0].data<float>()[i], -x.data<float>()[i]);
}

TEST(ControlOnlyNodes, FetchedTargetedStatefulAndReadNodesStay) {
  G g = TupleGraph();
  // Fetched: its value is the step's.
  auto fetched = StepGraph(g.def(), {"x:0"}, {"out:0", "unused_grad:0"});
  EXPECT_EQ(Find(*fetched, "unused_grad")->type_string(), "Mul");
  EXPECT_EQ(Find(*fetched, "shape_grad")->type_string(), "Square");
  // A target keeps its op (preserve).
  auto targeted = StepGraph(g.def(), {"x:0"}, {"out:0"}, {"unused_grad"});
  EXPECT_EQ(Find(*targeted, "unused_grad")->type_string(), "Mul");
  // A stateful node's running is its effect.
  G r;
  r.Placeholder("x", {2}, DT_INT32)
      .Node("rand", "RandomUniform", {"x"}, {{"dtype", TypeAttr(DT_FLOAT)},
                                             {"T", TypeAttr(DT_INT32)}})
      .Node("group", "NoOp", {"^rand"})
      .Node("out", "Identity", {"x", "^group"}, {{"T", TypeAttr(DT_INT32)}});
  auto stateful = StepGraph(r.def(), {"x:0"}, {"out:0"});
  EXPECT_EQ(Find(*stateful, "rand")->type_string(), "RandomUniform");
}

TEST(ControlOnlyNodes, AControlOnlyNodeInACondBranchStaysDeadWithIt) {
  // when_true only orders `out_true`; in the false branch it is dead, and so must be the NoOp
  // that replaces it, or out_true's Merge would see two inputs.
  G g;
  g.Placeholder("x", {})
      .Placeholder("p", {}, DT_BOOL)
      .Op("sw", "Switch", {"x", "p"})
      .Op("t", "Identity", {"sw:1"})
      .Op("when_true", "Square", {"t"})
      .Op("yes", "Neg", {"t", "^when_true"})
      .Op("no", "Identity", {"sw:0"})
      .Op("out", "Merge", {"no", "yes"}, {{"N", Attr(int64_t{2})}});
  auto step = StepGraph(g.def(), {"x:0", "p:0"}, {"out:0"});
  EXPECT_EQ(Find(*step, "when_true")->type_string(), "NoOp");
  for (bool p : {true, false}) {
    Tensor pv(DT_BOOL, TensorShape({}));
    pv.data<bool>()[0] = p;
    std::vector<Tensor> out =
        RunBoth(g.def(), {{"x:0", Tensor::Scalar<float>(3)}, {"p:0", pv}}, {"out:0"});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].data<float>()[0], p ? -3.0f : 3.0f);
  }
}

// ---- Constant folding ------------------------------------------------------------------------

// y = x * rsqrt(var + eps) * gamma: everything but the last Mul is constant.
G ScaleGraph() {
  G g;
  g.Placeholder("x", {2, 3})
      .Const("var", Random({3}, 0.5, 2, 2))
      .Const("eps", Tensor::Scalar<float>(1e-3f))
      .Const("gamma", Random({3}, 0.5, 1.5, 3))
      .Op("add", "AddV2", {"var", "eps"})
      .Op("rsqrt", "Rsqrt", {"add"})
      .Op("scale", "Mul", {"rsqrt", "gamma"})
      .Op("y", "Mul", {"x", "scale"});
  return g;
}

TEST(ConstantFolding, FoldsWhatOnlyConstantsFeed) {
  G g = ScaleGraph();
  auto step = StepGraph(g.def(), {"x:0"}, {"y:0"});
  EXPECT_EQ(Count(*step, "AddV2"), 0);
  EXPECT_EQ(Count(*step, "Rsqrt"), 0);
  EXPECT_EQ(Count(*step, "Mul"), 1);
  ASSERT_NE(Find(*step, "scale"), nullptr);
  EXPECT_EQ(Find(*step, "scale")->type_string(), "Const");
  EXPECT_EQ(Find(*step, "add"), nullptr);  // dead once folded
  auto before = StepGraph(g.def(), {"x:0"}, {"y:0"}, {}, /*optimize=*/false);
  EXPECT_LT(step->num_nodes(), before->num_nodes());
  RunBoth(g.def(), {{"x:0", Random({2, 3})}}, {"y:0"});
}

TEST(GraphOptimizer, ReportsWhatItDidOnAGraphWithoutSinks) {
  // Called directly: `y` has no consumer, so only `preserve` keeps it.
  Graph graph;
  ASSERT_TRUE(ImportGraphDef(ScaleGraph().def(), ImportOptions(), &graph).ok());
  GraphOptimizerStats stats;
  ASSERT_TRUE(OptimizeGraph(&graph, GraphOptimizerOptions(), {"y"}, &stats).ok());
  EXPECT_EQ(stats.nodes_before, 8);
  EXPECT_EQ(stats.nodes_folded, 1);  // scale; add and rsqrt were only read by constants
  EXPECT_EQ(stats.nodes_after, 3);   // x, scale, y
  EXPECT_EQ(graph.num_nodes(), 3);
  ASSERT_NE(graph.FindNode("y"), nullptr);
  EXPECT_EQ(graph.FindNode("scale")->type_string(), "Const");
}

TEST(ConstantFolding, AFetchedFoldedNodeKeepsItsName) {
  G g = ScaleGraph();
  auto step = StepGraph(g.def(), {"x:0"}, {"y:0", "rsqrt:0"});
  ASSERT_NE(Find(*step, "rsqrt"), nullptr);
  EXPECT_EQ(Find(*step, "rsqrt")->type_string(), "Const");
  RunBoth(g.def(), {{"x:0", Random({2, 3})}}, {"y:0", "rsqrt:0"});
}

TEST(ConstantFolding, AFedTensorIsNotAConstant) {
  G g = ScaleGraph();
  // Feeding `add` replaces it: rsqrt and scale depend on the feed, not on constants.
  auto step = StepGraph(g.def(), {"x:0", "add:0"}, {"y:0"});
  EXPECT_EQ(Count(*step, "Rsqrt"), 1);
  const Tensor fed = Tensor::Vector<float>({4, 16, 0.25f});
  Tensor ones = Random({2, 3});
  for (int i = 0; i < 6; ++i) ones.data<float>()[i] = 1;
  std::vector<Tensor> out = RunBoth(g.def(), {{"x:0", ones}, {"add:0", fed}}, {"y:0"});
  ASSERT_EQ(out.size(), 1u);
  Tensor gamma = Random({3}, 0.5, 1.5, 3);
  EXPECT_NEAR(out[0].data<float>()[0], gamma.data<float>()[0] / 2, 1e-6);
  EXPECT_NEAR(out[0].data<float>()[1], gamma.data<float>()[1] / 4, 1e-6);
  EXPECT_NEAR(out[0].data<float>()[2], gamma.data<float>()[2] * 2, 1e-6);
}

TEST(ConstantFolding, LeavesStatefulOpsAndTargets) {
  G g;
  g.Const("shape", Tensor::Vector<int32_t>({2, 2}))
      .Node("random", "RandomUniform", {"shape"},
            {{"dtype", TypeAttr(DT_FLOAT)}, {"T", TypeAttr(DT_INT32)}})
      .Const("two", Tensor::Scalar<float>(2))
      .Op("doubled", "Mul", {"random", "two"})
      .Const("a", Tensor::Scalar<float>(3))
      .Op("target", "Neg", {"a"});
  auto step = StepGraph(g.def(), {}, {"doubled:0"}, {"target"});
  EXPECT_EQ(Count(*step, "RandomUniform"), 1);
  EXPECT_EQ(Count(*step, "Mul"), 1);
  ASSERT_NE(Find(*step, "target"), nullptr);
  EXPECT_EQ(Find(*step, "target")->type_string(), "Neg");
  // Two runs of the random op differ: it was not frozen into a constant.
  SessionOptions opts;
  std::unique_ptr<Session> s;
  ASSERT_TRUE(NewSession(opts, &s).ok());
  ASSERT_TRUE(s->Create(g.def()).ok());
  std::vector<Tensor> a, b;
  ASSERT_TRUE(s->Run({}, {"doubled:0"}, {}, &a).ok());
  ASSERT_TRUE(s->Run({}, {"doubled:0"}, {}, &b).ok());
  EXPECT_NE(a[0].data<float>()[0], b[0].data<float>()[0]);
}

TEST(ConstantFolding, NewConstantsKeepTheControlDependenciesOfTheirInputs) {
  // k = c * c, where c waits for `p` (Identity of the placeholder): the folded k must wait too.
  G g;
  g.Placeholder("x", {2})
      .Op("p", "Identity", {"x"})
      .Const("c", Tensor::Vector<float>({2, 3}), {"^p"})
      .Op("k", "Mul", {"c", "c"})
      .Op("y", "AddV2", {"x", "k"});
  auto step = StepGraph(g.def(), {"x:0"}, {"y:0"});
  const Node* k = Find(*step, "k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->type_string(), "Const");
  EXPECT_TRUE(HasControlInputFrom(k, "p"));
  std::vector<Tensor> out = RunBoth(g.def(), {{"x:0", Tensor::Vector<float>({1, 1})}}, {"y:0"});
  EXPECT_EQ(out[0].data<float>()[1], 10);
}

TEST(ConstantFolding, AConstantInACondBranchStaysDeadWhenTheBranchIsNotTaken) {
  // out = Merge(k, -x): k = c * c in the true branch (c waits for the branch's pivot), -x in
  // the false one. If the folded k lost the pivot it would be alive in both.
  G g;
  g.Placeholder("x", {2})
      .Placeholder("pred", {}, DT_BOOL)
      .Op("sw", "Switch", {"x", "pred"})
      .Op("pivot_t", "Identity", {"sw:1"})
      .Const("c", Tensor::Vector<float>({2, 3}), {"^pivot_t"})
      .Op("k", "Mul", {"c", "c"})
      .Op("neg", "Neg", {"sw:0"})
      .Node("out", "Merge", {"k", "neg"}, {{"T", TypeAttr(DT_FLOAT)}, {"N", Attr(int64_t{2})}});
  auto step = StepGraph(g.def(), {"x:0", "pred:0"}, {"out:0"});
  ASSERT_NE(Find(*step, "k"), nullptr);
  EXPECT_EQ(Find(*step, "k")->type_string(), "Const");
  const Tensor x = Tensor::Vector<float>({5, 7});
  std::vector<Tensor> f =
      RunBoth(g.def(), {{"x:0", x}, {"pred:0", Tensor::Scalar<bool>(false)}}, {"out:0"});
  EXPECT_EQ(f[0].data<float>()[0], -5);
  std::vector<Tensor> t =
      RunBoth(g.def(), {{"x:0", x}, {"pred:0", Tensor::Scalar<bool>(true)}}, {"out:0"});
  EXPECT_EQ(t[0].data<float>()[1], 9);
}

TEST(ConstantFolding, AConstantInALoopStaysInItsFrame) {
  // v = x; while i < 3: v = v * (c + c), i += 1, with c inside the loop (after the pivot).
  G g;
  AttrValue frame = Attr(std::string("loop"));
  const AttrValue f32 = TypeAttr(DT_FLOAT), i32 = TypeAttr(DT_INT32);
  g.Placeholder("x", {2})
      .Const("i0", Tensor::Scalar<int32_t>(0))
      .Node("enter_i", "Enter", {"i0"}, {{"T", i32}, {"frame_name", frame}})
      .Node("enter_v", "Enter", {"x"}, {{"T", f32}, {"frame_name", frame}})
      .Node("merge_i", "Merge", {"enter_i", "next_i"}, {{"T", i32}, {"N", Attr(int64_t{2})}})
      .Node("merge_v", "Merge", {"enter_v", "next_v"}, {{"T", f32}, {"N", Attr(int64_t{2})}})
      .Const("three", Tensor::Scalar<int32_t>(3), {"^merge_i"})
      .Node("less", "Less", {"merge_i", "three"}, {{"T", i32}})
      .Node("cond", "LoopCond", {"less"})
      .Node("switch_i", "Switch", {"merge_i", "cond"}, {{"T", i32}})
      .Op("switch_v", "Switch", {"merge_v", "cond"})
      .Node("pivot", "Identity", {"switch_i:1"}, {{"T", i32}})
      .Const("one", Tensor::Scalar<int32_t>(1), {"^pivot"})
      .Const("c", Tensor::Scalar<float>(1.5f), {"^pivot"})
      .Op("cc", "AddV2", {"c", "c"})
      .Node("add_i", "AddV2", {"pivot", "one"}, {{"T", i32}})
      .Op("mul_v", "Mul", {"switch_v:1", "cc"})
      .Node("next_i", "NextIteration", {"add_i"}, {{"T", i32}})
      .Op("next_v", "NextIteration", {"mul_v"})
      .Op("exit_v", "Exit", {"switch_v:0"});
  auto step = StepGraph(g.def(), {"x:0"}, {"exit_v:0"});
  ASSERT_NE(Find(*step, "cc"), nullptr);
  EXPECT_EQ(Find(*step, "cc")->type_string(), "Const");
  EXPECT_TRUE(HasControlInputFrom(Find(*step, "cc"), "pivot"));
  std::vector<Tensor> out =
      RunBoth(g.def(), {{"x:0", Tensor::Vector<float>({1, 2})}}, {"exit_v:0"});
  EXPECT_EQ(out[0].data<float>()[1], 54);
}

TEST(ConstantFolding, ShapesInferredFullyFold) {
  G g;
  g.Placeholder("x", {2, 3})
      .Node("shape", "Shape", {"x"}, {{"T", TypeAttr(DT_FLOAT)}, {"out_type", TypeAttr(DT_INT32)}})
      .Node("size", "Size", {"x"}, {{"T", TypeAttr(DT_FLOAT)}, {"out_type", TypeAttr(DT_INT32)}})
      .Placeholder("flat", {6})
      .Node("back", "Reshape", {"flat", "shape"},
            {{"T", TypeAttr(DT_FLOAT)}, {"Tshape", TypeAttr(DT_INT32)}});
  auto step = StepGraph(g.def(), {"x:0", "flat:0"}, {"back:0", "size:0"});
  EXPECT_EQ(Count(*step, "Shape"), 0);
  EXPECT_EQ(Count(*step, "Size"), 0);
  // The folded Shape waits for the tensor it describes (its frame and deadness).
  const Node* shape = Find(*step, "shape");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->type_string(), "Const");
  ASSERT_EQ(shape->in_edges().size(), 1u);
  EXPECT_TRUE(shape->in_edges()[0]->IsControlEdge());
  EXPECT_EQ(shape->in_edges()[0]->src->type_string(), "_Arg");
  std::vector<Tensor> out =
      RunBoth(g.def(), {{"x:0", Random({2, 3})}, {"flat:0", Random({6})}}, {"back:0", "size:0"});
  EXPECT_EQ(out[0].shape(), TensorShape({2, 3}));
  EXPECT_EQ(out[1].data<int32_t>()[0], 6);
}

TEST(ConstantFolding, ShapesOfATensorDeclaredScalarAreNotTrusted) {
  // A feed declared as a scalar may come with any shape (CheckFeed is lenient), so its Shape
  // is computed when the step runs.
  G g;
  g.Placeholder("x", {})
      .Node("shape", "Shape", {"x"}, {{"T", TypeAttr(DT_FLOAT)}, {"out_type", TypeAttr(DT_INT32)}});
  auto step = StepGraph(g.def(), {"x:0"}, {"shape:0"});
  EXPECT_EQ(Count(*step, "Shape"), 1);
  std::vector<Tensor> out = RunSession(g.def(), ConfigProto(), {{"x:0", Random({4})}}, {"shape:0"});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].NumElements(), 1);
}

// ---- Identity removal ------------------------------------------------------------------------

TEST(IdentityRemoval, ConsumersReadThroughIdentityChains) {
  G g;
  g.Placeholder("x", {4})
      .Op("id1", "Identity", {"x"})
      .Op("id2", "Snapshot", {"id1"})
      .Op("stop", "StopGradient", {"id2"})
      .Op("relu", "Relu", {"stop"});
  auto step = StepGraph(g.def(), {"x:0"}, {"relu:0"});
  EXPECT_EQ(Count(*step, "Identity") + Count(*step, "Snapshot") + Count(*step, "StopGradient"),
            0);
  RunBoth(g.def(), {{"x:0", Random({4})}}, {"relu:0"});
}

TEST(IdentityRemoval, KeepsFetchedIdentitiesAndIdentitiesWithControlEdges) {
  G g;
  g.Placeholder("x", {4})
      .Op("fetched", "Identity", {"x"})
      .Op("ordered", "Identity", {"x"})
      .Op("relu", "Relu", {"x", "^ordered"})
      .Op("gated", "Identity", {"x", "^relu"})
      .Op("out", "Neg", {"gated"});
  auto step = StepGraph(g.def(), {"x:0"}, {"fetched:0", "out:0"});
  EXPECT_NE(Find(*step, "fetched"), nullptr);
  EXPECT_NE(Find(*step, "ordered"), nullptr);
  EXPECT_NE(Find(*step, "gated"), nullptr);
  RunBoth(g.def(), {{"x:0", Random({4})}}, {"fetched:0", "out:0"});
}

TEST(IdentityRemoval, KeepsAnIdentityBetweenDevices) {
  G g;
  g.Placeholder("x", {4})
      .Op("copy", "Identity", {"x"}, {}, kCpu1)
      .Op("out", "Relu", {"copy"}, {}, kCpu1);
  auto step = StepGraph(g.def(), {"x:0"}, {"out:0"}, {}, true, /*devices=*/2);
  ASSERT_NE(Find(*step, "copy"), nullptr);
}

// ---- Batch norm folding and fusion -----------------------------------------------------------

// Keras's frozen BatchNormalization after a bias-free Conv2D (MobileNetV2): Mul by a channel
// vector, AddV2 of another, Relu6.
TEST(BatchNormFolding, KerasMulAddAfterConv2DBecomesAFusedConv) {
  G g;
  g.Placeholder("x", {1, 6, 6, 3})
      .Const("w", Random({3, 3, 3, 4}, -1, 1, 4))
      .Conv("conv", "x", "w")
      .Const("s", Random({4}, 0.5, 1.5, 5))
      .Const("t", Random({4}, -0.5, 0.5, 6))
      .Op("mul", "Mul", {"conv", "s"})
      .Op("add", "AddV2", {"mul", "t"})
      .Op("act", "Relu6", {"add"});
  auto step = StepGraph(g.def(), {"x:0"}, {"act:0"});
  const auto counts = OpCounts(*step);
  EXPECT_EQ(counts.count("Mul"), 0u);
  EXPECT_EQ(counts.count("AddV2"), 0u);
  EXPECT_EQ(counts.count("Conv2D"), 0u);
  const Node* act = Find(*step, "act");
  ASSERT_NE(act, nullptr);
  EXPECT_EQ(act->type_string(), "_FusedConv2D");
  EXPECT_EQ(FusedOps(act), std::vector<std::string>({"BiasAdd", "Relu6"}));
  bool const_filter = false;
  EXPECT_TRUE(GetAttr(act->def().attr(), "_sg_const_filter", &const_filter).ok());
  EXPECT_TRUE(const_filter);
  RunBoth(g.def(), {{"x:0", Random({1, 6, 6, 3}, -2, 2, 9)}}, {"act:0"});
}

// ResNet50's form: Conv2D, BiasAdd, then Mul and AddV2 by [1, 1, 1, C] vectors, Relu.
TEST(BatchNormFolding, BiasThenBroadcastMulAddFoldsIntoOneBias) {
  G g;
  g.Placeholder("x", {2, 5, 5, 3})
      .Const("w", Random({1, 1, 3, 4}, -1, 1, 4))
      .Conv("conv", "x", "w", {1, 2, 2, 1}, "VALID")
      .Const("b", Random({4}, -1, 1, 7))
      .Op("bias", "BiasAdd", {"conv", "b"})
      .Const("s", Random({1, 1, 1, 4}, 0.5, 1.5, 5))
      .Const("t", Random({1, 1, 1, 4}, -0.5, 0.5, 6))
      .Op("mul", "Mul", {"s", "bias"})  // the constant first
      .Op("add", "AddV2", {"mul", "t"})
      .Op("act", "Relu", {"add"});
  auto step = StepGraph(g.def(), {"x:0"}, {"act:0"});
  const auto counts = OpCounts(*step);
  EXPECT_EQ(counts.count("Mul") + counts.count("AddV2") + counts.count("BiasAdd"), 0u);
  ASSERT_NE(Find(*step, "act"), nullptr);
  EXPECT_EQ(Find(*step, "act")->type_string(), "_FusedConv2D");
  EXPECT_EQ(FusedOps(Find(*step, "act")), std::vector<std::string>({"BiasAdd", "Relu"}));
  RunBoth(g.def(), {{"x:0", Random({2, 5, 5, 3}, -2, 2, 9)}}, {"act:0"});
}

TEST(BatchNormFolding, AFilterWrittenAsOneRepeatedValueIsScaledToo) {
  // TensorFlow writes a filter of equal values as one float_val, not as tensor_content.
  AttrValue splat;
  TensorProto* w = splat.mutable_tensor();
  w->set_dtype(DT_FLOAT);
  PartialTensorShape({1, 1, 2, 3}).AsProto(w->mutable_tensor_shape());
  w->add_float_val(0.5f);
  G g;
  g.Placeholder("x", {1, 3, 3, 2})
      .Node("w", "Const", {}, {{"dtype", TypeAttr(DT_FLOAT)}, {"value", splat}})
      .Conv("conv", "x", "w")
      .Const("s", Tensor::Vector<float>({1, 2, 3}))
      .Op("mul", "Mul", {"conv", "s"});
  auto step = StepGraph(g.def(), {"x:0"}, {"mul:0"});
  ASSERT_NE(Find(*step, "mul"), nullptr);
  EXPECT_EQ(Find(*step, "mul")->type_string(), "Conv2D");
  RunBoth(g.def(), {{"x:0", Random({1, 3, 3, 2})}}, {"mul:0"});
}

TEST(BatchNormFolding, FusedBatchNormAfterConvAndDepthwise) {
  G g;
  g.Placeholder("x", {1, 5, 5, 2})
      .Const("w", Random({3, 3, 2, 2}, -1, 1, 4))  // multiplier 2: 4 channels
      .Op("dw", "DepthwiseConv2dNative", {"x", "w"},
          {{"strides", IntList({1, 1, 1, 1})}, {"padding", Attr(std::string("SAME"))}})
      .Const("scale", Random({4}, 0.5, 1.5, 10))
      .Const("offset", Random({4}, -1, 1, 11))
      .Const("mean", Random({4}, -1, 1, 12))
      .Const("var", Random({4}, 0.5, 2, 13))
      .Op("bn", "FusedBatchNormV3", {"dw", "scale", "offset", "mean", "var"},
          {{"U", TypeAttr(DT_FLOAT)}, {"is_training", Attr(false)}, {"epsilon", Attr(1e-3f)}})
      .Op("relu", "Relu6", {"bn"})
      .Const("w2", Random({1, 1, 4, 3}, -1, 1, 14))
      .Conv("conv", "relu", "w2")
      .Op("bn2", "FusedBatchNorm", {"conv", "scale2", "offset2", "mean2", "var2"},
          {{"is_training", Attr(false)}, {"epsilon", Attr(1e-3f)}})
      .Const("scale2", Random({3}, 0.5, 1.5, 15))
      .Const("offset2", Random({3}, -1, 1, 16))
      .Const("mean2", Random({3}, -1, 1, 17))
      .Const("var2", Random({3}, 0.5, 2, 18));
  auto step = StepGraph(g.def(), {"x:0"}, {"bn2:0"});
  const auto counts = OpCounts(*step);
  EXPECT_EQ(counts.count("FusedBatchNormV3") + counts.count("FusedBatchNorm"), 0u);
  ASSERT_NE(Find(*step, "relu"), nullptr);
  EXPECT_EQ(Find(*step, "relu")->type_string(), "_FusedDepthwiseConv2dNative");
  EXPECT_EQ(FusedOps(Find(*step, "relu")), std::vector<std::string>({"BiasAdd", "Relu6"}));
  EXPECT_EQ(Find(*step, "dw"), nullptr);
  ASSERT_NE(Find(*step, "bn2"), nullptr);
  EXPECT_EQ(Find(*step, "bn2")->type_string(), "_FusedConv2D");
  EXPECT_EQ(FusedOps(Find(*step, "bn2")), std::vector<std::string>({"BiasAdd"}));
  bool marked = false;
  EXPECT_TRUE(GetAttr(Find(*step, "relu")->def().attr(), "_sg_const_filter", &marked).ok());
  EXPECT_TRUE(marked);
  RunBoth(g.def(), {{"x:0", Random({1, 5, 5, 2}, -2, 2, 9)}}, {"bn2:0"});
}

TEST(BatchNormFolding, MatMulScaleAndShiftThenFusedMatMul) {
  for (bool transpose_b : {false, true}) {
    G g;
    g.Placeholder("x", {3, 4})
        .Const("w", Random(transpose_b ? std::vector<int64_t>{5, 4} : std::vector<int64_t>{4, 5},
                           -1, 1, 4))
        .Op("mm", "MatMul", {"x", "w"}, {{"transpose_b", Attr(transpose_b)}})
        .Const("s", Random({1, 5}, 0.5, 1.5, 5))
        .Const("t", Random({5}, -0.5, 0.5, 6))
        .Op("mul", "Mul", {"mm", "s"})
        .Op("sub", "Sub", {"mul", "t"})
        .Op("act", "Tanh", {"sub"});
    auto step = StepGraph(g.def(), {"x:0"}, {"act:0"});
    ASSERT_NE(Find(*step, "act"), nullptr);
    EXPECT_EQ(Find(*step, "act")->type_string(), "_FusedMatMul") << transpose_b;
    EXPECT_EQ(FusedOps(Find(*step, "act")), std::vector<std::string>({"BiasAdd", "Tanh"}));
    EXPECT_EQ(Count(*step, "Mul") + Count(*step, "Sub"), 0);
    RunBoth(g.def(), {{"x:0", Random({3, 4}, -2, 2, 9)}}, {"act:0"});
  }
}

TEST(BatchNormFolding, DoesNotFireOnAFetchedOrSharedIntermediateOrANonChannelVector) {
  G g;
  g.Placeholder("x", {1, 4, 4, 2})
      .Const("w", Random({1, 1, 2, 3}, -1, 1, 4))
      .Conv("fetched_conv", "x", "w")
      .Const("s", Random({3}, 0.5, 1.5, 5))
      .Op("mul1", "Mul", {"fetched_conv", "s"})
      .Conv("shared_conv", "x", "w")
      .Op("mul2", "Mul", {"shared_conv", "s"})
      .Op("other", "Relu", {"shared_conv"})
      .Conv("conv3", "x", "w")
      .Const("spatial", Random({1, 4, 1, 1}, 0.5, 1.5, 6))  // varies along H: not per channel
      .Op("mul3", "Mul", {"conv3", "spatial"})
      .Placeholder("wp", {1, 1, 2, 3})
      .Conv("conv4", "x", "wp")  // the filter is fed, not constant
      .Op("mul4", "Mul", {"conv4", "s"})
      .Op("mul5", "Mul", {"conv4", "s"});
  const std::vector<std::string> fetches = {"fetched_conv:0", "mul1:0", "mul2:0", "other:0",
                                            "mul3:0", "mul4:0"};
  auto step = StepGraph(g.def(), {"x:0", "wp:0"}, fetches);
  for (const char* n : {"mul1", "mul2", "mul3", "mul4"}) {
    ASSERT_NE(Find(*step, n), nullptr) << n;
    EXPECT_EQ(Find(*step, n)->type_string(), "Mul") << n;
  }
  EXPECT_EQ(Count(*step, "Conv2D"), 4);
  RunBoth(g.def(), {{"x:0", Random({1, 4, 4, 2})}, {"wp:0", Random({1, 1, 2, 3})}}, fetches);
}

TEST(BatchNormFolding, DoesNotFoldATrainingBatchNorm) {
  G g;
  g.Placeholder("x", {2, 3, 3, 2})
      .Const("w", Random({1, 1, 2, 2}, -1, 1, 4))
      .Conv("conv", "x", "w")
      .Const("scale", Random({2}, 0.5, 1.5, 10))
      .Const("offset", Random({2}, -1, 1, 11))
      .Const("empty", Tensor(DT_FLOAT, TensorShape({0})))
      .Op("bn", "FusedBatchNormV3", {"conv", "scale", "offset", "empty", "empty"},
          {{"U", TypeAttr(DT_FLOAT)}, {"is_training", Attr(true)}});
  auto step = StepGraph(g.def(), {"x:0"}, {"bn:0"});
  EXPECT_EQ(Find(*step, "bn")->type_string(), "FusedBatchNormV3");
  RunBoth(g.def(), {{"x:0", Random({2, 3, 3, 2})}}, {"bn:0"});
}

TEST(Fusion, MatMulBiasAddActivations) {
  for (const std::string act : {"Relu", "Relu6", "Elu", "LeakyRelu", "Sigmoid", "Tanh"}) {
    G g;
    g.Placeholder("x", {2, 6})
        .Placeholder("w", {6, 3})  // fusion needs no constant filter
        .Op("mm", "MatMul", {"x", "w"})
        .Const("b", Random({3}, -1, 1, 7))
        .Op("bias", "BiasAdd", {"mm", "b"});
    if (act == "LeakyRelu") {
      g.Op("act", act, {"bias"}, {{"alpha", Attr(0.1f)}});
    } else {
      g.Op("act", act, {"bias"});
    }
    auto step = StepGraph(g.def(), {"x:0", "w:0"}, {"act:0"});
    const Node* n = Find(*step, "act");
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->type_string(), "_FusedMatMul") << act;
    EXPECT_EQ(FusedOps(n), std::vector<std::string>({"BiasAdd", act}));
    EXPECT_EQ(step->num_nodes(), 5) << act;  // two _Arg, b, the fused node, _Retval
    RunBoth(g.def(), {{"x:0", Random({2, 6}, -3, 3, 8)}, {"w:0", Random({6, 3}, -1, 1, 9)}},
            {"act:0"});
  }
}

// A matrix product whose b is a Const is marked, fused or not (its kernel keeps b packed: 8
// rows run on PanelProduct); one whose b is fed is not.
TEST(Fusion, MatMulsWithAConstantBAreMarked) {
  G g;
  g.Placeholder("x", {8, 6})
      .Const("w", Random({6, 20}, -1, 1, 4))
      .Placeholder("wp", {6, 20})
      .Const("b", Random({20}, -1, 1, 7))
      .Op("mm", "MatMul", {"x", "w"})
      .Op("bias", "BiasAdd", {"mm", "b"})
      .Op("act", "Tanh", {"bias"})
      .Op("plain", "MatMul", {"x", "w"})
      .Op("fed", "MatMul", {"x", "wp"});
  const std::vector<std::string> fetches = {"act:0", "plain:0", "fed:0"};
  auto step = StepGraph(g.def(), {"x:0", "wp:0"}, fetches);
  for (const auto& [name, op, marked] : {std::tuple("act", "_FusedMatMul", true),
                                         std::tuple("plain", "MatMul", true),
                                         std::tuple("fed", "MatMul", false)}) {
    const Node* n = Find(*step, name);
    ASSERT_NE(n, nullptr) << name;
    EXPECT_EQ(n->type_string(), op) << name;
    bool value = false;
    EXPECT_EQ(GetAttr(n->def().attr(), "_sg_const_filter", &value).ok(), marked) << name;
    EXPECT_EQ(value, marked) << name;
  }
  RunBoth(g.def(), {{"x:0", Random({8, 6}, -2, 2, 8)}, {"wp:0", Random({6, 20}, -1, 1, 9)}},
          fetches);
}

TEST(Fusion, Conv2DBiasAddLeakyReluWithExplicitPadding) {
  G g;
  g.Placeholder("x", {1, 5, 5, 2})
      .Const("w", Random({3, 3, 2, 3}, -1, 1, 4))
      .Op("conv", "Conv2D", {"x", "w"},
          {{"strides", IntList({1, 2, 2, 1})},
           {"padding", Attr(std::string("EXPLICIT"))},
           {"explicit_paddings", IntList({0, 0, 1, 2, 2, 1, 0, 0})}})
      .Const("b", Random({3}, -1, 1, 7))
      .Op("bias", "BiasAdd", {"conv", "b"})
      .Op("act", "LeakyRelu", {"bias"}, {{"alpha", Attr(0.3f)}});
  auto step = StepGraph(g.def(), {"x:0"}, {"act:0"});
  const Node* n = Find(*step, "act");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->type_string(), "_FusedConv2D");
  float alpha = 0;
  EXPECT_TRUE(GetAttr(n->def().attr(), "leakyrelu_alpha", &alpha).ok());
  EXPECT_FLOAT_EQ(alpha, 0.3f);
  RunBoth(g.def(), {{"x:0", Random({1, 5, 5, 2}, -2, 2, 9)}}, {"act:0"});
}

// Swish of a convolution's BiasAdd y, Mul(y, Sigmoid(y)) or Keras's Mul(y, Sigmoid(Mul(y, 1))),
// becomes the fused node's _MklSwish, with the Muls' operands in either order, after Conv2D and
// a depthwise convolution.
TEST(Fusion, SwishAfterConvolutionsBiasAdd) {
  for (int variant = 0; variant < 8; ++variant) {
    const bool depthwise = variant & 1, sigmoid_first = variant & 2, keras = variant & 4;
    const std::string op = depthwise ? "DepthwiseConv2dNative" : "Conv2D";
    G g;
    g.Placeholder("x", {2, 7, 6, 3})
        .Const("w", Random({3, 3, 3, depthwise ? 2 : 5}, -1, 1, 4))
        .Op("conv", op, {"x", "w"},
            {{"strides", IntList({1, 1, 1, 1})}, {"padding", Attr(std::string("SAME"))}})
        .Const("b", Random({depthwise ? 6 : 5}, -1, 1, 7))
        .Op("bias", "BiasAdd", {"conv", "b"});
    if (keras) {
      g.Const("one", Tensor::Scalar<float>(1));
      if (sigmoid_first) {
        g.Op("beta_y", "Mul", {"one", "bias"});
      } else {
        g.Op("beta_y", "Mul", {"bias", "one"});
      }
    }
    g.Op("sig", "Sigmoid", {keras ? "beta_y" : "bias"});
    if (sigmoid_first) {
      g.Op("swish", "Mul", {"sig", "bias"});
    } else {
      g.Op("swish", "Mul", {"bias", "sig"});
    }
    auto step = StepGraph(g.def(), {"x:0"}, {"swish:0"});
    const std::string what = absl::StrCat(op, sigmoid_first ? " Mul(sig, y)" : " Mul(y, sig)",
                                          keras ? " Keras" : "");
    const Node* n = Find(*step, "swish");
    ASSERT_NE(n, nullptr) << what;
    EXPECT_EQ(n->type_string(), depthwise ? "_FusedDepthwiseConv2dNative" : "_FusedConv2D")
        << what;
    EXPECT_EQ(FusedOps(n), std::vector<std::string>({"BiasAdd", "_MklSwish"})) << what;
    EXPECT_EQ(Find(*step, "sig"), nullptr) << what;
    EXPECT_EQ(Find(*step, "beta_y"), nullptr) << what;
    EXPECT_EQ(step->num_nodes(), 5) << what;  // _Arg, w, b, the fused node, _Retval
    RunBoth(g.def(), {{"x:0", Random({2, 7, 6, 3}, -3, 3, 8)}}, {"swish:0"});
  }
}

// Swish does not fuse when the Sigmoid is fetched, when the Mul multiplies by another
// Sigmoid, when the BiasAdd has a third consumer, or when Keras's beta is not 1.
TEST(Fusion, SwishStaysWhenAnIntermediateIsUsedElsewhere) {
  G g;
  g.Placeholder("x", {1, 5, 5, 2})
      .Const("w", Random({3, 3, 2, 4}, -1, 1, 4))
      .Const("b", Random({4}, -1, 1, 7));
  for (const char* k : {"1", "2", "3", "4"}) {  // bias4: no Sigmoid of its own
    const std::string c = absl::StrCat("conv", k), y = absl::StrCat("bias", k);
    g.Op(c, "Conv2D", {"x", "w"},
         {{"strides", IntList({1, 1, 1, 1})}, {"padding", Attr(std::string("SAME"))}})
        .Op(y, "BiasAdd", {c, "b"});
    if (std::string(k) != "4") g.Op(absl::StrCat("sig", k), "Sigmoid", {y});
  }
  g.Const("two", Tensor::Scalar<float>(2))
      .Op("beta_y4", "Mul", {"bias4", "two"})
      .Op("sig_beta4", "Sigmoid", {"beta_y4"})
      .Op("mul4", "Mul", {"bias4", "sig_beta4"});
  g.Op("mul1", "Mul", {"bias1", "sig1"})     // sig1 is fetched
      .Op("mul2", "Mul", {"bias2", "sig3"})  // another tensor's Sigmoid
      .Op("mul3", "Mul", {"bias3", "sig3"})
      .Op("other3", "Neg", {"bias3"});       // bias3's third consumer
  const std::vector<std::string> fetches = {"sig1:0", "mul1:0", "mul2:0", "mul3:0", "other3:0",
                                            "sig2:0", "mul4:0"};
  auto step = StepGraph(g.def(), {"x:0"}, fetches);
  for (const char* m : {"mul1", "mul2", "mul3", "mul4"}) {
    ASSERT_NE(Find(*step, m), nullptr) << m;
    EXPECT_EQ(Find(*step, m)->type_string(), "Mul") << m;
  }
  RunBoth(g.def(), {{"x:0", Random({1, 5, 5, 2}, -2, 2, 9)}}, fetches);
}

TEST(Fusion, StopsAtAnIntermediateWithAnotherUseOrAControlEdge) {
  G g;
  g.Placeholder("x", {2, 4})
      .Placeholder("w", {4, 3})
      .Const("b", Random({3}, -1, 1, 7))
      // The BiasAdd is fetched too: MatMul + BiasAdd fuse, the Relu stays.
      .Op("mm1", "MatMul", {"x", "w"})
      .Op("bias1", "BiasAdd", {"mm1", "b"})
      .Op("relu1", "Relu", {"bias1"})
      // The MatMul is fetched: nothing fuses.
      .Op("mm2", "MatMul", {"x", "w"})
      .Op("bias2", "BiasAdd", {"mm2", "b"})
      // The MatMul has a control input: nothing fuses.
      .Op("mm3", "MatMul", {"x", "w", "^relu1"})
      .Op("bias3", "BiasAdd", {"mm3", "b"});
  const std::vector<std::string> fetches = {"bias1:0", "relu1:0", "mm2:0", "bias2:0", "bias3:0"};
  auto step = StepGraph(g.def(), {"x:0", "w:0"}, fetches);
  EXPECT_EQ(Find(*step, "bias1")->type_string(), "_FusedMatMul");
  EXPECT_EQ(FusedOps(Find(*step, "bias1")), std::vector<std::string>({"BiasAdd"}));
  EXPECT_EQ(Find(*step, "relu1")->type_string(), "Relu");
  EXPECT_EQ(Find(*step, "mm2")->type_string(), "MatMul");
  EXPECT_EQ(Find(*step, "bias2")->type_string(), "BiasAdd");
  EXPECT_EQ(Find(*step, "mm3")->type_string(), "MatMul");
  EXPECT_EQ(Find(*step, "bias3")->type_string(), "BiasAdd");
  RunBoth(g.def(), {{"x:0", Random({2, 4})}, {"w:0", Random({4, 3})}}, fetches);
}

TEST(Fusion, TheLastNodeKeepsItsControlInputsAndDependents) {
  G g;
  g.Placeholder("x", {2, 4})
      .Placeholder("w", {4, 3})
      .Const("b", Random({3}, -1, 1, 7))
      .Op("first", "Neg", {"x"})
      .Op("mm", "MatMul", {"x", "w"})
      .Op("bias", "BiasAdd", {"mm", "b", "^first"})
      .Op("after", "Neg", {"x", "^bias"});
  auto step = StepGraph(g.def(), {"x:0", "w:0"}, {"bias:0", "after:0"});
  const Node* n = Find(*step, "bias");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->type_string(), "_FusedMatMul");
  EXPECT_TRUE(HasControlInputFrom(n, "first"));
  EXPECT_TRUE(HasControlInputFrom(Find(*step, "after"), "bias"));
  RunBoth(g.def(), {{"x:0", Random({2, 4})}, {"w:0", Random({4, 3})}}, {"bias:0", "after:0"});
}

// ---- Pad folding -----------------------------------------------------------------------------

Tensor Paddings(std::vector<int32_t> v) {
  Tensor t(DT_INT32, TensorShape({4, 2}));
  for (int i = 0; i < 8; ++i) t.data<int32_t>()[i] = v[i];
  return t;
}

std::string PaddingOf(const Node* n) {
  std::string p;
  EXPECT_TRUE(GetAttr(n->def().attr(), "padding", &p).ok());
  return p;
}

std::vector<int64_t> ExplicitPaddingsOf(const Node* n) {
  std::vector<int64_t> p;
  EXPECT_TRUE(GetAttr(n->def().attr(), "explicit_paddings", &p).ok());
  return p;
}

TEST(PadFolding, ZeroPadsBecomeTheConvolutionsExplicitPadding) {
  Tensor pads64(DT_INT64, TensorShape({4, 2}));
  const int64_t p64[] = {0, 0, 2, 0, 1, 1, 0, 0};
  std::copy(p64, p64 + 8, pads64.data<int64_t>());
  G g;
  g.Placeholder("x", {2, 7, 7, 3})
      // Pad then a VALID Conv2D with stride 2.
      .Const("p1", Paddings({0, 0, 1, 2, 2, 1, 0, 0}))
      .Op("pad1", "Pad", {"x", "p1"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Const("w1", Random({3, 3, 3, 4}, -1, 1, 4))
      .Conv("conv1", "pad1", "w1", {1, 2, 2, 1}, "VALID")
      // PadV2 of zeros (int64 paddings) then a depthwise convolution with its own EXPLICIT
      // padding: the two add up.
      .Const("p2", pads64)
      .Const("zero", Tensor::Scalar<float>(0))
      .Op("pad2", "PadV2", {"x", "p2", "zero"}, {{"Tpaddings", TypeAttr(DT_INT64)}})
      .Const("w2", Random({3, 2, 3, 2}, -1, 1, 5))
      .Op("dw", "DepthwiseConv2dNative", {"pad2", "w2"},
          {{"strides", IntList({1, 1, 2, 1})},
           {"padding", Attr(std::string("EXPLICIT"))},
           {"explicit_paddings", IntList({0, 0, 1, 0, 0, 3, 0, 0})}})
      // Pad then a Conv2D + BiasAdd + Relu: the fused convolution gets the padding.
      .Op("pad3", "Pad", {"x", "p1"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Conv("conv3", "pad3", "w1", {1, 1, 1, 1}, "VALID")
      .Const("b", Random({4}, -1, 1, 7))
      .Op("bias3", "BiasAdd", {"conv3", "b"})
      .Op("relu3", "Relu", {"bias3"});
  const std::vector<std::string> fetches = {"conv1:0", "dw:0", "relu3:0"};
  auto step = StepGraph(g.def(), {"x:0"}, fetches);
  EXPECT_EQ(Count(*step, "Pad") + Count(*step, "PadV2"), 0);
  const Node* conv1 = Find(*step, "conv1");
  ASSERT_NE(conv1, nullptr);
  EXPECT_EQ(conv1->type_string(), "Conv2D");
  EXPECT_EQ(PaddingOf(conv1), "EXPLICIT");
  EXPECT_EQ(ExplicitPaddingsOf(conv1), std::vector<int64_t>({0, 0, 1, 2, 2, 1, 0, 0}));
  const Node* dw = Find(*step, "dw");
  ASSERT_NE(dw, nullptr);
  EXPECT_EQ(dw->type_string(), "DepthwiseConv2dNative");
  EXPECT_EQ(PaddingOf(dw), "EXPLICIT");
  EXPECT_EQ(ExplicitPaddingsOf(dw), std::vector<int64_t>({0, 0, 3, 0, 1, 4, 0, 0}));
  const Node* relu3 = Find(*step, "relu3");
  ASSERT_NE(relu3, nullptr);
  EXPECT_EQ(relu3->type_string(), "_FusedConv2D");
  EXPECT_EQ(PaddingOf(relu3), "EXPLICIT");
  EXPECT_EQ(ExplicitPaddingsOf(relu3), std::vector<int64_t>({0, 0, 1, 2, 2, 1, 0, 0}));
  RunBoth(g.def(), {{"x:0", Random({2, 7, 7, 3}, -2, 2, 9)}}, fetches);
}

// Keras's stride-2 depthwise block (MobileNetV2): ZeroPadding2D(correct_pad), a VALID
// DepthwiseConv2D, then the folded batch norm's BiasAdd and Relu6. The padding is what SAME
// computes for the input's height and width, so the depthwise convolution fuses with SAME.
TEST(PadFolding, KerasStride2DepthwiseBlockBecomesAFusedSameDepthwise) {
  for (int64_t size : {8, 7}) {
    // correct_pad: (0, 1) for an even size, (1, 1) for an odd one; SAME pads the same.
    const int32_t before = size % 2 == 0 ? 0 : 1;
    G g;
    g.Placeholder("x", {-1, size, size, 4})
        .Const("p", Paddings({0, 0, before, 1, before, 1, 0, 0}))
        .Op("pad", "Pad", {"x", "p"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
        .Const("w", Random({3, 3, 4, 1}, -1, 1, 4))
        .Op("dw", "DepthwiseConv2dNative", {"pad", "w"},
            {{"strides", IntList({1, 2, 2, 1})}, {"padding", Attr(std::string("VALID"))}})
        .Const("b", Random({4}, -1, 1, 7))
        .Op("bias", "BiasAdd", {"dw", "b"})
        .Op("act", "Relu6", {"bias"});
    auto step = StepGraph(g.def(), {"x:0"}, {"act:0"});
    EXPECT_EQ(Count(*step, "Pad") + Count(*step, "BiasAdd") + Count(*step, "Relu6"), 0) << size;
    const Node* act = Find(*step, "act");
    ASSERT_NE(act, nullptr);
    EXPECT_EQ(act->type_string(), "_FusedDepthwiseConv2dNative") << size;
    EXPECT_EQ(PaddingOf(act), "SAME") << size;
    EXPECT_EQ(FusedOps(act), std::vector<std::string>({"BiasAdd", "Relu6"}));
    RunBoth(g.def(), {{"x:0", Random({2, size, size, 4}, -2, 2, 9)}}, {"act:0"});
  }
}

// Padding that is not SAME's (or a graph without static shapes) folds into the depthwise
// convolution, which then stays unfused: _FusedDepthwiseConv2dNative has no EXPLICIT padding.
TEST(PadFolding, AnExplicitDepthwiseThatIsNotSameStaysUnfused) {
  G g;
  g.Placeholder("x", {1, 8, 8, 2})
      .Const("p", Paddings({0, 0, 1, 1, 1, 1, 0, 0}))  // SAME would pad (0, 1) here
      .Op("pad", "Pad", {"x", "p"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Const("w", Random({3, 3, 2, 1}, -1, 1, 4))
      .Op("dw", "DepthwiseConv2dNative", {"pad", "w"},
          {{"strides", IntList({1, 2, 2, 1})}, {"padding", Attr(std::string("VALID"))}})
      .Const("b", Random({2}, -1, 1, 7))
      .Op("bias", "BiasAdd", {"dw", "b"})
      .Op("act", "Relu", {"bias"});
  auto step = StepGraph(g.def(), {"x:0"}, {"act:0"});
  EXPECT_EQ(Count(*step, "Pad"), 0);
  ASSERT_NE(Find(*step, "dw"), nullptr);
  EXPECT_EQ(Find(*step, "dw")->type_string(), "DepthwiseConv2dNative");
  EXPECT_EQ(PaddingOf(Find(*step, "dw")), "EXPLICIT");
  EXPECT_EQ(Find(*step, "act")->type_string(), "Relu");
  RunBoth(g.def(), {{"x:0", Random({1, 8, 8, 2}, -2, 2, 9)}}, {"act:0"});
}

TEST(PadFolding, DoesNotFireOnPadsItCannotFold) {
  G g;
  g.Placeholder("x", {1, 5, 5, 2})
      .Placeholder("fed_p", {4, 2}, DT_INT32)
      .Const("w", Random({2, 2, 2, 3}, -1, 1, 4))
      .Const("spatial", Paddings({0, 0, 1, 1, 1, 1, 0, 0}))
      // Paddings fed, not constant.
      .Op("pad_fed", "Pad", {"x", "fed_p"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Conv("conv_fed", "pad_fed", "w", {1, 1, 1, 1}, "VALID")
      // Padding of the batch dim.
      .Const("batch_p", Paddings({1, 0, 1, 1, 0, 0, 0, 0}))
      .Op("pad_n", "Pad", {"x", "batch_p"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Conv("conv_n", "pad_n", "w", {1, 1, 1, 1}, "VALID")
      // Padding of the channels (the filter takes 3).
      .Const("channel_p", Paddings({0, 0, 0, 0, 0, 0, 0, 1}))
      .Op("pad_c", "Pad", {"x", "channel_p"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Const("w3", Random({1, 1, 3, 2}, -1, 1, 5))
      .Conv("conv_c", "pad_c", "w3", {1, 1, 1, 1}, "VALID")
      // The Pad is fetched.
      .Op("pad_fetched", "Pad", {"x", "spatial"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Conv("conv_fetched", "pad_fetched", "w", {1, 1, 1, 1}, "VALID")
      // The Pad has another consumer.
      .Op("pad_shared", "Pad", {"x", "spatial"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Conv("conv_shared", "pad_shared", "w", {1, 1, 1, 1}, "VALID")
      .Op("other", "Relu", {"pad_shared"})
      // PadV2 of ones.
      .Const("one", Tensor::Scalar<float>(1))
      .Op("pad_ones", "PadV2", {"x", "spatial", "one"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Conv("conv_ones", "pad_ones", "w", {1, 1, 1, 1}, "VALID")
      // A SAME convolution pads on its own terms.
      .Op("pad_same", "Pad", {"x", "spatial"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Conv("conv_same", "pad_same", "w", {1, 2, 2, 1}, "SAME")
      // A control input on the Pad.
      .Op("pad_ctl", "Pad", {"x", "spatial", "^other"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Conv("conv_ctl", "pad_ctl", "w", {1, 1, 1, 1}, "VALID");
  const std::vector<std::string> fetches = {"conv_fed:0",  "conv_n:0",   "conv_c:0",
                                            "pad_fetched:0", "conv_fetched:0", "conv_shared:0",
                                            "other:0", "conv_ones:0", "conv_same:0",
                                            "conv_ctl:0"};
  auto step = StepGraph(g.def(), {"x:0", "fed_p:0"}, fetches);
  for (const char* n : {"pad_fed", "pad_n", "pad_c", "pad_fetched", "pad_shared", "pad_same",
                        "pad_ctl"}) {
    ASSERT_NE(Find(*step, n), nullptr) << n;
    EXPECT_EQ(Find(*step, n)->type_string(), "Pad") << n;
  }
  ASSERT_NE(Find(*step, "pad_ones"), nullptr);
  EXPECT_EQ(Find(*step, "pad_ones")->type_string(), "PadV2");
  for (const char* n : {"conv_fed", "conv_n", "conv_c", "conv_fetched", "conv_shared",
                        "conv_ones", "conv_ctl"}) {
    EXPECT_EQ(PaddingOf(Find(*step, n)), "VALID") << n;
  }
  RunBoth(g.def(), {{"x:0", Random({1, 5, 5, 2}, -2, 2, 9)},
                    {"fed_p:0", Paddings({0, 0, 1, 0, 0, 1, 0, 0})}},
          fetches);
}

TEST(PadFolding, DoesNotFireOnNegativePaddingsOtherDtypesOrNchw) {
  G g;
  g.Placeholder("x", {1, 6, 6, 2})
      .Const("w", Random({2, 2, 2, 3}, -1, 1, 4))
      // Negative paddings, which only constant folding reveals (Pad's shape function rejects a
      // negative Const).
      .Const("pos", Paddings({0, 0, 1, 0, 0, 0, 0, 0}))
      .Node("neg", "Neg", {"pos"}, {{"T", TypeAttr(DT_INT32)}})
      .Op("pad_neg", "Pad", {"x", "neg"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Conv("conv_neg", "pad_neg", "w", {1, 1, 1, 1}, "VALID")
      .Const("spatial", Paddings({0, 0, 1, 1, 1, 1, 0, 0}))
      .Op("pad_nchw", "Pad", {"x", "spatial"}, {{"Tpaddings", TypeAttr(DT_INT32)}})
      .Op("conv_nchw", "Conv2D", {"pad_nchw", "w"},
          {{"strides", IntList({1, 1, 1, 1})}, {"padding", Attr(std::string("VALID"))},
           {"data_format", Attr(std::string("NCHW"))}})
      .Placeholder("xd", {1, 6, 6, 2}, DT_DOUBLE)
      .Node("pad_double", "Pad", {"xd", "spatial"},
            {{"T", TypeAttr(DT_DOUBLE)}, {"Tpaddings", TypeAttr(DT_INT32)}})
      .Node("wd", "Const", {}, {{"dtype", TypeAttr(DT_DOUBLE)},
                                {"value", Attr(Tensor(DT_DOUBLE, TensorShape({1, 1, 2, 2})))}})
      .Node("conv_double", "Conv2D", {"pad_double", "wd"},
            {{"T", TypeAttr(DT_DOUBLE)}, {"strides", IntList({1, 1, 1, 1})},
             {"padding", Attr(std::string("VALID"))}});
  // Not run: Pad rejects negative paddings (in TensorFlow too), and sg's CPU Conv2D has no NCHW.
  auto step = StepGraph(g.def(), {"x:0", "xd:0"}, {"conv_neg:0", "conv_nchw:0", "conv_double:0"});
  ASSERT_NE(Find(*step, "neg"), nullptr);
  EXPECT_EQ(Find(*step, "neg")->type_string(), "Const");  // folded, so the Pad saw its values
  for (const char* n : {"pad_neg", "pad_nchw", "pad_double"}) {
    ASSERT_NE(Find(*step, n), nullptr) << n;
    EXPECT_EQ(Find(*step, n)->type_string(), "Pad") << n;
  }
  for (const char* n : {"conv_neg", "conv_nchw", "conv_double"}) {
    EXPECT_EQ(PaddingOf(Find(*step, n)), "VALID") << n;
  }
}

// ---- _FusedDepthwiseConv2dNative ------------------------------------------------------------

TEST(FusedDepthwise, BiasAddAndEachActivationAgainstTheUnfusedGraph) {
  for (const std::string act : {"", "Relu", "Relu6", "Elu", "LeakyRelu"}) {
    for (const std::string padding : {"SAME", "VALID"}) {
      G g;
      g.Placeholder("x", {2, 9, 8, 3})
          .Const("w", Random({3, 2, 3, 2}, -1, 1, 4))  // multiplier 2: 6 channels
          .Op("dw", "DepthwiseConv2dNative", {"x", "w"},
              {{"strides", IntList({1, 2, 1, 1})}, {"padding", Attr(padding)},
               {"dilations", IntList({1, 1, 2, 1})}})
          .Const("b", Random({6}, -1, 1, 7))
          .Op("bias", "BiasAdd", {"dw", "b"});
      std::string last = "bias";
      if (act == "LeakyRelu") {
        g.Op("act", act, {"bias"}, {{"alpha", Attr(0.15f)}});
        last = "act";
      } else if (!act.empty()) {
        g.Op("act", act, {"bias"});
        last = "act";
      }
      auto step = StepGraph(g.def(), {"x:0"}, {last + ":0"});
      const Node* n = Find(*step, last);
      ASSERT_NE(n, nullptr);
      EXPECT_EQ(n->type_string(), "_FusedDepthwiseConv2dNative") << act << " " << padding;
      std::vector<std::string> ops = {"BiasAdd"};
      if (!act.empty()) ops.push_back(act);
      EXPECT_EQ(FusedOps(n), ops);
      EXPECT_EQ(PaddingOf(n), padding);
      EXPECT_EQ(step->num_nodes(), 5) << act;  // _Arg, w, b, the fused node, _Retval
      RunBoth(g.def(), {{"x:0", Random({2, 9, 8, 3}, -3, 3, 8)}}, {last + ":0"});
    }
  }
}

// The kernel alone (unoptimised sessions), a batch norm epilogue and double, against the ops it
// stands for.
TEST(FusedDepthwise, KernelWithBatchNormAndDoubleAgainstSeparateOps) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    auto cast = [&](const Tensor& f) {
      if (dt == DT_FLOAT) return f;
      Tensor d(DT_DOUBLE, f.shape());
      for (int64_t i = 0; i < f.NumElements(); ++i) d.data<double>()[i] = f.data<float>()[i];
      return d;
    };
    auto constant = [&](G& g, const std::string& name, const Tensor& v) {
      g.Node(name, "Const", {}, {{"dtype", TypeAttr(dt)}, {"value", Attr(cast(v))}});
    };
    G g;
    g.Node("x", "Placeholder", {}, {{"dtype", TypeAttr(dt)}});
    constant(g, "w", Random({3, 3, 4, 1}, -1, 1, 4));
    constant(g, "scale", Random({4}, 0.5, 1.5, 10));
    constant(g, "offset", Random({4}, -1, 1, 11));
    constant(g, "mean", Random({4}, -1, 1, 12));
    constant(g, "var", Random({4}, 0.5, 2, 13));
    const std::vector<std::pair<std::string, AttrValue>> conv_attrs = {
        {"T", TypeAttr(dt)},
        {"strides", IntList({1, 2, 2, 1})},
        {"padding", Attr(std::string("SAME"))}};
    auto fused_attrs = conv_attrs;
    fused_attrs.push_back({"num_args", Attr(int64_t{4})});
    fused_attrs.push_back(
        {"fused_ops", Attr(absl::Span<const std::string>(std::vector<std::string>{
                          "FusedBatchNorm", "Relu6"}))});
    fused_attrs.push_back({"epsilon", Attr(1e-3f)});
    g.Node("fused", "_FusedDepthwiseConv2dNative", {"x", "w", "scale", "offset", "mean", "var"},
           fused_attrs)
        .Node("dw", "DepthwiseConv2dNative", {"x", "w"}, conv_attrs)
        .Node("sub", "Sub", {"dw", "mean"}, {{"T", TypeAttr(dt)}})
        .Node("eps", "Const", {}, {{"dtype", TypeAttr(dt)},
                                   {"value", Attr(cast(Tensor::Scalar<float>(1e-3f)))}})
        .Node("ve", "AddV2", {"var", "eps"}, {{"T", TypeAttr(dt)}})
        .Node("rs", "Rsqrt", {"ve"}, {{"T", TypeAttr(dt)}})
        .Node("m1", "Mul", {"sub", "rs"}, {{"T", TypeAttr(dt)}})
        .Node("m2", "Mul", {"m1", "scale"}, {{"T", TypeAttr(dt)}})
        .Node("add", "AddV2", {"m2", "offset"}, {{"T", TypeAttr(dt)}})
        .Node("ref", "Relu6", {"add"}, {{"T", TypeAttr(dt)}});
    const Tensor x = cast(Random({2, 7, 6, 4}, -3, 3, 8));
    std::vector<Tensor> out =
        RunSession(g.def(), Unoptimised(), {{"x:0", x}}, {"fused:0", "ref:0"});
    ASSERT_EQ(out.size(), 2u);
    ASSERT_EQ(out[0].shape(), TensorShape({2, 4, 3, 4}));
    ASSERT_EQ(out[1].shape(), out[0].shape());
    for (int64_t i = 0; i < out[0].NumElements(); ++i) {
      const double a = dt == DT_FLOAT ? out[0].data<float>()[i] : out[0].data<double>()[i];
      const double b = dt == DT_FLOAT ? out[1].data<float>()[i] : out[1].data<double>()[i];
      EXPECT_NEAR(a, b, dt == DT_FLOAT ? 1e-4 : 1e-10) << DataTypeString(dt) << " element " << i;
    }
  }
}

TEST(FusedDepthwise, KernelRejectsMismatchedArgsWithAnError) {
  G g;
  g.Placeholder("x", {1, 4, 4, 2})
      .Const("w", Random({3, 3, 2, 1}, -1, 1, 4))
      .Const("b", Random({3}, -1, 1, 7))  // 2 channels, 3 biases
      .Op("fused", "_FusedDepthwiseConv2dNative", {"x", "w", "b"},
          {{"strides", IntList({1, 1, 1, 1})},
           {"padding", Attr(std::string("SAME"))},
           {"num_args", Attr(int64_t{1})},
           {"fused_ops", Attr(absl::Span<const std::string>(std::vector<std::string>{
                             "BiasAdd"}))}});
  SessionOptions opts;
  opts.config = Unoptimised();
  std::unique_ptr<Session> s;
  ASSERT_TRUE(NewSession(opts, &s).ok());
  ASSERT_TRUE(s->Create(g.def()).ok());
  std::vector<Tensor> out;
  absl::Status st = s->Run({{"x:0", Random({1, 4, 4, 2})}}, {"fused:0"}, {}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
}

// ---- Residual add ----------------------------------------------------------------------------

// ResNet's block end: Conv2D + BiasAdd (a folded batch norm), AddV2 of the shortcut, Relu.
G ResidualBlock(std::vector<int64_t> x_shape, const std::string& add_op, bool conv_first,
                const std::string& act, const std::string& shortcut_op) {
  G g;
  g.Placeholder("x", x_shape)
      .Op("shortcut", shortcut_op, {"x"})  // Neg: its only consumer is the add; Relu: two
      .Const("w", Random({3, 3, 4, 4}, -1, 1, 4))
      .Conv("conv", shortcut_op == "Neg" ? "x" : "shortcut", "w")
      .Const("b", Random({4}, -1, 1, 7))
      .Op("bias", "BiasAdd", {"conv", "b"});
  if (conv_first) {
    g.Op("add", add_op, {"bias", "shortcut"});
  } else {
    g.Op("add", add_op, {"shortcut", "bias"});
  }
  if (act == "LeakyRelu") {
    g.Op("act", act, {"add"}, {{"alpha", Attr(0.25f)}});
  } else if (!act.empty()) {
    g.Op("act", act, {"add"});
  }
  return g;
}

TEST(ResidualFusion, ConvBiasAddAddActivationBecomesOneFusedConv) {
  struct Case {
    std::vector<int64_t> shape;
    std::string add_op;
    bool conv_first;
    std::string act, shortcut_op;
  };
  const Case cases[] = {{{2, 6, 6, 4}, "AddV2", false, "Relu", "Neg"},
                        {{-1, 6, 6, 4}, "AddV2", false, "Relu", "Relu"},
                        {{2, 5, 7, 4}, "Add", true, "", "Neg"},
                        {{2, 6, 6, 4}, "AddV2", true, "LeakyRelu", "Relu"},
                        {{2, 6, 6, 4}, "AddV2", false, "Relu6", "Neg"}};
  for (const Case& c : cases) {
    const std::string last = c.act.empty() ? "add" : "act";
    G g = ResidualBlock(c.shape, c.add_op, c.conv_first, c.act, c.shortcut_op);
    auto step = StepGraph(g.def(), {"x:0"}, {last + ":0"});
    const Node* n = Find(*step, last);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->type_string(), "_FusedConv2D") << c.add_op << " " << c.act;
    std::vector<std::string> ops = {"BiasAdd", "Add"};
    if (!c.act.empty()) ops.push_back(c.act);
    EXPECT_EQ(FusedOps(n), ops);
    int64_t num_args = 0;
    EXPECT_TRUE(GetAttr(n->def().attr(), "num_args", &num_args).ok());
    EXPECT_EQ(num_args, 2);
    EXPECT_EQ(n->num_inputs(), 4);
    EXPECT_EQ(Count(*step, "AddV2") + Count(*step, "Add") + Count(*step, "BiasAdd"), 0);
    std::vector<int64_t> shape = c.shape;
    shape[0] = 2;
    RunBoth(g.def(), {{"x:0", Random(shape, -2, 2, 9)}}, {last + ":0"});
  }
}

TEST(ResidualFusion, DoesNotFireOnBroadcastsActivatedConvsOrFetchedIntermediates) {
  G g;
  g.Placeholder("x", {2, 5, 5, 4})
      .Placeholder("xu", {-1, 5, 5, 4})
      .Const("w", Random({3, 3, 4, 4}, -1, 1, 4))
      .Const("b", Random({4}, -1, 1, 7))
      // The addend broadcasts (a channel vector; fed: batch norm folding takes a Const one).
      .Conv("conv1", "x", "w")
      .Op("bias1", "BiasAdd", {"conv1", "b"})
      .Placeholder("vec", {1, 1, 1, 4})
      .Op("add1", "AddV2", {"bias1", "vec"})
      // The batch dims differ statically (known and unknown): may broadcast.
      .Conv("conv2", "x", "w")
      .Op("bias2", "BiasAdd", {"conv2", "b"})
      .Op("add2", "AddV2", {"bias2", "xu"})
      // The convolution has its activation already: relu(conv) + x is not conv + x.
      .Conv("conv3", "x", "w")
      .Op("bias3", "BiasAdd", {"conv3", "b"})
      .Op("relu3", "Relu", {"bias3"})
      .Op("add3", "AddV2", {"relu3", "x"})
      // The BiasAdd's output is fetched too.
      .Conv("conv4", "x", "w")
      .Op("bias4", "BiasAdd", {"conv4", "b"})
      .Op("add4", "AddV2", {"bias4", "x"});
  const std::vector<std::string> fetches = {"add1:0", "add2:0", "add3:0", "bias4:0", "add4:0"};
  auto step = StepGraph(g.def(), {"x:0", "xu:0", "vec:0"}, fetches);
  for (const char* n : {"add1", "add2", "add3", "add4"}) {
    ASSERT_NE(Find(*step, n), nullptr) << n;
    EXPECT_EQ(Find(*step, n)->type_string(), "AddV2") << n;
  }
  RunBoth(g.def(), {{"x:0", Random({2, 5, 5, 4}, -2, 2, 9)},
                    {"xu:0", Random({2, 5, 5, 4}, -2, 2, 10)},
                    {"vec:0", Random({1, 1, 1, 4}, -2, 2, 11)}},
          fetches);
}

// The kernel alone (unoptimised sessions), float (oneDNN's sum post-op) and double (the
// convolution, then the additions), against the separate ops; and a residual of another shape
// is an error, not a crash.
TEST(ResidualFusion, KernelAgainstSeparateOpsAndAResidualOfAnotherShape) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    auto cast = [&](const Tensor& f) {
      if (dt == DT_FLOAT) return f;
      Tensor d(DT_DOUBLE, f.shape());
      for (int64_t i = 0; i < f.NumElements(); ++i) d.data<double>()[i] = f.data<float>()[i];
      return d;
    };
    G g;
    auto constant = [&](const std::string& name, const Tensor& v) {
      g.Node(name, "Const", {}, {{"dtype", TypeAttr(dt)}, {"value", Attr(cast(v))}});
    };
    g.Node("x", "Placeholder", {}, {{"dtype", TypeAttr(dt)}});
    g.Node("r", "Placeholder", {}, {{"dtype", TypeAttr(dt)}});
    constant("w", Random({3, 3, 3, 5}, -1, 1, 4));
    constant("b", Random({5}, -1, 1, 7));
    const std::vector<DataType> targs = {dt, dt};
    g.Node("fused", "_FusedConv2D", {"x", "w", "b", "r"},
           {{"T", TypeAttr(dt)},
            {"TArgs", Attr(absl::Span<const DataType>(targs))},
            {"num_args", Attr(int64_t{2})},
            {"strides", IntList({1, 2, 1, 1})},
            {"padding", Attr(std::string("SAME"))},
            {"fused_ops", Attr(absl::Span<const std::string>(
                              std::vector<std::string>{"BiasAdd", "Add", "Relu"}))}})
        .Node("conv", "Conv2D", {"x", "w"},
              {{"T", TypeAttr(dt)}, {"strides", IntList({1, 2, 1, 1})},
               {"padding", Attr(std::string("SAME"))}})
        .Node("bias", "BiasAdd", {"conv", "b"}, {{"T", TypeAttr(dt)}})
        .Node("add", "AddV2", {"bias", "r"}, {{"T", TypeAttr(dt)}})
        .Node("ref", "Relu", {"add"}, {{"T", TypeAttr(dt)}});
    const Tensor x = cast(Random({2, 7, 6, 3}, -2, 2, 8));
    const Tensor r = cast(Random({2, 4, 6, 5}, -2, 2, 9));
    std::vector<Tensor> out =
        RunSession(g.def(), Unoptimised(), {{"x:0", x}, {"r:0", r}}, {"fused:0", "ref:0"});
    ASSERT_EQ(out.size(), 2u);
    ASSERT_EQ(out[0].shape(), TensorShape({2, 4, 6, 5}));
    ASSERT_EQ(out[1].shape(), out[0].shape());
    for (int64_t i = 0; i < out[0].NumElements(); ++i) {
      const double a = dt == DT_FLOAT ? out[0].data<float>()[i] : out[0].data<double>()[i];
      const double b = dt == DT_FLOAT ? out[1].data<float>()[i] : out[1].data<double>()[i];
      EXPECT_NEAR(a, b, dt == DT_FLOAT ? 1e-4 : 1e-10) << DataTypeString(dt) << " element " << i;
    }
    // A residual that would broadcast.
    SessionOptions opts;
    opts.config = Unoptimised();
    std::unique_ptr<Session> s;
    ASSERT_TRUE(NewSession(opts, &s).ok());
    ASSERT_TRUE(s->Create(g.def()).ok());
    std::vector<Tensor> bad;
    absl::Status st = s->Run({{"x:0", x}, {"r:0", cast(Random({1, 4, 6, 5}))}}, {"fused:0"}, {},
                             &bad);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  }
}

// ---- Constants the optimiser makes, held decoded ---------------------------------------------

// Keras's frozen batch norm before constant folding: the scale is gamma * rsqrt(var + eps), the
// shift beta - mean * scale, both computed in the graph, then Mul and AddV2 after the Conv2D.
struct KerasBatchNorm {
  Tensor w = Random({3, 3, 3, 4}, -1, 1, 4);
  Tensor gamma = Random({4}, 0.5, 1.5, 5);
  Tensor beta = Random({4}, -0.5, 0.5, 6);
  Tensor mean = Random({4}, -0.5, 0.5, 7);
  Tensor var = Random({4}, 0.5, 2, 8);
  float eps = 1e-3f;
  G g;
  KerasBatchNorm() {
    g.Placeholder("x", {1, 5, 5, 3})
        .Const("w", w)
        .Conv("conv", "x", "w")
        .Const("gamma", gamma)
        .Const("beta", beta)
        .Const("mean", mean)
        .Const("var", var)
        .Const("eps", Tensor::Scalar<float>(eps))
        .Op("var_eps", "AddV2", {"var", "eps"})
        .Op("rsqrt", "Rsqrt", {"var_eps"})
        .Op("scale", "Mul", {"gamma", "rsqrt"})
        .Op("mean_scale", "Mul", {"mean", "scale"})
        .Op("shift", "Sub", {"beta", "mean_scale"})
        .Op("mul", "Mul", {"conv", "scale"})
        .Op("add", "AddV2", {"mul", "shift"})
        .Op("act", "Relu", {"add"});
  }
  // The folded filter, worked out here in double: w[..., c] * gamma[c] / sqrt(var[c] + eps).
  std::vector<double> FoldedFilter() const {
    std::vector<double> out(w.NumElements());
    for (int64_t i = 0; i < w.NumElements(); ++i) {
      const int64_t c = i % 4;
      out[i] = static_cast<double>(w.data<float>()[i]) * gamma.data<float>()[c] /
               std::sqrt(static_cast<double>(var.data<float>()[c]) + eps);
    }
    return out;
  }
};

// The Const feeding the filter input of `conv` in `g`.
const Node* FilterConst(const Graph& g, const std::string& conv) {
  const Node* n = g.FindNode(conv);
  if (n == nullptr || n->input_edge(1) == nullptr) return nullptr;
  const Node* f = n->input_edge(1)->src;
  return f->type_string() == "Const" ? f : nullptr;
}

void ExpectValues(const Tensor& t, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(t.dtype(), DT_FLOAT) << what;
  ASSERT_EQ(t.NumElements(), static_cast<int64_t>(want.size())) << what;
  int bad = 0;
  for (size_t i = 0; i < want.size() && bad < 5; ++i) {
    const double got = t.data<float>()[i];
    if (std::abs(got - want[i]) > 1e-5 * std::max(1.0, std::abs(want[i]))) {
      ADD_FAILURE() << what << " element " << i << ": " << got << ", want " << want[i];
      ++bad;
    }
  }
}

TEST(HeldConstants, AFoldedFilterReachesItsKernelWithoutANodeDefRoundTrip) {
  KerasBatchNorm bn;
  auto step = StepGraph(bn.g.def(), {"x:0"}, {"act:0"});
  ASSERT_NE(Find(*step, "act"), nullptr);
  ASSERT_EQ(Find(*step, "act")->type_string(), "_FusedConv2D");
  const Node* filter = FilterConst(*step, "act");
  ASSERT_NE(filter, nullptr);
  EXPECT_NE(filter->name(), "w");  // a new Const, not the client's
  // The value is held as a Tensor; the NodeDef has only the name, op and dtype.
  EXPECT_FALSE(filter->def().attr().contains("value")) << filter->def().DebugString();
  EXPECT_LT(filter->def().ByteSizeLong(), 200u) << filter->def().DebugString();
  auto held = filter->tensor_attrs().find("value");
  ASSERT_NE(held, filter->tensor_attrs().end());
  EXPECT_EQ(held->second.shape(), TensorShape({3, 3, 3, 4}));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(held->second.raw_data()) % kTensorAlignment, 0u);
  ExpectValues(held->second, bn.FoldedFilter(), "held filter");

  // The Const kernel made as the executor makes it outputs that very buffer: no decode.
  std::unique_ptr<OpKernel> kernel;
  absl::Status s = KernelRegistry::Global()->CreateKernel(
      test::TestDevice(), DEVICE_CPU, filter->shared_def(), &filter->op_def(), &kernel,
      &filter->tensor_attrs());
  ASSERT_TRUE(s.ok()) << s;
  std::vector<TensorValue> no_inputs;
  OpKernelContext::Params params;
  params.device = test::TestDevice();
  params.op_kernel = kernel.get();
  params.inputs = &no_inputs;
  params.runner = [](std::function<void()> fn) { fn(); };
  OpKernelContext ctx(&params);
  kernel->Compute(&ctx);
  ASSERT_TRUE(ctx.status().ok()) << ctx.status();
  EXPECT_TRUE(ctx.output_value(0).value.SharesBufferWith(held->second));
  // The NodeDef alone is not a Const: made without the held value, the kernel fails (no zeros).
  s = KernelRegistry::Global()->CreateKernel(test::TestDevice(), DEVICE_CPU,
                                             filter->shared_def(), &filter->op_def(), &kernel);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;

  // The constant-folded scale and shift are held too (the shift as the fused bias).
  const Node* act = Find(*step, "act");
  ASSERT_NE(act->input_edge(2), nullptr);
  const Node* bias = act->input_edge(2)->src;
  EXPECT_EQ(bias->type_string(), "Const");
  EXPECT_FALSE(bias->def().attr().contains("value"));
  EXPECT_EQ(bias->tensor_attrs().count("value"), 1u);

  RunBoth(bn.g.def(), {{"x:0", Random({1, 5, 5, 3}, -2, 2, 9)}}, {"act:0"});
}

TEST(HeldConstants, ConstantFoldingHoldsWhatItComputes) {
  G g;
  g.Placeholder("x", {2, 3})
      .Const("a", Tensor::Vector<float>({1, 2, 3}))
      .Const("b", Tensor::Vector<float>({10, 20, 30}))
      .Op("ab", "Mul", {"a", "b"})
      .Op("y", "AddV2", {"x", "ab"});
  auto step = StepGraph(g.def(), {"x:0"}, {"y:0"});
  const Node* ab = Find(*step, "ab");
  ASSERT_NE(ab, nullptr);
  EXPECT_EQ(ab->type_string(), "Const");
  EXPECT_FALSE(ab->def().attr().contains("value"));
  auto held = ab->tensor_attrs().find("value");
  ASSERT_NE(held, ab->tensor_attrs().end());
  ExpectValues(held->second, {10, 40, 90}, "ab");
  // Written back wherever a GraphDef is made of the graph.
  GraphDef out;
  step->ToGraphDef(&out);
  bool found = false;
  for (const NodeDef& n : out.node()) {
    if (n.name() != "ab") continue;
    found = true;
    Tensor t;
    ASSERT_TRUE(GetAttr(n.attr(), "value", &t).ok()) << n.DebugString();
    ExpectValues(t, {10, 40, 90}, "ab in ToGraphDef");
  }
  EXPECT_TRUE(found);
  std::vector<Tensor> y = RunBoth(g.def(), {{"x:0", Random({2, 3})}}, {"y:0"});
  ASSERT_EQ(y.size(), 1u);
}

TEST(HeldConstants, GraphDefsPartitionsAndRunMetadataShowTheValue) {
  KerasBatchNorm bn;
  const std::vector<double> want = bn.FoldedFilter();
  auto step = StepGraph(bn.g.def(), {"x:0"}, {"act:0"});
  const Node* filter = FilterConst(*step, "act");
  ASSERT_NE(filter, nullptr);
  const std::string name = filter->name();
  auto value_in = [&](const GraphDef& gd, const std::string& what) {
    for (const NodeDef& n : gd.node()) {
      if (n.name() != name) continue;
      Tensor t;
      absl::Status s = GetAttr(n.attr(), "value", &t);
      ASSERT_TRUE(s.ok()) << what << ": " << s;
      ExpectValues(t, want, what);
      return;
    }
    ADD_FAILURE() << what << " has no node " << name;
  };
  GraphDef whole;
  step->ToGraphDef(&whole);
  value_in(whole, "ToGraphDef");
  PartitionOptions popts;
  popts.get_incarnation = [](const std::string&) -> uint64_t { return 7; };
  std::map<std::string, GraphDef> parts;
  ASSERT_TRUE(PartitionGraph(*step, popts, &parts).ok());
  ASSERT_EQ(parts.size(), 1u);
  value_in(parts.begin()->second, "PartitionGraph");
  // A clone shares the held Tensor.
  std::unique_ptr<Graph> clone = step->Clone();
  const Node* cloned = clone->FindNode(name);
  ASSERT_NE(cloned, nullptr);
  ASSERT_EQ(cloned->tensor_attrs().count("value"), 1u);
  EXPECT_TRUE(cloned->tensor_attrs().at("value").SharesBufferWith(
      filter->tensor_attrs().at("value")));

  // RunMetadata.partition_graphs of a session run, on one device and on two (where the step
  // is partitioned, and each device's executor imports its GraphDef).
  for (int devices : {1, 2}) {
    SessionOptions opts;
    (*opts.config.mutable_device_count())["CPU"] = devices;
    std::unique_ptr<Session> s;
    ASSERT_TRUE(NewSession(opts, &s).ok());
    GraphDef def = bn.g.def();
    if (devices == 2) {
      for (NodeDef& n : *def.mutable_node()) {
        if (n.name() == "act") n.set_device(kCpu1);
      }
    }
    ASSERT_TRUE(s->Create(def).ok());
    RunOptions run;
    run.set_output_partition_graphs(true);
    RunMetadata metadata;
    std::vector<Tensor> out;
    absl::Status st =
        s->Run(run, {{"x:0", Random({1, 5, 5, 3}, -2, 2, 9)}}, {"act:0"}, {}, &out, &metadata);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(metadata.partition_graphs_size(), devices);
    bool found = false;
    for (const GraphDef& gd : metadata.partition_graphs()) {
      for (const NodeDef& n : gd.node()) {
        if (n.op() != "Const" || !n.attr().contains("value")) continue;
        Tensor t;
        if (!GetAttr(n.attr(), "value", &t).ok() || t.shape() != TensorShape({3, 3, 3, 4})) {
          continue;
        }
        found = true;
        ExpectValues(t, want, absl::StrCat("partition graph, ", devices, " devices"));
      }
    }
    EXPECT_TRUE(found) << devices << " devices";
    std::vector<Tensor> ref =
        RunSession(bn.g.def(), Unoptimised(), {{"x:0", Random({1, 5, 5, 3}, -2, 2, 9)}},
                   {"act:0"});
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(ref.size(), 1u);
    for (int64_t i = 0; i < ref[0].NumElements(); ++i) {
      ASSERT_NEAR(out[0].data<float>()[i], ref[0].data<float>()[i], 1e-4) << i;
    }
  }
}

TEST(HeldConstants, AGraphChecksTheTensorAttrsItIsGiven) {
  Graph g;
  NodeDef def;
  def.set_name("c");
  def.set_op("Const");
  (*def.mutable_attr())["dtype"] = TypeAttr(DT_FLOAT);
  const Tensor v = Tensor::Vector<float>({1, 2});
  // Without the value anywhere: the NodeDef misses an attr.
  EXPECT_EQ(g.AddNode(def).status().code(), absl::StatusCode::kInvalidArgument);
  // In both places, held under an attr that is not a tensor, or one the op lacks.
  NodeDef both = def;
  (*both.mutable_attr())["value"] = Attr(v);
  EXPECT_EQ(g.AddNode(both, {{"value", v}}).status().code(), absl::StatusCode::kInvalidArgument);
  NodeDef no_dtype = def;
  no_dtype.mutable_attr()->erase("dtype");
  (*no_dtype.mutable_attr())["value"] = Attr(v);
  EXPECT_EQ(g.AddNode(no_dtype, {{"dtype", v}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(g.AddNode(both, {{"scale", v}}).status().code(), absl::StatusCode::kInvalidArgument);
  absl::StatusOr<Node*> n = g.AddNode(def, {{"value", v}});
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_TRUE((*n)->tensor_attrs().at("value").SharesBufferWith(v));
  NodeDef written;
  (*n)->WriteDef(&written);
  Tensor back;
  ASSERT_TRUE(GetAttr(written.attr(), "value", &back).ok());
  ExpectValues(back, {1, 2}, "WriteDef");
  // Setting the attr in the NodeDef replaces the held one.
  (*n)->AddAttr("value", Attr(Tensor::Vector<float>({3, 4})));
  EXPECT_TRUE((*n)->tensor_attrs().empty());
  Tensor t;
  ASSERT_TRUE(GetAttr((*n)->def().attr(), "value", &t).ok());
  ExpectValues(t, {3, 4}, "after AddAttr");
}

TEST(GraphOptimizer, OptLevelL0LeavesTheGraphAsItIs) {
  G g = ScaleGraph();
  g.Op("id", "Identity", {"y"});
  auto off = StepGraph(g.def(), {"x:0"}, {"id:0"}, {}, /*optimize=*/false);
  EXPECT_EQ(Count(*off, "Rsqrt"), 1);
  EXPECT_EQ(Count(*off, "AddV2"), 1);
  auto on = StepGraph(g.def(), {"x:0"}, {"id:0"});
  EXPECT_EQ(Count(*on, "Rsqrt"), 0);
}

}  // namespace
}  // namespace sg
