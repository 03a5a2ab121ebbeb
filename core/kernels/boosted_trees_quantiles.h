// Weighted quantile summaries and streams for the BoostedTrees quantile ops, with the semantics of
// TensorFlow's boosted_trees/quantiles (weighted_quantiles_buffer.h, weighted_quantiles_summary.h,
// weighted_quantiles_stream.h): the same float arithmetic in the same order, so summaries, ranks
// and boundaries come out bit for bit as TensorFlow's. Boundaries are also pruned to
// num_boundaries as TensorFlow 2.8.4's kernel does (Prune; tests/oracle/README.md).
//
//   QuantileStream s(/*eps=*/0.01, /*max_elements=*/n + 1);
//   for (...) s.PushEntry(value, weight);   // weights <= 0 are ignored
//   s.Finalize();
//   std::vector<float> b = s.GenerateBoundaries(num_buckets);
//
// A stream keeps a buffer of raw entries; a full buffer becomes a summary (entries of value,
// weight, min rank, max rank) compressed to the stream's block size and merged up a chain of
// levels. Finalize merges the levels into one summary; boundaries and quantiles are read from it.
//
// Differences from TensorFlow, where TensorFlow's behaviour is undefined or a crash:
//   * values compare by a total order that puts NaN after every number (TensorFlow sorts with
//     std::less, which is no strict weak order with NaN); for data without NaN it is std::less;
//   * nothing is reserved up front (TensorFlow reserves the block size, which for a tiny eps is
//     more memory than exists), and GetQuantileSpecs cannot overflow;
//   * the preconditions TensorFlow QCHECKs (eps in (0, 1), max_elements > 0, one Finalize) are
//     the callers' to check: the kernels return errors before breaking them.
// Not thread-safe: the kernels hold the resource's mutex.
#ifndef SG_CORE_KERNELS_BOOSTED_TREES_QUANTILES_H_
#define SG_CORE_KERNELS_BOOSTED_TREES_QUANTILES_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace sg {
namespace boosted_trees {

// a < b, with NaN after every number (and NaNs equivalent to each other).
inline bool QuantileLess(float a, float b) {
  if (std::isnan(a)) return false;
  return std::isnan(b) || a < b;
}

struct QuantileBufferEntry {
  float value;
  float weight;
};

// Raw weighted entries, sorted and compacted (equal values' weights summed) on the way out.
class QuantileBuffer {
 public:
  // Holds at most min(2 * block_size, max_elements) entries (both > 0).
  QuantileBuffer(int64_t block_size, int64_t max_elements)
      : max_size_(block_size > max_elements / 2 ? max_elements : 2 * block_size) {}

  // Adds an entry unless its weight is <= 0. The caller flushes a full buffer before the next.
  void PushEntry(float value, float weight) {
    if (weight <= 0) return;
    entries_.push_back({value, weight});
  }

  // The entries sorted by value, equal values merged (weights summed in sorted order); empties
  // the buffer.
  std::vector<QuantileBufferEntry> GenerateEntryList() {
    std::vector<QuantileBufferEntry> ret;
    if (entries_.empty()) return ret;
    ret.swap(entries_);
    std::sort(ret.begin(), ret.end(), [](const QuantileBufferEntry& a,
                                         const QuantileBufferEntry& b) {
      return QuantileLess(a.value, b.value);
    });
    size_t last = 0;
    for (size_t i = 1; i < ret.size(); ++i) {
      if (ret[i].value != ret[last].value) {
        ret[++last] = ret[i];
      } else {
        ret[last].weight += ret[i].weight;
      }
    }
    ret.resize(last + 1);
    return ret;
  }

  int64_t Size() const { return static_cast<int64_t>(entries_.size()); }
  bool IsFull() const { return static_cast<int64_t>(entries_.size()) >= max_size_; }
  void Clear() { entries_.clear(); }

 private:
  int64_t max_size_;
  std::vector<QuantileBufferEntry> entries_;
};

// One summary row, as the ops' [n, 4] tensors hold it.
struct QuantileSummaryEntry {
  float value = 0;
  float weight = 0;
  float min_rank = 0;
  float max_rank = 0;
  // Max rank estimate of the previous smaller value; min rank estimate of the next larger one.
  float PrevMaxRank() const { return max_rank - weight; }
  float NextMinRank() const { return min_rank + weight; }
};

// A sorted block of summary entries with a bounded rank error.
class QuantileSummary {
 public:
  void BuildFromBufferEntries(const std::vector<QuantileBufferEntry>& buffer) {
    entries_.clear();
    float cumulative = 0;
    for (const auto& e : buffer) {
      entries_.push_back({e.value, e.weight, cumulative, cumulative + e.weight});
      cumulative += e.weight;
    }
  }

