#include "core/kernels/onednn_conv.h"

#ifdef SG_HAVE_DNNL

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/framework/openmp_team.h"
#include "core/kernels/parallel_for.h"
#include "core/kernels/few_positions_conv.h"
#include "core/util/mutex.h"
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

// The elements of a filter in a plain user layout, in that layout's order, with their offsets in
// a blocked layout of oneDNN's. A blocked offset is a sum of one term per logical dim (each block
// splits one dim), so each dim's terms are tabulated once (a few hundred values, where a table
// of every element's offset would take 8 bytes per weight) and the walk adds them up.
struct FilterWalk {
  int nd = 0;  // 0: no walk (the layout is not a plain f32 blocked one)
  int64_t offset0 = 0;
  int64_t dims[DNNL_MAX_NDIMS] = {0};
  int order[DNNL_MAX_NDIMS] = {0};  // the user's dims, outermost (largest stride) first
  std::vector<int64_t> terms[DNNL_MAX_NDIMS];  // per logical dim and index: its offset term

  bool empty() const { return nd == 0; }

  // Calls f(u, offset) for u = 0, 1, ... (the element's index in the user's layout) with its
  // offset in the blocked layout.
  template <typename F>
  void ForEach(F&& f) const {
    for (int d = 0; d < nd; ++d) {
      if (dims[d] == 0) return;
    }
    int64_t idx[DNNL_MAX_NDIMS] = {0};
    const int inner = order[nd - 1];
    const int64_t* inner_terms = terms[inner].data();
    const int64_t n_inner = dims[inner];
    int64_t u = 0;
    while (true) {
      int64_t base = offset0;
      for (int j = 0; j + 1 < nd; ++j) base += terms[order[j]][idx[order[j]]];
      for (int64_t i = 0; i < n_inner; ++i) f(u++, base + inner_terms[i]);
      int j = nd - 2;
      for (; j >= 0; --j) {  // the next row in the user's order
        const int d = order[j];
        if (++idx[d] < dims[d]) break;
        idx[d] = 0;
      }
      if (j < 0) return;
    }
  }
};

// One operand of Run: its layout as the caller holds it, the layout the primitive chose, and
// the reorder between them (user -> primitive for an input, primitive -> user for the output)
// when they differ.
struct Operand {
  int arg = 0;  // DNNL_ARG_*
  memory::desc user, prim;
  bool reordered = false;
  bool filter = false;  // small: reordered on one thread
  dnnl::primitive reorder;
  // For a filter in a blocked layout: how to find, for each element of the user's filter, its
  // offset in the primitive's layout. Moving a filter this way is a plain loop, where oneDNN's
  // reorder measured 0.3 to 0.9 ms for a few thousand elements (per step, 8% of the training
  // benchmark's).
  FilterWalk filter_walk;
};

// What one run of a plan passes to oneDNN: a stream, a memory object per argument and the
// argument map over them. Made once and kept by the plan for the next run, which only points
// the objects at its buffers: making them afresh (dnnl_memory_create, the map's nodes, the
// stream) was about a tenth of a batch-1 MobileNetV2 step, in malloc and free.
// A memory object and the buffer it was last pointed at (asking oneDNN costs more).
struct BoundMemory {
  memory m;
  const void* at = nullptr;
};
struct BoundArgs {
  explicit BoundArgs(const dnnl::engine& eng) : stream(eng) {}
  dnnl::stream stream;
  BoundMemory scratch, a_user, a_prim, b_user, b_prim, bias, scale, shift, out_user, out_prim;
  std::unordered_map<int, memory> args;
};

// A primitive for one geometry with its operands. Immutable once built, so runs share it
// without a lock, except for the spare BoundArgs (one per concurrent run at most).
struct ConvPlan {
  dnnl::primitive conv;
  Operand a, b, out;
  memory::desc scratch_md;  // the primitive's scratchpad (the caller's, per run)
  // A forward pass's epilogue: the bias's layout (zero when none), and that of the per-channel
  // scale and shift of its first two post-ops (zero when none).
  memory::desc bias_md, channel_md;
  bool blocked = false;  // a forward pass relaying its input and output out (BlocksActivations)
  mutable mutex bound_mu;
  mutable std::vector<std::unique_ptr<BoundArgs>> bound ABSL_GUARDED_BY(bound_mu);
};

