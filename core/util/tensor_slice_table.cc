#include "core/util/tensor_slice_table.h"

#include <glob.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/util/table_footer.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/table.h"
#include "leveldb/table_builder.h"

namespace sg {
namespace {

// The format version TensorFlow's V1 writer records (its kTensorSliceVersion... producer 1).
constexpr int kTensorSliceVersion = 1;
// TensorFlow's table block size: with it, sg's files are byte for byte TensorFlow's.
constexpr size_t kTableBlockSize = 256 * 1024;

absl::Status FromLevelDb(const leveldb::Status& s, const std::string& file) {
  if (s.ok()) return absl::OkStatus();
  if (s.IsNotFound()) return errors::NotFound(file, ": ", s.ToString());
  if (s.IsCorruption()) {
    return errors::DataLoss(file, " is not a valid V1 checkpoint: ", s.ToString());
  }
  return errors::Unknown(file, ": ", s.ToString());
}

// ---- Ordered code (TensorFlow's key encoding, so that keys sort by their parts) -----------------

// A length byte, then the big-endian bytes of v without leading zeros (0 is one zero byte).
void AppendNumIncreasing(std::string* out, uint64_t v) {
  char buf[8];
  int len = 0;
  for (; v > 0; v >>= 8) buf[7 - len++] = static_cast<char>(v & 0xff);
  out->push_back(static_cast<char>(len));
  out->append(buf + 8 - len, len);
}

// The bytes with 0x00 written 0x00 0xff and 0xff written 0xff 0x00, then 0x00 0x01.
void AppendString(std::string* out, const std::string& s) {
  for (char c : s) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xff');
    if (c == '\xff') out->push_back('\0');
  }
  out->append("\0\1", 2);
}

// The shortest L in 1..10 bytes with |v| (v, or ~v when negative) below 2^(7L - 1): the
// sign-extended big-endian bytes of v, whose first L bits then flip to L ones (v >= 0) or L zeros
// (v < 0), so that the length reads off the first byte(s) and order follows the value.
void AppendSignedNumIncreasing(std::string* out, int64_t v) {
  const uint64_t x = v < 0 ? ~static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int len = 1;
  while (len < 10 && x >= (uint64_t{1} << (7 * len - 1))) ++len;
  unsigned char buf[10];
  const unsigned char sign = v < 0 ? 0xff : 0x00;
  buf[0] = buf[1] = sign;
  for (int i = 0; i < 8; ++i) buf[2 + i] = static_cast<unsigned char>(static_cast<uint64_t>(v) >> (56 - 8 * i));
  unsigned char* begin = buf + 10 - len;
  begin[0] ^= static_cast<unsigned char>(len >= 8 ? 0xff : (0xff00 >> len) & 0xff);
  if (len > 8) begin[1] ^= static_cast<unsigned char>((0xff00 >> (len - 8)) & 0xff);
  out->append(reinterpret_cast<const char*>(begin), len);
}

// The extents of `spec` as TensorFlow's TensorSliceProto: a whole dim has an empty Extent.
TensorSliceProto SliceProto(const SavedSliceSpec& spec) {
  TensorSliceProto p;
  for (const auto& [start, length] : spec.extents) {
    TensorSliceProto::Extent* e = p.add_extent();
    if (length == -1) continue;
    e->set_start(start);
    e->set_length(length);
  }
  return p;
}

// The inverse of SliceProto against a full shape; INVALID_ARGUMENT when it does not fit.
absl::Status SpecFromProto(const TensorSliceProto& p, const TensorShape& full,
                           SavedSliceSpec* spec) {
  if (p.extent_size() != full.dims()) {
    return errors::InvalidArgument("a saved slice has ", p.extent_size(),
                                   " extents for a tensor of shape ", full.DebugString());
  }
  spec->full_shape.assign(full.dim_sizes().begin(), full.dim_sizes().end());
  spec->extents.clear();
  for (int d = 0; d < full.dims(); ++d) {
    const TensorSliceProto::Extent& e = p.extent(d);
    if (e.has_length_case() == TensorSliceProto::Extent::HAS_LENGTH_NOT_SET) {
      spec->extents.push_back({0, -1});
      continue;
    }
    if (e.start() < 0 || e.length() < 0 || e.start() > full.dim_size(d) - e.length()) {
      return errors::InvalidArgument("a saved slice's extent ", e.start(), ",", e.length(),
                                     " does not fit dim ", d, " of ", full.DebugString());
    }
    spec->extents.push_back({e.start(), e.length()});
  }
  return absl::OkStatus();
}

}  // namespace