  void BuildFromSummaryEntries(std::vector<QuantileSummaryEntry> entries) {
    entries_ = std::move(entries);
  }

  // Merges `other` in (a merge sort of the two, equal values combined), keeping each entry's
  // rank bounds: the error of the result is at most the larger of the two errors.
  void Merge(const QuantileSummary& other) {
    const auto& b = other.entries_;
    if (b.empty()) return;
    if (entries_.empty()) {
      entries_ = b;
      return;
    }
    std::vector<QuantileSummaryEntry> a;
    a.swap(entries_);
    entries_.reserve(a.size() + b.size());
    size_t i = 0, j = 0;
    float next_min_a = 0, next_min_b = 0;
    while (i < a.size() && j < b.size()) {
      if (QuantileLess(a[i].value, b[j].value)) {
        entries_.push_back({a[i].value, a[i].weight, a[i].min_rank + next_min_b,
                            a[i].max_rank + b[j].PrevMaxRank()});
        next_min_a = a[i].NextMinRank();
        ++i;
      } else if (QuantileLess(b[j].value, a[i].value)) {
        entries_.push_back({b[j].value, b[j].weight, b[j].min_rank + next_min_a,
                            b[j].max_rank + a[i].PrevMaxRank()});
        next_min_b = b[j].NextMinRank();
        ++j;
      } else {
        entries_.push_back({a[i].value, a[i].weight + b[j].weight, a[i].min_rank + b[j].min_rank,
                            a[i].max_rank + b[j].max_rank});
        next_min_a = a[i].NextMinRank();
        next_min_b = b[j].NextMinRank();
        ++i;
        ++j;
      }
    }
    for (; i < a.size(); ++i) {
      entries_.push_back({a[i].value, a[i].weight, a[i].min_rank + next_min_b,
                          a[i].max_rank + b.back().max_rank});
    }
    for (; j < b.size(); ++j) {
      entries_.push_back({b[j].value, b[j].weight, b[j].min_rank + next_min_a,
                          b[j].max_rank + a.back().max_rank});
    }
  }

  // Compresses to about `size_hint` entries (at least 2; the first and last always stay), adding
  // at most TotalWeight() * max(1 / size_hint, min_eps) to the rank error.
  void Compress(int64_t size_hint, double min_eps = 0) {
    size_hint = std::max<int64_t>(size_hint, 2);
    if (static_cast<int64_t>(entries_.size()) <= size_hint) return;
    const double eps_delta = TotalWeight() * std::max(1.0 / size_hint, min_eps);
    const int64_t add_step = static_cast<int64_t>(entries_.size());
    int64_t add_accumulator = 0;
    size_t write = 1, last = 1;
    for (size_t read = 0; read + 1 != entries_.size();) {
      size_t next = read + 1;
      while (next != entries_.size() && add_accumulator < add_step &&
             entries_[next].PrevMaxRank() - entries_[read].NextMinRank() <= eps_delta) {
        add_accumulator += size_hint;
        ++next;
      }
      read = read == next - 1 ? read + 1 : next - 1;
      entries_[write++] = entries_[read];
      last = read;
      add_accumulator -= add_step;
    }
    if (last + 1 != entries_.size()) entries_[write++] = entries_.back();
    entries_.resize(write);
  }

  // Boundaries: the values of a copy compressed to `num_boundaries` entries with an error of at
  // most ApproximationError() + 1 / num_boundaries (TensorFlow rounds that sum to float), then
  // pruned to at most num_boundaries entries (at least 2; none pruned when num_boundaries < 0).
  std::vector<float> GenerateBoundaries(int64_t num_boundaries) const {
    std::vector<float> out;
    if (entries_.empty()) return out;
    QuantileSummary compressed;
    compressed.entries_ = entries_;
    const float compression_eps =
        static_cast<float>(ApproximationError() + (1.0 / static_cast<double>(num_boundaries)));
    compressed.Compress(num_boundaries, compression_eps);
    if (num_boundaries >= 0) compressed.Prune(std::max<int64_t>(num_boundaries, 2));
    out.reserve(compressed.entries_.size());
    for (const auto& e : compressed.entries_) out.push_back(e.value);
    return out;
  }

