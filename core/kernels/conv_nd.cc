#include "core/kernels/conv_nd.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <memory>

#include "core/kernels/array_copy.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/matmul_op.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

// Patch matrices are built and multiplied in chunks of about this many elements.
constexpr int64_t kChunkElements = int64_t{1} << 22;

using ComputeTypes = TypeList<float, double, int32_t>;

// A rank-1 tensor over `count` elements of t's buffer from element `offset` on; it keeps t's
// buffer alive. Lets a product write straight into rows of a larger tensor.
Tensor View(const Tensor& t, int64_t offset, int64_t count) {
  const size_t size = DataTypeSize(t.dtype());
  char* base = static_cast<char*>(const_cast<void*>(t.raw_data())) + offset * size;
  std::shared_ptr<TensorBuffer> keep = t.buffer();
  return Tensor(t.dtype(), TensorShape({count}),
                std::make_shared<TensorBuffer>(base, count * size,
                                               [keep](void*, size_t) {}));
}

// c[m, n] = a[m, k] * b[k, n] (a stored [k, m] when adj_a), through matmul_op's product.
absl::Status Gemm(OpKernelContext* ctx, const Tensor& a, const Tensor& b, int64_t m, int64_t k,
                  int64_t n, bool adj_a, Tensor* c) {
  const int64_t zero[1] = {0};
  return BatchedMatMul(ctx, a, b, zero, zero, m, k, n, adj_a, false, c);
}

bool IsNarrowFloat(DataType dt) { return dt == DT_HALF || dt == DT_BFLOAT16; }

// `t` in the type the products run in: a float copy for half and bfloat16, t itself otherwise.
absl::Status ToComputeType(OpKernelContext* ctx, const Tensor& t, Tensor* out) {
  if (!IsNarrowFloat(t.dtype())) {
    *out = t;
    return absl::OkStatus();
  }
  SG_RETURN_IF_ERROR(ctx->allocate_temp(DT_FLOAT, t.shape(), out));
  float* dst = out->data<float>();
  const int64_t n = t.NumElements();
  if (t.dtype() == DT_HALF) {
    const half* src = t.data<half>();
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]);
  } else {
    const bfloat16* src = t.data<bfloat16>();
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]);
  }
  return absl::OkStatus();
}

// Where a result of the compute type goes before it reaches `out`: a float temporary for half
// and bfloat16, `out` itself otherwise.
absl::Status ResultBuffer(OpKernelContext* ctx, const Tensor& out, Tensor* res) {
  if (!IsNarrowFloat(out.dtype())) {
    *res = out;
    return absl::OkStatus();
  }
  return ctx->allocate_temp(DT_FLOAT, out.shape(), res);
}

// Rounds a float result into a half or bfloat16 `out` (nothing to do for other dtypes).
void StoreResult(const Tensor& res, Tensor* out) {
  if (!IsNarrowFloat(out->dtype())) return;
  const float* src = res.data<float>();
  const int64_t n = out->NumElements();
  if (out->dtype() == DT_HALF) {
    half* dst = out->data<half>();
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<half>(src[i]);
  } else {
    bfloat16* dst = out->data<bfloat16>();
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<bfloat16>(src[i]);
  }
}

// Runs fn(A{}) with A the compute type of `dt`; UNIMPLEMENTED for a dtype without one.
template <typename Fn>
absl::Status DispatchCompute(DataType dt, Fn fn) {
  absl::Status status;
  const DataType ct = IsNarrowFloat(dt) ? DT_FLOAT : dt;
  const bool ok = DispatchTypes(ComputeTypes(), ct, [&](auto tag) { status = fn(tag); });
  if (!ok) {
    return errors::Unimplemented("convolutions of dtype ", DataTypeString(dt),
                                 " are not supported");
  }
  return status;
}

