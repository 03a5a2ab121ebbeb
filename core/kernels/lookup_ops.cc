// Lookup tables, as TensorFlow's lookup_table_op / lookup_table_init_op: HashTableV2 and
// MutableHashTableV2 make (once) a table in the device's ResourceMgr and output its handle; the
// other ops find the table through the handle.
//
// Keys: int32, int64 or string; values: bool, int32, int64, float, double or string (TensorFlow
// registers a subset of these pairs). A HashTableV2 is filled once: a later initializer with as
// many entries as the table holds is a no-op, one with another count FAILED_PRECONDITION (the
// text-file initializer then does nothing, as TensorFlow's), and Find before that is
// FAILED_PRECONDITION. A key given twice with different values is FAILED_PRECONDITION.
//
// A table whose node has no shared_name (and no use_node_name_sharing) gets a name of its own per
// kernel and lives, as the others, until the session's resources are cleared.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "core/framework/op_kernel.h"
#include "core/framework/resource_mgr.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/resource_handle_util.h"

namespace sg {
namespace {

constexpr const char* kTableTypeName = "LookupTable";

// The interface the ops use; TypedTable below implements it for each key and value type.
class LookupTable : public ResourceBase {
 public:
  LookupTable(DataType key, DataType value, bool is_mutable)
      : key_dtype_(key), value_dtype_(value), mutable_(is_mutable) {}
  DataType key_dtype() const { return key_dtype_; }
  DataType value_dtype() const { return value_dtype_; }
  bool is_mutable() const { return mutable_; }

  virtual int64_t Size() = 0;
  virtual bool IsInitialized() = 0;
  // Fills a static table once (see the file comment). keys and values: one element count.
  virtual absl::Status Initialize(const Tensor& keys, const Tensor& values) = 0;
  virtual absl::Status Insert(const Tensor& keys, const Tensor& values) = 0;
  virtual absl::Status Remove(const Tensor& keys) = 0;
  virtual absl::Status Import(const Tensor& keys, const Tensor& values) = 0;
  // `out` has keys' shape; `default_value` one element or one per key (a static table uses the
  // first for every key, as TensorFlow's).
  virtual absl::Status Find(const Tensor& keys, const Tensor& default_value, Tensor* out) = 0;
  // Entries ordered by key, into new vectors.
  virtual void Export(Tensor* keys, Tensor* values) = 0;

  std::string DebugString() const override {
    return absl::StrCat(mutable_ ? "MutableHashTable" : "HashTable", " of ",
                        DataTypeString(key_dtype_), " to ", DataTypeString(value_dtype_));
  }

 private:
  const DataType key_dtype_, value_dtype_;
  const bool mutable_;
};

template <typename T>
std::string ValueString(const T& v) {
  if constexpr (std::is_same_v<T, tstring>) {
    return v;
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? "1" : "0";
  } else {
    return absl::StrCat(v);
  }
}

template <typename K, typename V>
class TypedTable final : public LookupTable {
 public:
  using LookupTable::LookupTable;

  int64_t Size() override {
    absl::MutexLock lock(&mu_);
    return static_cast<int64_t>(map_.size());
  }

  bool IsInitialized() override {
    absl::MutexLock lock(&mu_);
    return initialized_;
  }

  absl::Status Initialize(const Tensor& keys, const Tensor& values) override {
    if (is_mutable()) {
      return errors::InvalidArgument("a MutableHashTable cannot be initialized; insert into it");
    }
    absl::MutexLock lock(&mu_);
    if (initialized_) {
      if (keys.NumElements() == static_cast<int64_t>(map_.size())) return absl::OkStatus();
      return errors::FailedPrecondition("Table was already initialized with different data.");
    }
    absl::Status s = InsertLocked(keys, values, /*overwrite=*/false);
    if (!s.ok()) {
      map_.clear();
      return s;
    }
    initialized_ = true;
    return absl::OkStatus();
  }

  absl::Status Insert(const Tensor& keys, const Tensor& values) override {
    if (!is_mutable()) {
      return errors::Unimplemented("Insert not supported by InitializableLookupTable "
                                   "implementations");
    }
    absl::MutexLock lock(&mu_);
    return InsertLocked(keys, values, /*overwrite=*/true);
  }

  absl::Status Remove(const Tensor& keys) override {
    if (!is_mutable()) {
      return errors::Unimplemented("Remove not supported by InitializableLookupTable "
                                   "implementations");
    }
    absl::MutexLock lock(&mu_);
    const K* k = keys.data<K>();
    for (int64_t i = 0; i < keys.NumElements(); ++i) map_.erase(k[i]);
    return absl::OkStatus();
  }