// A forward filter kept in its plan's layout between runs (set_constant_filter).
struct PackedFilter {
  struct Free {
    void operator()(float* p) const { std::free(p); }
  };
  // The plan whose filter layout (b.prim) this is: runs of plans with the same layout share it.
  std::shared_ptr<const ConvPlan> plan;
  const float* user = nullptr;  // the filter it was made from
  std::unique_ptr<float, Free> data;
};

struct OneDnnConv::Impl {
  mutex mu;  // sg's: taken on every run (core/util/mutex.h says why not absl::Mutex)
  // A few geometries per kernel at most (a node sees one shape in most graphs); oldest first.
  std::vector<std::pair<std::vector<int64_t>, std::shared_ptr<const ConvPlan>>> plans
      ABSL_GUARDED_BY(mu);
  // The filters last packed for forward runs, with set_constant_filter(true), at most
  // kMaxPacked layouts, oldest first. Plans that differ only in their number of threads (a run
  // alone, and one beside other steps' kernels) share one.
  std::vector<std::shared_ptr<const PackedFilter>> packed ABSL_GUARDED_BY(mu);
  // Convolutions of few positions (few_positions_conv.h).
  FewPositionsConv few_positions;
};

namespace {

constexpr size_t kMaxPlans = 8;
constexpr size_t kMaxPacked = 2;

// The guard after a buffer a primitive writes (Execute).
constexpr int64_t kGuardBytes = 64;
constexpr unsigned char kGuardByte = 0xa5;

// Convolutions of fewer multiply-adds run on one thread (a few microseconds). In a network's
// run the team is usually still spinning from the last convolution, so joining it costs little:
// at batch 1 on 2 threads, from 1 << 19 (about 30 us) to this limit took MobileNetV2 from 745 to
// 654 us and EfficientNetB0 from 1739 to 1574 (bench/infer_bench, minimums of 4-5 alternated
// processes), MNIST's 460K-MAC first convolution joining; limits from 20K to 100K measured alike.
constexpr double kSerialMacs = 1 << 16;

// Forward runs on blocked activations so far, without and with an epilogue
// (OneDnnConv::BlockedRuns).
std::atomic<int64_t> blocked_runs[2];

// The offset in blocked layout `md` of the element at logical index idx (md.ndims entries), as
// oneDNN lays blocks out: outer blocks by `strides`, inner blocks innermost-last.
int64_t BlockedOffset(const dnnl_memory_desc_t& md, const int64_t* idx) {
  const dnnl_blocking_desc_t& b = md.format_desc.blocking;
  int64_t block[DNNL_MAX_NDIMS], done[DNNL_MAX_NDIMS];
  for (int d = 0; d < md.ndims; ++d) block[d] = done[d] = 1;
  for (int k = 0; k < b.inner_nblks; ++k) block[b.inner_idxs[k]] *= b.inner_blks[k];
  int64_t off = md.offset0;
  for (int d = 0; d < md.ndims; ++d) off += idx[d] / block[d] * b.strides[d];
  int64_t inner = 1;
  for (int k = b.inner_nblks - 1; k >= 0; --k) {
    const int d = b.inner_idxs[k];
    off += idx[d] / done[d] % b.inner_blks[k] * inner;
    inner *= b.inner_blks[k];
    done[d] *= b.inner_blks[k];
  }
  return off;
}

// The filter walk of Operand from the user's layout `user` (a plain one: no inner blocks) to
// `prim`; empty when `prim` is not a plain f32 blocked layout.
FilterWalk MakeFilterWalk(const memory::desc& user, const memory::desc& prim) {
  FilterWalk w;
  const dnnl_memory_desc_t& md = prim.data;
  if (md.format_kind != dnnl_blocked || md.data_type != dnnl_f32 || md.extra.flags != 0) {
    return w;
  }
  const int nd = md.ndims;
  const memory::dims dims = user.dims();
  int64_t idx[DNNL_MAX_NDIMS] = {0};
  for (int d = 0; d < nd; ++d) {
    w.dims[d] = dims[d];
    w.terms[d].reserve(dims[d]);
    for (int64_t i = 0; i < dims[d]; ++i) {
      idx[d] = i;
      w.terms[d].push_back(BlockedOffset(md, idx) - md.offset0);
    }
    idx[d] = 0;
  }
  const dnnl_dims_t& user_strides = user.data.format_desc.blocking.strides;
  for (int d = 0; d < nd; ++d) w.order[d] = d;
  std::stable_sort(w.order, w.order + nd,
                   [&](int x, int y) { return user_strides[x] > user_strides[y]; });
  w.offset0 = md.offset0;
  w.nd = nd;
  return w;
}

// Sets op's layouts and, when they differ, its reorder. False when the reorder would need a
// scratchpad (none of those seen does).
bool SetOperand(int arg, const memory::desc& user, const memory::desc& prim, bool is_output,
                bool filter, const dnnl::primitive_attr& attr, Operand* op) {
  const dnnl::engine& eng = CpuEngine();
  op->arg = arg;
  op->user = user;
  op->prim = prim;
  op->filter = filter;
  op->reordered = user != prim;
  if (!op->reordered) return true;
  if (filter) {
    op->filter_walk = MakeFilterWalk(user, prim);
    if (!op->filter_walk.empty()) return true;
  }
  const dnnl::reorder::primitive_desc rpd(eng, is_output ? prim : user, eng,
                                          is_output ? user : prim, attr);
  if (rpd.scratchpad_desc().get_size() != 0) return false;
  op->reorder = dnnl::reorder(rpd);
  return true;
}

// Builds the plan, or returns nullptr when oneDNN has no fast implementation for it. Throws
// dnnl::error when oneDNN rejects the descriptors. Filters take the layout oneDNN prefers (with
// TensorFlow's, it falls back to slower GEMM-based code); activations keep the caller's
// channels-last layout, except where BlocksActivations says (letting oneDNN choose for every
// convolution measured slower: its reorders cost more than they saved).
std::shared_ptr<const ConvPlan> MakePlan(OneDnnConv::Pass pass, int nd, const ConvNdGeometry& g,
                                         const OneDnnConv::Epilogue* epilogue) {
  const dnnl::engine& eng = CpuEngine();
  const Tag act = nd == 2 ? Tag::nhwc : Tag::ndhwc;
  const bool blocked = OneDnnConv::BlocksActivations(pass, nd, g, epilogue);
  // Grouped weights are (groups, out_c / groups, c / groups, window...); TensorFlow's filter
  // [window..., c / groups, out_c] holds them in the order window, in, group, out: hwigo.
  const int64_t groups = g.Groups();
  const Tag filt = groups > 1 ? (nd == 2 ? Tag::hwigo : Tag::dhwigo)
                              : (nd == 2 ? Tag::hwio : Tag::dhwio);
  memory::dims src_dims = {g.n, g.c}, dst_dims = {g.n, g.out_c};
  memory::dims w_dims = groups > 1 ? memory::dims{groups, g.out_c / groups, g.filter_c}
                                   : memory::dims{g.out_c, g.c};
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
  const auto f32 = memory::data_type::f32;
  const memory::desc src_md(src_dims, f32, act), dst_md(dst_dims, f32, act);
  // The layouts the convolution runs on: the caller's, or those oneDNN prefers.
  const memory::desc conv_src_md(src_dims, f32, blocked ? Tag::any : act);
  const memory::desc conv_dst_md(dst_dims, f32, blocked ? Tag::any : act);
  const memory::desc user_w_md(w_dims, f32, filt);
  const memory::desc any_w_md(w_dims, f32, Tag::any);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  // The convolution's attributes: the epilogue's post-ops besides (not for the reorders). A
  // separate object: copying a dnnl::primitive_attr copies a handle to the same attributes.
  dnnl::primitive_attr conv_attr;
  conv_attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  auto plan = std::make_shared<ConvPlan>();
  if (epilogue != nullptr) {
    using Act = OneDnnConv::Epilogue::Act;
    dnnl::post_ops ops;
    if (epilogue->scale != nullptr) {
      memory::dims channel(nd + 2, 1);
      channel[1] = g.out_c;
      plan->channel_md = memory::desc(channel, f32, nd == 2 ? Tag::nchw : Tag::ncdhw);
      ops.append_binary(dnnl::algorithm::binary_mul, plan->channel_md);
      ops.append_binary(dnnl::algorithm::binary_add, plan->channel_md);
    }
    // dst += result, before the activation (oneDNN reads the destination's old values).
    if (epilogue->sum) ops.append_sum(1.0f);
    switch (epilogue->act) {
      case Act::kNone: break;
      case Act::kRelu: ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f); break;
      case Act::kRelu6: ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_clip, 0.0f, 6.0f); break;
      case Act::kElu: ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_elu, 1.0f, 0.0f); break;
      case Act::kSwish:  // x * sigmoid(alpha * x), alpha 1
        ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_swish, 1.0f, 0.0f);
        break;
      case Act::kLeakyRelu:
        ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, epilogue->alpha, 0.0f);
        break;
    }
    conv_attr.set_post_ops(ops);
    if (epilogue->bias != nullptr) plan->bias_md = memory::desc({g.out_c}, f32, Tag::a);
  }

  const auto fwd_prop = pass == OneDnnConv::kForward ? dnnl::prop_kind::forward_inference
                                                     : dnnl::prop_kind::forward_training;
  const auto fwd_desc =
      plan->bias_md.is_zero()
          ? dnnl::convolution_forward::desc(fwd_prop, dnnl::algorithm::convolution_direct,
                                            conv_src_md, any_w_md, conv_dst_md, strides,
                                            dilates, pad_l, pad_r)
          : dnnl::convolution_forward::desc(fwd_prop, dnnl::algorithm::convolution_direct,
                                            conv_src_md, any_w_md, plan->bias_md, conv_dst_md,
                                            strides, dilates, pad_l, pad_r);
  const dnnl::convolution_forward::primitive_desc fwd_pd(fwd_desc, conv_attr, eng);

  dnnl::primitive_desc_base pd = fwd_pd;
  bool ok = true;
  switch (pass) {
    case OneDnnConv::kForward:
      plan->conv = dnnl::convolution_forward(fwd_pd);
      ok = SetOperand(DNNL_ARG_SRC, src_md, fwd_pd.src_desc(), false, false, attr, &plan->a) &&
           SetOperand(DNNL_ARG_WEIGHTS, user_w_md, fwd_pd.weights_desc(), false, true, attr,
                      &plan->b) &&
           SetOperand(DNNL_ARG_DST, dst_md, fwd_pd.dst_desc(), true, false, attr, &plan->out);
      break;
    case OneDnnConv::kBackwardData: {
      const dnnl::convolution_backward_data::desc desc(dnnl::algorithm::convolution_direct,
                                                       src_md, any_w_md, dst_md, strides,
                                                       dilates, pad_l, pad_r);
      const dnnl::convolution_backward_data::primitive_desc bwd_pd(desc, attr, eng, fwd_pd);
      plan->conv = dnnl::convolution_backward_data(bwd_pd);
      ok = SetOperand(DNNL_ARG_WEIGHTS, user_w_md, bwd_pd.weights_desc(), false, true, attr,
                      &plan->a) &&
           SetOperand(DNNL_ARG_DIFF_DST, dst_md, bwd_pd.diff_dst_desc(), false, false, attr,
                      &plan->b) &&
           SetOperand(DNNL_ARG_DIFF_SRC, src_md, bwd_pd.diff_src_desc(), true, false, attr,
                      &plan->out);
      pd = bwd_pd;
      break;
    }
    case OneDnnConv::kBackwardWeights: {
      const dnnl::convolution_backward_weights::desc desc(dnnl::algorithm::convolution_direct,
                                                          src_md, any_w_md, dst_md, strides,
                                                          dilates, pad_l, pad_r);
      dnnl::convolution_backward_weights::primitive_desc bwd_pd(desc, attr, eng, fwd_pd);
      // oneDNN 2.6's 1x1 kernel for this pass writes past the end of the filter's gradient
      // when the convolution is strided (seen on AVX2: 8-12 bytes after a 3-in, 2-out
      // channel gradient, stride 2; valgrind, and heap corruption in nn_ops_test). Such a
      // convolution takes oneDNN's next implementation.
      if (std::any_of(g.s, g.s + 3, [](int64_t s) { return s > 1; })) {
        while (std::string(bwd_pd.impl_info_str()).rfind("jit_1x1", 0) == 0) {
          if (!bwd_pd.next_impl()) return nullptr;
        }
      }
      plan->conv = dnnl::convolution_backward_weights(bwd_pd);
      ok = SetOperand(DNNL_ARG_SRC, src_md, bwd_pd.src_desc(), false, false, attr, &plan->a) &&
           SetOperand(DNNL_ARG_DIFF_DST, dst_md, bwd_pd.diff_dst_desc(), false, false, attr,
                      &plan->b) &&
           SetOperand(DNNL_ARG_DIFF_WEIGHTS, user_w_md, bwd_pd.diff_weights_desc(), true, true,
                      attr, &plan->out);
      pd = bwd_pd;
      break;
    }
  }
  // The reference implementations are slower than the im2col path.
  if (!ok || std::string(pd.impl_info_str()).rfind("ref", 0) == 0) return nullptr;
  // A sum reads the destination in the primitive's layout, and the caller's values are in its
  // own (never seen: BlocksActivations leaves a convolution with a sum on the caller's layout).
  if (epilogue != nullptr && epilogue->sum && plan->out.reordered) return nullptr;
  plan->scratch_md = pd.scratchpad_desc();
  plan->blocked = plan->a.reordered && pass == OneDnnConv::kForward;
  return plan;
}