// Fills rows [r0, r1) of the patch matrix: row r is output position r (batch-major) and holds
// its window of input channels [c0, c0 + cn), window position-major, zeros for padding.
template <typename A>
void Im2Col(const ConvNdGeometry& g, const A* x, int64_t c0, int64_t cn, int64_t r0, int64_t r1,
            A* patches) {
  A* dst = patches;
  for (int64_t r = r0; r < r1; ++r) {
    int64_t rem = r;
    const int64_t o2 = rem % g.out[2];
    rem /= g.out[2];
    const int64_t o1 = rem % g.out[1];
    rem /= g.out[1];
    const int64_t o0 = rem % g.out[0];
    const int64_t n = rem / g.out[0];
    for (int64_t j0 = 0; j0 < g.k[0]; ++j0) {
      const int64_t i0 = o0 * g.s[0] - g.pad[0] + j0 * g.d[0];
      const bool v0 = i0 >= 0 && i0 < g.in[0];
      for (int64_t j1 = 0; j1 < g.k[1]; ++j1) {
        const int64_t i1 = o1 * g.s[1] - g.pad[1] + j1 * g.d[1];
        const bool v1 = v0 && i1 >= 0 && i1 < g.in[1];
        for (int64_t j2 = 0; j2 < g.k[2]; ++j2, dst += cn) {
          const int64_t i2 = o2 * g.s[2] - g.pad[2] + j2 * g.d[2];
          if (v1 && i2 >= 0 && i2 < g.in[2]) {
            const A* src = x + (((n * g.in[0] + i0) * g.in[1] + i1) * g.in[2] + i2) * g.c + c0;
            if (cn == 1) {
              *dst = *src;  // a first layer's single channel: no call for four bytes
            } else {
              std::memcpy(dst, src, cn * sizeof(A));
            }
          } else {
            std::fill(dst, dst + cn, A(0));
          }
        }
      }
    }
  }
}

// The input gradient's patch matrix, rows [r0, r1): row r is input position r (batch-major)
// and holds, for each window position j, the dy row of the output position whose window puts
// j on it (zeros where none does).
template <typename A>
void DyPatches(const ConvNdGeometry& g, const A* dy, int64_t r0, int64_t r1, A* patches) {
  const int64_t oc = g.out_c;
  A* dst = patches;
  auto source = [&g](int dim, int64_t i, int64_t j, int64_t* o) {
    const int64_t t = i + g.pad[dim] - j * g.d[dim];
    if (t < 0 || t % g.s[dim] != 0) return false;
    *o = t / g.s[dim];
    return *o < g.out[dim];
  };
  for (int64_t r = r0; r < r1; ++r) {
    int64_t rem = r;
    const int64_t i2 = rem % g.in[2];
    rem /= g.in[2];
    const int64_t i1 = rem % g.in[1];
    rem /= g.in[1];
    const int64_t i0 = rem % g.in[0];
    const int64_t n = rem / g.in[0];
    for (int64_t j0 = 0; j0 < g.k[0]; ++j0) {
      int64_t o0 = 0, o1 = 0, o2 = 0;
      const bool v0 = source(0, i0, j0, &o0);
      for (int64_t j1 = 0; j1 < g.k[1]; ++j1) {
        const bool v1 = v0 && source(1, i1, j1, &o1);
        for (int64_t j2 = 0; j2 < g.k[2]; ++j2, dst += oc) {
          if (v1 && source(2, i2, j2, &o2)) {
            std::memcpy(dst, dy + (((n * g.out[0] + o0) * g.out[1] + o1) * g.out[2] + o2) * oc,
                        oc * sizeof(A));
          } else {
            std::fill(dst, dst + oc, A(0));
          }
        }
      }
    }
  }
}

int64_t ChunkRows(int64_t rows, int64_t width) {
  return std::max<int64_t>(1, std::min<int64_t>(rows, kChunkElements / std::max<int64_t>(width, 1)));
}

// Runs fill(begin, end, dst) for rows [r0, r1) on the pool, dst the first of those rows.
template <typename A, typename Fill>
void ParallelRows(OpKernelContext* ctx, int64_t r0, int64_t r1, int64_t width, A* base,
                  Fill fill) {
  const double bytes = static_cast<double>(width) * sizeof(A);
  ParallelFor(ctx->eigen_cpu_device(),
      r1 - r0, Eigen::TensorOpCost(bytes, bytes, static_cast<double>(width)),
      [&](Eigen::Index b, Eigen::Index e) { fill(r0 + b, r0 + e, base + b * width); });
}

