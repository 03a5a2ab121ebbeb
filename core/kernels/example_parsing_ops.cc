// ParseExample, ParseExampleV2, ParseSingleExample, ParseSingleSequenceExample,
// ParseSequenceExample and ParseSequenceExampleV2: serialized tf.Example and tf.SequenceExample
// protos (core/proto/example.proto) into dense tensors (fixed shape, or variable length padded
// with the default), sparse (indices, values, dense_shape) triples and (ParseSequenceExampleV2)
// ragged values and splits. Ragged outputs of ParseExampleV2 are not supported.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/proto/example.pb.h"

namespace sg {
namespace {

struct DenseConfig {
  std::string key;
  DataType dtype;
  PartialTensorShape shape;  // per example; dim 0 may be -1 (variable length)
  Tensor default_value;      // empty: the feature is required
  bool variable_length = false;
  int64_t row_elements = 1;  // variable length: elements per step of dim 0; else all elements
};

struct SparseConfig {
  std::string key;
  DataType dtype;
};

// The values of one feature, viewed without copying.
struct FeatureValues {
  const google::protobuf::RepeatedField<float>* floats = nullptr;
  const google::protobuf::RepeatedField<int64_t>* ints = nullptr;
  const google::protobuf::RepeatedPtrField<std::string>* bytes = nullptr;
  int64_t size() const {
    return floats ? floats->size() : ints ? ints->size() : bytes ? bytes->size() : 0;
  }
};

const char* KindName(DataType dt) {
  return dt == DT_FLOAT ? "float_list" : dt == DT_INT64 ? "int64_list" : "bytes_list";
}

// Finds `key` in `ex`: false when absent. INVALID_ARGUMENT when its kind is not `dtype`'s.
absl::StatusOr<bool> GetFeature(const Example& ex, const std::string& key, DataType dtype,
                                const std::string& example_name, FeatureValues* out) {
  const auto& map = ex.features().feature();
  auto it = map.find(key);
  if (it == map.end()) return false;
  const Feature& f = it->second;
  switch (f.kind_case()) {
    case Feature::KIND_NOT_SET:
      return false;
    case Feature::kFloatList:
      out->floats = &f.float_list().value();
      if (dtype == DT_FLOAT) return true;
      break;
    case Feature::kInt64List:
      out->ints = &f.int64_list().value();
      if (dtype == DT_INT64) return true;
      break;
    case Feature::kBytesList:
      out->bytes = &f.bytes_list().value();
      if (dtype == DT_STRING) return true;
      break;
  }
  return errors::InvalidArgument("Name: ", example_name, ", Feature: ", key,
                                 ". Data types don't match. Expected type: ",
                                 DataTypeString(dtype), " (", KindName(dtype), ")");
}

// Copies `n` values starting at `from` into out[0, n).
void CopyValues(const FeatureValues& v, int64_t from, int64_t n, DataType dtype, void* out) {
  for (int64_t i = 0; i < n; ++i) {
    if (dtype == DT_FLOAT) {
      static_cast<float*>(out)[i] = v.floats->Get(from + i);
    } else if (dtype == DT_INT64) {
      static_cast<int64_t*>(out)[i] = v.ints->Get(from + i);
    } else {
      static_cast<tstring*>(out)[i] = v.bytes->Get(from + i);
    }
  }
}

// Fills out[0, n) with the default's elements (or its one element, repeated).
void CopyDefault(const Tensor& def, int64_t n, void* out) {
  const int64_t m = def.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = m == 1 ? 0 : i;
    switch (def.dtype()) {
      case DT_FLOAT: static_cast<float*>(out)[i] = m ? def.data<float>()[j] : 0.0f; break;
      case DT_INT64: static_cast<int64_t*>(out)[i] = m ? def.data<int64_t>()[j] : 0; break;
      default: static_cast<tstring*>(out)[i] = m ? def.data<tstring>()[j] : tstring(); break;
    }
  }
}

void* ElementPtr(Tensor* t, int64_t index) {
  return static_cast<char*>(t->raw_data()) +
         index * (t->dtype() == DT_STRING ? sizeof(tstring) : DataTypeSize(t->dtype()));
}

// What both ops share once their keys are known: parses the batch and writes the outputs.
// Output order: sparse indices, sparse values, sparse shapes, dense values.
class ExampleParser {
 public:
  ExampleParser(const OpKernel& kernel, std::vector<SparseConfig> sparse,
                std::vector<DenseConfig> dense)
      : kernel_(kernel), sparse_(std::move(sparse)), dense_(std::move(dense)) {}

