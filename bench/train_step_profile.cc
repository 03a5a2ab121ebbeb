// Where a training step's time goes: kernel time per op type and per node of one of
// bench/make_train_graphs.py's graphs (RunOptions FULL_TRACE, medians over traced steps), next
// to the step's wall time untraced. A companion to bench/train_step_bench.sh, which gives only
// the whole step against TensorFlow's.
//
//   train_step_profile GRAPH.pb X_SHAPE [STEPS [INTRA_THREADS [INTER_THREADS]]]
//   e.g. train_step_profile build/bench/train_graphs/cnn_momentum.pb 64,28,28,1 50
//
// The graph's placeholders are `x` (float, X_SHAPE, uniform in [0, 1)) and `labels` (int32
// [X_SHAPE[0]] in [0, 10)); `init` runs once, then `train` STEPS times per measurement.
// A thread count of 0 (the default) leaves the session's default pool size; INTER_THREADS 1 runs
// one kernel at a time, so that each kernel's time is its own (not shared with one running
// alongside). TRAIN_PROFILE_TIMELINE=1 prints the last traced step's kernels in start order
// (start and end relative to the first, thread), to see which ran alongside which.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/graph/graph_constructor.h"
#include "core/runtime/session.h"

namespace sg {
namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int Fail(const absl::Status& s, const char* what) {
  std::fprintf(stderr, "%s: %s\n", what, std::string(s.message()).c_str());
  return 1;
}

int Main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s GRAPH.pb X_SHAPE [STEPS [INTRA_THREADS [INTER_THREADS]]]\n",
                 argv[0]);
    return 2;
  }
  const int steps = argc > 3 ? std::atoi(argv[3]) : 50;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 0;
  const int inter_threads = argc > 5 ? std::atoi(argv[5]) : 0;
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  GraphDef gdef;
  absl::Status s = ParseGraphDef(bytes.str(), &gdef);
  if (!s.ok()) return Fail(s, argv[1]);
  std::vector<int64_t> dims;
  std::stringstream shape(argv[2]);
  for (std::string d; std::getline(shape, d, ',');) dims.push_back(std::stoll(d));
  Tensor x(DT_FLOAT, TensorShape(dims));
  Tensor labels(DT_INT32, TensorShape({dims[0]}));
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> u(0, 1);
  for (int64_t i = 0; i < x.NumElements(); ++i) x.data<float>()[i] = u(gen);
  for (int64_t i = 0; i < dims[0]; ++i) labels.data<int32_t>()[i] = gen() % 10;

  SessionOptions opts;
  if (threads > 0) opts.config.set_intra_op_parallelism_threads(threads);
  if (inter_threads > 0) opts.config.set_inter_op_parallelism_threads(inter_threads);
  std::unique_ptr<Session> session;
  if (!(s = NewSession(opts, &session)).ok()) return Fail(s, "session");
  if (!(s = session->Create(gdef)).ok()) return Fail(s, "create");
  std::vector<Tensor> out;
  if (!(s = session->Run({}, {}, {"init"}, &out)).ok()) return Fail(s, "init");
  const std::vector<std::pair<std::string, Tensor>> feeds = {{"x", x}, {"labels", labels}};
  RunOptions first;
  first.set_output_partition_graphs(true);
  RunMetadata md;
  if (!(s = session->Run(first, feeds, {}, {"train"}, &out, &md)).ok()) return Fail(s, "train");
  std::map<std::string, std::string> op_of;  // node name -> op, from the partition graphs
  int nodes = 0;
  for (const GraphDef& p : md.partition_graphs()) {
    for (const NodeDef& n : p.node()) {
      op_of[n.name()] = n.op();
      ++nodes;
    }
  }

  std::vector<double> wall;
  std::map<std::string, std::vector<double>> per_op, per_node;
  for (int r = 0; r < steps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!(s = session->Run(feeds, {}, {"train"}, &out)).ok()) return Fail(s, "train");
    wall.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    RunOptions ro;
    ro.set_trace_level(RunOptions::FULL_TRACE);
    RunMetadata traced;
    if (!(s = session->Run(ro, feeds, {}, {"train"}, &out, &traced)).ok()) {
      return Fail(s, "traced train");
    }
    std::map<std::string, double> op_sums;
    for (const auto& dev : traced.step_stats().dev_stats()) {
      for (const auto& ns : dev.node_stats()) {
        const double us = (ns.op_end_rel_nanos() - ns.op_start_rel_nanos()) / 1e3;
        op_sums[op_of[ns.node_name()]] += us;
        per_node[ns.node_name()].push_back(us);
      }
    }
    for (const auto& [op, us] : op_sums) per_op[op].push_back(us);
    if (r + 1 == steps && std::getenv("TRAIN_PROFILE_TIMELINE") != nullptr) {
      std::vector<const NodeExecStats*> all;
      for (const auto& dev : traced.step_stats().dev_stats()) {
        for (const auto& ns : dev.node_stats()) all.push_back(&ns);
      }
      std::sort(all.begin(), all.end(), [](const NodeExecStats* a, const NodeExecStats* b) {
        return a->all_start_nanos() < b->all_start_nanos();
      });
      const int64_t t0 = all.empty() ? 0 : all[0]->all_start_nanos();
      for (const NodeExecStats* ns : all) {
        const int64_t start = ns->all_start_nanos() - t0 + ns->op_start_rel_nanos();
        const int64_t end = ns->all_start_nanos() - t0 + ns->op_end_rel_nanos();
        if (end - start < 20000) continue;  // under 20 us
        std::printf("  %8.0f %8.0f  thread %6u  %s\n", start / 1e3, end / 1e3, ns->thread_id(),
                    ns->node_name().c_str());
      }
    }
  }
  auto print = [](const char* title, const std::map<std::string, std::vector<double>>& m,
                  size_t top) {
    std::vector<std::pair<double, std::string>> rows;
    double total = 0;
    for (const auto& [name, us] : m) {
      rows.push_back({Median(us), name});
      total += rows.back().first;
    }
    std::sort(rows.rbegin(), rows.rend());
    std::printf("%s (sum of medians %.0f us):\n", title, total);
    for (size_t i = 0; i < rows.size() && i < top; ++i) {
      std::printf("  %9.1f us  %5.1f%%  %s\n", rows[i].first, 100 * rows[i].first / total,
                  rows[i].second.c_str());
    }
  };
  std::printf("%s: %d nodes per step, step median %.0f us untraced (%d steps)\n", argv[1], nodes,
              Median(wall), steps);
  print("kernel time per op", per_op, 40);
  print("kernel time per node", per_node, 25);
  return 0;
}

}  // namespace
}  // namespace sg

int main(int argc, char** argv) { return sg::Main(argc, argv); }