  absl::Status Import(const Tensor& keys, const Tensor& values) override {
    if (!is_mutable()) return Initialize(keys, values);
    absl::MutexLock lock(&mu_);
    map_.clear();
    return InsertLocked(keys, values, /*overwrite=*/true);
  }

  absl::Status Find(const Tensor& keys, const Tensor& default_value, Tensor* out) override {
    absl::MutexLock lock(&mu_);
    if (!is_mutable() && !initialized_) {
      return errors::FailedPrecondition("Table not initialized.");
    }
    const K* k = keys.data<K>();
    const V* d = default_value.data<V>();
    // TensorFlow's static tables take the first default for every key; mutable ones one per key.
    const bool per_key = is_mutable() && default_value.dims() > 0;
    V* o = out->data<V>();
    for (int64_t i = 0; i < keys.NumElements(); ++i) {
      auto it = map_.find(k[i]);
      o[i] = it != map_.end() ? it->second : d[per_key ? i : 0];
    }
    return absl::OkStatus();
  }

  void Export(Tensor* keys, Tensor* values) override {
    absl::MutexLock lock(&mu_);
    std::vector<std::pair<K, V>> entries(map_.begin(), map_.end());
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    const int64_t n = static_cast<int64_t>(entries.size());
    *keys = Tensor(key_dtype(), TensorShape({n}));
    *values = Tensor(value_dtype(), TensorShape({n}));
    for (int64_t i = 0; i < n; ++i) {
      keys->data<K>()[i] = entries[i].first;
      values->data<V>()[i] = entries[i].second;
    }
  }

 private:
  absl::Status InsertLocked(const Tensor& keys, const Tensor& values, bool overwrite)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const K* k = keys.data<K>();
    const V* v = values.data<V>();
    for (int64_t i = 0; i < keys.NumElements(); ++i) {
      auto [it, added] = map_.emplace(k[i], v[i]);
      if (added || it->second == v[i]) continue;
      if (overwrite) {
        it->second = v[i];
        continue;
      }
      return errors::FailedPrecondition("HashTable has different value for same key. Key ",
                                        ValueString(k[i]), " has ", ValueString(it->second),
                                        " and trying to add value ", ValueString(v[i]));
    }
    return absl::OkStatus();
  }

  absl::Mutex mu_;
  absl::flat_hash_map<K, V> map_ ABSL_GUARDED_BY(mu_);
  bool initialized_ ABSL_GUARDED_BY(mu_) = false;
};

using KeyTypes = TypeList<int32_t, int64_t, tstring>;
using ValueTypes = TypeList<bool, int32_t, int64_t, float, double, tstring>;

std::shared_ptr<LookupTable> NewTable(DataType key, DataType value, bool is_mutable) {
  std::shared_ptr<LookupTable> table;
  DispatchTypes(KeyTypes(), key, [&](auto k) {
    DispatchTypes(ValueTypes(), value, [&](auto v) {
      table = std::make_shared<TypedTable<decltype(k), decltype(v)>>(key, value, is_mutable);
    });
  });
  return table;
}

// ---- making tables --------------------------------------------------------------------------

class HashTableOp final : public OpKernel {
 public:
  explicit HashTableOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), mutable_(ctx->def().op() == "MutableHashTableV2") {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("key_dtype", &key_dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("value_dtype", &value_dtype_));
    bool use_node_name = false;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("container", &handle_.container));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shared_name", &handle_.name));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("use_node_name_sharing", &use_node_name));
    OP_REQUIRES(ctx, NewTable(key_dtype_, value_dtype_, mutable_) != nullptr,
                errors::Unimplemented(type_string(), " (node '", name(),
                                      "'): no table of key dtype ", DataTypeString(key_dtype_),
                                      " and value dtype ", DataTypeString(value_dtype_)));
    if (handle_.container.empty()) handle_.container = ResourceMgr::kDefaultContainer;
    if (handle_.name.empty()) {
      static std::atomic<int64_t> next_id{0};
      handle_.name = use_node_name ? name() : absl::StrCat("_", next_id++, "_", name());
    }
    if (ctx->device() != nullptr) handle_.device = ctx->device()->name();
    handle_.type_name = kTableTypeName;
  }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<LookupTable> table;
    OP_REQUIRES_OK(ctx, ctx->resource_manager()->LookupOrCreate<LookupTable>(
                            handle_.container, handle_.name, &table,
                            [this](std::shared_ptr<LookupTable>* out) {
                              *out = NewTable(key_dtype_, value_dtype_, mutable_);
                              return absl::OkStatus();
                            }));
    OP_REQUIRES(ctx,
                table->key_dtype() == key_dtype_ && table->value_dtype() == value_dtype_ &&
                    table->is_mutable() == mutable_,
                KernelError(*this, "Conflicting key/value dtypes ",
                            DataTypeString(key_dtype_), "->", DataTypeString(value_dtype_),
                            " with ", DataTypeString(table->key_dtype()), "-",
                            DataTypeString(table->value_dtype()), " for table ", handle_.name));
    OP_REQUIRES_OK(ctx, SetResourceHandleOutput(ctx, 0, handle_));
  }

 private:
  const bool mutable_;
  DataType key_dtype_, value_dtype_;
  ResourceHandle handle_;
};
REGISTER_KERNEL_BUILDER(Name("HashTableV2").Device(DEVICE_CPU), HashTableOp);
REGISTER_KERNEL_BUILDER(Name("MutableHashTableV2").Device(DEVICE_CPU), HashTableOp);