  // `serialized` is a vector (batch) or, for ParseExampleV2, a scalar (one example, no batch dim).
  absl::Status Run(OpKernelContext* ctx, const Tensor& serialized, const Tensor& names) {
    const bool scalar = serialized.dims() == 0;
    const int64_t batch = serialized.NumElements();
    if (names.NumElements() != 0 && names.NumElements() != batch) {
      return Error(errors::InvalidArgument("names has ", names.NumElements(),
                                           " entries for a batch of ", batch));
    }
    std::vector<Example> examples(batch);
    std::vector<std::string> example_names(batch, "<unknown>");
    for (int64_t b = 0; b < batch; ++b) {
      if (names.NumElements() != 0) example_names[b] = names.data<tstring>()[b];
      if (!examples[b].ParseFromString(serialized.data<tstring>()[b])) {
        return Error(errors::InvalidArgument("Could not parse example input, value: '",
                                             serialized.data<tstring>()[b].substr(0, 64), "'"));
      }
    }
    const int ns = static_cast<int>(sparse_.size());
    for (int i = 0; i < ns; ++i) {
      SG_RETURN_IF_ERROR(ParseSparse(ctx, i, examples, example_names, scalar));
    }
    for (int i = 0; i < static_cast<int>(dense_.size()); ++i) {
      SG_RETURN_IF_ERROR(ParseDense(ctx, 3 * ns + i, dense_[i], examples, example_names, scalar));
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Error(absl::Status s) const {
    return absl::Status(s.code(), absl::StrCat("node '", kernel_.name(), "' (op ",
                                               kernel_.type_string(), "): ", s.message()));
  }

  absl::Status ParseSparse(OpKernelContext* ctx, int i, const std::vector<Example>& examples,
                           const std::vector<std::string>& example_names, bool scalar) {
    const SparseConfig& cfg = sparse_[i];
    const int64_t batch = static_cast<int64_t>(examples.size());
    std::vector<FeatureValues> values(batch);
    int64_t total = 0, max_len = 0;
    for (int64_t b = 0; b < batch; ++b) {
      auto found = GetFeature(examples[b], cfg.key, cfg.dtype, example_names[b], &values[b]);
      if (!found.ok()) return Error(found.status());
      if (!*found) values[b] = FeatureValues();
      total += values[b].size();
      max_len = std::max(max_len, values[b].size());
    }
    const int rank = scalar ? 1 : 2;
    const int ns = static_cast<int>(sparse_.size());
    Tensor *indices, *vals, *shape;
    SG_RETURN_IF_ERROR(ctx->allocate_output(i, TensorShape({total, rank}), &indices));
    SG_RETURN_IF_ERROR(ctx->allocate_output(ns + i, TensorShape({total}), &vals));
    SG_RETURN_IF_ERROR(ctx->allocate_output(2 * ns + i, TensorShape({rank}), &shape));
    int64_t* ind = indices->data<int64_t>();
    int64_t k = 0;
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t n = values[b].size();
      if (n > 0) CopyValues(values[b], 0, n, cfg.dtype, ElementPtr(vals, k));
      for (int64_t j = 0; j < n; ++j, ++k) {
        if (!scalar) *ind++ = b;
        *ind++ = j;
      }
    }
    int64_t* sh = shape->data<int64_t>();
    if (!scalar) *sh++ = batch;
    *sh = max_len;
    return absl::OkStatus();
  }

  absl::Status ParseDense(OpKernelContext* ctx, int out_index, const DenseConfig& cfg,
                          const std::vector<Example>& examples,
                          const std::vector<std::string>& example_names, bool scalar) {
    const int64_t batch = static_cast<int64_t>(examples.size());
    std::vector<FeatureValues> values(batch);
    std::vector<bool> present(batch, false);
    int64_t max_rows = 0;
    for (int64_t b = 0; b < batch; ++b) {
      auto found = GetFeature(examples[b], cfg.key, cfg.dtype, example_names[b], &values[b]);
      if (!found.ok()) return Error(found.status());
      present[b] = *found && values[b].size() > 0;
      const int64_t n = present[b] ? values[b].size() : 0;
      if (cfg.variable_length) {
        if (n % cfg.row_elements != 0) {
          return Error(errors::InvalidArgument(
              "Name: ", example_names[b], ", Key: ", cfg.key, ", Index: ", b,
              ".  Number of values (", n, ") is not a multiple of the inner dims (",
              cfg.row_elements, ") of shape ", cfg.shape.DebugString()));
        }
        max_rows = std::max(max_rows, n / cfg.row_elements);
      } else if (present[b] && n != cfg.row_elements) {
        return Error(errors::InvalidArgument(
            "Name: ", example_names[b], ", Key: ", cfg.key, ", Index: ", b,
            ".  Number of ", DataTypeString(cfg.dtype), " values != expected.  Values size: ", n,
            " but output shape: ", cfg.shape.DebugString()));
      } else if (!present[b] && cfg.default_value.NumElements() == 0) {
        return Error(errors::InvalidArgument("Name: ", example_names[b], ", Feature: ", cfg.key,
                                             " (data type: ", DataTypeString(cfg.dtype), ")",
                                             " is required but could not be found."));
      }
    }
    // Output shape: [batch] (unless scalar input) + per-example shape (dim 0 = max_rows).
    std::vector<int64_t> dims;
    if (!scalar) dims.push_back(batch);
    for (int d = 0; d < cfg.shape.dims(); ++d) {
      dims.push_back(d == 0 && cfg.variable_length ? max_rows : cfg.shape.dim_size(d));
    }
    SG_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::Build(dims));
    Tensor* out;
    SG_RETURN_IF_ERROR(ctx->allocate_output(out_index, out_shape, &out));
    const int64_t per_example = batch == 0 ? 0 : out_shape.num_elements() / batch;
    for (int64_t b = 0; b < batch; ++b) {
      void* dst = ElementPtr(out, b * per_example);
      const int64_t n = present[b] ? values[b].size() : 0;
      if (n > 0) CopyValues(values[b], 0, n, cfg.dtype, dst);
      if (n < per_example) {
        // Variable length pads with the (scalar) default; fixed length copies the default.
        CopyDefault(cfg.default_value, per_example - n, ElementPtr(out, b * per_example + n));
      }
    }
    return absl::OkStatus();
  }

  const OpKernel& kernel_;
  std::vector<SparseConfig> sparse_;
  std::vector<DenseConfig> dense_;
};

// Reads the dense attrs and checks each default against its shape.
absl::Status MakeDenseConfigs(const OpKernel& k, const std::vector<DataType>& tdense,
                              const std::vector<PartialTensorShape>& shapes,
                              const std::vector<std::string>& keys,
                              const std::vector<Tensor>& defaults,
                              std::vector<DenseConfig>* out) {
  auto error = [&](auto... args) {
    return errors::InvalidArgument("node '", k.name(), "' (op ", k.type_string(), "): ", args...);
  };
  if (shapes.size() != tdense.size() || keys.size() != tdense.size() ||
      defaults.size() != tdense.size()) {
    return error("dense_shapes (", shapes.size(), "), dense keys (", keys.size(),
                 ") and dense_defaults (", defaults.size(), ") must have Tdense's length ",
                 tdense.size());
  }
  for (size_t i = 0; i < tdense.size(); ++i) {
    DenseConfig c;
    c.key = keys[i];
    c.dtype = tdense[i];
    c.shape = shapes[i];
    c.default_value = defaults[i];
    if (c.shape.unknown_rank()) return error("dense_shapes[", i, "] must have a known rank");
    c.variable_length = c.shape.dims() > 0 && c.shape.dim_size(0) == -1;
    c.row_elements = 1;
    for (int d = c.variable_length ? 1 : 0; d < c.shape.dims(); ++d) {
      if (c.shape.dim_size(d) < 0) {
        return error("dense_shapes[", i, "] ", c.shape.DebugString(),
                     ": only the first dim may be unknown");
      }
      c.row_elements *= c.shape.dim_size(d);
    }
    const int64_t m = c.default_value.NumElements();
    if (c.variable_length) {
      if (m > 1) {
        return error("dense_defaults[", i, "] for variable-length key ", c.key,
                     " must be a scalar padding value, got shape ",
                     c.default_value.shape().DebugString());
      }
    } else if (m != 0 && m != c.row_elements) {
      return error("dense_defaults[", i, "] for key ", c.key, " has ", m,
                   " elements, its shape ", c.shape.DebugString(), " needs ", c.row_elements);
    }
    out->push_back(std::move(c));
  }
  return absl::OkStatus();
}

std::vector<std::string> Strings(const Tensor& t) {
  std::vector<std::string> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.data<tstring>()[i]);
  return v;
}