// Moves an operand between the user's layout and the primitive's: `from` to `to`, towards the
// user's layout when `to_user`. A filter moves by its walk (zeroing the blocks' padding on the
// way in), or through oneDNN's reorder on one thread: a filter is small, and waking a team
// for it measured slower than one thread on this machine. Activations take `threads`.
void Relayout(const Operand& op, bool to_user, const memory& from, const memory& to,
              dnnl::stream& stream, int threads) {
  if (!op.filter_walk.empty()) {
    const float* src = static_cast<const float*>(from.get_data_handle());
    float* dst = static_cast<float*>(to.get_data_handle());
    if (to_user) {
      op.filter_walk.ForEach([&](int64_t u, int64_t off) { dst[u] = src[off]; });
    } else {
      // Blocks may pad the filter's dims: the padding must read as zeros.
      std::memset(dst, 0, op.prim.get_size());
      op.filter_walk.ForEach([&](int64_t u, int64_t off) { dst[off] = src[u]; });
    }
    return;
  }
  omp_set_num_threads(op.filter ? 1 : threads);
  op.reorder.execute(stream, {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
  stream.wait();
  omp_set_num_threads(threads);
}

// Points `b` at `p`, unless it already points there (a constant filter, the same buffer again).
void Point(BoundMemory* b, const void* p) {
  if (b->at == p) return;
  b->m.set_data_handle(const_cast<void*>(p));
  b->at = p;
}

// A BoundArgs for `plan`: a spare one, or a new one with every argument the plan uses in its map
// (pointing nowhere yet).
std::unique_ptr<BoundArgs> TakeBoundArgs(const ConvPlan& plan) {
  {
    mutex_lock lock(plan.bound_mu);
    if (!plan.bound.empty()) {
      std::unique_ptr<BoundArgs> b = std::move(plan.bound.back());
      plan.bound.pop_back();
      return b;
    }
  }
  const dnnl::engine& eng = CpuEngine();
  auto b = std::make_unique<BoundArgs>(eng);
  auto make = [&](BoundMemory* m, const memory::desc& md) {
    m->m = memory(md, eng, DNNL_MEMORY_NONE);
  };
  if (plan.scratch_md.get_size() > 0) {
    make(&b->scratch, plan.scratch_md);
    b->args[DNNL_ARG_SCRATCHPAD] = b->scratch.m;
  }
  make(&b->a_user, plan.a.user);
  if (plan.a.reordered) make(&b->a_prim, plan.a.prim);
  b->args[plan.a.arg] = plan.a.reordered ? b->a_prim.m : b->a_user.m;
  make(&b->b_user, plan.b.user);
  if (plan.b.reordered) make(&b->b_prim, plan.b.prim);
  b->args[plan.b.arg] = plan.b.reordered ? b->b_prim.m : b->b_user.m;
  if (!plan.bias_md.is_zero()) {
    make(&b->bias, plan.bias_md);
    b->args[DNNL_ARG_BIAS] = b->bias.m;
  }
  if (!plan.channel_md.is_zero()) {
    make(&b->scale, plan.channel_md);
    make(&b->shift, plan.channel_md);
    b->args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = b->scale.m;
    b->args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1] = b->shift.m;
  }
  make(&b->out_user, plan.out.user);
  if (plan.out.reordered) make(&b->out_prim, plan.out.prim);
  b->args[plan.out.arg] = plan.out.reordered ? b->out_prim.m : b->out_user.m;
  return b;
}

// Runs the plan with oneDNN's OpenMP team sized `threads`. `packed_b`, when not null, is operand
// b already in the primitive's layout.
absl::Status Execute(OpKernelContext* ctx, const ConvPlan& plan, int threads, const float* a,
                     const float* b, const float* packed_b, const OneDnnConv::Epilogue* epilogue,
                     float* out) {
  std::unique_ptr<BoundArgs> bound = TakeBoundArgs(plan);
  // Buffers oneDNN writes (the scratchpad, the output in the primitive's layout) end in a guard
  // of known bytes, checked after the run: a primitive that writes past its buffer is an error
  // naming the node, not heap corruption found later.
  Tensor temps[4];
  auto temp = [&](int i, BoundMemory* m, const memory::desc& md,
                  bool guarded = false) -> absl::Status {
    const int64_t guard = guarded ? kGuardBytes : 0;
    SG_RETURN_IF_ERROR(ctx->allocate_temp(
        DT_UINT8, TensorShape({static_cast<int64_t>(md.get_size()) + guard}), &temps[i]));
    std::memset(static_cast<char*>(temps[i].raw_data()) + md.get_size(), kGuardByte, guard);
    Point(m, temps[i].raw_data());
    return absl::OkStatus();
  };
  auto guard_intact = [&](int i, const memory::desc& md) {
    const auto* p = static_cast<const unsigned char*>(temps[i].raw_data()) + md.get_size();
    return std::all_of(p, p + kGuardBytes, [](unsigned char c) { return c == kGuardByte; });
  };
  if (plan.scratch_md.get_size() > 0) {
    SG_RETURN_IF_ERROR(temp(0, &bound->scratch, plan.scratch_md, /*guarded=*/true));
  }
  const Operand* inputs[2] = {&plan.a, &plan.b};
  const float* in_data[2] = {a, b};
  BoundMemory* user_mem[2] = {&bound->a_user, &bound->b_user};
  BoundMemory* prim_mem[2] = {&bound->a_prim, &bound->b_prim};
  for (int i = 0; i < 2; ++i) {
    const Operand& op = *inputs[i];
    if (i == 1 && packed_b != nullptr) {
      Point(&bound->b_prim, packed_b);
      continue;
    }
    Point(user_mem[i], in_data[i]);
    if (!op.reordered) continue;
    SG_RETURN_IF_ERROR(temp(1 + i, prim_mem[i], op.prim));
    Relayout(op, /*to_user=*/false, user_mem[i]->m, prim_mem[i]->m, bound->stream, threads);
  }
  if (!plan.bias_md.is_zero()) Point(&bound->bias, epilogue->bias);
  if (!plan.channel_md.is_zero()) {
    Point(&bound->scale, epilogue->scale);
    Point(&bound->shift, epilogue->shift);
  }
  Point(&bound->out_user, out);
  if (plan.out.reordered) {
    SG_RETURN_IF_ERROR(temp(3, &bound->out_prim, plan.out.prim, /*guarded=*/true));
  }
  plan.conv.execute(bound->stream, bound->args);
  bound->stream.wait();
  if ((plan.scratch_md.get_size() > 0 && !guard_intact(0, plan.scratch_md)) ||
      (plan.out.reordered && !guard_intact(3, plan.out.prim))) {
    return errors::Internal("oneDNN's convolution wrote past the end of its buffer (node '",
                            ctx->op_kernel().name(), "')");
  }
  if (plan.out.reordered) {
    Relayout(plan.out, /*to_user=*/true, bound->out_prim.m, bound->out_user.m, bound->stream,
             threads);
  }
  mutex_lock lock(plan.bound_mu);
  plan.bound.push_back(std::move(bound));
  return absl::OkStatus();
}

// Lays `user` out as `plan` wants its filter (operand b); nullptr when out of memory.
std::shared_ptr<const PackedFilter> PackFilter(std::shared_ptr<const ConvPlan> plan,
                                               const float* user, int threads) {
  const size_t bytes = plan->b.prim.get_size();
  auto packed = std::make_shared<PackedFilter>();
  packed->data.reset(static_cast<float*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
  if (packed->data == nullptr) return nullptr;
  const dnnl::engine& eng = CpuEngine();
  dnnl::stream stream(eng);
  Relayout(plan->b, /*to_user=*/false, memory(plan->b.user, eng, const_cast<float*>(user)),
           memory(plan->b.prim, eng, packed->data.get()), stream, threads);
  packed->plan = std::move(plan);
  packed->user = user;
  return packed;
}

}  // namespace

OneDnnConv::OneDnnConv() : impl_(std::make_unique<Impl>()) {}
OneDnnConv::~OneDnnConv() = default;

bool OneDnnConv::Available() { return EnabledByEnvironment(); }

int64_t OneDnnConv::BlockedRuns(bool fused) {
  return blocked_runs[fused].load(std::memory_order_relaxed);
}

bool OneDnnConv::Run(OpKernelContext* ctx, Pass pass, int nd, const ConvNdGeometry& g,
                     const float* a, const float* b, float* out, const Epilogue* epilogue) {
  if (!EnabledByEnvironment() || (nd != 2 && nd != 3)) return false;
  if (epilogue != nullptr &&
      (pass != kForward || (epilogue->scale == nullptr) != (epilogue->shift == nullptr))) {
    return false;
  }
  if (g.n == 0 || g.c == 0 || g.filter_c == 0 || g.out_c == 0 || g.InPositions() == 0 ||
      g.OutPositions() == 0 || g.WindowSize() == 0 || g.c % g.filter_c != 0 ||
      g.out_c % g.Groups() != 0) {
    return false;
  }
  // A convolution of few positions that oneDNN's kernels do not speed up with a second thread
  // (1x1), or whose window meets padding only with some taps, runs on sg's own product
  // (few_positions_conv.h).
  if (pass == kForward && constant_filter_ &&
      FewPositionsConv::Takes(g, ctx->eigen_cpu_device().numThreads()) &&
      impl_->few_positions.Run(ctx->eigen_cpu_device(), g, a, b, out, epilogue)) {
    return true;
  }
  // oneDNN runs on the calling thread's OpenMP team, which it sizes when it builds a primitive
  // as well as when it runs one: as many threads as the intra-op pool (omp_set_num_threads
  // affects this thread only), except for small convolutions, which run on this thread alone:
  // there, waking the team costs more than it saves, and much more when the cores are busy.
  const double macs = static_cast<double>(g.n) * g.OutPositions() * g.out_c * g.WindowSize() *
                      g.filter_c;
  // With another kernel call already splitting its work (steps side by side), on this thread.
  const ParallelSection section;
  const int threads =
      macs < kSerialMacs || !section.alone() ? 1 : ctx->eigen_cpu_device().numThreads();
  omp_set_num_threads(threads);
  std::vector<int64_t> key = {pass, nd, threads, g.n, g.c, g.filter_c, g.out_c};
  for (const int64_t* v : {g.in, g.k, g.s, g.d, g.pad, g.out}) key.insert(key.end(), v, v + 3);
  if (epilogue != nullptr) {  // what it does, not its values
    int32_t alpha_bits;
    std::memcpy(&alpha_bits, &epilogue->alpha, sizeof(alpha_bits));
    key.insert(key.end(), {epilogue->bias != nullptr, epilogue->scale != nullptr,
                           epilogue->sum, static_cast<int64_t>(epilogue->act), alpha_bits});
  }
  std::shared_ptr<const ConvPlan> plan;
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
      plan = MakePlan(pass, nd, g, epilogue);
    } catch (const dnnl::error&) {
      plan = nullptr;  // oneDNN has no implementation: remembered as such
    }
    mutex_lock lock(impl_->mu);
    if (impl_->plans.size() >= kMaxPlans) impl_->plans.erase(impl_->plans.begin());
    impl_->plans.emplace_back(std::move(key), plan);
  }
  if (plan == nullptr) return false;
  absl::Status status;
  try {
    // A constant filter is laid out once per plan and address (its shape is the plan's).
    std::shared_ptr<const PackedFilter> packed;
    if (constant_filter_ && pass == kForward && plan->b.reordered) {
      {
        mutex_lock lock(impl_->mu);
        for (const auto& p : impl_->packed) {
          if (p->user == b && p->plan->b.prim == plan->b.prim) packed = p;
        }
      }
      if (packed == nullptr) {
        packed = PackFilter(plan, b, threads);
        mutex_lock lock(impl_->mu);
        if (packed != nullptr) {
          if (impl_->packed.size() >= kMaxPacked) impl_->packed.erase(impl_->packed.begin());
          impl_->packed.push_back(packed);
        }
      }
    }
    status = Execute(ctx, *plan, threads, a, b, packed ? packed->data.get() : nullptr, epilogue,
                     out);
    if (threads > 1) NoteOpenMpTeamUsed();
    if (status.ok() && plan->blocked) {
      blocked_runs[epilogue != nullptr].fetch_add(1, std::memory_order_relaxed);
    }
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
                     const float*, float*, const Epilogue*) {
  return false;
}

