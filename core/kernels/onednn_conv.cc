#include "core/kernels/onednn_conv.h"

#ifdef SG_HAVE_DNNL

#include <omp.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "dnnl.hpp"

namespace sg {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;

// One process-wide CPU engine: engines are cheap, but primitives keep a reference to theirs.
const dnnl::engine& CpuEngine() {
  static const dnnl::engine* engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *engine;
}

bool EnabledByEnvironment() {
  static const bool enabled = [] {
    const char* v = std::getenv("SG_ONEDNN_CONV");
    return v == nullptr || std::strcmp(v, "0") != 0;
  }();
  return enabled;
}

// The spatial entries of an array of ConvNdGeometry (three entries, the last nd used).
memory::dims Spatial(int nd, const int64_t (&v)[3], int64_t minus = 0) {
  memory::dims out;
  for (int e = 3 - nd; e < 3; ++e) out.push_back(v[e] - minus);
  return out;
}

}  // namespace

// A primitive for one geometry, with the reorders between TensorFlow's filter layout and the
// one the primitive chose. Immutable once built, so runs share it without a lock.
struct ConvPlan {
  dnnl::primitive conv;
  memory::desc a_md, b_md, out_md;  // the operands of Run, in the user's layouts
  memory::desc weights_md;          // the primitive's weights (or weight gradient) layout
  bool reorder_weights = false;     // weights_md differs from the user's filter layout
  dnnl::primitive weights_reorder;  // user filter -> weights_md, or weights_md -> user dw
  memory::desc scratch_md;  // the primitive's scratchpad (the caller's, per run)
};

struct OneDnnConv::Impl {
  absl::Mutex mu;
  // A few geometries per kernel at most (a node sees one shape in most graphs); oldest first.
  std::vector<std::pair<std::vector<int64_t>, std::shared_ptr<const ConvPlan>>> plans
      ABSL_GUARDED_BY(mu);
};

namespace {

constexpr size_t kMaxPlans = 8;

// Builds the plan, or returns nullptr when oneDNN has no fast implementation for it. Throws
// dnnl::error when oneDNN rejects the descriptors.
std::shared_ptr<const ConvPlan> MakePlan(OneDnnConv::Pass pass, int nd, const ConvNdGeometry& g) {
  const dnnl::engine& eng = CpuEngine();
  const Tag act = nd == 2 ? Tag::nhwc : Tag::ndhwc;
  const Tag filt = nd == 2 ? Tag::hwio : Tag::dhwio;
  memory::dims src_dims = {g.n, g.c}, dst_dims = {g.n, g.out_c}, w_dims = {g.out_c, g.c};
  for (int64_t v : Spatial(nd, g.in)) src_dims.push_back(v);
  for (int64_t v : Spatial(nd, g.out)) dst_dims.push_back(v);
  for (int64_t v : Spatial(nd, g.k)) w_dims.push_back(v);
  const memory::dims strides = Spatial(nd, g.s), dilates = Spatial(nd, g.d, 1);
  memory::dims pad_l = Spatial(nd, g.pad), pad_r;
  // The padding after the input that makes the output size come out exactly; it is negative
  // (by less than the stride) when the last window stops short of the input's end.
  for (int e = 3 - nd; e < 3; ++e) {
    pad_r.push_back((g.out[e] - 1) * g.s[e] + (g.k[e] - 1) * g.d[e] + 1 - g.in[e] - g.pad[e]);
  }
  const memory::desc src_md(src_dims, memory::data_type::f32, act);
  const memory::desc dst_md(dst_dims, memory::data_type::f32, act);
  const memory::desc user_w_md(w_dims, memory::data_type::f32, filt);
  const memory::desc any_w_md(w_dims, memory::data_type::f32, Tag::any);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);

  const auto fwd_prop = pass == OneDnnConv::kForward ? dnnl::prop_kind::forward_inference
                                                     : dnnl::prop_kind::forward_training;
  const dnnl::convolution_forward::desc fwd_desc(fwd_prop, dnnl::algorithm::convolution_direct,
                                                 src_md, any_w_md, dst_md, strides, dilates,
                                                 pad_l, pad_r);
  const dnnl::convolution_forward::primitive_desc fwd_pd(fwd_desc, attr, eng);