class ParseExampleOp final : public OpKernel {
 public:
  explicit ParseExampleOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("Nsparse", &num_sparse_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("Ndense", &num_dense_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("sparse_types", &sparse_types_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("Tdense", &tdense_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dense_shapes", &dense_shapes_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& serialized = ctx->input(0);
    OP_REQUIRES(ctx, serialized.dims() == 1,
                errors::InvalidArgument("node '", name(), "' (op ParseExample): serialized must "
                                        "be a vector, got shape ",
                                        serialized.shape().DebugString()));
    std::vector<SparseConfig> sparse;
    for (int i = 0; i < num_sparse_; ++i) {
      const Tensor& key = ctx->input(2 + i);
      OP_REQUIRES(ctx, key.NumElements() == 1,
                  errors::InvalidArgument("node '", name(), "': sparse key ", i,
                                          " must be a scalar string"));
      sparse.push_back({key.data<tstring>()[0], sparse_types_[i]});
    }
    std::vector<std::string> dense_keys;
    std::vector<Tensor> defaults;
    for (int i = 0; i < num_dense_; ++i) {
      const Tensor& key = ctx->input(2 + num_sparse_ + i);
      OP_REQUIRES(ctx, key.NumElements() == 1,
                  errors::InvalidArgument("node '", name(), "': dense key ", i,
                                          " must be a scalar string"));
      dense_keys.push_back(key.data<tstring>()[0]);
      defaults.push_back(ctx->input(2 + num_sparse_ + num_dense_ + i));
    }
    std::vector<DenseConfig> dense;
    OP_REQUIRES_OK(ctx,
                   MakeDenseConfigs(*this, tdense_, dense_shapes_, dense_keys, defaults, &dense));
    ExampleParser parser(*this, std::move(sparse), std::move(dense));
    OP_REQUIRES_OK(ctx, parser.Run(ctx, serialized, ctx->input(1)));
  }

 private:
  int64_t num_sparse_ = 0, num_dense_ = 0;
  std::vector<DataType> sparse_types_, tdense_;
  std::vector<PartialTensorShape> dense_shapes_;
};
REGISTER_KERNEL_BUILDER(Name("ParseExample").Device(DEVICE_CPU), ParseExampleOp);

class ParseExampleV2Op final : public OpKernel {
 public:
  explicit ParseExampleV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_sparse", &num_sparse_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("sparse_types", &sparse_types_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("Tdense", &tdense_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dense_shapes", &dense_shapes_));
    std::vector<DataType> ragged_values;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ragged_value_types", &ragged_values));
    OP_REQUIRES(ctx, ragged_values.empty(),
                errors::Unimplemented("node '", name(),
                                      "' (op ParseExampleV2): ragged features are not supported"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& serialized = ctx->input(0);
    OP_REQUIRES(ctx, serialized.dims() <= 1,
                errors::InvalidArgument("node '", name(), "' (op ParseExampleV2): serialized "
                                        "must be a scalar or a vector, got shape ",
                                        serialized.shape().DebugString()));
    const std::vector<std::string> sparse_keys = Strings(ctx->input(2));
    const std::vector<std::string> dense_keys = Strings(ctx->input(3));
    OP_REQUIRES(ctx, static_cast<int64_t>(sparse_keys.size()) == num_sparse_,
                errors::InvalidArgument("node '", name(), "': sparse_keys has ",
                                        sparse_keys.size(), " keys, num_sparse is ",
                                        num_sparse_));
    OP_REQUIRES(ctx, ctx->input(4).NumElements() == 0,
                errors::Unimplemented("node '", name(),
                                      "' (op ParseExampleV2): ragged keys are not supported"));
    std::vector<SparseConfig> sparse;
    for (int i = 0; i < num_sparse_; ++i) sparse.push_back({sparse_keys[i], sparse_types_[i]});
    std::vector<Tensor> defaults;
    for (size_t i = 0; i < tdense_.size(); ++i) defaults.push_back(ctx->input(5 + i));
    std::vector<DenseConfig> dense;
    OP_REQUIRES_OK(ctx,
                   MakeDenseConfigs(*this, tdense_, dense_shapes_, dense_keys, defaults, &dense));
    ExampleParser parser(*this, std::move(sparse), std::move(dense));
    OP_REQUIRES_OK(ctx, parser.Run(ctx, serialized, ctx->input(1)));
  }

 private:
  int64_t num_sparse_ = 0;
  std::vector<DataType> sparse_types_, tdense_;
  std::vector<PartialTensorShape> dense_shapes_;
};
REGISTER_KERNEL_BUILDER(Name("ParseExampleV2").Device(DEVICE_CPU), ParseExampleV2Op);

class ParseSingleExampleOp final : public OpKernel {
 public:
  explicit ParseSingleExampleOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    int64_t num_sparse = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_sparse", &num_sparse));
    std::vector<std::string> sparse_keys, dense_keys;
    std::vector<DataType> sparse_types;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("sparse_keys", &sparse_keys));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dense_keys", &dense_keys));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("sparse_types", &sparse_types));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("Tdense", &tdense_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dense_shapes", &dense_shapes_));
    OP_REQUIRES(ctx,
                static_cast<int64_t>(sparse_keys.size()) == num_sparse &&
                    static_cast<int64_t>(sparse_types.size()) == num_sparse,
                errors::InvalidArgument("node '", name(), "' (op ParseSingleExample): ",
                                        "sparse_keys (", sparse_keys.size(), ") and sparse_types (",
                                        sparse_types.size(), ") must have num_sparse (",
                                        num_sparse, ") entries"));
    for (int64_t i = 0; i < num_sparse; ++i) sparse_.push_back({sparse_keys[i], sparse_types[i]});
    dense_keys_ = std::move(dense_keys);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& serialized = ctx->input(0);
    OP_REQUIRES(ctx, serialized.dims() == 0,
                errors::InvalidArgument("node '", name(), "' (op ParseSingleExample): ",
                                        "serialized must be a scalar, got shape ",
                                        serialized.shape().DebugString()));
    std::vector<Tensor> defaults;
    for (size_t i = 0; i < tdense_.size(); ++i) defaults.push_back(ctx->input(1 + i));
    std::vector<DenseConfig> dense;
    OP_REQUIRES_OK(ctx,
                   MakeDenseConfigs(*this, tdense_, dense_shapes_, dense_keys_, defaults, &dense));
    ExampleParser parser(*this, sparse_, std::move(dense));
    OP_REQUIRES_OK(ctx, parser.Run(ctx, serialized, Tensor(DT_STRING, TensorShape({0}))));
  }

 private:
  std::vector<SparseConfig> sparse_;
  std::vector<std::string> dense_keys_;
  std::vector<DataType> tdense_;
  std::vector<PartialTensorShape> dense_shapes_;
};
REGISTER_KERNEL_BUILDER(Name("ParseSingleExample").Device(DEVICE_CPU), ParseSingleExampleOp);

