// CTCGreedyDecoder and CTCBeamSearchDecoder, as TensorFlow's CPU kernels. inputs is
// [max_time, batch, num_classes] logits; entry b decodes its first sequence_length[b] steps (a
// negative length decodes none; one past max_time, or a batch mismatch, is FAILED_PRECONDITION;
// empty inputs INVALID_ARGUMENT).
//
// Greedy: at each step the class with the largest logit (the first on a tie) is taken; it is
// emitted unless it is the blank (blank_index, -1 meaning num_classes - 1) or, with
// merge_repeated, the class of the step before. log_probability[b] accumulates minus each step's
// largest logit, in T.
//
// Beam search (blank: the last class): TensorFlow's prefix beam search with its default scorer,
// computed in T. Each prefix keeps the log-probabilities of ending in a blank and in its last
// label; a step extends the beam's prefixes by each non-blank label and keeps the beam_width most
// probable. The beam is held in a bounded heap that behaves as TensorFlow's gtl::TopN (the same
// insertions, swaps and sorts), so that ties between prefixes resolve as TensorFlow's do.
// merge_repeated drops a label equal to the one before it from the output sequences.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/cwise_ops_common.h"

namespace sg {
namespace {

// The checks both decoders make, TensorFlow's codes and messages.
absl::Status ValidateCtcInputs(const OpKernel& k, const Tensor& inputs, const Tensor& lengths) {
  if (inputs.dims() != 3) return KernelError(k, "inputs is not a 3-Tensor");
  if (lengths.dims() != 1) return KernelError(k, "sequence_length is not a vector");
  if (inputs.NumElements() == 0) return KernelError(k, "inputs must not be empty");
  const int64_t max_time = inputs.dim_size(0), batch = inputs.dim_size(1);
  if (lengths.dim_size(0) != batch) {
    return errors::FailedPrecondition(k.type_string(), " (node '", k.name(),
                                      "'): len(sequence_length) != batch_size.  "
                                      "len(sequence_length): ",
                                      lengths.dim_size(0), " batch_size: ", batch);
  }
  const int32_t* len = lengths.data<int32_t>();
  for (int64_t b = 0; b < batch; ++b) {
    if (len[b] > max_time) {
      return errors::FailedPrecondition(k.type_string(), " (node '", k.name(),
                                        "'): sequence_length(", b, ") <= ", max_time);
    }
  }
  return absl::OkStatus();
}

// Writes decoded sequences as the sparse tensor at outputs (indices, values, shape).
absl::Status WriteSequences(OpKernelContext* ctx, int indices_out, int values_out, int shape_out,
                            const std::vector<std::vector<int64_t>>& decoded) {
  const int64_t batch = static_cast<int64_t>(decoded.size());
  int64_t total = 0, longest = 0;
  for (const auto& d : decoded) {
    total += static_cast<int64_t>(d.size());
    longest = std::max<int64_t>(longest, static_cast<int64_t>(d.size()));
  }
  Tensor *indices, *values, *shape;
  SG_RETURN_IF_ERROR(ctx->allocate_output(indices_out, TensorShape({total, 2}), &indices));
  SG_RETURN_IF_ERROR(ctx->allocate_output(values_out, TensorShape({total}), &values));
  SG_RETURN_IF_ERROR(ctx->allocate_output(shape_out, TensorShape({2}), &shape));
  int64_t* ix = indices->data<int64_t>();
  int64_t* v = values->data<int64_t>();
  int64_t k = 0;
  for (int64_t b = 0; b < batch; ++b) {
    for (size_t j = 0; j < decoded[b].size(); ++j, ++k) {
      ix[2 * k] = b;
      ix[2 * k + 1] = static_cast<int64_t>(j);
      v[k] = decoded[b][j];
    }
  }
  shape->data<int64_t>()[0] = batch;
  shape->data<int64_t>()[1] = longest;
  return absl::OkStatus();
}

class CTCGreedyDecoderOp final : public OpKernel {
 public:
  explicit CTCGreedyDecoderOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("merge_repeated", &merge_repeated_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("blank_index", &blank_index_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& inputs = ctx->input(0);
    const Tensor& lengths = ctx->input(1);
    OP_REQUIRES_OK(ctx, ValidateCtcInputs(*this, inputs, lengths));
    const int64_t batch = inputs.dim_size(1), classes = inputs.dim_size(2);
    OP_REQUIRES(ctx, classes > 0, KernelError(*this, "num_classes cannot be 0."));
    const int64_t blank = blank_index_ < 0 ? blank_index_ + classes : blank_index_;
    OP_REQUIRES(ctx, blank >= 0 && blank < classes,
                KernelError(*this, "blank_index expected to be between ", -classes, " and ",
                            classes - 1, " but was ", blank_index_));
    const int32_t* len = lengths.data<int32_t>();
    std::vector<std::vector<int64_t>> decoded(batch);
    Tensor* log_prob;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3, TensorShape({batch, 1}), &log_prob));
    const bool ok = DispatchTypes(TypeList<float, double>(), inputs.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* x = inputs.data<T>();
      T* lp = log_prob->data<T>();
      for (int64_t b = 0; b < batch; ++b) {
        T sum = 0;
        int64_t prev = -1;
        for (int64_t t = 0; t < len[b]; ++t) {
          const T* row = x + (t * batch + b) * classes;
          int64_t best = 0;
          for (int64_t c = 1; c < classes; ++c) {
            if (row[c] > row[best]) best = c;
          }
          sum += -row[best];
          if (best != blank && !(merge_repeated_ && best == prev)) decoded[b].push_back(best);
          prev = best;
        }
        lp[b] = sum;
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, inputs.dtype()));
    OP_REQUIRES_OK(ctx, WriteSequences(ctx, 0, 1, 2, decoded));
  }