// ---- using tables ---------------------------------------------------------------------------

// The base of the kernels below: finds input 0's table.
class TableOpBase : public OpKernel {
 public:
  using OpKernel::OpKernel;

 protected:
  absl::Status GetTable(OpKernelContext* ctx, std::shared_ptr<LookupTable>* table) const {
    const ResourceHandle* h;
    SG_RETURN_IF_ERROR(ResourceHandleFromInput(ctx, 0, &h));
    return ctx->resource_manager()->Lookup<LookupTable>(h->container, h->name, table);
  }

  // INVALID_ARGUMENT unless the table's dtypes are `key` and (when not DT_INVALID) `value`.
  absl::Status CheckDtypes(const LookupTable& t, DataType key, DataType value) const {
    if (t.key_dtype() == key && (value == DT_INVALID || t.value_dtype() == value)) {
      return absl::OkStatus();
    }
    return KernelError(*this, "Signature mismatch, have: ", DataTypeString(key),
                       value == DT_INVALID ? "" : "->",
                       value == DT_INVALID ? "" : DataTypeString(value),
                       " expected: ", DataTypeString(t.key_dtype()), "->",
                       DataTypeString(t.value_dtype()));
  }
};

class InitializeTableOp final : public TableOpBase {
 public:
  using TableOpBase::TableOpBase;

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<LookupTable> table;
    OP_REQUIRES_OK(ctx, GetTable(ctx, &table));
    const Tensor& keys = ctx->input(1);
    const Tensor& values = ctx->input(2);
    OP_REQUIRES_OK(ctx, CheckDtypes(*table, keys.dtype(), values.dtype()));
    OP_REQUIRES(ctx, keys.dims() == 1,
                KernelError(*this, "Keys must be a vector, but received shape",
                            keys.shape().DebugString()));
    OP_REQUIRES(ctx, keys.NumElements() == values.NumElements(),
                KernelError(*this, "Keys and values must have the same size ",
                            keys.NumElements(), " vs ", values.NumElements()));
    OP_REQUIRES_OK(ctx, table->Initialize(keys, values));
  }
};
REGISTER_KERNEL_BUILDER(Name("InitializeTableV2").Device(DEVICE_CPU), InitializeTableOp);

// ---- InitializeTableFromTextFileV2 ----------------------------------------------------------

constexpr int64_t kWholeLine = -2;
constexpr int64_t kLineNumber = -1;

bool TextParsable(DataType dt) {
  return dt == DT_STRING || dt == DT_INT32 || dt == DT_INT64 || dt == DT_FLOAT || dt == DT_DOUBLE;
}

// Stores `field` (line `line` of the file) as element i of `t`.
absl::Status StoreField(const std::string& field, int64_t line, int64_t i, Tensor* t) {
  bool ok = true;
  switch (t->dtype()) {
    case DT_STRING: t->data<tstring>()[i] = field; break;
    case DT_INT32: ok = absl::SimpleAtoi(field, &t->data<int32_t>()[i]); break;
    case DT_INT64: ok = absl::SimpleAtoi(field, &t->data<int64_t>()[i]); break;
    case DT_FLOAT: ok = absl::SimpleAtof(field, &t->data<float>()[i]); break;
    case DT_DOUBLE: ok = absl::SimpleAtod(field, &t->data<double>()[i]); break;
    default: ok = false;
  }
  if (!ok) {
    return errors::InvalidArgument("Field ", field, " in line ", line, " is not a valid ",
                                   DataTypeString(t->dtype()), ".");
  }
  return absl::OkStatus();
}