// ---- SequenceExample ------------------------------------------------------------------------

struct FeatureListDenseConfig {
  std::string key;
  DataType dtype;
  TensorShape shape;  // per step
  bool missing_ok = false;
};

// Step `t` of feature list `key` as `dtype` values; an unset step has no values.
absl::Status StepValues(const Feature& f, DataType dtype, const std::string& example_name,
                        const std::string& key, int64_t t, FeatureValues* out) {
  *out = FeatureValues();
  switch (f.kind_case()) {
    case Feature::KIND_NOT_SET:
      return absl::OkStatus();
    case Feature::kFloatList:
      out->floats = &f.float_list().value();
      if (dtype == DT_FLOAT) return absl::OkStatus();
      break;
    case Feature::kInt64List:
      out->ints = &f.int64_list().value();
      if (dtype == DT_INT64) return absl::OkStatus();
      break;
    case Feature::kBytesList:
      out->bytes = &f.bytes_list().value();
      if (dtype == DT_STRING) return absl::OkStatus();
      break;
  }
  return errors::InvalidArgument("Name: ", example_name, ", Feature list: ", key, ", Index: ", t,
                                 ".  Data types don't match. Expected type: ",
                                 DataTypeString(dtype), " (", KindName(dtype), ")");
}

// A ragged feature: its values' dtype and its splits' (int32 or int64).
struct RaggedConfig {
  std::string key;
  DataType dtype;
  DataType splits_dtype;
};

void SetSplit(Tensor* t, int64_t i, int64_t v) {
  if (t->dtype() == DT_INT32) {
    t->data<int32_t>()[i] = static_cast<int32_t>(v);
  } else {
    t->data<int64_t>()[i] = v;
  }
}

const FeatureList* FindFeatureList(const SequenceExample& ex, const std::string& key) {
  const auto& lists = ex.feature_lists().feature_list();
  auto it = lists.find(key);
  return it == lists.end() ? nullptr : &it->second;
}

// Parses the batch (or, `batched` false, the single example) of SequenceExamples: the context
// through ExampleParser (ParseExample's outputs come first, in its order), then the feature
// lists: sparse indices, values and shapes, dense values, and (batched) dense lengths. With
// SetV2 (ParseSequenceExampleV2): context ragged values and splits after the context, dense
// lengths always, feature-list ragged values, outer and inner splits last.
class SequenceExampleParser {
 public:
  SequenceExampleParser(const OpKernel& kernel, std::vector<SparseConfig> context_sparse,
                        std::vector<DenseConfig> context_dense,
                        std::vector<SparseConfig> list_sparse,
                        std::vector<FeatureListDenseConfig> list_dense)
      : kernel_(kernel),
        context_sparse_(std::move(context_sparse)),
        context_dense_(std::move(context_dense)),
        list_sparse_(std::move(list_sparse)),
        list_dense_(std::move(list_dense)) {}

  void SetV2(std::vector<RaggedConfig> context_ragged, std::vector<RaggedConfig> list_ragged) {
    v2_ = true;
    context_ragged_ = std::move(context_ragged);
    list_ragged_ = std::move(list_ragged);
  }