 private:
  bool merge_repeated_;
  int64_t blank_index_;
};
REGISTER_KERNEL_BUILDER(Name("CTCGreedyDecoder").Device(DEVICE_CPU), CTCGreedyDecoderOp);

// ---- CTCBeamSearchDecoder -------------------------------------------------------------------

// The `limit` best elements under `better` (a strict order, best first), kept as TensorFlow's
// gtl::TopN keeps them: unordered (the worst swapped to the front once asked for) until one more
// than the limit arrives, then a heap with a spare slot at the back.
template <typename E, typename Better>
class BoundedTop {
 public:
  BoundedTop(size_t limit, Better better) : limit_(limit), better_(better) {}

  size_t size() const { return heap_ ? items_.size() - 1 : items_.size(); }
  void Reset() {
    items_.clear();
    heap_ = false;
    bottom_known_ = false;
  }
  // The elements in their current order (size() of them).
  const E* begin() const { return items_.data(); }
  const E* end() const { return items_.data() + size(); }

  void Push(E e) {
    if (!heap_) {
      items_.push_back(e);
      if (bottom_known_ && !better_(items_.back(), items_.front())) {
        std::swap(items_.front(), items_.back());
      }
      if (items_.size() == limit_ + 1) {
        std::make_heap(items_.begin(), items_.end(), better_);
        std::pop_heap(items_.begin(), items_.end(), better_);
        heap_ = true;
      }
    } else if (better_(e, items_.front())) {
      items_.back() = e;
      std::push_heap(items_.begin(), items_.end(), better_);
      std::pop_heap(items_.begin(), items_.end(), better_);
    }
  }

  // The worst element (the one the next better Push would drop). Non-empty only.
  E Bottom() {
    if (!heap_ && !bottom_known_) {
      size_t worst = 0;
      for (size_t i = 1; i < items_.size(); ++i) {
        if (better_(items_[worst], items_[i])) worst = i;
      }
      std::swap(items_[0], items_[worst]);
      bottom_known_ = true;
    }
    return items_.front();
  }