template <typename A>
absl::Status Forward(OpKernelContext* ctx, const ConvNdGeometry& g, const Tensor& x,
                     const Tensor& w, Tensor* y) {
  const int64_t groups = g.Groups(), cg = g.filter_c, opg = g.out_c / groups;
  const int64_t kdim = g.WindowSize() * cg;
  const int64_t rows = g.n * g.OutPositions();
  A* yp = y->data<A>();
  if (rows == 0 || g.out_c == 0) return absl::OkStatus();
  if (kdim == 0) {
    std::fill(yp, yp + rows * g.out_c, A(0));
    return absl::OkStatus();
  }
  const int64_t chunk = ChunkRows(rows, kdim);
  const DataType dt = DataTypeToEnum<A>::value;
  Tensor patches, wg, part;
  SG_RETURN_IF_ERROR(ctx->allocate_temp(dt, TensorShape({chunk * kdim}), &patches));
  if (groups > 1) {
    SG_RETURN_IF_ERROR(ctx->allocate_temp(dt, TensorShape({kdim * opg}), &wg));
    SG_RETURN_IF_ERROR(ctx->allocate_temp(dt, TensorShape({chunk * opg}), &part));
  } else {
    wg = w;
  }
  const A* xp = x.data<A>();
  for (int64_t grp = 0; grp < groups; ++grp) {
    if (groups > 1) {
      A* dst = wg.data<A>();
      const A* src = w.data<A>();
      for (int64_t r = 0; r < kdim; ++r) {
        std::memcpy(dst + r * opg, src + r * g.out_c + grp * opg, opg * sizeof(A));
      }
    }
    for (int64_t r0 = 0; r0 < rows; r0 += chunk) {
      const int64_t r1 = std::min(rows, r0 + chunk);
      ParallelRows(ctx, r0, r1, kdim, patches.data<A>(),
                   [&](int64_t b, int64_t e, A* dst) { Im2Col(g, xp, grp * cg, cg, b, e, dst); });
      if (groups == 1) {
        Tensor dst = View(*y, r0 * g.out_c, (r1 - r0) * g.out_c);
        SG_RETURN_IF_ERROR(Gemm(ctx, patches, wg, r1 - r0, kdim, g.out_c, false, &dst));
        continue;
      }
      SG_RETURN_IF_ERROR(Gemm(ctx, patches, wg, r1 - r0, kdim, opg, false, &part));
      const A* src = part.data<A>();
      for (int64_t r = r0; r < r1; ++r) {
        std::memcpy(yp + r * g.out_c + grp * opg, src + (r - r0) * opg, opg * sizeof(A));
      }
    }
  }
  return absl::OkStatus();
}

template <typename A>
absl::Status BackpropInput(OpKernelContext* ctx, const ConvNdGeometry& g, const Tensor& w,
                           const Tensor& dy, Tensor* dx) {
  const int64_t window = g.WindowSize(), oc = g.out_c, ic = g.c;
  const int64_t kdim = window * oc;
  const int64_t rows = g.n * g.InPositions();
  A* dxp = dx->data<A>();
  if (rows == 0 || ic == 0) return absl::OkStatus();
  if (kdim == 0) {
    std::fill(dxp, dxp + rows * ic, A(0));
    return absl::OkStatus();
  }
  const DataType dt = DataTypeToEnum<A>::value;
  // The filter with each window position's [C, out_c] block transposed: [window, out_c, C].
  Tensor wt, patches;
  SG_RETURN_IF_ERROR(ctx->allocate_temp(dt, TensorShape({kdim * ic}), &wt));
  const A* wp = w.data<A>();
  A* wtp = wt.data<A>();
  for (int64_t j = 0; j < window; ++j) {
    for (int64_t ci = 0; ci < ic; ++ci) {
      for (int64_t co = 0; co < oc; ++co) {
        wtp[(j * oc + co) * ic + ci] = wp[(j * ic + ci) * oc + co];
      }
    }
  }
  const int64_t chunk = ChunkRows(rows, kdim);
  SG_RETURN_IF_ERROR(ctx->allocate_temp(dt, TensorShape({chunk * kdim}), &patches));
  const A* dyp = dy.data<A>();
  for (int64_t r0 = 0; r0 < rows; r0 += chunk) {
    const int64_t r1 = std::min(rows, r0 + chunk);
    ParallelRows(ctx, r0, r1, kdim, patches.data<A>(),
                 [&](int64_t b, int64_t e, A* dst) { DyPatches(g, dyp, b, e, dst); });
    Tensor dst = View(*dx, r0 * ic, (r1 - r0) * ic);
    SG_RETURN_IF_ERROR(Gemm(ctx, patches, wt, r1 - r0, kdim, ic, false, &dst));
  }
  return absl::OkStatus();
}

