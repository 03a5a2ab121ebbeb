// Select (TensorFlow 1 rules: scalar, same-shape or row-vector condition), SelectV2 (all three
// broadcast), AddN (of TensorLists too) and ClipByValue.
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"
#include "core/kernels/tensor_list.h"

namespace sg {
namespace {

// Every dtype a Select can carry.
using SelectTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                             uint8_t, uint16_t, uint32_t, uint64_t, bool, tstring, complex64,
                             complex128>;

class SelectOp final : public OpKernel {
 public:
  explicit SelectOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& cond = ctx->input(0);
    const Tensor& t = ctx->input(1);
    const Tensor& e = ctx->input(2);
    OP_REQUIRES(ctx, t.shape() == e.shape(),
                KernelError(*this, "'then' and 'else' must have the same size.  but received: ",
                            t.shape().DebugString(), " vs. ", e.shape().DebugString()));
    const bool scalar = cond.dims() == 0;
    const bool same = cond.shape() == t.shape();
    const bool rows = cond.dims() == 1 && t.dims() >= 1 && cond.dim_size(0) == t.dim_size(0);
    OP_REQUIRES(ctx, scalar || same || rows,
                KernelError(*this, "'condition' must be a scalar, a vector of size ",
                            t.dims() > 0 ? t.dim_size(0) : 1, ", or have the shape of 'then' ",
                            t.shape().DebugString(), "; got ", cond.shape().DebugString()));
    if (scalar) {
      ctx->set_output(0, cond.data<bool>()[0] ? t : e);
      return;
    }
    bool ok = DispatchTypes(SelectTypes(), t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, t.shape(), &out));
      const int64_t n = t.NumElements();
      if (n == 0) return;
      const int64_t inner = same ? 1 : n / t.dim_size(0);
      const bool* c = cond.data<bool>();
      const T* pt = t.data<T>();
      const T* pe = e.data<T>();
      T* po = out->data<T>();
      ParallelFor(ctx->eigen_cpu_device(),
          n, Eigen::TensorOpCost(2 * sizeof(T), sizeof(T), 1),
          [&](Eigen::Index begin, Eigen::Index end) {
            for (Eigen::Index i = begin; i < end; ++i) po[i] = c[i / inner] ? pt[i] : pe[i];
          });
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, t.dtype()));
  }
};

class SelectV2Op final : public OpKernel {
 public:
  explicit SelectV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& cond = ctx->input(0);
    const Tensor& t = ctx->input(1);
    const Tensor& e = ctx->input(2);
    BCast te(t.shape(), e.shape());
    OP_REQUIRES(ctx, te.valid(),
                KernelError(*this, "'then' and 'else' are not broadcastable: ",
                            t.shape().DebugString(), " vs. ", e.shape().DebugString()));
    BCast all(cond.shape(), te.output_shape());
    OP_REQUIRES(ctx, all.valid(),
                KernelError(*this, "'condition' ", cond.shape().DebugString(),
                            " is not broadcastable to ", te.output_shape().DebugString()));
    const TensorShape shape = all.output_shape();
    const std::vector<int64_t> sc = BroadcastStrides(cond.shape(), shape);
    const std::vector<int64_t> st = BroadcastStrides(t.shape(), shape);
    const std::vector<int64_t> se = BroadcastStrides(e.shape(), shape);
    bool ok = DispatchTypes(SelectTypes(), t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
      const int64_t n = shape.num_elements();
      if (n == 0) return;
      const bool* c = cond.data<bool>();
      const T* pt = t.data<T>();
      const T* pe = e.data<T>();
      T* po = out->data<T>();
      const int r = shape.dims();
      ParallelFor(ctx->eigen_cpu_device(),
          n, Eigen::TensorOpCost(2 * sizeof(T), sizeof(T), 4),
          [&](Eigen::Index begin, Eigen::Index end) {
            // Multi-index of `begin`, then counted up element by element.
            std::vector<int64_t> idx(r);
            int64_t rem = begin, oc = 0, ot = 0, oe = 0;
            for (int d = r - 1; d >= 0; --d) {
              idx[d] = rem % shape.dim_size(d);
              rem /= shape.dim_size(d);
              oc += idx[d] * sc[d];
              ot += idx[d] * st[d];
              oe += idx[d] * se[d];
            }
            for (Eigen::Index i = begin; i < end; ++i) {
              po[i] = c[oc] ? pt[ot] : pe[oe];
              for (int d = r - 1; d >= 0; --d) {
                oc += sc[d];
                ot += st[d];
                oe += se[d];
                if (++idx[d] < shape.dim_size(d)) break;
                oc -= sc[d] * idx[d];
                ot -= st[d] * idx[d];
                oe -= se[d] * idx[d];
                idx[d] = 0;
              }
            }
          });
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, t.dtype()));
  }
};

