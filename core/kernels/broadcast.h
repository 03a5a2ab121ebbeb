// Numpy broadcasting of two tensors, and the loop that applies a binary functor over it.
//
//   BCast bcast(x.shape(), y.shape());
//   if (!bcast.valid()) ... "Incompatible shapes"
//   BroadcastBinaryLoop(ctx->eigen_cpu_device(), bcast, x.data<T>(), y.data<T>(),
//                       out->data<T>(), [](T a, T b) { return a + b; });
//
// BCast folds the shapes to the fewest dims (dims of size 1 dropped, neighbouring dims that
// broadcast alike merged), so same-shape inputs become one dim, a scalar operand one dim with
// stride 0, and a row vector [N,M] + [M] two dims. The loop splits the output over the intra-op
// pool and runs the innermost dim as a tight loop (contiguous or with one side held fixed), which
// the compiler vectorizes. Any rank is supported.
#ifndef SG_CORE_KERNELS_BROADCAST_H_
#define SG_CORE_KERNELS_BROADCAST_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "core/framework/tensor_shape.h"
#include "core/kernels/parallel_for.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sg {

class BCast {
 public:
  // Dims and strides of up to kInline folded dims live inside the object: a kernel call of a
  // small op allocates nothing for its broadcast.
  static constexpr int kInline = 6;
  using Dims = absl::InlinedVector<int64_t, kInline>;

  BCast(const TensorShape& x, const TensorShape& y) {
    const int rank = std::max(x.dims(), y.dims());
    Dims out(rank);
    absl::InlinedVector<bool, kInline> xb(rank), yb(rank);
    for (int i = 0; i < rank; ++i) {
      const int ix = i - (rank - x.dims()), iy = i - (rank - y.dims());
      const int64_t dx = ix >= 0 ? x.dim_size(ix) : 1;
      const int64_t dy = iy >= 0 ? y.dim_size(iy) : 1;
      if (dx != dy && dx != 1 && dy != 1) {
        valid_ = false;
        return;
      }
      out[i] = dx == 1 ? dy : dx;
      xb[i] = dx != out[i];
      yb[i] = dy != out[i];
    }
    output_shape_ = TensorShape(out);
    // Fold: drop size-1 dims, merge neighbours with the same broadcast pattern.
    absl::InlinedVector<bool, kInline> fxb, fyb;
    for (int i = 0; i < rank; ++i) {
      if (out[i] == 1) continue;
      if (!dims_.empty() && fxb.back() == xb[i] && fyb.back() == yb[i]) {
        dims_.back() *= out[i];
      } else {
        dims_.push_back(out[i]);
        fxb.push_back(xb[i]);
        fyb.push_back(yb[i]);
      }
    }
    const int r = static_cast<int>(dims_.size());
    x_strides_.resize(r);
    y_strides_.resize(r);
    int64_t sx = 1, sy = 1;
    for (int i = r - 1; i >= 0; --i) {
      x_strides_[i] = fxb[i] ? 0 : sx;
      y_strides_[i] = fyb[i] ? 0 : sy;
      if (!fxb[i]) sx *= dims_[i];
      if (!fyb[i]) sy *= dims_[i];
    }
  }

  bool valid() const { return valid_; }
  const TensorShape& output_shape() const { return output_shape_; }
  // The folded dims and each input's element strides over them (0 where it broadcasts).
  const Dims& dims() const { return dims_; }
  const Dims& x_strides() const { return x_strides_; }
  const Dims& y_strides() const { return y_strides_; }

 private:
  bool valid_ = true;
  TensorShape output_shape_;
  Dims dims_, x_strides_, y_strides_;
};

// Strides of `in` (numpy-broadcast against `out`, which has at least its rank) over the dims of
// `out`: 0 where `in` broadcasts. For the N-ary ops (SelectV2).
inline std::vector<int64_t> BroadcastStrides(const TensorShape& in, const TensorShape& out) {
  const int r = out.dims();
  std::vector<int64_t> strides(r, 0);
  int64_t s = 1;
  for (int i = r - 1; i >= 0; --i) {
    const int ii = i - (r - in.dims());
    const int64_t d = ii >= 0 ? in.dim_size(ii) : 1;
    strides[i] = (d == 1 && out.dim_size(i) != 1) ? 0 : s;
    s *= d;
  }
  return strides;
}

// out[i] = fn(x[..], y[..]) over the broadcast output. `cost` is fn's cost in cycles.
template <typename T, typename Out, typename Fn>
void BroadcastBinaryLoop(const Eigen::ThreadPoolDevice& device, const BCast& bcast, const T* x,
                         const T* y, Out* out, Fn fn, double cost = 1.0) {
  const int64_t total = bcast.output_shape().num_elements();
  if (total == 0) return;
  const BCast::Dims& dims = bcast.dims();
  const int r = static_cast<int>(dims.size());
  if (r == 0) {
    out[0] = fn(x[0], y[0]);
    return;
  }
  const int64_t inner = dims[r - 1];
  const int64_t sx_in = bcast.x_strides()[r - 1], sy_in = bcast.y_strides()[r - 1];
  auto block = [&](Eigen::Index begin, Eigen::Index end) {
    int64_t row = begin / inner, col = begin % inner;
    int64_t pos = begin;
    while (pos < end) {
      // Offsets of this row's start in x and y.
      int64_t ox = 0, oy = 0, rem = row;
      for (int d = r - 2; d >= 0; --d) {
        const int64_t idx = rem % dims[d];
        rem /= dims[d];
        ox += idx * bcast.x_strides()[d];
        oy += idx * bcast.y_strides()[d];
      }
      const int64_t n = std::min<int64_t>(inner - col, end - pos);
      Out* o = out + pos;
      if (sx_in != 0 && sy_in != 0) {
        const T* px = x + ox + col;
        const T* py = y + oy + col;
        for (int64_t k = 0; k < n; ++k) o[k] = fn(px[k], py[k]);
      } else if (sx_in == 0 && sy_in != 0) {
        const T vx = x[ox];
        const T* py = y + oy + col;
        for (int64_t k = 0; k < n; ++k) o[k] = fn(vx, py[k]);
      } else if (sx_in != 0) {
        const T* px = x + ox + col;
        const T vy = y[oy];
        for (int64_t k = 0; k < n; ++k) o[k] = fn(px[k], vy);
      } else {
        const Out v = fn(x[ox], y[oy]);
        for (int64_t k = 0; k < n; ++k) o[k] = v;
      }
      pos += n;
      col = 0;
      ++row;
    }
  };
  ParallelFor(device, total, Eigen::TensorOpCost(2 * sizeof(T), sizeof(Out), cost), block);
}

}  // namespace sg

#endif  // SG_CORE_KERNELS_BROADCAST_H_