  auto plan = std::make_shared<ConvPlan>();
  dnnl::primitive_desc_base pd = fwd_pd;
  switch (pass) {
    case OneDnnConv::kForward:
      plan->conv = dnnl::convolution_forward(fwd_pd);
      plan->a_md = src_md;
      plan->b_md = user_w_md;
      plan->out_md = dst_md;
      plan->weights_md = fwd_pd.weights_desc();
      break;
    case OneDnnConv::kBackwardData: {
      const dnnl::convolution_backward_data::desc desc(dnnl::algorithm::convolution_direct,
                                                       src_md, any_w_md, dst_md, strides,
                                                       dilates, pad_l, pad_r);
      const dnnl::convolution_backward_data::primitive_desc bwd_pd(desc, attr, eng, fwd_pd);
      plan->conv = dnnl::convolution_backward_data(bwd_pd);
      plan->a_md = user_w_md;
      plan->b_md = dst_md;
      plan->out_md = src_md;
      plan->weights_md = bwd_pd.weights_desc();
      pd = bwd_pd;
      break;
    }
    case OneDnnConv::kBackwardWeights: {
      const dnnl::convolution_backward_weights::desc desc(dnnl::algorithm::convolution_direct,
                                                          src_md, any_w_md, dst_md, strides,
                                                          dilates, pad_l, pad_r);
      const dnnl::convolution_backward_weights::primitive_desc bwd_pd(desc, attr, eng, fwd_pd);
      plan->conv = dnnl::convolution_backward_weights(bwd_pd);
      plan->a_md = src_md;
      plan->b_md = dst_md;
      plan->out_md = user_w_md;
      plan->weights_md = bwd_pd.diff_weights_desc();
      pd = bwd_pd;
      break;
    }
  }
  // The reference implementations are slower than the im2col path.
  if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0) return nullptr;
  plan->scratch_md = pd.scratchpad_desc();
  plan->reorder_weights = plan->weights_md != user_w_md;
  if (plan->reorder_weights) {
    const bool to_user = pass == OneDnnConv::kBackwardWeights;
    const dnnl::reorder::primitive_desc rpd(eng, to_user ? plan->weights_md : user_w_md, eng,
                                            to_user ? user_w_md : plan->weights_md, attr);
    if (rpd.scratchpad_desc().get_size() != 0) return nullptr;
    plan->weights_reorder = dnnl::reorder(rpd);
  }
  return plan;
}

// Runs the plan with oneDNN's OpenMP team sized `threads`, except for the filter reorders: a
// filter is small, and waking a team for it measured slower than one thread on this machine.
absl::Status Execute(OpKernelContext* ctx, OneDnnConv::Pass pass, const ConvPlan& plan,
                     int threads, const float* a, const float* b, float* out) {
  const dnnl::engine& eng = CpuEngine();
  dnnl::stream stream(eng);
  memory a_mem(plan.a_md, eng, const_cast<float*>(a));
  memory b_mem(plan.b_md, eng, const_cast<float*>(b));
  memory out_mem(plan.out_md, eng, out);
  Tensor scratch, weights;
  std::unordered_map<int, memory> args;
  if (const size_t bytes = plan.scratch_md.get_size(); bytes > 0) {
    SG_RETURN_IF_ERROR(ctx->allocate_temp(DT_UINT8, TensorShape({static_cast<int64_t>(bytes)}),
                                          &scratch));
    args[DNNL_ARG_SCRATCHPAD] =
        memory(plan.scratch_md, eng, scratch.raw_data());
  }
  // The user's filter (or dw) operand, and the memory the primitive reads or writes weights in.
  memory& user_w = pass == OneDnnConv::kForward ? b_mem
                   : pass == OneDnnConv::kBackwardData ? a_mem
                                                       : out_mem;
  memory prim_w = user_w;
  if (plan.reorder_weights) {
    SG_RETURN_IF_ERROR(ctx->allocate_temp(
        DT_UINT8, TensorShape({static_cast<int64_t>(plan.weights_md.get_size())}), &weights));
    prim_w = memory(plan.weights_md, eng, weights.raw_data());
    if (pass != OneDnnConv::kBackwardWeights) {
      omp_set_num_threads(1);
      plan.weights_reorder.execute(stream, {{DNNL_ARG_FROM, user_w}, {DNNL_ARG_TO, prim_w}});
      stream.wait();
      omp_set_num_threads(threads);
    }
  }
  switch (pass) {
    case OneDnnConv::kForward:
      args[DNNL_ARG_SRC] = a_mem;
      args[DNNL_ARG_WEIGHTS] = prim_w;
      args[DNNL_ARG_DST] = out_mem;
      break;
    case OneDnnConv::kBackwardData:
      args[DNNL_ARG_WEIGHTS] = prim_w;
      args[DNNL_ARG_DIFF_DST] = b_mem;
      args[DNNL_ARG_DIFF_SRC] = out_mem;
      break;
    case OneDnnConv::kBackwardWeights:
      args[DNNL_ARG_SRC] = a_mem;
      args[DNNL_ARG_DIFF_DST] = b_mem;
      args[DNNL_ARG_DIFF_WEIGHTS] = prim_w;
      break;
  }
  plan.conv.execute(stream, args);
  if (plan.reorder_weights && pass == OneDnnConv::kBackwardWeights) {
    stream.wait();
    omp_set_num_threads(1);
    plan.weights_reorder.execute(stream, {{DNNL_ARG_FROM, prim_w}, {DNNL_ARG_TO, user_w}});
    omp_set_num_threads(threads);
  }
  stream.wait();
  return absl::OkStatus();
}

}  // namespace