template <typename A>
absl::Status BackpropFilter(OpKernelContext* ctx, const ConvNdGeometry& g, const Tensor& x,
                            const Tensor& dy, Tensor* dw) {
  const int64_t kdim = g.WindowSize() * g.c, oc = g.out_c;
  const int64_t rows = g.n * g.OutPositions();
  A* dwp = dw->data<A>();
  if (kdim == 0 || oc == 0) return absl::OkStatus();
  std::fill(dwp, dwp + kdim * oc, A(0));
  if (rows == 0) return absl::OkStatus();
  const DataType dt = DataTypeToEnum<A>::value;
  const int64_t chunk = ChunkRows(rows, kdim);
  Tensor patches, part;
  SG_RETURN_IF_ERROR(ctx->allocate_temp(dt, TensorShape({chunk * kdim}), &patches));
  SG_RETURN_IF_ERROR(ctx->allocate_temp(dt, TensorShape({kdim * oc}), &part));
  const A* xp = x.data<A>();
  const A* pp = part.data<A>();
  for (int64_t r0 = 0; r0 < rows; r0 += chunk) {
    const int64_t r1 = std::min(rows, r0 + chunk);
    ParallelRows(ctx, r0, r1, kdim, patches.data<A>(),
                 [&](int64_t b, int64_t e, A* dst) { Im2Col(g, xp, 0, g.c, b, e, dst); });
    const Tensor dy_rows = View(dy, r0 * oc, (r1 - r0) * oc);
    SG_RETURN_IF_ERROR(Gemm(ctx, patches, dy_rows, kdim, r1 - r0, oc, true, &part));
    for (int64_t i = 0; i < kdim * oc; ++i) dwp[i] += pp[i];
  }
  return absl::OkStatus();
}

// Converts the operands, runs body.template operator()<A> in the compute type and stores the
// result into `out`.
template <typename Body>
absl::Status RunInComputeType(OpKernelContext* ctx, const Tensor& a, const Tensor& b, Tensor* out,
                              Body body) {
  if (out->NumElements() == 0) return absl::OkStatus();
  Tensor ca, cb, res;
  SG_RETURN_IF_ERROR(ToComputeType(ctx, a, &ca));
  SG_RETURN_IF_ERROR(ToComputeType(ctx, b, &cb));
  SG_RETURN_IF_ERROR(ResultBuffer(ctx, *out, &res));
  SG_RETURN_IF_ERROR(DispatchCompute(out->dtype(), [&](auto tag) {
    return body(tag, ca, cb, &res);
  }));
  StoreResult(res, out);
  return absl::OkStatus();
}

}  // namespace