class InitializeTableFromTextFileOp final : public TableOpBase {
 public:
  explicit InitializeTableFromTextFileOp(OpKernelConstruction* ctx) : TableOpBase(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("key_index", &key_index_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("value_index", &value_index_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("vocab_size", &vocab_size_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("delimiter", &delimiter_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("offset", &offset_));
  }

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<LookupTable> table;
    OP_REQUIRES_OK(ctx, GetTable(ctx, &table));
    const Tensor& filename_t = ctx->input(1);
    OP_REQUIRES(ctx, filename_t.dims() == 0,
                KernelError(*this, "filename should be a single string, but got ",
                            filename_t.shape().DebugString()));
    const std::string filename = filename_t.data<tstring>()[0];
    OP_REQUIRES(ctx, !filename.empty(), KernelError(*this, "filename cannot be empty."));
    OP_REQUIRES(ctx, delimiter_.size() == 1,
                KernelError(*this, "delimiter should be only 1 char"));
    OP_REQUIRES(ctx, key_index_ != kLineNumber || table->key_dtype() == DT_INT64,
                KernelError(*this, "Key index for line number requires table key dtype of "
                                   "int64, got ",
                            DataTypeString(table->key_dtype())));
    OP_REQUIRES(ctx, value_index_ != kLineNumber || table->value_dtype() == DT_INT64,
                KernelError(*this, "Value index for line number requires table value dtype of "
                                   "int64, got ",
                            DataTypeString(table->value_dtype())));
    for (DataType dt : {table->key_dtype(), table->value_dtype()}) {
      OP_REQUIRES(ctx, TextParsable(dt),
                  KernelError(*this, "Data type ", DataTypeString(dt), " not supported."));
    }
    std::ifstream file(filename, std::ios::binary);
    OP_REQUIRES(ctx, file.good(),
                errors::NotFound(filename, "; No such file or directory"));
    // TensorFlow's text-file initializer leaves an initialized table alone.
    if (table->IsInitialized()) return;
    std::ostringstream text;
    text << file.rdbuf();
    OP_REQUIRES(ctx, !file.bad(), errors::DataLoss("cannot read ", filename));
    Tensor keys, values;
    OP_REQUIRES_OK(ctx, Parse(filename, text.str(), table->key_dtype(), table->value_dtype(),
                              &keys, &values));
    OP_REQUIRES_OK(ctx, table->Initialize(keys, values));
  }

 private:
  // The lines of `text`, each to a (key, value) entry.
  absl::Status Parse(const std::string& filename, const std::string& text, DataType key_dtype,
                     DataType value_dtype, Tensor* keys, Tensor* values) const {
    std::vector<std::pair<std::string, size_t>> lines;  // (line without "\n" or "\r\n", end)
    for (size_t p = 0; p < text.size();) {
      size_t nl = text.find('\n', p);
      const size_t end = nl == std::string::npos ? text.size() : nl + 1;
      std::string line = text.substr(p, (nl == std::string::npos ? text.size() : nl) - p);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.emplace_back(std::move(line), end);
      p = end;
    }
    int64_t n = static_cast<int64_t>(lines.size());
    if (vocab_size_ >= 0) {
      if (n < vocab_size_) {
        // TensorFlow reads up to the end first: an empty line there is the error it reports.
        for (const auto& [line, end] : lines) {
          if (line.empty()) return EmptyLine(filename, end);
        }
        return KernelError(*this, "Invalid vocab_size in ", filename, ": expected ",
                           vocab_size_, " but got ", n);
      }
      n = vocab_size_;
    }
    *keys = Tensor(key_dtype, TensorShape({n}));
    *values = Tensor(value_dtype, TensorShape({n}));
    const int64_t columns = std::max(key_index_, value_index_) + 1;
    for (int64_t i = 0; i < n; ++i) {
      const std::string& line = lines[i].first;
      if (line.empty()) return EmptyLine(filename, lines[i].second);
      std::vector<std::string> fields;
      if (columns > 0) {
        fields = absl::StrSplit(line, delimiter_[0]);
        if (static_cast<int64_t>(fields.size()) < columns) {
          return KernelError(*this, "Invalid number of columns in ", filename, " line ", i, " (",
                             line, ") : expected at least ", columns, " got ", fields.size());
        }
      }
      for (auto [index, t] :
           {std::make_pair(key_index_, keys), std::make_pair(value_index_, values)}) {
        if (index == kLineNumber) {
          t->data<int64_t>()[i] = static_cast<int64_t>(static_cast<uint64_t>(i) +
                                                       static_cast<uint64_t>(offset_));
          continue;
        }
        absl::Status s = StoreField(index == kWholeLine ? line : fields[index], i, i, t);
        if (!s.ok()) return KernelError(*this, s.message());
      }
    }
    return absl::OkStatus();
  }

  absl::Status EmptyLine(const std::string& filename, size_t position) const {
    return KernelError(*this, "Invalid content in ", filename, ": empty line found at position ",
                       position, ".");
  }

  int64_t key_index_, value_index_, vocab_size_, offset_;
  std::string delimiter_;
};
REGISTER_KERNEL_BUILDER(Name("InitializeTableFromTextFileV2").Device(DEVICE_CPU),
                        InitializeTableFromTextFileOp);

// ---- queries and updates --------------------------------------------------------------------

class LookupTableFindOp final : public TableOpBase {
 public:
  using TableOpBase::TableOpBase;

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<LookupTable> table;
    OP_REQUIRES_OK(ctx, GetTable(ctx, &table));
    const Tensor& keys = ctx->input(1);
    const Tensor& default_value = ctx->input(2);
    OP_REQUIRES_OK(ctx, CheckDtypes(*table, keys.dtype(), default_value.dtype()));
    OP_REQUIRES(ctx, default_value.dims() == 0 || default_value.shape() == keys.shape(),
                KernelError(*this, "Expected shape [] or ", keys.shape().DebugString(),
                            " for default value, got ", default_value.shape().DebugString()));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, keys.shape(), &out));
    OP_REQUIRES_OK(ctx, table->Find(keys, default_value, out));
  }
};
REGISTER_KERNEL_BUILDER(Name("LookupTableFindV2").Device(DEVICE_CPU), LookupTableFindOp);