  // Drops interior entries until at most `max_size` (>= 2) remain: each time the one whose
  // removal leaves the smallest rank gap, next.PrevMaxRank() - prev.NextMinRank() in float (the
  // first on a tie). This is what TensorFlow 2.8.4's boundary flush does after its compression
  // (found by matching its results on 762 random flushes; the sources we have show only the
  // compression). A heap keeps it O(n log n).
  void Prune(int64_t max_size) {
    const size_t n = entries_.size();
    if (static_cast<int64_t>(n) <= max_size) return;
    std::vector<size_t> prev(n), next(n);
    std::vector<uint32_t> version(n, 0);
    for (size_t i = 0; i < n; ++i) {
      prev[i] = i - 1;  // wraps for 0; never read for the first entry
      next[i] = i + 1;
    }
    struct Item {
      float gap;
      size_t index;
      uint32_t version;
      bool operator>(const Item& o) const {
        return gap > o.gap || (gap == o.gap && index > o.index);
      }
    };
    auto gap = [&](size_t i) {  // NaN (from NaN or infinite weights) orders last
      const float g = entries_[next[i]].PrevMaxRank() - entries_[prev[i]].NextMinRank();
      return std::isnan(g) ? std::numeric_limits<float>::infinity() : g;
    };
    std::vector<Item> heap;
    for (size_t i = 1; i + 1 < n; ++i) heap.push_back({gap(i), i, 0});
    std::make_heap(heap.begin(), heap.end(), std::greater<Item>());
    std::vector<bool> alive(n, true);
    for (int64_t size = static_cast<int64_t>(n); size > max_size && !heap.empty();) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<Item>());
      const Item top = heap.back();
      heap.pop_back();
      if (!alive[top.index] || top.version != version[top.index]) continue;  // stale
      alive[top.index] = false;
      --size;
      const size_t p = prev[top.index], q = next[top.index];
      next[p] = q;
      prev[q] = p;
      for (size_t j : {p, q}) {
        if (j == 0 || j == n - 1) continue;  // the first and last entries stay
        heap.push_back({gap(j), j, ++version[j]});
        std::push_heap(heap.begin(), heap.end(), std::greater<Item>());
      }
    }
    size_t w = 0;
    for (size_t i = 0; i < n; ++i) {
      if (alive[i]) entries_[w++] = entries_[i];
    }
    entries_.resize(w);
  }

  // max(num_quantiles, 2) + 1 values: the minimum, the q-th quantiles for q = 1..n-1 of n, and
  // the maximum (none for an empty summary).
  std::vector<float> GenerateQuantiles(int64_t num_quantiles) const {
    std::vector<float> out;
    if (entries_.empty()) return out;
    num_quantiles = std::max<int64_t>(num_quantiles, 2);
    const float total = entries_.back().max_rank;
    size_t cur = 0;
    for (int64_t rank = 0; rank <= num_quantiles; ++rank) {
      // As TensorFlow: 2 * (rank * total / n), in float, rank and n converted to float.
      const float d_2 = 2 * (static_cast<float>(static_cast<uint64_t>(rank)) * total /
                             static_cast<float>(num_quantiles));
      size_t next = cur + 1;
      while (next < entries_.size() && d_2 >= entries_[next].min_rank + entries_[next].max_rank) {
        ++next;
      }
      cur = next - 1;
      if (next == entries_.size() ||
          d_2 < entries_[cur].NextMinRank() + entries_[next].PrevMaxRank()) {
        out.push_back(entries_[cur].value);
      } else {
        out.push_back(entries_[next].value);
      }
    }
    return out;
  }

  // The largest rank gap relative to the total weight.
  double ApproximationError() const {
    if (entries_.empty()) return 0;
    float max_gap = 0;
    for (size_t i = 1; i < entries_.size(); ++i) {
      const auto& e = entries_[i];
      max_gap = std::max(max_gap, std::max(e.max_rank - e.min_rank - e.weight,
                                           e.PrevMaxRank() - entries_[i - 1].NextMinRank()));
    }
    return static_cast<double>(max_gap) / TotalWeight();
  }

  float TotalWeight() const { return entries_.empty() ? 0 : entries_.back().max_rank; }
  int64_t Size() const { return static_cast<int64_t>(entries_.size()); }
  void Clear() { entries_.clear(); }
  const std::vector<QuantileSummaryEntry>& entries() const { return entries_; }

 private:
  std::vector<QuantileSummaryEntry> entries_;
};