  // All elements, best first; leaves this empty.
  std::vector<E> Extract() {
    std::vector<E> out;
    out.swap(items_);
    if (!heap_) {
      std::sort(out.begin(), out.end(), better_);
    } else {
      out.pop_back();
      std::sort_heap(out.begin(), out.end(), better_);
    }
    Reset();
    return out;
  }

 private:
  size_t limit_;
  Better better_;
  std::vector<E> items_;
  bool heap_ = false, bottom_known_ = false;
};

template <typename T>
constexpr T kLogZero = -std::numeric_limits<T>::infinity();

// log(exp(a) + exp(b)); the correction term in float whatever T is, as TensorFlow's CTC code
// computes it (log1pf(expf(...))), so double results carry float rounding there too.
template <typename T>
T LogSumExp(T a, T b) {
  if (a == kLogZero<T>) return b;
  if (b == kLogZero<T>) return a;
  const float d = static_cast<float>(a > b ? b - a : a - b);
  return (a > b ? a : b) + static_cast<T>(std::log1p(std::exp(d)));
}

// Log-probabilities of a prefix: in all, ending in a blank, ending in its last label.
template <typename T>
struct PrefixProb {
  T total = kLogZero<T>, blank = kLogZero<T>, label = kLogZero<T>;
  void Reset() { total = blank = label = kLogZero<T>; }
};

// A node of the prefix trie: the prefix of its parent's plus `label`.
template <typename T>
struct Prefix {
  Prefix(Prefix* p, int64_t l) : parent(p), label(l) {}
  Prefix* parent;
  int64_t label;
  std::vector<Prefix> children;  // one per non-blank label once grown; never resized again
  PrefixProb<T> newp, oldp;
  bool Active() const { return newp.total != kLogZero<T>; }

  std::vector<int64_t> Labels(bool merge_repeated) const {
    std::vector<int64_t> labels;
    int64_t prev = -1;
    for (const Prefix* c = this; c->parent != nullptr; c = c->parent) {
      if (!merge_repeated || c->label != prev) labels.push_back(c->label);
      prev = c->label;
    }
    std::reverse(labels.begin(), labels.end());
    return labels;
  }
};

template <typename T>
struct MoreProbable {
  bool operator()(const Prefix<T>* a, const Prefix<T>* b) const {
    return a->newp.total > b->newp.total;
  }
};

template <typename T>
class BeamSearch {
 public:
  BeamSearch(int64_t classes, size_t width)
      : classes_(classes), blank_(classes - 1), width_(width), leaves_(width, MoreProbable<T>()) {
    root_ = std::make_unique<Prefix<T>>(nullptr, -1);
    root_->newp.total = T(0);
    root_->newp.blank = T(0);
    leaves_.Push(root_.get());
  }

  void Step(const T* x) {
    T max = x[0];
    for (int64_t j = 1; j < classes_; ++j) max = std::max(max, x[j]);
    T sum = T(0);
    for (int64_t j = 0; j < classes_; ++j) sum += std::exp(x[j] - max);
    const T norm = max + std::log(sum);

    std::vector<Prefix<T>*> branches = leaves_.Extract();
    for (Prefix<T>* b : branches) b->oldp = b->newp;
    for (Prefix<T>* b : branches) {
      if (b->parent != nullptr) {
        if (b->parent->Active()) {
          const T previous =
              b->label == b->parent->label ? b->parent->oldp.blank : b->parent->oldp.total;
          b->newp.label = LogSumExp(b->newp.label, previous);
        }
        b->newp.label += x[b->label] - norm;
      }
      b->newp.blank = b->oldp.total + x[blank_] - norm;
      b->newp.total = LogSumExp(b->newp.blank, b->newp.label);
      leaves_.Push(b);
    }
    auto candidate = [&](const PrefixProb<T>& p) {
      return p.total > kLogZero<T> &&
             (leaves_.size() < width_ || p.total > leaves_.Bottom()->newp.total);
    };
    for (Prefix<T>* b : branches) {
      if (!candidate(b->oldp)) continue;
      if (b->children.empty()) {
        b->children.reserve(blank_);
        for (int64_t l = 0; l < blank_; ++l) b->children.emplace_back(b, l);
      }
      for (Prefix<T>& c : b->children) {
        if (c.Active()) continue;
        c.newp.blank = kLogZero<T>;
        const T previous = c.label == b->label ? b->oldp.blank : b->oldp.total;
        c.newp.label = x[c.label] - norm + previous;
        c.newp.total = c.newp.label;
        if (candidate(c.newp)) {
          if (leaves_.size() == width_) leaves_.Bottom()->newp.Reset();
          leaves_.Push(&c);
        } else {
          c.oldp.Reset();
          c.newp.Reset();
        }
      }
    }
  }