// Insert and Import: values have keys' shape.
template <bool kImport>
class LookupTableUpdateOp final : public TableOpBase {
 public:
  using TableOpBase::TableOpBase;

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<LookupTable> table;
    OP_REQUIRES_OK(ctx, GetTable(ctx, &table));
    const Tensor& keys = ctx->input(1);
    const Tensor& values = ctx->input(2);
    OP_REQUIRES_OK(ctx, CheckDtypes(*table, keys.dtype(), values.dtype()));
    OP_REQUIRES(ctx, keys.shape() == values.shape(),
                KernelError(*this, "Expected shape ", keys.shape().DebugString(),
                            " for value, got ", values.shape().DebugString()));
    OP_REQUIRES_OK(ctx, kImport ? table->Import(keys, values) : table->Insert(keys, values));
  }
};
REGISTER_KERNEL_BUILDER(Name("LookupTableInsertV2").Device(DEVICE_CPU),
                        LookupTableUpdateOp<false>);
REGISTER_KERNEL_BUILDER(Name("LookupTableImportV2").Device(DEVICE_CPU),
                        LookupTableUpdateOp<true>);

class LookupTableRemoveOp final : public TableOpBase {
 public:
  using TableOpBase::TableOpBase;

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<LookupTable> table;
    OP_REQUIRES_OK(ctx, GetTable(ctx, &table));
    OP_REQUIRES_OK(ctx, CheckDtypes(*table, ctx->input(1).dtype(), DT_INVALID));
    OP_REQUIRES_OK(ctx, table->Remove(ctx->input(1)));
  }
};
REGISTER_KERNEL_BUILDER(Name("LookupTableRemoveV2").Device(DEVICE_CPU), LookupTableRemoveOp);

class LookupTableSizeOp final : public TableOpBase {
 public:
  using TableOpBase::TableOpBase;

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<LookupTable> table;
    OP_REQUIRES_OK(ctx, GetTable(ctx, &table));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(), &out));
    out->data<int64_t>()[0] = table->Size();
  }
};
REGISTER_KERNEL_BUILDER(Name("LookupTableSizeV2").Device(DEVICE_CPU), LookupTableSizeOp);

class LookupTableExportOp final : public TableOpBase {
 public:
  using TableOpBase::TableOpBase;

  void Compute(OpKernelContext* ctx) override {
    std::shared_ptr<LookupTable> table;
    OP_REQUIRES_OK(ctx, GetTable(ctx, &table));
    OP_REQUIRES_OK(ctx, CheckDtypes(*table, ctx->expected_output_dtype(0),
                                    ctx->expected_output_dtype(1)));
    Tensor keys, values;
    table->Export(&keys, &values);
    ctx->set_output(0, keys);
    ctx->set_output(1, values);
  }
};
REGISTER_KERNEL_BUILDER(Name("LookupTableExportV2").Device(DEVICE_CPU), LookupTableExportOp);

}  // namespace
}  // namespace sg
