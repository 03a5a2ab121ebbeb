#include "core/kernels/onednn_pool.h"

#ifdef SG_HAVE_DNNL

#include <omp.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/framework/openmp_team.h"
#include "core/kernels/parallel_for.h"
#include "core/util/mutex.h"
#include "dnnl.hpp"

namespace sg {
namespace {

using dnnl::memory;

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

struct PoolPlan {
  dnnl::primitive pool;
  memory::desc src_md, dst_md, scratch_md;
};

constexpr size_t kMaxPlans = 8;

// nullptr when oneDNN offers only its reference implementation; throws dnnl::error when it
// rejects the descriptors.
std::shared_ptr<const PoolPlan> MakePlan(const OneDnnPool::Geometry& g) {
  const auto f32 = memory::data_type::f32;
  auto plan = std::make_shared<PoolPlan>();
  plan->src_md = memory::desc({g.n, g.c, g.h, g.w}, f32, memory::format_tag::nhwc);
  plan->dst_md = memory::desc({g.n, g.c, g.oh, g.ow}, f32, memory::format_tag::nhwc);
  // The padding after the input that makes the output size come out exactly (negative when the
  // last window stops short of the input's end).
  const memory::dims pad_l = {g.pad_top, g.pad_left};
  const memory::dims pad_r = {(g.oh - 1) * g.sh + g.kh - g.h - g.pad_top,
                              (g.ow - 1) * g.sw + g.kw - g.w - g.pad_left};
  const dnnl::pooling_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::pooling_avg_exclude_padding,
      plan->src_md, plan->dst_md, {g.sh, g.sw}, {g.kh, g.kw}, pad_l, pad_r);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::pooling_forward::primitive_desc pd(desc, attr, CpuEngine());
  // oneDNN 2.6's AVX2 kernel is its first choice on an AVX2 CPU, and measured much slower than
  // its SSE4.1 kernel and sg's own loop on channels-last data (AMD EPYC, bench/conv_bench's
  // AvgPool, 1 thread, us: ResNet50's stem pool 414 (AVX2), 95 (SSE4.1), 194 (sg's loop);
  // InceptionV3's 35x35x192 3x3 stride 1: 374, 126, 162; a batch of 8 7x7x256, 3x3 stride 1:
  // 55 SSE4.1, 66 sg's loop). InceptionV3 at 75x75 (9 AvgPools) within 2% either way of sg's
  // loop. So the SSE4.1 implementation is taken when oneDNN offers it after the AVX2 one; only
  // AMD's Zen was measured.
  if (std::string(pd.impl_info_str()) == "jit:avx2") {
    bool found = false;
    while (!found && pd.next_impl()) found = std::string(pd.impl_info_str()) == "jit:sse41";
    if (!found) pd = dnnl::pooling_forward::primitive_desc(desc, attr, CpuEngine());
  }
  if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0) return nullptr;
  plan->pool = dnnl::pooling_forward(pd);
  plan->scratch_md = pd.scratchpad_desc();
  return plan;
}

}  // namespace

struct OneDnnPool::Impl {
  mutex mu;  // sg's: taken on every run (core/util/mutex.h says why not absl::Mutex)
  std::vector<std::pair<std::vector<int64_t>, std::shared_ptr<const PoolPlan>>> plans
      ABSL_GUARDED_BY(mu);
};

OneDnnPool::OneDnnPool() : impl_(std::make_unique<Impl>()) {}
OneDnnPool::~OneDnnPool() = default;

bool OneDnnPool::Run(OpKernelContext* ctx, const Geometry& g, const float* in, float* out) {
  if (!EnabledByEnvironment() || g.n * g.h * g.w * g.c == 0 || g.oh * g.ow == 0) return false;
  // Every window must reach the input: TensorFlow's empty windows (explicit padding of a
  // window's size or more) are left to sg's loop.
  const int64_t pad_bottom = (g.oh - 1) * g.sh + g.kh - g.h - g.pad_top;
  const int64_t pad_right = (g.ow - 1) * g.sw + g.kw - g.w - g.pad_left;
  if (g.pad_top >= g.kh || g.pad_left >= g.kw || pad_bottom >= g.kh || pad_right >= g.kw) {
    return false;
  }
  // Small pools run on this thread alone: waking the OpenMP team costs more than it saves
  // there, and much more when the cores are busy (a 7x7x1280 global pool: 11 us on one thread,
  // 14 us on two, milliseconds on two busy cores).
  const double work = static_cast<double>(g.n) * g.oh * g.ow * g.c * g.kh * g.kw;
  // With another kernel call already splitting its work (steps side by side), on this thread.
  const ParallelSection section;
  const int threads =
      work < (1 << 18) || !section.alone() ? 1 : ctx->eigen_cpu_device().numThreads();
  omp_set_num_threads(threads);
  const std::vector<int64_t> key = {threads, g.n,  g.h,  g.w,  g.c,  g.kh,      g.kw,
                                    g.sh,    g.sw, g.oh, g.ow, g.pad_top, g.pad_left};
  std::shared_ptr<const PoolPlan> plan;
  bool found = false;
  {
    mutex_lock lock(impl_->mu);
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
      plan = MakePlan(g);
    } catch (const dnnl::error&) {
      plan = nullptr;  // remembered as such
    }
    mutex_lock lock(impl_->mu);
    if (impl_->plans.size() >= kMaxPlans) impl_->plans.erase(impl_->plans.begin());
    impl_->plans.emplace_back(key, plan);
  }
  if (plan == nullptr) return false;
  absl::Status status;
  try {
    const dnnl::engine& eng = CpuEngine();
    dnnl::stream stream(eng);
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, memory(plan->src_md, eng, const_cast<float*>(in))},
        {DNNL_ARG_DST, memory(plan->dst_md, eng, out)}};
    Tensor scratch;
    if (plan->scratch_md.get_size() > 0) {
      status = ctx->allocate_temp(
          DT_UINT8, TensorShape({static_cast<int64_t>(plan->scratch_md.get_size())}), &scratch);
      if (status.ok()) {
        args[DNNL_ARG_SCRATCHPAD] = memory(plan->scratch_md, eng, scratch.raw_data());
      }
    }
    if (status.ok()) {
      plan->pool.execute(stream, args);
      stream.wait();
      if (threads > 1) NoteOpenMpTeamUsed();
    }
  } catch (const dnnl::error& e) {
    status = errors::Internal("oneDNN pooling failed: ", e.what(), " (node '",
                              ctx->op_kernel().name(), "')");
  }
  if (!status.ok()) ctx->CtxFailure(status);
  return true;
}

}  // namespace sg

#else  // !SG_HAVE_DNNL

namespace sg {

struct OneDnnPool::Impl {};

OneDnnPool::OneDnnPool() = default;
OneDnnPool::~OneDnnPool() = default;

bool OneDnnPool::Run(OpKernelContext*, const Geometry&, const float*, float*) {
  return false;
}

}  // namespace sg

#endif  // SG_HAVE_DNNL