std::string EncodeTensorNameSlice(const std::string& name, const SavedSliceSpec& spec) {
  std::string key;
  AppendNumIncreasing(&key, 0);
  AppendString(&key, name);
  AppendNumIncreasing(&key, spec.extents.size());
  for (const auto& [start, length] : spec.extents) {
    AppendSignedNumIncreasing(&key, start);
    AppendSignedNumIncreasing(&key, length);
  }
  return key;
}

// ---- Writer -------------------------------------------------------------------------------------

absl::Status TensorSliceWriter::Add(const std::string& name, const SavedSliceSpec& spec,
                                    const Tensor& data) {
  if (name.empty()) return errors::InvalidArgument("a checkpoint tensor cannot have an empty name");
  const DataType dt = data.dtype();
  // The dtypes TensorFlow's V1 writer lacks, with its error codes.
  if (dt == DT_BFLOAT16) {
    return errors::Unimplemented("tensor ", name, ": saving data type bfloat16 in a V1 ",
                                 "checkpoint is not supported");
  }
  if (dt == DT_UINT32 || dt == DT_UINT64 || dt == DT_RESOURCE || dt == DT_VARIANT ||
      dt == DT_INVALID) {
    return errors::InvalidArgument("tensor ", name, ": a V1 checkpoint cannot hold ",
                                   DataTypeString(dt));
  }
  if (spec.extents.size() != spec.full_shape.size() || !(data.shape() == spec.SliceShape())) {
    return errors::InvalidArgument("tensor ", name, ": data of shape ", data.shape().DebugString(),
                                   " is not the shape of its slice ",
                                   spec.SliceShape().DebugString());
  }
  const TensorShape full = spec.FullShape();
  auto [it, fresh] = meta_.try_emplace(name);
  SavedSliceMeta& meta = it->second;
  if (fresh) {
    meta.set_name(name);
    meta.mutable_shape();  // present even for a scalar, as TensorFlow writes it
    for (int64_t d : spec.full_shape) meta.mutable_shape()->add_dim()->set_size(d);
    meta.set_type(dt);
  } else {
    bool same_shape = meta.shape().dim_size() == full.dims();
    for (int d = 0; same_shape && d < full.dims(); ++d) {
      same_shape = meta.shape().dim(d).size() == full.dim_size(d);
    }
    if (meta.type() != dt || !same_shape) {
      return errors::InvalidArgument("tensor ", name, " is added twice, with different ",
                                     "dtypes or shapes");
    }
  }
  const std::string key = EncodeTensorNameSlice(name, spec);
  if (entries_.count(key) > 0) {
    return errors::InvalidArgument("tensor ", name, ": the same slice is added twice");
  }
  *meta.add_slice() = SliceProto(spec);
  SavedTensorSlices value;
  SavedSlice* slice = value.mutable_data();
  slice->set_name(name);
  *slice->mutable_slice() = SliceProto(spec);
  data.AsProtoField(slice->mutable_data());
  slice->mutable_data()->clear_dtype();
  slice->mutable_data()->clear_tensor_shape();
  entries_[key] = value.SerializeAsString();
  return absl::OkStatus();
}

absl::Status TensorSliceWriter::Finish() {
  static std::atomic<int64_t> counter{0};
  const std::string tmp = absl::StrCat(path_, ".tempstate", getpid(), "_", counter.fetch_add(1));
  leveldb::WritableFile* raw = nullptr;
  SG_RETURN_IF_ERROR(FromLevelDb(leveldb::Env::Default()->NewWritableFile(tmp, &raw), tmp));
  std::unique_ptr<leveldb::WritableFile> file(raw);
  leveldb::Options options;
  options.compression = leveldb::kNoCompression;
  options.block_size = kTableBlockSize;
  leveldb::TableBuilder builder(options, file.get());
  SavedTensorSlices meta;
  for (const auto& [name, m] : meta_) *meta.mutable_meta()->add_tensor() = m;
  meta.mutable_meta()->mutable_versions()->set_producer(kTensorSliceVersion);
  builder.Add("", meta.SerializeAsString());
  for (const auto& [key, value] : entries_) builder.Add(key, value);
  leveldb::Status s = builder.Finish();
  if (s.ok()) s = file->Sync();
  if (s.ok()) s = file->Close();
  file.reset();
  absl::Status status = FromLevelDb(s, tmp);
  if (status.ok()) {
    std::error_code ec;
    std::filesystem::rename(tmp, path_, ec);
    if (ec) status = errors::Unknown("cannot rename ", tmp, " to ", path_, ": ", ec.message());
  }
  if (!status.ok()) std::remove(tmp.c_str());
  return status;
}

// ---- Reader -------------------------------------------------------------------------------------

struct TensorSliceReader::File {
  std::string path;
  std::unique_ptr<leveldb::RandomAccessFile> file;
  std::unique_ptr<leveldb::Table> table;
};