OneDnnConv::OneDnnConv() : impl_(std::make_unique<Impl>()) {}
OneDnnConv::~OneDnnConv() = default;

bool OneDnnConv::Run(OpKernelContext* ctx, Pass pass, int nd, const ConvNdGeometry& g,
                     const float* a, const float* b, float* out) {
  if (!EnabledByEnvironment() || (nd != 2 && nd != 3) || g.filter_c != g.c) return false;
  if (g.n == 0 || g.c == 0 || g.out_c == 0 || g.InPositions() == 0 || g.OutPositions() == 0 ||
      g.WindowSize() == 0) {
    return false;
  }
  // oneDNN runs on the calling thread's OpenMP team, which it sizes when it builds a primitive
  // as well as when it runs one: as many threads as the intra-op pool (omp_set_num_threads
  // affects this thread only).
  const int threads = ctx->eigen_cpu_device().numThreads();
  omp_set_num_threads(threads);
  std::vector<int64_t> key = {pass, nd, threads, g.n, g.c, g.out_c};
  for (const int64_t* v : {g.in, g.k, g.s, g.d, g.pad, g.out}) key.insert(key.end(), v, v + 3);
  std::shared_ptr<const ConvPlan> plan;
  bool found = false;
  {
    absl::MutexLock lock(&impl_->mu);
    for (const auto& [k, p] : impl_->plans) {
      if (k == key) {
        plan = p;
        found = true;
        break;
      }
    }
  }
  if (!found) {
    try {
      plan = MakePlan(pass, nd, g);
    } catch (const dnnl::error&) {
      plan = nullptr;  // oneDNN has no implementation: remembered as such
    }
    absl::MutexLock lock(&impl_->mu);
    if (impl_->plans.size() >= kMaxPlans) impl_->plans.erase(impl_->plans.begin());
    impl_->plans.emplace_back(std::move(key), plan);
  }
  if (plan == nullptr) return false;
  absl::Status status;
  try {
    status = Execute(ctx, pass, *plan, threads, a, b, out);
  } catch (const dnnl::error& e) {
    status = errors::Internal("oneDNN convolution failed: ", e.what(), " (node '",
                              ctx->op_kernel().name(), "')");
  }
  if (!status.ok()) ctx->CtxFailure(status);
  return true;
}

}  // namespace sg

#else  // !SG_HAVE_DNNL

namespace sg {

struct OneDnnConv::Impl {};

OneDnnConv::OneDnnConv() = default;
OneDnnConv::~OneDnnConv() = default;

bool OneDnnConv::Run(OpKernelContext*, Pass, int, const ConvNdGeometry&, const float*,
                     const float*, float*) {
  return false;
}

}  // namespace sg

#endif  // SG_HAVE_DNNL