  absl::Status Run(OpKernelContext* ctx, const Tensor& serialized, const Tensor& names) {
    const bool batched = serialized.dims() == 1;
    const int64_t batch = serialized.NumElements();
    std::vector<SequenceExample> examples(batch);
    std::vector<std::string> example_names(batch, "<unknown>");
    Tensor contexts(DT_STRING, serialized.shape());
    for (int64_t b = 0; b < batch; ++b) {
      if (names.NumElements() == batch) example_names[b] = names.data<tstring>()[b];
      if (!examples[b].ParseFromString(serialized.data<tstring>()[b])) {
        return Error(errors::InvalidArgument("Could not parse example input, value: '",
                                             serialized.data<tstring>()[b].substr(0, 64), "'"));
      }
      Example context;
      *context.mutable_features() = examples[b].context();
      contexts.data<tstring>()[b] = context.SerializeAsString();
    }
    ExampleParser context_parser(kernel_, context_sparse_, context_dense_);
    SG_RETURN_IF_ERROR(context_parser.Run(ctx, contexts, Tensor(DT_STRING, TensorShape({0}))));
    int out = static_cast<int>(3 * context_sparse_.size() + context_dense_.size());
    const int ncr = static_cast<int>(context_ragged_.size());
    for (int i = 0; i < ncr; ++i) {
      SG_RETURN_IF_ERROR(ParseContextRagged(ctx, out + i, out + ncr + i, context_ragged_[i],
                                            examples, example_names, batched));
    }
    out += 2 * ncr;
    const int nfs = static_cast<int>(list_sparse_.size());
    for (int i = 0; i < nfs; ++i) {
      SG_RETURN_IF_ERROR(ParseSparseList(ctx, out, i, examples, example_names, batched));
    }
    out += 3 * nfs;
    const int nfd = static_cast<int>(list_dense_.size());
    const bool lengths = batched || v2_;
    for (int i = 0; i < nfd; ++i) {
      SG_RETURN_IF_ERROR(ParseDenseList(ctx, out + i, lengths ? out + nfd + i : -1,
                                        list_dense_[i], examples, example_names, batched));
    }
    out += lengths ? 2 * nfd : nfd;
    const int nfr = static_cast<int>(list_ragged_.size());
    for (int i = 0; i < nfr; ++i) {
      SG_RETURN_IF_ERROR(ParseRaggedList(ctx, out + i, out + nfr + i, out + 2 * nfr + i,
                                         list_ragged_[i], examples, example_names, batched));
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Error(absl::Status s) const {
    return absl::Status(s.code(), absl::StrCat("node '", kernel_.name(), "' (op ",
                                               kernel_.type_string(), "): ", s.message()));
  }

  absl::Status ParseSparseList(OpKernelContext* ctx, int out, int i,
                               const std::vector<SequenceExample>& examples,
                               const std::vector<std::string>& example_names, bool batched) {
    const SparseConfig& cfg = list_sparse_[i];
    const int nfs = static_cast<int>(list_sparse_.size());
    const int64_t batch = static_cast<int64_t>(examples.size());
    // Every step's values, example by example.
    std::vector<std::vector<FeatureValues>> steps(batch);
    int64_t total = 0, max_steps = 0, max_len = 0;
    for (int64_t b = 0; b < batch; ++b) {
      const FeatureList* list = FindFeatureList(examples[b], cfg.key);
      if (list == nullptr) continue;
      for (int64_t t = 0; t < list->feature_size(); ++t) {
        FeatureValues v;
        absl::Status st = StepValues(list->feature(t), cfg.dtype, example_names[b], cfg.key, t,
                                     &v);
        if (!st.ok()) return Error(st);
        total += v.size();
        max_len = std::max(max_len, v.size());
        steps[b].push_back(v);
      }
      max_steps = std::max<int64_t>(max_steps, list->feature_size());
    }
    const int rank = batched ? 3 : 2;
    Tensor *indices, *values, *shape;
    SG_RETURN_IF_ERROR(ctx->allocate_output(out + i, TensorShape({total, rank}), &indices));
    SG_RETURN_IF_ERROR(ctx->allocate_output(out + nfs + i, TensorShape({total}), &values));
    SG_RETURN_IF_ERROR(ctx->allocate_output(out + 2 * nfs + i, TensorShape({rank}), &shape));
    int64_t* ind = indices->data<int64_t>();
    int64_t k = 0;
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t t = 0; t < static_cast<int64_t>(steps[b].size()); ++t) {
        const FeatureValues& v = steps[b][t];
        const int64_t n = v.size();
        if (n > 0) CopyValues(v, 0, n, cfg.dtype, ElementPtr(values, k));
        for (int64_t j = 0; j < n; ++j, ++k) {
          if (batched) *ind++ = b;
          *ind++ = t;
          *ind++ = j;
        }
      }
    }
    int64_t* sh = shape->data<int64_t>();
    if (batched) *sh++ = batch;
    *sh++ = max_steps;
    *sh = max_len;
    return absl::OkStatus();
  }