bool OneDnnConv::Available() { return false; }

int64_t OneDnnConv::BlockedRuns(bool) { return 0; }

}  // namespace sg

#endif  // SG_HAVE_DNNL

namespace sg {

bool OneDnnConv::BlocksActivations(Pass pass, int nd, const ConvNdGeometry& g,
                                   const Epilogue* epilogue) {
  return pass == kForward && nd == 2 && (epilogue == nullptr || !epilogue->sum) &&
         g.Groups() == 1 && g.c >= kBlockedMinChannels && g.out_c >= kBlockedMinChannels &&
         g.k[1] > 1 && g.k[2] > 1 && g.in[1] * g.in[2] >= kBlockedMinPositions;
}

bool OneDnnConv::EpilogueAct(FusedActivation act, Epilogue::Act* out) {
  switch (act) {
    case FusedActivation::kNone: *out = Epilogue::Act::kNone; return true;
    case FusedActivation::kRelu: *out = Epilogue::Act::kRelu; return true;
    case FusedActivation::kRelu6: *out = Epilogue::Act::kRelu6; return true;
    case FusedActivation::kElu: *out = Epilogue::Act::kElu; return true;
    case FusedActivation::kLeakyRelu: *out = Epilogue::Act::kLeakyRelu; return true;
    case FusedActivation::kSwish: *out = Epilogue::Act::kSwish; return true;
    case FusedActivation::kTanh:
    case FusedActivation::kSigmoid: return false;
  }
  return false;
}

bool OneDnnConv::ConstFilterAttr(OpKernelConstruction* ctx) {
  bool constant = false;
  if (!ctx->HasAttr(kConstFilterAttr) || !ctx->GetAttr(kConstFilterAttr, &constant).ok()) {
    return false;
  }
  return constant;
}

}  // namespace sg