TensorSliceReader::~TensorSliceReader() = default;

absl::StatusOr<std::unique_ptr<TensorSliceReader>> TensorSliceReader::Open(
    const std::string& pattern) {
  std::unique_ptr<TensorSliceReader> reader(new TensorSliceReader);
  reader->pattern_ = pattern;
  std::vector<std::string> paths;
  glob_t g;
  if (glob(pattern.c_str(), 0, nullptr, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i) paths.emplace_back(g.gl_pathv[i]);
  }
  globfree(&g);
  if (paths.empty()) {
    return errors::NotFound("Unsuccessful TensorSliceReader constructor: Failed to find any ",
                            "matching files for ", pattern);
  }
  leveldb::Env* env = leveldb::Env::Default();
  for (const std::string& path : paths) {
    auto f = std::make_unique<File>();
    f->path = path;
    uint64_t size = 0;
    SG_RETURN_IF_ERROR(FromLevelDb(env->GetFileSize(path, &size), path));
    SG_RETURN_IF_ERROR(CheckTableFooter(path, size));
    leveldb::RandomAccessFile* raw_file = nullptr;
    SG_RETURN_IF_ERROR(FromLevelDb(env->NewRandomAccessFile(path, &raw_file), path));
    f->file.reset(raw_file);
    leveldb::Options options;
    options.paranoid_checks = true;
    leveldb::Table* raw_table = nullptr;
    SG_RETURN_IF_ERROR(
        FromLevelDb(leveldb::Table::Open(options, f->file.get(), size, &raw_table), path));
    f->table.reset(raw_table);
    leveldb::ReadOptions read_options;
    read_options.verify_checksums = true;
    std::unique_ptr<leveldb::Iterator> it(f->table->NewIterator(read_options));
    it->SeekToFirst();
    SavedTensorSlices meta;
    if (!it->Valid() || !it->key().empty() ||
        !meta.ParseFromArray(it->value().data(), static_cast<int>(it->value().size()))) {
      SG_RETURN_IF_ERROR(FromLevelDb(it->status(), path));
      return errors::DataLoss(path, " is not a V1 checkpoint: it has no meta entry");
    }
    for (const SavedSliceMeta& m : meta.meta().tensor()) {
      std::vector<int64_t> dims;
      for (const auto& d : m.shape().dim()) dims.push_back(d.size());
      auto shape = TensorShape::Build(dims);
      if (!shape.ok()) return errors::DataLoss(path, ": tensor ", m.name(), ": ", shape.status().message());
      auto [e, fresh] = reader->tensors_.try_emplace(m.name());
      if (fresh) {
        e->second.dtype = m.type();
        e->second.shape = *shape;
      } else if (e->second.dtype != m.type() || !(e->second.shape == *shape)) {
        return errors::DataLoss(path, ": tensor ", m.name(), " has another dtype or shape ",
                                "than in another file of ", pattern);
      }
      for (const TensorSliceProto& p : m.slice()) {
        Slice slice{f.get(), {}};
        absl::Status s = SpecFromProto(p, *shape, &slice.spec);
        if (!s.ok()) return errors::DataLoss(path, ": tensor ", m.name(), ": ", s.message());
        e->second.slices.push_back(std::move(slice));
      }
    }
    reader->files_.push_back(std::move(f));
  }
  return reader;
}

absl::Status TensorSliceReader::Lookup(const std::string& name, DataType* dtype,
                                       TensorShape* shape) const {
  auto it = tensors_.find(name);
  if (it == tensors_.end()) {
    return errors::NotFound("Tensor name \"", name, "\" not found in checkpoint files ", pattern_);
  }
  *dtype = it->second.dtype;
  *shape = it->second.shape;
  return absl::OkStatus();
}

absl::Status TensorSliceReader::ReadSlice(const std::string& name, const Entry& entry,
                                          const Slice& slice, Tensor* values) const {
  const std::string key = EncodeTensorNameSlice(name, slice.spec);
  leveldb::ReadOptions read_options;
  read_options.verify_checksums = true;
  std::unique_ptr<leveldb::Iterator> it(slice.file->table->NewIterator(read_options));
  it->Seek(key);
  if (!it->Valid() || it->key() != leveldb::Slice(key)) {
    SG_RETURN_IF_ERROR(FromLevelDb(it->status(), slice.file->path));
    return errors::DataLoss(slice.file->path, ": the data of tensor ", name,
                            " listed in its meta is missing");
  }
  SavedTensorSlices value;
  if (!value.ParseFromArray(it->value().data(), static_cast<int>(it->value().size()))) {
    return errors::DataLoss(slice.file->path, ": the data of tensor ", name, " does not parse");
  }
  TensorProto proto = value.data().data();
  proto.set_dtype(entry.dtype);
  slice.spec.SliceShape().AsProto(proto.mutable_tensor_shape());
  auto t = Tensor::FromProto(proto);
  if (!t.ok()) {
    return errors::DataLoss(slice.file->path, ": the data of tensor ", name, ": ",
                            t.status().message());
  }
  *values = std::move(*t);
  return absl::OkStatus();
}