  absl::Status ParseDenseList(OpKernelContext* ctx, int out, int lengths_out,
                              const FeatureListDenseConfig& cfg,
                              const std::vector<SequenceExample>& examples,
                              const std::vector<std::string>& example_names, bool batched) {
    const int64_t batch = static_cast<int64_t>(examples.size());
    const int64_t per_step = cfg.shape.num_elements();
    std::vector<const FeatureList*> lists(batch, nullptr);
    int64_t max_steps = 0;
    for (int64_t b = 0; b < batch; ++b) {
      lists[b] = FindFeatureList(examples[b], cfg.key);
      if (lists[b] == nullptr) {
        if (!cfg.missing_ok) {
          return Error(errors::InvalidArgument(
              "Name: ", example_names[b], ", Feature list '", cfg.key,
              "' is required but could not be found.  Did you mean to include it in "
              "feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?"));
        }
        continue;
      }
      for (int64_t t = 0; t < lists[b]->feature_size(); ++t) {
        FeatureValues v;
        absl::Status st = StepValues(lists[b]->feature(t), cfg.dtype, example_names[b],
                                     cfg.key, t, &v);
        if (!st.ok()) return Error(st);
        if (v.size() != per_step) {
          return Error(errors::InvalidArgument(
              "Name: ", example_names[b], ", Key: ", cfg.key, ", Index: ", t,
              ".  Number of ", DataTypeString(cfg.dtype), " values != expected.  values size: ",
              v.size(), " but output shape: ", cfg.shape.DebugString()));
        }
      }
      max_steps = std::max<int64_t>(max_steps, lists[b]->feature_size());
    }
    std::vector<int64_t> dims;
    if (batched) dims.push_back(batch);
    dims.push_back(max_steps);
    for (int d = 0; d < cfg.shape.dims(); ++d) dims.push_back(cfg.shape.dim_size(d));
    SG_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::Build(dims));
    Tensor* values;
    SG_RETURN_IF_ERROR(ctx->allocate_output(out, out_shape, &values));
    const Tensor no_default(cfg.dtype, TensorShape({0}));
    const int64_t per_example = max_steps * per_step;
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t steps = lists[b] == nullptr ? 0 : lists[b]->feature_size();
      for (int64_t t = 0; t < steps; ++t) {
        FeatureValues v;
        SG_RETURN_IF_ERROR(StepValues(lists[b]->feature(t), cfg.dtype, example_names[b], cfg.key,
                                      t, &v));
        if (per_step > 0) {
          CopyValues(v, 0, per_step, cfg.dtype,
                     ElementPtr(values, b * per_example + t * per_step));
        }
      }
      const int64_t filled = steps * per_step;
      if (filled < per_example) {
        CopyDefault(no_default, per_example - filled,
                    ElementPtr(values, b * per_example + filled));
      }
    }
    if (lengths_out >= 0) {
      Tensor* lengths;
      SG_RETURN_IF_ERROR(ctx->allocate_output(
          lengths_out, batched ? TensorShape({batch}) : TensorShape({}), &lengths));
      for (int64_t b = 0; b < batch; ++b) {
        lengths->data<int64_t>()[b] = lists[b] == nullptr ? 0 : lists[b]->feature_size();
      }
    }
    return absl::OkStatus();
  }

  // Values [n] and row splits ([batch + 1]; a scalar, the count, for one unbatched example).
  absl::Status ParseContextRagged(OpKernelContext* ctx, int values_out, int splits_out,
                                  const RaggedConfig& cfg,
                                  const std::vector<SequenceExample>& examples,
                                  const std::vector<std::string>& example_names, bool batched) {
    const int64_t batch = static_cast<int64_t>(examples.size());
    std::vector<FeatureValues> values(batch);
    int64_t total = 0;
    for (int64_t b = 0; b < batch; ++b) {
      const auto& map = examples[b].context().feature();
      auto it = map.find(cfg.key);
      if (it == map.end()) continue;
      absl::Status st = StepValues(it->second, cfg.dtype, example_names[b], cfg.key, 0,
                                   &values[b]);
      if (!st.ok()) return Error(st);
      total += values[b].size();
    }
    Tensor *vals, *splits;
    SG_RETURN_IF_ERROR(ctx->allocate_output(values_out, TensorShape({total}), &vals));
    SG_RETURN_IF_ERROR(ctx->allocate_output(
        splits_out, batched ? TensorShape({batch + 1}) : TensorShape({}), &splits));
    int64_t k = 0;
    if (batched) SetSplit(splits, 0, 0);
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t n = values[b].size();
      if (n > 0) CopyValues(values[b], 0, n, cfg.dtype, ElementPtr(vals, k));
      k += n;
      SetSplit(splits, batched ? b + 1 : 0, k);
    }
    return absl::OkStatus();
  }

  // Values [n], outer splits over each example's steps ([batch + 1]; a scalar, the step count,
  // for one unbatched example) and inner splits over each step's values ([steps + 1]).
  absl::Status ParseRaggedList(OpKernelContext* ctx, int values_out, int outer_out, int inner_out,
                               const RaggedConfig& cfg,
                               const std::vector<SequenceExample>& examples,
                               const std::vector<std::string>& example_names, bool batched) {
    const int64_t batch = static_cast<int64_t>(examples.size());
    std::vector<std::vector<FeatureValues>> steps(batch);
    int64_t total = 0, total_steps = 0;
    for (int64_t b = 0; b < batch; ++b) {
      const FeatureList* list = FindFeatureList(examples[b], cfg.key);
      if (list == nullptr) continue;
      for (int64_t t = 0; t < list->feature_size(); ++t) {
        FeatureValues v;
        absl::Status st = StepValues(list->feature(t), cfg.dtype, example_names[b], cfg.key, t,
                                     &v);
        if (!st.ok()) return Error(st);
        total += v.size();
        steps[b].push_back(v);
      }
      total_steps += list->feature_size();
    }
    Tensor *vals, *outer, *inner;
    SG_RETURN_IF_ERROR(ctx->allocate_output(values_out, TensorShape({total}), &vals));
    SG_RETURN_IF_ERROR(ctx->allocate_output(
        outer_out, batched ? TensorShape({batch + 1}) : TensorShape({}), &outer));
    SG_RETURN_IF_ERROR(ctx->allocate_output(inner_out, TensorShape({total_steps + 1}), &inner));
    int64_t k = 0, step = 0;
    if (batched) SetSplit(outer, 0, 0);
    SetSplit(inner, 0, 0);
    for (int64_t b = 0; b < batch; ++b) {
      for (const FeatureValues& v : steps[b]) {
        const int64_t n = v.size();
        if (n > 0) CopyValues(v, 0, n, cfg.dtype, ElementPtr(vals, k));
        k += n;
        SetSplit(inner, ++step, k);
      }
      SetSplit(outer, batched ? b + 1 : 0, step);
    }
    return absl::OkStatus();
  }

  const OpKernel& kernel_;
  std::vector<SparseConfig> context_sparse_;
  std::vector<DenseConfig> context_dense_;
  std::vector<SparseConfig> list_sparse_;
  std::vector<FeatureListDenseConfig> list_dense_;
  bool v2_ = false;
  std::vector<RaggedConfig> context_ragged_, list_ragged_;
};

// The attrs both sequence ops share: types and shapes.
struct SequenceAttrs {
  std::vector<DataType> context_sparse_types, tcontext_dense, list_sparse_types, list_dense_types;
  std::vector<PartialTensorShape> context_dense_shapes, list_dense_shapes;

  absl::Status Read(OpKernelConstruction* ctx) {
    SG_RETURN_IF_ERROR(ctx->GetAttr("context_sparse_types", &context_sparse_types));
    SG_RETURN_IF_ERROR(ctx->GetAttr("Tcontext_dense", &tcontext_dense));
    SG_RETURN_IF_ERROR(ctx->GetAttr("feature_list_sparse_types", &list_sparse_types));
    SG_RETURN_IF_ERROR(ctx->GetAttr("feature_list_dense_types", &list_dense_types));
    SG_RETURN_IF_ERROR(ctx->GetAttr("context_dense_shapes", &context_dense_shapes));
    SG_RETURN_IF_ERROR(ctx->GetAttr("feature_list_dense_shapes", &list_dense_shapes));
    // The count attrs size some input and output lists and the type lists others: they must
    // agree, or the kernel would index past its inputs or outputs.
    const std::pair<const char*, size_t> counts[] = {
        {"Ncontext_sparse", context_sparse_types.size()},
        {"Ncontext_dense", tcontext_dense.size()},
        {"Nfeature_list_sparse", list_sparse_types.size()},
        {"Nfeature_list_dense", list_dense_types.size()}};
    for (const auto& [attr, size] : counts) {
      if (!ctx->HasAttr(attr)) continue;  // ParseSequenceExampleV2 has no Ncontext_dense
      int64_t n;
      SG_RETURN_IF_ERROR(ctx->GetAttr(attr, &n));
      if (n < 0 || static_cast<size_t>(n) != size) {
        return errors::InvalidArgument("node '", ctx->def().name(), "' (op ", ctx->def().op(),
                                       "): ", attr, " is ", n, " but its type list has ", size,
                                       " types");
      }
    }
    if (list_dense_shapes.size() != list_dense_types.size()) {
      return errors::InvalidArgument("node '", ctx->def().name(), "' (op ", ctx->def().op(),
                                     "): feature_list_dense_shapes has ",
                                     list_dense_shapes.size(), " shapes for ",
                                     list_dense_types.size(), " types");
    }
    return absl::OkStatus();
  }

