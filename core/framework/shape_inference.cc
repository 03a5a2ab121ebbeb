#include "core/framework/shape_inference.h"

#include <set>

namespace sg {

InferenceContext::InferenceContext(const NodeDef* node, std::vector<PartialTensorShape> inputs,
                                   std::vector<const Tensor*> input_tensors,
                                   std::vector<DataType> input_types,
                                   std::vector<DataType> output_types)
    : node_(node),
      inputs_(std::move(inputs)),
      input_tensors_(std::move(input_tensors)),
      input_types_(std::move(input_types)),
      output_types_(std::move(output_types)),
      outputs_(output_types_.size()) {
  input_tensors_.resize(inputs_.size(), nullptr);
}

absl::Status InferenceContext::WithRank(int i, int rank, PartialTensorShape* out) const {
  const PartialTensorShape& s = inputs_[i];
  if (s.unknown_rank()) {
    *out = PartialTensorShape(std::vector<int64_t>(rank, -1));
    return absl::OkStatus();
  }
  if (s.dims() != rank) {
    return Error("input ", i, " must have rank ", rank, " but has shape ", s.DebugString());
  }
  *out = s;
  return absl::OkStatus();
}

absl::Status InferenceContext::WithRankAtLeast(int i, int rank, PartialTensorShape* out) const {
  const PartialTensorShape& s = inputs_[i];
  if (!s.unknown_rank() && s.dims() < rank) {
    return Error("input ", i, " must have rank at least ", rank, " but has shape ",
                 s.DebugString());
  }
  *out = s;
  return absl::OkStatus();
}

PartialTensorShape InferenceContext::InputAsShape(int i) const {
  const Tensor* t = input_tensors_[i];
  if (t == nullptr || t->dims() > 1) {
    // A known rank-1 input of known length still tells the rank.
    const PartialTensorShape& s = inputs_[i];
    if (!s.unknown_rank() && s.dims() == 1 && s.dim_size(0) >= 0) {
      return PartialTensorShape(std::vector<int64_t>(s.dim_size(0), -1));
    }
    return PartialTensorShape();
  }
  std::vector<int64_t> dims;
  for (int64_t k = 0; k < t->NumElements(); ++k) {
    switch (t->dtype()) {
      case DT_INT64: dims.push_back(t->data<int64_t>()[k]); break;
      case DT_INT16: dims.push_back(t->data<int16_t>()[k]); break;
      default: dims.push_back(t->data<int32_t>()[k]); break;
    }
  }
  return PartialTensorShape(dims);
}

namespace shape_fns {

absl::Status Unknown(InferenceContext* c) {
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, PartialTensorShape());
  return absl::OkStatus();
}

absl::Status Unchanged(InferenceContext* c) {
  c->set_output(0, c->input(0));
  return absl::OkStatus();
}

absl::Status Scalar(InferenceContext* c) {
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, PartialTensorShape::Scalar());
  return absl::OkStatus();
}

absl::StatusOr<PartialTensorShape> Broadcast(const PartialTensorShape& a,
                                             const PartialTensorShape& b) {
  if (a.unknown_rank() || b.unknown_rank()) return PartialTensorShape();
  int rank = std::max(a.dims(), b.dims());
  std::vector<int64_t> out(rank);
  for (int i = 0; i < rank; ++i) {
    int ia = i - (rank - a.dims()), ib = i - (rank - b.dims());
    int64_t da = ia >= 0 ? a.dim_size(ia) : 1;
    int64_t db = ib >= 0 ? b.dim_size(ib) : 1;
    if (da == 1) {
      out[i] = db;
    } else if (db == 1) {
      out[i] = da;
    } else if (da < 0 || db < 0) {
      out[i] = da < 0 ? db : da;
    } else if (da == db) {
      out[i] = da;
    } else {
      return errors::InvalidArgument("Incompatible shapes: ", a.DebugString(), " vs. ",
                                     b.DebugString());
    }
  }
  return PartialTensorShape(out);
}

absl::Status BroadcastBinary(InferenceContext* c) {
  auto s = Broadcast(c->input(0), c->input(1));
  if (!s.ok()) return c->Error(s.status().message());
  c->set_output(0, *s);
  return absl::OkStatus();
}

absl::Status MatMul(InferenceContext* c) {
  PartialTensorShape a, b;
  SG_RETURN_IF_ERROR(c->WithRank(0, 2, &a));
  SG_RETURN_IF_ERROR(c->WithRank(1, 2, &b));
  bool ta = false, tb = false;
  c->GetAttr("transpose_a", &ta).IgnoreError();
  c->GetAttr("transpose_b", &tb).IgnoreError();
  int64_t m = a.dim_size(ta ? 1 : 0), ka = a.dim_size(ta ? 0 : 1);
  int64_t kb = b.dim_size(tb ? 1 : 0), n = b.dim_size(tb ? 0 : 1);
  if (ka >= 0 && kb >= 0 && ka != kb) {
    return c->Error("Matrix size-incompatible: In[0]: ", a.DebugString(),
                    ", In[1]: ", b.DebugString());
  }
  c->set_output(0, PartialTensorShape({m, n}));
  return absl::OkStatus();
}

absl::Status Reduction(InferenceContext* c) {
  bool keep_dims = false;
  c->GetAttr("keep_dims", &keep_dims).IgnoreError();
  const PartialTensorShape& in = c->input(0);
  const Tensor* axes = c->input_tensor(1);
  if (in.unknown_rank() || axes == nullptr) {
    if (keep_dims && !in.unknown_rank()) {
      c->set_output(0, PartialTensorShape(std::vector<int64_t>(in.dims(), -1)));
    } else {
      c->set_output(0, PartialTensorShape());
    }
    return absl::OkStatus();
  }
  std::set<int64_t> reduce;
  for (int64_t k = 0; k < axes->NumElements(); ++k) {
    int64_t a = axes->dtype() == DT_INT64 ? axes->data<int64_t>()[k] : axes->data<int32_t>()[k];
    if (a < -in.dims() || a >= std::max(in.dims(), 1)) {
      return c->Error("reduction axis ", a, " is out of range for input of rank ", in.dims());
    }
    if (a < 0) a += in.dims();
    reduce.insert(a);
  }
  std::vector<int64_t> out;
  for (int d = 0; d < in.dims(); ++d) {
    if (reduce.count(d)) {
      if (keep_dims) out.push_back(1);
    } else {
      out.push_back(in.dim_size(d));
    }
  }
  c->set_output(0, PartialTensorShape(out));
  return absl::OkStatus();
}

}  // namespace shape_fns
}  // namespace sg