  size_t Leaves() const { return leaves_.size(); }

  // The n most probable prefixes, best first (n <= Leaves()).
  std::vector<const Prefix<T>*> Top(size_t n) const {
    BoundedTop<Prefix<T>*, MoreProbable<T>> top(n, MoreProbable<T>());
    for (Prefix<T>* const* it = leaves_.begin(); it != leaves_.end(); ++it) top.Push(*it);
    std::vector<Prefix<T>*> best = top.Extract();
    return std::vector<const Prefix<T>*>(best.begin(), best.begin() + n);
  }

 private:
  int64_t classes_, blank_;
  size_t width_;
  std::unique_ptr<Prefix<T>> root_;
  BoundedTop<Prefix<T>*, MoreProbable<T>> leaves_;
};

class CTCBeamSearchDecoderOp final : public OpKernel {
 public:
  explicit CTCBeamSearchDecoderOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("merge_repeated", &merge_repeated_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("beam_width", &beam_width_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("top_paths", &top_paths_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& inputs = ctx->input(0);
    const Tensor& lengths = ctx->input(1);
    OP_REQUIRES_OK(ctx, ValidateCtcInputs(*this, inputs, lengths));
    OP_REQUIRES(ctx, top_paths_ <= beam_width_,
                KernelError(*this, "requested more paths than the beam width."));
    const int64_t max_time = inputs.dim_size(0), batch = inputs.dim_size(1),
                  classes = inputs.dim_size(2);
    const int paths = static_cast<int>(top_paths_);
    const int32_t* len = lengths.data<int32_t>();
    std::vector<std::vector<std::vector<int64_t>>> decoded(
        paths, std::vector<std::vector<int64_t>>(batch));
    Tensor* log_prob;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3 * paths, TensorShape({batch, paths}), &log_prob));
    absl::Status status;
    const bool ok = DispatchTypes(TypeList<float, double>(), inputs.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* x = inputs.data<T>();
      T* lp = log_prob->data<T>();
      for (int64_t b = 0; b < batch && status.ok(); ++b) {
        BeamSearch<T> search(classes, static_cast<size_t>(beam_width_));
        for (int64_t t = 0; t < len[b] && t < max_time; ++t) {
          search.Step(x + (t * batch + b) * classes);
        }
        if (static_cast<size_t>(paths) > search.Leaves()) {
          status = KernelError(*this, "Less leaves in the beam search than requested.");
          return;
        }
        std::vector<const Prefix<T>*> top = search.Top(paths);
        for (int p = 0; p < paths; ++p) {
          decoded[p][b] = top[p]->Labels(merge_repeated_);
          lp[b * paths + p] = top[p]->newp.total;
        }
      }
    });
    OP_REQUIRES(ctx, ok, UnsupportedType(*this, inputs.dtype()));
    OP_REQUIRES_OK(ctx, status);
    for (int p = 0; p < paths; ++p) {
      OP_REQUIRES_OK(ctx, WriteSequences(ctx, p, paths + p, 2 * paths + p, decoded[p]));
    }
  }

 private:
  bool merge_repeated_;
  int64_t beam_width_, top_paths_;
};
REGISTER_KERNEL_BUILDER(Name("CTCBeamSearchDecoder").Device(DEVICE_CPU), CTCBeamSearchDecoderOp);

}  // namespace
}  // namespace sg
