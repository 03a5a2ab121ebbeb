// A float product of a few rows by a constant matrix, the matrix kept packed in panels of 16
// columns between runs, with OneDnnConv's epilogue (bias, batch norm, residual sum, activation)
// applied while each tile is in registers. Two kernels use it:
//   - FewPositionsConv (few_positions_conv.h): a convolution over at most 32 output positions;
//   - MatMul and _FusedMatMul of float with a Const b (matmul_op.cc): an RNN step or a dense
//     layer at batch 5 to 32.
//
// Why: a BLAS product (oneDNN's sgemm) lays b out anew on every call, which with few rows is,
// presumably, much of its work; here b is laid out once.
// Measured on this project's 2-core AVX2 machine, one thread, the minimum of 5 timings of many
// calls (a throwaway program, not in the repository), [rows x k] times [k x n]:
//   8 x 156 times 156 x 512 (the LSTM's step at batch 8): 14.9 us here, 34.6 in oneDNN's sgemm;
//   16 rows: 27.9 against 50.6; 32 rows: 57.3 against 67.7; 8 x 2048 times 2048 x 1000: 413
//   against 515; five 8-row products with the caches flushed before each call: 0.44-0.70 of
//   sgemm's time.
// At 64 rows sgemm won (181 against 140 us), presumably as the rows no longer stay in the L1
// cache across panels; hence kMaxRows.
//
// Layout: tiles of up to 6 rows by 16 columns (12 AVX2 accumulators, 2 panel vectors and a
// broadcast value: 15 of the 16 vector registers), the rows split into equal tiles (8 rows as
// 4 + 4 took 15.8 us above, 6 + 2 22.7). With AVX-512 (x86-64-v4), tiles of up to 12 rows by
// two panels, 32 columns (24 of the 32 vector registers accumulate): on an AVX-512 Xeon
// (bench/infer_bench_sg against the AVX2 tiles, medians of 5 alternated processes) the
// autoencoder at batch 8 went from 109 to 55 us on 1 thread (ONNX Runtime 64) and 62 to 38 on 2
// (51); the LSTM at batch 8 from 836 to 551 us on 1 thread (561) and 662 to 543 on 2 (549);
// InceptionV3 at batch 1 on 2 threads, whose smallest convolutions run here, 2481 to 2327 (2355).
// Plain C++ without AVX2 and FMA. The code is chosen at run time (SelectedCpuIsaLevel).
#ifndef SG_CORE_KERNELS_PANEL_PRODUCT_H_
#define SG_CORE_KERNELS_PANEL_PRODUCT_H_

#include <cstdint>
#include <memory>

#include "core/framework/op_kernel.h"  // Eigen::ThreadPoolDevice
#include "core/framework/tensor.h"
#include "core/kernels/onednn_conv.h"
#include "core/util/mutex.h"

namespace sg {

// Owned by one kernel whose b is constant: b is packed on the first run and again whenever its
// address, shape or orientation changes. Kernels that multiply by the same tensor (an unrolled
// RNN's steps share one weight matrix) share one packed copy when they pass it as `b_tensor`:
// the LSTM's 28 steps with a copy each (320 KB, 9 MB in all) ran in 1062-1755 us (medians of
// `sg run`, batch 8, 1 thread, 4 processes), with one shared copy in 864-880. Thread-safe: runs
// may be concurrent.
class PanelProduct {
 public:
  // Rows up to which Run is faster than a BLAS product (see above).
  static constexpr int64_t kMaxRows = 32;

  PanelProduct();
  ~PanelProduct();
  PanelProduct(const PanelProduct&) = delete;
  PanelProduct& operator=(const PanelProduct&) = delete;

  // For r < rows (1 to kMaxRows) and j < n: y[r][j] = epilogue(sum over i < k of x[r][i] *
  // b(i, j)), where b is [k, n] row-major, or [n, k] when b_transposed (b(i, j) = b[j * k + i]).
  // Rows x[r] hold k floats and y[r] n floats; y rows must not overlap x or b. `epilogue` (null
  // for none) is OneDnnConv's, its vectors n long; with epilogue->sum, y holds the addend on
  // entry. With `split`, the columns' panels are shared among device.numThreads() threads (the
  // calling thread's OpenMP team, or the device's pool without OpenMP), unless another kernel
  // call already splits its work; otherwise all run on the calling thread. `b_tensor`, when not
  // null, is the tensor whose data b is (an immutable one: a Const's): its packed copy is then
  // shared with every PanelProduct given the same tensor, and holds a reference to it while any
  // uses it. Returns false, touching nothing, when the packed b cannot be allocated.
  bool Run(const Eigen::ThreadPoolDevice& device, bool split, const float* const* x,
           int64_t rows, const float* b, int64_t k, int64_t n, bool b_transposed,
           float* const* y, const OneDnnConv::Epilogue* epilogue,
           const Tensor* b_tensor = nullptr);

  struct Packed;

 private:
  mutex mu_;
  std::shared_ptr<const Packed> packed_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sg

#endif  // SG_CORE_KERNELS_PANEL_PRODUCT_H_