absl::Status MakeConvNdGeometry(int nd, const TensorShape& input, const TensorShape& filter,
                                absl::Span<const int64_t> strides,
                                absl::Span<const int64_t> dilations, Padding padding,
                                absl::Span<const int64_t> explicit_paddings, ConvNdGeometry* g) {
  if (input.dims() != nd + 2) {
    return errors::InvalidArgument("input must be ", nd + 2, "-dimensional: ",
                                   input.DebugString());
  }
  if (filter.dims() != nd + 2) {
    return errors::InvalidArgument("filter must be ", nd + 2, "-dimensional: ",
                                   filter.DebugString());
  }
  if (static_cast<int>(strides.size()) != nd + 2 ||
      static_cast<int>(dilations.size()) != nd + 2) {
    return errors::InvalidArgument("strides and dilations must have ", nd + 2, " entries");
  }
  if (padding == Padding::kExplicit &&
      static_cast<int>(explicit_paddings.size()) != 2 * (nd + 2)) {
    return errors::InvalidArgument("explicit_paddings must have ", 2 * (nd + 2), " entries");
  }
  *g = ConvNdGeometry();
  g->n = input.dim_size(0);
  g->c = input.dim_size(nd + 1);
  g->filter_c = filter.dim_size(nd);
  g->out_c = filter.dim_size(nd + 1);
  if ((g->c == 0) != (g->filter_c == 0) || (g->filter_c != 0 && g->c % g->filter_c != 0)) {
    return errors::InvalidArgument("input depth must be evenly divisible by filter depth: ",
                                   g->c, " vs ", g->filter_c);
  }
  if (g->out_c % g->Groups() != 0) {
    return errors::InvalidArgument("output depth must be evenly divisible by number of groups: ",
                                   g->out_c, " vs ", g->Groups());
  }
  const int first = 3 - nd;
  for (int i = 0; i < nd; ++i) {
    const int e = first + i, dim = i + 1;
    g->in[e] = input.dim_size(dim);
    g->k[e] = filter.dim_size(i);
    g->s[e] = strides[dim];
    g->d[e] = dilations[dim];
    const bool ex = padding == Padding::kExplicit;
    SG_RETURN_IF_ERROR(WindowedOutputSize(g->in[e], g->k[e], g->d[e], g->s[e], padding,
                                          ex ? explicit_paddings[2 * dim] : 0,
                                          ex ? explicit_paddings[2 * dim + 1] : 0, &g->out[e],
                                          &g->pad[e]));
  }
  // Every size the kernels multiply out (a shape with a zero dim may have huge others): each
  // product, in the order the kernels form it, must stay below kMaxTensorElements.
  auto chain = [](std::initializer_list<int64_t> factors) {
    int64_t p = 1;
    for (int64_t f : factors) {
      if (!MultiplySizes(p, f, &p)) return false;
    }
    return true;
  };
  const auto too_large = [&] {
    return errors::InvalidArgument("convolution sizes are too large: input ",
                                   input.DebugString(), ", filter ", filter.DebugString());
  };
  if (!chain({g->k[0], g->k[1], g->k[2], g->c, g->out_c}) ||
      !chain({g->k[0], g->k[1], g->k[2], g->out_c, g->c}) ||
      !chain({g->out[0], g->out[1], g->out[2]}) || !chain({g->in[0], g->in[1], g->in[2]})) {
    return too_large();
  }
  const int64_t win = g->k[0] * g->k[1] * g->k[2];
  const int64_t outs = g->out[0] * g->out[1] * g->out[2];
  const int64_t ins = g->in[0] * g->in[1] * g->in[2];
  if (!chain({g->n, outs, g->out_c}) || !chain({g->n, outs, win, g->c}) ||
      !chain({g->n, ins, g->c}) || !chain({g->n, ins, win, g->out_c})) {
    return too_large();
  }
  return absl::OkStatus();
}