  // The parser for these keys; INVALID_ARGUMENT when counts disagree or a feature list's shape
  // is not fully defined.
  absl::StatusOr<std::unique_ptr<SequenceExampleParser>> MakeParser(
      const OpKernel& k, const std::vector<std::string>& context_sparse_keys,
      const std::vector<std::string>& context_dense_keys, const std::vector<Tensor>& defaults,
      const std::vector<std::string>& list_sparse_keys,
      const std::vector<std::string>& list_dense_keys,
      const std::vector<std::string>& missing_assumed_empty) const {
    auto error = [&](auto... args) {
      return errors::InvalidArgument("node '", k.name(), "' (op ", k.type_string(), "): ",
                                     args...);
    };
    if (context_sparse_keys.size() != context_sparse_types.size() ||
        list_sparse_keys.size() != list_sparse_types.size() ||
        list_dense_keys.size() != list_dense_types.size() ||
        list_dense_shapes.size() != list_dense_types.size()) {
      return error("the numbers of keys, types and shapes disagree");
    }
    std::vector<SparseConfig> context_sparse, list_sparse;
    for (size_t i = 0; i < context_sparse_keys.size(); ++i) {
      context_sparse.push_back({context_sparse_keys[i], context_sparse_types[i]});
    }
    for (size_t i = 0; i < list_sparse_keys.size(); ++i) {
      list_sparse.push_back({list_sparse_keys[i], list_sparse_types[i]});
    }
    std::vector<DenseConfig> context_dense;
    SG_RETURN_IF_ERROR(MakeDenseConfigs(k, tcontext_dense, context_dense_shapes,
                                        context_dense_keys, defaults, &context_dense));
    std::vector<FeatureListDenseConfig> list_dense;
    for (size_t i = 0; i < list_dense_keys.size(); ++i) {
      if (std::find(list_sparse_keys.begin(), list_sparse_keys.end(), list_dense_keys[i]) !=
          list_sparse_keys.end()) {
        return error("Sequence feature ", list_dense_keys[i],
                     " cannot be both dense and sparse");
      }
      FeatureListDenseConfig c;
      c.key = list_dense_keys[i];
      c.dtype = list_dense_types[i];
      if (!list_dense_shapes[i].AsTensorShape(&c.shape)) {
        return error("feature_list_dense_shapes[", i, "] must be fully defined, got ",
                     list_dense_shapes[i].DebugString());
      }
      c.missing_ok = std::find(missing_assumed_empty.begin(), missing_assumed_empty.end(),
                               c.key) != missing_assumed_empty.end();
      list_dense.push_back(std::move(c));
    }
    return std::make_unique<SequenceExampleParser>(k, std::move(context_sparse),
                                                   std::move(context_dense),
                                                   std::move(list_sparse), std::move(list_dense));
  }
};

// Input `first` .. `first + n` of `ctx`, each a scalar string key.
absl::Status ScalarKeys(const OpKernel& k, OpKernelContext* ctx, int first, int n,
                        std::vector<std::string>* out) {
  for (int i = first; i < first + n; ++i) {
    const Tensor& t = ctx->input(i);
    if (t.dims() != 0) {
      return errors::InvalidArgument("node '", k.name(), "' (op ", k.type_string(), "): key ",
                                     i - first, " must be a scalar string, got shape ",
                                     t.shape().DebugString());
    }
    out->push_back(t.data<tstring>()[0]);
  }
  return absl::OkStatus();
}

class ParseSingleSequenceExampleOp final : public OpKernel {
 public:
  explicit ParseSingleSequenceExampleOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& serialized = ctx->input(0);
    const Tensor& missing = ctx->input(1);
    OP_REQUIRES(ctx, serialized.dims() == 0,
                errors::InvalidArgument("node '", name(), "' (op ParseSingleSequenceExample): ",
                                        "serialized must be a scalar, got shape ",
                                        serialized.shape().DebugString()));
    OP_REQUIRES(ctx, missing.dims() == 1,
                errors::InvalidArgument("node '", name(), "' (op ParseSingleSequenceExample): ",
                                        "feature_list_dense_missing_assumed_empty must be a "
                                        "vector, got shape ", missing.shape().DebugString()));
    const int ncs = static_cast<int>(attrs_.context_sparse_types.size());
    const int ncd = static_cast<int>(attrs_.tcontext_dense.size());
    const int nfs = static_cast<int>(attrs_.list_sparse_types.size());
    const int nfd = static_cast<int>(attrs_.list_dense_types.size());
    std::vector<std::string> cs_keys, cd_keys, fs_keys, fd_keys;
    OP_REQUIRES_OK(ctx, ScalarKeys(*this, ctx, 2, ncs, &cs_keys));
    OP_REQUIRES_OK(ctx, ScalarKeys(*this, ctx, 2 + ncs, ncd, &cd_keys));
    OP_REQUIRES_OK(ctx, ScalarKeys(*this, ctx, 2 + ncs + ncd, nfs, &fs_keys));
    OP_REQUIRES_OK(ctx, ScalarKeys(*this, ctx, 2 + ncs + ncd + nfs, nfd, &fd_keys));
    const int defaults_at = 2 + ncs + ncd + nfs + nfd;
    std::vector<Tensor> defaults;
    for (int i = 0; i < ncd; ++i) defaults.push_back(ctx->input(defaults_at + i));
    const Tensor& debug_name = ctx->input(defaults_at + ncd);
    OP_REQUIRES(ctx, debug_name.dims() == 0,
                errors::InvalidArgument("node '", name(), "' (op ParseSingleSequenceExample): ",
                                        "debug_name must be a scalar, got shape ",
                                        debug_name.shape().DebugString()));
    auto parser = attrs_.MakeParser(*this, cs_keys, cd_keys, defaults, fs_keys, fd_keys,
                                    Strings(missing));
    OP_REQUIRES_OK(ctx, parser.status());
    Tensor names(DT_STRING, TensorShape({1}));
    names.data<tstring>()[0] = debug_name.data<tstring>()[0].empty()
                                   ? std::string("<unknown>")
                                   : std::string(debug_name.data<tstring>()[0]);
    OP_REQUIRES_OK(ctx, (*parser)->Run(ctx, serialized, names));
  }

 private:
  SequenceAttrs attrs_;
};
REGISTER_KERNEL_BUILDER(Name("ParseSingleSequenceExample").Device(DEVICE_CPU),
                        ParseSingleSequenceExampleOp);

