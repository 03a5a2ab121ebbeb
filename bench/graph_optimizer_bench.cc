// The graph optimisation pass (core/graph/optimizer.h) on a real graph: what it costs when a
// step is built, nodes executed per step, the op histogram of the step graph, kernel time per op
// type, and the latency and CPU time of a run, with the pass on and off (ConfigProto opt_level
// L0), measured in interleaved rounds; the outputs of the two are compared.
//
//   graph_optimizer_bench GRAPH.pb FEED SHAPE FETCH [ROUNDS [RUNS_PER_ROUND [INTRA_THREADS]]]
//   e.g. graph_optimizer_bench mobilenet_v2.pb images:0 1,224,224,3 Identity:0 10 20 1
//
// The feed is float, uniformly random in [-1, 1) (fixed seed).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <time.h>

#include "core/graph/graph_constructor.h"
#include "core/runtime/session.h"
#include "core/runtime/step_builder.h"

namespace sg {
namespace {

using Clock = std::chrono::steady_clock;

double Micros(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

// CPU time of the whole process (every thread), in microseconds.
double CpuMicros() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct Variant {
  const char* name;
  ConfigProto config;
  std::unique_ptr<Session> session;
  double create_us = 0;
  std::vector<double> runs;
  std::vector<double> cpu;  // process CPU time per run (all threads), less skewed by other load
  Tensor out;
  std::map<std::string, std::string> op_of;  // node name -> op, from the partition graphs
};

int Main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s GRAPH.pb FEED SHAPE FETCH [ROUNDS [RUNS [THREADS]]]\n",
                 argv[0]);
    return 2;
  }
  const std::string feed = argv[2], fetch = argv[4];
  const int rounds = argc > 5 ? std::atoi(argv[5]) : 10;
  const int per_round = argc > 6 ? std::atoi(argv[6]) : 10;
  const int threads = argc > 7 ? std::atoi(argv[7]) : 1;
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  GraphDef gdef;
  absl::Status s = ParseGraphDef(bytes.str(), &gdef);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  std::vector<int64_t> dims;
  std::stringstream shape(argv[3]);
  for (std::string d; std::getline(shape, d, ',');) dims.push_back(std::stoll(d));
  Tensor x(DT_FLOAT, TensorShape(dims));
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int64_t i = 0; i < x.NumElements(); ++i) x.data<float>()[i] = u(gen);

  // The pass's own cost: building the step's graphs (StepBuilder::Build: rewrite, placement,
  // optimiser, partitions) with it and without, each first in every other round (the first of
  // a pair pays for fresh pages), medians of 4.
  {
    std::vector<double> build[2];
    for (int r = 0; r < 4; ++r) {
      for (int i = 0; i < 2; ++i) {
        const int on = (r + i) % 2;
        StepBuilderOptions o;
        o.devices = {"/job:localhost/replica:0/task:0/device:CPU:0"};
        o.incarnation = [](const std::string&) -> uint64_t { return 1; };
        o.client_device = o.devices[0];
        if (!on) {
          GraphOptions l0;
          l0.mutable_optimizer_options()->set_opt_level(OptimizerOptions::L0);
          o.optimizer = GraphOptimizerOptionsFromConfig(l0);
        }
        StepBuilder b(o);
        if (!b.Extend(gdef).ok()) return 1;
        StepGraphs step;
        const auto t0 = Clock::now();
        if (!b.Build({{feed}, {fetch}, {}}, &step).ok()) return 1;
        build[on].push_back(Micros(Clock::now() - t0));
      }
    }
    std::printf("StepBuilder::Build: %.1f ms with the optimiser, %.1f ms without\n",
                Median(build[1]) / 1000, Median(build[0]) / 1000);
  }
  Variant variants[2] = {{"optimised", {}, nullptr}, {"opt_level L0", {}, nullptr}};
  variants[1].config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      OptimizerOptions::L0);
  std::printf("%s: %d nodes in the GraphDef\n", argv[1], gdef.node_size());
  for (Variant& v : variants) {
    v.config.set_intra_op_parallelism_threads(threads);
    SessionOptions opts;
    opts.config = v.config;
    if (!NewSession(opts, &v.session).ok() || !v.session->Create(gdef).ok()) return 1;
    // The first run builds the step (placement, the optimiser, partitions, kernels).
    RunOptions ro;
    ro.set_output_partition_graphs(true);
    RunMetadata md;
    std::vector<Tensor> out;
    const auto t0 = Clock::now();
    s = v.session->Run(ro, {{feed, x}}, {fetch}, {}, &out, &md);
    v.create_us = Micros(Clock::now() - t0);
    if (!s.ok()) {
      std::fprintf(stderr, "%s: %s\n", v.name, std::string(s.message()).c_str());
      return 1;
    }
    v.out = out[0];
    std::map<std::string, int> ops;
    int nodes = 0;
    for (const GraphDef& p : md.partition_graphs()) {
      for (const NodeDef& n : p.node()) {
        v.op_of[n.name()] = n.op();
        ops[n.op()]++;
        ++nodes;
      }
    }
    std::printf("%-13s %5d nodes per step; first run (build + run) %.1f ms; ops:", v.name, nodes,
                v.create_us / 1000);
    for (const auto& [op, count] : ops) std::printf(" %s=%d", op.c_str(), count);
    std::printf("\n");
  }
  double max_diff = 0, max_ref = 0;
  for (int64_t i = 0; i < variants[0].out.NumElements(); ++i) {
    const float a = variants[0].out.data<float>()[i], b = variants[1].out.data<float>()[i];
    max_diff = std::max(max_diff, static_cast<double>(std::abs(a - b)));
    max_ref = std::max(max_ref, static_cast<double>(std::abs(b)));
  }
  std::printf("outputs: max |optimised - unoptimised| = %.3g (max |unoptimised| = %.3g)\n",
              max_diff, max_ref);
  for (int r = 0; r < rounds; ++r) {
    for (Variant& v : variants) {
      std::vector<Tensor> out;
      for (int i = 0; i < per_round; ++i) {
        const double c0 = CpuMicros();
        const auto t0 = Clock::now();
        if (!v.session->Run({{feed, x}}, {fetch}, {}, &out).ok()) return 1;
        v.runs.push_back(Micros(Clock::now() - t0));
        v.cpu.push_back(CpuMicros() - c0);
      }
    }
  }
  // Kernel time per op type (RunOptions FULL_TRACE; medians over traced runs).
  for (Variant& v : variants) {
    std::map<std::string, std::vector<double>> per_op;
    const int traced = 5;
    for (int r = 0; r < traced; ++r) {
      RunOptions ro;
      ro.set_trace_level(RunOptions::FULL_TRACE);
      RunMetadata md;
      std::vector<Tensor> out;
      if (!v.session->Run(ro, {{feed, x}}, {fetch}, {}, &out, &md).ok()) return 1;
      std::map<std::string, double> sums;
      for (const auto& dev : md.step_stats().dev_stats()) {
        for (const auto& ns : dev.node_stats()) {
          sums[v.op_of[ns.node_name()]] += (ns.op_end_rel_nanos() - ns.op_start_rel_nanos()) / 1e3;
        }
      }
      for (const auto& [op, us] : sums) per_op[op].push_back(us);
    }
    std::vector<std::pair<double, std::string>> rows;
    double total = 0;
    for (auto& [op, us] : per_op) {
      rows.push_back({Median(us), op});
      total += rows.back().first;
    }
    std::sort(rows.rbegin(), rows.rend());
    std::printf("%-13s kernel time %.0f us:", v.name, total);
    for (const auto& [us, op] : rows) {
      if (us >= total / 200) std::printf(" %s %.0f", op.c_str(), us);
    }
    std::printf("\n");
  }
  const double a = Median(variants[0].runs), b = Median(variants[1].runs);
  const double ca = Median(variants[0].cpu), cb = Median(variants[1].cpu);
  std::printf("run median (%d threads, %d interleaved rounds of %d): optimised %.0f us, "
              "opt_level L0 %.0f us, ratio %.3f; CPU time per run %.0f vs %.0f us, ratio %.3f\n",
              threads, rounds, per_round, a, b, a / b, ca, cb, ca / cb);
  return 0;
}

}  // namespace
}  // namespace sg

int main(int argc, char** argv) { return sg::Main(argc, argv); }