absl::Status TensorSliceReader::Read(const std::string& name, DataType dtype,
                                     const SavedSliceSpec& spec, Tensor* out) const {
  DataType saved_dtype;
  TensorShape full;
  SG_RETURN_IF_ERROR(Lookup(name, &saved_dtype, &full));
  const Entry& entry = tensors_.at(name);
  if (dtype != saved_dtype) {
    return errors::InvalidArgument("tensor ", name, " is ", DataTypeString(saved_dtype),
                                   " in checkpoint ", pattern_, ", not ",
                                   DataTypeString(dtype));
  }
  SavedSliceSpec want = spec;
  if (want.extents.empty() && full.dims() > 0) {
    want.full_shape.assign(full.dim_sizes().begin(), full.dim_sizes().end());
    want.extents.assign(full.dims(), {0, -1});
  }
  if (!(want.FullShape() == full)) {
    return errors::InvalidArgument("tensor ", name, " has shape ", full.DebugString(),
                                   " in checkpoint ", pattern_, ", not ",
                                   want.FullShape().DebugString());
  }
  const int rank = full.dims();
  // Per dim, the requested [begin, end).
  std::vector<int64_t> lo(rank), hi(rank);
  for (int d = 0; d < rank; ++d) {
    const auto& [start, length] = want.extents[d];
    lo[d] = length == -1 ? 0 : start;
    hi[d] = length == -1 ? full.dim_size(d) : start + length;
  }
  // The common case: a slice saved exactly as requested (a whole tensor, mostly).
  for (const Slice& slice : entry.slices) {
    bool same = true;
    for (int d = 0; same && d < rank; ++d) {
      const auto& [start, length] = slice.spec.extents[d];
      same = (length == -1 ? 0 : start) == lo[d] &&
             (length == -1 ? full.dim_size(d) : start + length) == hi[d];
    }
    if (same) return ReadSlice(name, entry, slice, out);
  }
  auto result = Tensor::Allocate(dtype, want.SliceShape());
  if (!result.ok()) return result.status();
  Tensor& dst = *result;
  const int64_t total = dst.NumElements();
  if (total == 0) {
    *out = std::move(dst);
    return absl::OkStatus();
  }
  int64_t covered = 0;
  for (const Slice& slice : entry.slices) {
    // The intersection of the saved slice with the request, per dim.
    std::vector<int64_t> a(rank), b(rank), src_lo(rank);
    int64_t count = 1;
    for (int d = 0; d < rank; ++d) {
      const auto& [start, length] = slice.spec.extents[d];
      src_lo[d] = length == -1 ? 0 : start;
      const int64_t src_hi = length == -1 ? full.dim_size(d) : start + length;
      a[d] = std::max(lo[d], src_lo[d]);
      b[d] = std::min(hi[d], src_hi);
      count *= std::max<int64_t>(0, b[d] - a[d]);
    }
    if (count == 0) continue;
    Tensor src;
    SG_RETURN_IF_ERROR(ReadSlice(name, entry, slice, &src));
    // Row-major walk over the intersection, copying one element at a time by index.
    const size_t elem = DataTypeSize(dtype);
    std::vector<int64_t> idx(a);
    for (int64_t n = 0; n < count; ++n) {
      int64_t s = 0, t = 0;
      for (int d = 0; d < rank; ++d) {
        s = s * src.dim_size(d) + (idx[d] - src_lo[d]);
        t = t * dst.dim_size(d) + (idx[d] - lo[d]);
      }
      if (dtype == DT_STRING) {
        dst.data<tstring>()[t] = src.data<tstring>()[s];
      } else {
        std::memcpy(static_cast<char*>(dst.raw_data()) + t * elem,
                    static_cast<const char*>(src.raw_data()) + s * elem, elem);
      }
      for (int d = rank - 1; d >= 0; --d) {
        if (++idx[d] < b[d]) break;
        idx[d] = a[d];
      }
    }
    covered += count;
  }
  if (covered < total) {
    return errors::InvalidArgument("the saved slices of tensor ", name, " in ", pattern_,
                                   " do not cover the part requested");
  }
  *out = std::move(dst);
  return absl::OkStatus();
}

}  // namespace sg