absl::Status ConvNdAttrs::Read(OpKernelConstruction* ctx, int rank_nd, bool allow_dilation) {
  nd = rank_nd;
  const size_t dims = nd + 2;
  SG_RETURN_IF_ERROR(ctx->GetAttr("strides", &strides));
  dilations.assign(dims, 1);
  if (ctx->HasAttr("dilations")) SG_RETURN_IF_ERROR(ctx->GetAttr("dilations", &dilations));
  if (ctx->HasAttr("explicit_paddings")) {
    SG_RETURN_IF_ERROR(ctx->GetAttr("explicit_paddings", &explicit_paddings));
  }
  std::string p;
  SG_RETURN_IF_ERROR(ctx->GetAttr("padding", &p));
  SG_RETURN_IF_ERROR(ParsePadding(p, &padding));
  data_format = nd == 3 ? "NDHWC" : "NHWC";
  if (ctx->HasAttr("data_format")) SG_RETURN_IF_ERROR(ctx->GetAttr("data_format", &data_format));
  channels_last = !data_format.empty() && data_format.back() == 'C';
  const std::string where = absl::StrCat(" (node '", ctx->def().name(), "', op ",
                                         ctx->def().op(), ")");
  if (strides.size() != dims) {
    return errors::InvalidArgument("Sliding window strides field must specify ", dims,
                                   " dimensions", where);
  }
  if (dilations.size() != dims) {
    return errors::InvalidArgument("Sliding window dilations field must specify ", dims,
                                   " dimensions", where);
  }
  // Strides and dilations are in data_format order.
  const size_t c_dim = channels_last ? dims - 1 : 1;
  if (strides[0] != 1 || strides[c_dim] != 1) {
    return errors::InvalidArgument("Current implementation does not yet support strides in "
                                   "the batch and depth dimensions.", where);
  }
  if (dilations[0] != 1 || dilations[c_dim] != 1) {
    return errors::InvalidArgument("Current implementation does not yet support dilations in "
                                   "the batch and depth dimensions.", where);
  }
  for (int64_t d : dilations) {
    if (d < 1) return errors::InvalidArgument("Dilation rates must be positive", where);
    if (d > 1 && !allow_dilation) {
      return errors::InvalidArgument("Current CPU implementations do not yet support dilation "
                                     "rates larger than 1.", where);
    }
  }
  for (int64_t s : strides) {
    if (s < 1) return errors::InvalidArgument("Strides must be positive", where);
  }
  if (padding == Padding::kExplicit) {
    if (explicit_paddings.size() != 2 * dims) {
      return errors::InvalidArgument("explicit_paddings must have ", 2 * dims,
                                     " values for EXPLICIT padding", where);
    }
    for (size_t i = 0; i < explicit_paddings.size(); ++i) {
      const bool spatial = i / 2 != 0 && i / 2 != c_dim;
      if (explicit_paddings[i] < 0 || (!spatial && explicit_paddings[i] != 0)) {
        return errors::InvalidArgument("explicit_paddings must be non-negative, and zero in "
                                       "the batch and depth dimensions", where);
      }
    }
  }
  return absl::OkStatus();
}

TensorShape ConvNdOutputShape(int nd, const ConvNdGeometry& g) {
  TensorShape shape({g.n});
  for (int e = 3 - nd; e < 3; ++e) shape.AddDim(g.out[e]);
  shape.AddDim(g.out_c);
  return shape;
}

void ConvNdPatches(const ConvNdGeometry& g, const void* input, size_t elem_size, int64_t r0,
                   int64_t r1, void* patches) {
  // Bytes as the element: each pixel's channels are one run of c * elem_size bytes.
  ConvNdGeometry bytes = g;
  bytes.c = g.c * static_cast<int64_t>(elem_size);
  Im2Col(bytes, static_cast<const char*>(input), 0, bytes.c, r0, r1,
         static_cast<char*>(patches));
}

absl::Status ConvNdForward(OpKernelContext* ctx, const ConvNdGeometry& g, const Tensor& input,
                           const Tensor& filter, Tensor* out) {
  return RunInComputeType(ctx, input, filter, out, [&](auto tag, const Tensor& x,
                                                       const Tensor& w, Tensor* y) {
    return Forward<decltype(tag)>(ctx, g, x, w, y);
  });
}

absl::Status ConvNdBackpropInput(OpKernelContext* ctx, const ConvNdGeometry& g,
                                 const Tensor& filter, const Tensor& dy, Tensor* dx) {
  return RunInComputeType(ctx, filter, dy, dx, [&](auto tag, const Tensor& w, const Tensor& d,
                                                   Tensor* res) {
    return BackpropInput<decltype(tag)>(ctx, g, w, d, res);
  });
}

absl::Status ConvNdBackpropFilter(OpKernelContext* ctx, const ConvNdGeometry& g,
                                  const Tensor& input, const Tensor& dy, Tensor* dw) {
  return RunInComputeType(ctx, input, dy, dw, [&](auto tag, const Tensor& x, const Tensor& d,
                                                  Tensor* res) {
    return BackpropFilter<decltype(tag)>(ctx, g, x, d, res);
  });
}

}  // namespace sg