class ParseSequenceExampleOp final : public OpKernel {
 public:
  explicit ParseSequenceExampleOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("feature_list_dense_missing_assumed_empty", &missing_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("context_sparse_keys", &cs_keys_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("context_dense_keys", &cd_keys_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("feature_list_sparse_keys", &fs_keys_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("feature_list_dense_keys", &fd_keys_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& serialized = ctx->input(0);
    const Tensor& debug_name = ctx->input(1);
    OP_REQUIRES(ctx, serialized.dims() == 1,
                errors::InvalidArgument("node '", name(), "' (op ParseSequenceExample): ",
                                        "serialized must be a vector, got shape ",
                                        serialized.shape().DebugString()));
    OP_REQUIRES(ctx,
                debug_name.NumElements() == 0 ||
                    debug_name.NumElements() == serialized.NumElements(),
                errors::InvalidArgument("node '", name(), "' (op ParseSequenceExample): ",
                                        "debug_name has ", debug_name.NumElements(),
                                        " entries for a batch of ", serialized.NumElements()));
    std::vector<Tensor> defaults;
    for (size_t i = 0; i < attrs_.tcontext_dense.size(); ++i) {
      defaults.push_back(ctx->input(2 + i));
    }
    auto parser = attrs_.MakeParser(*this, cs_keys_, cd_keys_, defaults, fs_keys_, fd_keys_,
                                    missing_);
    OP_REQUIRES_OK(ctx, parser.status());
    OP_REQUIRES_OK(ctx, (*parser)->Run(ctx, serialized, debug_name));
  }

 private:
  SequenceAttrs attrs_;
  std::vector<std::string> missing_, cs_keys_, cd_keys_, fs_keys_, fd_keys_;
};
REGISTER_KERNEL_BUILDER(Name("ParseSequenceExample").Device(DEVICE_CPU), ParseSequenceExampleOp);

class ParseSequenceExampleV2Op final : public OpKernel {
 public:
  explicit ParseSequenceExampleV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, attrs_.Read(ctx));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("context_ragged_value_types", &context_ragged_types_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("context_ragged_split_types", &context_ragged_splits_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("feature_list_ragged_value_types", &list_ragged_types_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("feature_list_ragged_split_types", &list_ragged_splits_));
    OP_REQUIRES(ctx,
                context_ragged_types_.size() == context_ragged_splits_.size() &&
                    list_ragged_types_.size() == list_ragged_splits_.size(),
                errors::InvalidArgument("node '", name(), "' (op ParseSequenceExampleV2): ",
                                        "each ragged value type needs a split type"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& serialized = ctx->input(0);
    const Tensor& debug_name = ctx->input(1);
    auto error = [&](auto... args) {
      return errors::InvalidArgument("node '", name(), "' (op ParseSequenceExampleV2): ",
                                     args...);
    };
    OP_REQUIRES(ctx, serialized.dims() <= 1,
                error("serialized must be a scalar or a vector, got shape ",
                      serialized.shape().DebugString()));
    OP_REQUIRES(ctx,
                debug_name.NumElements() == 0 ||
                    debug_name.NumElements() == serialized.NumElements(),
                error("debug_name has ", debug_name.NumElements(), " entries for ",
                      serialized.NumElements(), " examples"));
    for (int i = 2; i <= 8; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).dims() == 1,
                  error("input ", i, " (keys or missing flags) must be a vector, got shape ",
                        ctx->input(i).shape().DebugString()));
    }
    const std::vector<std::string> cr_keys = Strings(ctx->input(4));
    const std::vector<std::string> fd_keys = Strings(ctx->input(6));
    const std::vector<std::string> fr_keys = Strings(ctx->input(7));
    const Tensor& missing_flags = ctx->input(8);
    OP_REQUIRES(ctx, missing_flags.NumElements() == static_cast<int64_t>(fd_keys.size()),
                error("feature_list_dense_missing_assumed_empty has ",
                      missing_flags.NumElements(), " entries for ", fd_keys.size(),
                      " dense feature list keys"));
    OP_REQUIRES(ctx,
                cr_keys.size() == context_ragged_types_.size() &&
                    fr_keys.size() == list_ragged_types_.size(),
                error("the numbers of ragged keys and ragged value types disagree"));
    std::vector<std::string> missing;
    for (size_t i = 0; i < fd_keys.size(); ++i) {
      if (missing_flags.data<bool>()[i]) missing.push_back(fd_keys[i]);
    }
    std::vector<Tensor> defaults;
    for (size_t i = 0; i < attrs_.tcontext_dense.size(); ++i) {
      defaults.push_back(ctx->input(9 + i));
    }
    auto parser = attrs_.MakeParser(*this, Strings(ctx->input(2)), Strings(ctx->input(3)),
                                    defaults, Strings(ctx->input(5)), fd_keys, missing);
    OP_REQUIRES_OK(ctx, parser.status());
    std::vector<RaggedConfig> context_ragged, list_ragged;
    for (size_t i = 0; i < cr_keys.size(); ++i) {
      context_ragged.push_back({cr_keys[i], context_ragged_types_[i], context_ragged_splits_[i]});
    }
    for (size_t i = 0; i < fr_keys.size(); ++i) {
      list_ragged.push_back({fr_keys[i], list_ragged_types_[i], list_ragged_splits_[i]});
    }
    (*parser)->SetV2(std::move(context_ragged), std::move(list_ragged));
    OP_REQUIRES_OK(ctx, (*parser)->Run(ctx, serialized, debug_name));
  }

 private:
  SequenceAttrs attrs_;
  std::vector<DataType> context_ragged_types_, context_ragged_splits_;
  std::vector<DataType> list_ragged_types_, list_ragged_splits_;
};
REGISTER_KERNEL_BUILDER(Name("ParseSequenceExampleV2").Device(DEVICE_CPU),
                        ParseSequenceExampleV2Op);

}  // namespace
}  // namespace sg