template <typename T>
T AddValues(T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

class AddNOp final : public OpKernel {
 public:
  explicit AddNOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const int num = ctx->num_inputs();
    const Tensor& first = ctx->input(0);
    for (int i = 1; i < num; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).shape() == first.shape(),
                  KernelError(*this, "Inputs must all have the same shape: input 0 is ",
                              first.shape().DebugString(), ", input ", i, " is ",
                              ctx->input(i).shape().DebugString()));
    }
    if (num == 1) {
      ctx->set_output(0, first);
      return;
    }
    if (first.dtype() == DT_VARIANT) {
      AddListsOf(ctx);
      return;
    }
    // bfloat16 rounds after each addition, as TensorFlow's sum expression in T does.
    using AddNTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                               uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;
    bool ok = DispatchTypes(AddNTypes(), first.dtype(), [&](auto tag) {
      using T = decltype(tag);
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, first.shape(), &out));
      std::vector<const T*> ins(num);
      for (int i = 0; i < num; ++i) ins[i] = ctx->input(i).data<T>();
      T* po = out->data<T>();
      ParallelFor(ctx->eigen_cpu_device(),
          first.NumElements(), Eigen::TensorOpCost(num * sizeof(T), sizeof(T), num),
          [&](Eigen::Index begin, Eigen::Index end) {
            for (Eigen::Index j = begin; j < end; ++j) po[j] = AddValues(ins[0][j], ins[1][j]);
            for (int i = 2; i < num; ++i) {
              const T* p = ins[i];
              for (Eigen::Index j = begin; j < end; ++j) po[j] = AddValues(po[j], p[j]);
            }
          });
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, first.dtype()));
  }

 private:
  // Variant inputs hold TensorLists, summed element by element (tensor_list.h's AddLists).
  void AddListsOf(OpKernelContext* ctx) {
    const Tensor& first = ctx->input(0);
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, first.shape(), &out));
    for (int64_t j = 0; j < first.NumElements(); ++j) {
      TensorList sum;
      for (int i = 0; i < ctx->num_inputs(); ++i) {
        const TensorList* list = ctx->input(i).data<Variant>()[j].get<TensorList>();
        OP_REQUIRES(ctx, list != nullptr,
                    KernelError(*this, "input ", i, " holds a variant that is not a TensorList"));
        if (i == 0) {
          sum = *list;
          continue;
        }
        TensorList next;
        absl::Status st = AddLists(sum, *list, &next);
        OP_REQUIRES(ctx, st.ok(), KernelError(*this, st.message()));
        sum = std::move(next);
      }
      out->data<Variant>()[j] = Variant(std::move(sum));
    }
  }
};

// min(max(t, lo), hi) with TensorFlow's order: where lo > hi the result is lo. A complex number
// clips its real and imaginary parts separately (the bounds are a box in the plane), as
// TensorFlow's kernel does.
template <typename T>
T ClipValue(T v, T lo, T hi) {
  if constexpr (std::is_same<T, complex64>::value || std::is_same<T, complex128>::value) {
    return T(ClipValue(v.real(), lo.real(), hi.real()), ClipValue(v.imag(), lo.imag(), hi.imag()));
  } else {
    if (hi < v) v = hi;
    if (v < lo) v = lo;
    return v;
  }
}

using ClipTypes = TypeList<float, double, half, bfloat16, int32_t, int64_t, int8_t, int16_t,
                           uint8_t, uint16_t, uint32_t, uint64_t, complex64, complex128>;

class ClipByValueOp final : public OpKernel {
 public:
  explicit ClipByValueOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& t = ctx->input(0);
    const Tensor& lo = ctx->input(1);
    const Tensor& hi = ctx->input(2);
    const bool lo_scalar = lo.NumElements() == 1 && lo.dims() == 0;
    const bool hi_scalar = hi.NumElements() == 1 && hi.dims() == 0;
    OP_REQUIRES(ctx, (lo_scalar || lo.shape() == t.shape()) &&
                         (hi_scalar || hi.shape() == t.shape()),
                KernelError(*this,
                            "clip_value_min and clip_value_max must be either scalars or have "
                            "the same shape as the input: t ",
                            t.shape().DebugString(), ", clip_value_min ",
                            lo.shape().DebugString(), ", clip_value_max ",
                            hi.shape().DebugString()));
    bool ok = DispatchTypes(ClipTypes(), t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      Tensor* out;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, t.shape(), &out));
      const T* pt = t.data<T>();
      const T* pl = lo.data<T>();
      const T* ph = hi.data<T>();
      T* po = out->data<T>();
      const int64_t sl = lo_scalar ? 0 : 1, sh = hi_scalar ? 0 : 1;
      ParallelFor(ctx->eigen_cpu_device(),
          t.NumElements(), Eigen::TensorOpCost(3 * sizeof(T), sizeof(T), 2),
          [&](Eigen::Index begin, Eigen::Index end) {
            for (Eigen::Index i = begin; i < end; ++i) {
              po[i] = ClipValue(pt[i], pl[i * sl], ph[i * sh]);
            }
          });
    });
    if (!ok) ctx->CtxFailure(UnsupportedType(*this, t.dtype()));
  }
};

REGISTER_KERNEL_BUILDER(Name("Select").Device(DEVICE_CPU), SelectOp);
REGISTER_KERNEL_BUILDER(Name("SelectV2").Device(DEVICE_CPU), SelectV2Op);
REGISTER_KERNEL_BUILDER(Name("AddN").Device(DEVICE_CPU), AddNOp);
REGISTER_KERNEL_BUILDER(Name("ClipByValue").Device(DEVICE_CPU), ClipByValueOp);

}  // namespace
}  // namespace sg