// Approximate weighted quantiles over a stream, with a rank error of at most eps * total weight
// (TensorFlow's WeightedQuantilesStream<float, float>).
class QuantileStream {
 public:
  // Preconditions: 0 < eps < 1 (not NaN), max_elements > 0.
  QuantileStream(double eps, int64_t max_elements)
      : eps_(eps),
        block_size_(QuantileSpecs(eps, max_elements).second),
        buffer_(block_size_, max_elements) {}

  // Adds one entry (ignored when weight <= 0); a full buffer becomes a summary. Precondition: not
  // finalized.
  void PushEntry(float value, float weight) {
    buffer_.PushEntry(value, weight);
    if (buffer_.IsFull()) PushBuffer();
  }

  // Adds a summary (entries as the ops' rows), compressed to the block size. Precondition: not
  // finalized.
  void PushSummary(std::vector<QuantileSummaryEntry> summary) {
    local_.BuildFromSummaryEntries(std::move(summary));
    local_.Compress(block_size_, eps_);
    PropagateLocalSummary();
  }

  // Flushes the buffer and merges every level into the final summary. Precondition: not
  // finalized.
  void Finalize() {
    PushBuffer();
    local_.Clear();
    for (auto& level : levels_) local_.Merge(level);
    levels_.clear();
    finalized_ = true;
  }

  bool IsFinalized() const { return finalized_; }
  // Preconditions for the three below: finalized.
  const QuantileSummary& FinalSummary() const { return local_; }
  std::vector<float> GenerateBoundaries(int64_t n) const { return local_.GenerateBoundaries(n); }
  std::vector<float> GenerateQuantiles(int64_t n) const { return local_.GenerateQuantiles(n); }

  // TensorFlow's GetQuantileSpecs: {number of levels, block size} for eps and max_elements.
  // Exact (one level holding max_elements) when eps is at most double's epsilon.
  static std::pair<int64_t, int64_t> QuantileSpecs(double eps, int64_t max_elements) {
    int64_t max_level = 1, block_size = 2;
    if (eps <= std::numeric_limits<double>::epsilon()) {
      block_size = std::max<int64_t>(max_elements, 2);
    } else {
      // The smallest level with 2^level * block_size >= max_elements, the block size growing
      // as ceil(level / eps) + 1 (in 128 bits: TensorFlow's int64 product could overflow).
      while ((static_cast<unsigned __int128>(1) << max_level) *
                 static_cast<unsigned __int128>(block_size) <
             static_cast<unsigned __int128>(max_elements)) {
        block_size = static_cast<int64_t>(std::ceil(max_level / eps)) + 1;
        ++max_level;
      }
    }
    return {max_level, std::max<int64_t>(block_size, 2)};
  }

 private:
  void PushBuffer() {
    local_.BuildFromBufferEntries(buffer_.GenerateEntryList());
    local_.Compress(block_size_, eps_);
    PropagateLocalSummary();
  }

  // Merges the local summary up the levels until a level is empty or the merge fits a block.
  void PropagateLocalSummary() {
    if (local_.Size() <= 0) return;
    for (size_t level = 0;; ++level) {
      if (levels_.size() <= level) levels_.emplace_back();
      QuantileSummary& current = levels_[level];
      local_.Merge(current);
      if (current.Size() == 0 || local_.Size() <= block_size_ + 1) {
        current = std::move(local_);
        local_ = QuantileSummary();
        return;
      }
      local_.Compress(block_size_, eps_);
      current.Clear();
    }
  }

  double eps_;
  int64_t block_size_;
  QuantileBuffer buffer_;
  QuantileSummary local_;  // after Finalize: the final summary
  std::vector<QuantileSummary> levels_;
  bool finalized_ = false;
};

}  // namespace boosted_trees
}  // namespace sg

#endif  // SG_CORE_KERNELS_BOOSTED_TREES_QUANTILES_H_
