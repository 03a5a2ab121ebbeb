#include "core/util/tensor_bundle.h"

#include <atomic>
#include <cstring>
#include <filesystem>
#include <utility>

#include <unistd.h>

#include "absl/strings/str_format.h"
#include "core/util/crc32c.h"
#include "core/util/table_footer.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/table.h"
#include "leveldb/table_builder.h"

namespace sg {
namespace {

namespace fs = std::filesystem;

// The format version sg writes, and the newest it reads (TensorFlow's kTensorBundleVersion).
constexpr int kBundleVersion = 1;

absl::Status FromLevelDb(const leveldb::Status& s, const std::string& file) {
  if (s.ok()) return absl::OkStatus();
  if (s.IsNotFound()) return errors::NotFound(file, ": ", s.ToString());
  if (s.IsCorruption()) return errors::DataLoss(file, " is not a valid checkpoint index: ", s.ToString());
  return errors::Unknown(file, ": ", s.ToString());
}

std::string TempSuffix() {
  static std::atomic<int64_t> counter{0};
  return absl::StrCat(".tempstate", getpid(), "_", counter.fetch_add(1));
}

void PutVarint64(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool GetVarint64(const char** p, const char* end, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && *p < end; shift += 7) {
    uint64_t byte = static_cast<uint8_t>(**p);
    ++*p;
    result |= (byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      *v = result;
      return true;
    }
  }
  return false;
}

// Element sizes enter the CRC as uint32 when they fit (older checkpoints only had those), as
// uint64 otherwise.
uint32_t ExtendCrcWithLength(uint32_t crc, uint64_t len) {
  if (len <= 0xffffffffu) {
    uint32_t l32 = static_cast<uint32_t>(len);
    return crc32c::Extend(crc, &l32, sizeof(l32));
  }
  return crc32c::Extend(crc, &len, sizeof(len));
}

bool IsStorable(DataType dt) { return dt == DT_STRING || DataTypeSize(dt) > 0; }

// The bytes of `t` in the data file, and the (unmasked) CRC32C the entry records for them.
absl::Status EncodeTensor(const Tensor& t, std::string* bytes, uint32_t* crc) {
  if (t.dtype() != DT_STRING) {
    const size_t n = static_cast<size_t>(t.NumElements()) * DataTypeSize(t.dtype());
    bytes->assign(static_cast<const char*>(t.raw_data()), n);
    *crc = crc32c::Value(bytes->data(), bytes->size());
    return absl::OkStatus();
  }
  const tstring* s = t.data<tstring>();
  const int64_t n = t.NumElements();
  bytes->clear();
  uint32_t c = 0;
  for (int64_t i = 0; i < n; ++i) {
    PutVarint64(bytes, s[i].size());
    c = ExtendCrcWithLength(c, s[i].size());
  }
  const uint32_t length_crc = crc32c::Mask(c);
  bytes->append(reinterpret_cast<const char*>(&length_crc), sizeof(length_crc));
  c = crc32c::Extend(c, &length_crc, sizeof(length_crc));
  for (int64_t i = 0; i < n; ++i) {
    bytes->append(s[i]);
    c = crc32c::Extend(c, s[i].data(), s[i].size());
  }
  *crc = c;
  return absl::OkStatus();
}

// Fills `t` (already of the entry's dtype and shape) from the bytes of the data file; DATA_LOSS
// when they do not fit or do not match the entry's CRC32C.
absl::Status DecodeTensor(const std::string& key, const BundleEntryProto& entry,
                          const std::string& bytes, Tensor* t) {
  const uint32_t expected = crc32c::Unmask(entry.crc32c());
  if (t->dtype() != DT_STRING) {
    const size_t n = static_cast<size_t>(t->NumElements()) * DataTypeSize(t->dtype());
    if (bytes.size() != n) {
      return errors::DataLoss("checkpoint entry ", key, " holds ", bytes.size(),
                              " bytes, its shape ", t->shape().DebugString(), " needs ", n);
    }
    const uint32_t actual = crc32c::Value(bytes.data(), bytes.size());
    if (actual != expected) {
      return errors::DataLoss("checksum mismatch for checkpoint entry ", key, ": stored ",
                              expected, ", computed ", actual, " on the restored bytes");
    }
    if (n > 0) std::memcpy(t->raw_data(), bytes.data(), n);
    return absl::OkStatus();
  }
  const int64_t n = t->NumElements();
  const char* p = bytes.data();
  const char* end = p + bytes.size();
  std::vector<uint64_t> lengths(n);
  uint32_t c = 0;
  uint64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!GetVarint64(&p, end, &lengths[i])) {
      return errors::DataLoss("checkpoint entry ", key, ": string lengths are cut short");
    }
    c = ExtendCrcWithLength(c, lengths[i]);
    total += lengths[i];
  }
  uint32_t length_crc;
  if (end - p < static_cast<ptrdiff_t>(sizeof(length_crc))) {
    return errors::DataLoss("checkpoint entry ", key, ": string length checksum is missing");
  }
  std::memcpy(&length_crc, p, sizeof(length_crc));
  if (crc32c::Unmask(length_crc) != c) {
    return errors::DataLoss("checksum mismatch for the string lengths of checkpoint entry ", key);
  }
  c = crc32c::Extend(c, p, sizeof(length_crc));
  p += sizeof(length_crc);
  if (static_cast<uint64_t>(end - p) != total) {
    return errors::DataLoss("checkpoint entry ", key, ": string bytes do not match their lengths");
  }
  tstring* out = t->data<tstring>();
  for (int64_t i = 0; i < n; ++i) {
    out[i].assign(p, lengths[i]);
    c = crc32c::Extend(c, p, lengths[i]);
    p += lengths[i];
  }
  if (c != expected) {
    return errors::DataLoss("checksum mismatch for checkpoint entry ", key, ": stored ", expected,
                            ", computed ", c, " on the restored bytes");
  }
  return absl::OkStatus();
}

// Writes an index table: the header under "", then the entries in key order.
absl::Status WriteIndex(const std::string& path, const BundleHeaderProto& header,
                        const std::map<std::string, BundleEntryProto>& entries) {
  leveldb::WritableFile* raw = nullptr;
  SG_RETURN_IF_ERROR(FromLevelDb(leveldb::Env::Default()->NewWritableFile(path, &raw), path));
  std::unique_ptr<leveldb::WritableFile> file(raw);
  leveldb::Options options;
  options.compression = leveldb::kNoCompression;
  leveldb::TableBuilder builder(options, file.get());
  builder.Add("", header.SerializeAsString());
  for (const auto& [key, entry] : entries) {
    if (key.empty()) return errors::InvalidArgument("a checkpoint tensor cannot have an empty name");
    builder.Add(key, entry.SerializeAsString());
  }
  leveldb::Status s = builder.Finish();
  if (s.ok()) s = file->Sync();
  if (s.ok()) s = file->Close();
  return FromLevelDb(s, path);
}

absl::Status Rename(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) return errors::Unknown("cannot rename ", from, " to ", to, ": ", ec.message());
  return absl::OkStatus();
}

absl::Status CreateParentDir(const std::string& prefix) {
  fs::path dir = fs::path(prefix).parent_path();
  if (dir.empty()) return absl::OkStatus();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return errors::Unknown("cannot create directory ", dir.string(), ": ", ec.message());
  return absl::OkStatus();
}

}  // namespace

std::string BundleIndexFilename(const std::string& prefix) { return prefix + ".index"; }

std::string BundleDataFilename(const std::string& prefix, int shard, int num_shards) {
  return absl::StrFormat("%s.data-%05d-of-%05d", prefix, shard, num_shards);
}

// ---- BundleWriter ----------------------------------------------------------------------------

BundleWriter::BundleWriter(std::string prefix) : prefix_(std::move(prefix)) {
  const std::string suffix = TempSuffix();
  tmp_data_ = BundleDataFilename(prefix_, 0, 1) + suffix;
  tmp_index_ = BundleIndexFilename(prefix_) + suffix;
  status_ = CreateParentDir(prefix_);
  if (!status_.ok()) return;
  data_ = std::fopen(tmp_data_.c_str(), "wb");
  if (data_ == nullptr) {
    status_ = errors::Unknown("cannot create checkpoint data file ", tmp_data_, ": ",
                              std::strerror(errno));
  }
}

BundleWriter::~BundleWriter() {
  if (data_ != nullptr) std::fclose(data_);
  if (!finished_) {
    std::error_code ec;
    fs::remove(tmp_data_, ec);
    fs::remove(tmp_index_, ec);
  }
}

absl::Status BundleWriter::Add(const std::string& key, const Tensor& value) {
  SG_RETURN_IF_ERROR(status_);
  if (finished_) return errors::FailedPrecondition("bundle ", prefix_, " is already finished");
  if (key.empty()) return errors::InvalidArgument("a checkpoint tensor cannot have an empty name");
  if (entries_.count(key)) {
    return errors::InvalidArgument("tensor ", key, " is added twice to checkpoint ", prefix_);
  }
  if (!IsStorable(value.dtype())) {
    return errors::InvalidArgument("tensor ", key, " has dtype ", DataTypeString(value.dtype()),
                                   ", which a checkpoint cannot hold");
  }
  if (!value.IsInitialized()) {
    return errors::FailedPrecondition("tensor ", key, " to save is not initialized");
  }
  std::string bytes;
  uint32_t crc = 0;
  SG_RETURN_IF_ERROR(EncodeTensor(value, &bytes, &crc));
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), data_) != bytes.size()) {
    status_ = errors::Unknown("cannot write checkpoint data file ", tmp_data_, ": ",
                              std::strerror(errno));
    return status_;
  }
  BundleEntryProto& entry = entries_[key];
  entry.set_dtype(value.dtype());
  value.shape().AsProto(entry.mutable_shape());
  entry.set_shard_id(0);
  entry.set_offset(offset_);
  entry.set_size(static_cast<int64_t>(bytes.size()));
  entry.set_crc32c(crc32c::Mask(crc));
  offset_ += static_cast<int64_t>(bytes.size());
  return absl::OkStatus();
}

absl::Status BundleWriter::Finish() {
  SG_RETURN_IF_ERROR(status_);
  if (finished_) return absl::OkStatus();
  const bool closed_ok = std::fflush(data_) == 0 && std::fclose(data_) == 0;
  data_ = nullptr;
  if (!closed_ok) {
    status_ = errors::Unknown("cannot write checkpoint data file ", tmp_data_);
    return status_;
  }
  BundleHeaderProto header;
  header.set_num_shards(1);
  header.set_endianness(BundleHeaderProto::LITTLE);
  header.mutable_version()->set_producer(kBundleVersion);
  status_ = WriteIndex(tmp_index_, header, entries_);
  if (status_.ok()) status_ = Rename(tmp_data_, BundleDataFilename(prefix_, 0, 1));
  if (status_.ok()) status_ = Rename(tmp_index_, BundleIndexFilename(prefix_));
  if (status_.ok()) finished_ = true;
  return status_;
}

// ---- BundleReader ----------------------------------------------------------------------------

absl::StatusOr<std::unique_ptr<BundleReader>> BundleReader::Open(const std::string& prefix) {
  std::unique_ptr<BundleReader> reader(new BundleReader(prefix));
  const std::string path = BundleIndexFilename(prefix);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return errors::NotFound("checkpoint index ", path, " not found");
  }
  leveldb::Env* env = leveldb::Env::Default();
  uint64_t size = 0;
  SG_RETURN_IF_ERROR(FromLevelDb(env->GetFileSize(path, &size), path));
  SG_RETURN_IF_ERROR(CheckTableFooter(path, size));
  leveldb::RandomAccessFile* raw_file = nullptr;
  SG_RETURN_IF_ERROR(FromLevelDb(env->NewRandomAccessFile(path, &raw_file), path));
  std::unique_ptr<leveldb::RandomAccessFile> file(raw_file);
  leveldb::Options options;
  options.paranoid_checks = true;
  leveldb::Table* raw_table = nullptr;
  SG_RETURN_IF_ERROR(FromLevelDb(leveldb::Table::Open(options, file.get(), size, &raw_table), path));
  std::unique_ptr<leveldb::Table> table(raw_table);
  leveldb::ReadOptions read_options;
  read_options.verify_checksums = true;
  read_options.fill_cache = false;
  std::unique_ptr<leveldb::Iterator> it(table->NewIterator(read_options));
  bool have_header = false;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const leveldb::Slice key = it->key(), value = it->value();
    if (key.empty()) {
      if (!reader->header_.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
        return errors::DataLoss(path, ": the header entry does not parse as BundleHeaderProto");
      }
      have_header = true;
      continue;
    }
    BundleEntryProto entry;
    if (!entry.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
      return errors::DataLoss(path, ": the entry of ", key.ToString(),
                              " does not parse as BundleEntryProto");
    }
    reader->entries_.emplace(key.ToString(), std::move(entry));
  }
  SG_RETURN_IF_ERROR(FromLevelDb(it->status(), path));
  if (!have_header) return errors::DataLoss(path, ": the checkpoint index has no header entry");
  const BundleHeaderProto& h = reader->header_;
  if (h.endianness() != BundleHeaderProto::LITTLE) {
    return errors::Unimplemented(path, ": big-endian checkpoints are not supported");
  }
  if (h.version().min_consumer() > kBundleVersion) {
    return errors::Unimplemented(path, ": checkpoint needs a reader of version ",
                                 h.version().min_consumer(), ", sg reads up to ", kBundleVersion);
  }
  if (h.num_shards() < 1 && !reader->entries_.empty()) {
    return errors::DataLoss(path, ": the header says ", h.num_shards(), " data files");
  }
  return reader;
}

BundleReader::~BundleReader() {
  for (auto& [shard, f] : data_files_) std::fclose(f);
}

absl::Status BundleReader::LookupEntry(const std::string& key, BundleEntryProto* entry) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    return errors::NotFound("Key ", key, " not found in checkpoint ", prefix_);
  }
  *entry = it->second;
  return absl::OkStatus();
}

absl::Status BundleReader::ReadData(const BundleEntryProto& entry, std::string* bytes) {
  const int num_shards = header_.num_shards();
  if (entry.shard_id() < 0 || entry.shard_id() >= num_shards) {
    return errors::DataLoss("checkpoint ", prefix_, ": entry names data file ", entry.shard_id(),
                            " of ", num_shards);
  }
  const std::string path = BundleDataFilename(prefix_, entry.shard_id(), num_shards);
  std::FILE*& f = data_files_[entry.shard_id()];
  if (f == nullptr) {
    f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
      data_files_.erase(entry.shard_id());
      return errors::NotFound("checkpoint data file ", path, " cannot be opened: ",
                              std::strerror(errno));
    }
  }
  if (entry.offset() < 0 || entry.size() < 0) {
    return errors::DataLoss("checkpoint ", prefix_, ": entry with negative offset or size");
  }
  std::error_code ec;
  const uint64_t file_size = fs::file_size(path, ec);
  if (ec || static_cast<uint64_t>(entry.offset()) + entry.size() > file_size) {
    return errors::DataLoss("checkpoint data file ", path, " is too short: the entry needs bytes [",
                            entry.offset(), ", ", entry.offset() + entry.size(), "), the file has ",
                            ec ? 0 : file_size);
  }
  bytes->resize(entry.size());
  if (fseeko(f, entry.offset(), SEEK_SET) != 0 ||
      std::fread(&(*bytes)[0], 1, bytes->size(), f) != bytes->size()) {
    return errors::DataLoss("cannot read ", entry.size(), " bytes at offset ", entry.offset(),
                            " of ", path);
  }
  return absl::OkStatus();
}

absl::Status BundleReader::Lookup(const std::string& key, Tensor* value) {
  BundleEntryProto entry;
  SG_RETURN_IF_ERROR(LookupEntry(key, &entry));
  if (entry.slices_size() > 0) {
    return errors::Unimplemented("checkpoint entry ", key,
                                 " is stored in slices (a partitioned variable)");
  }
  if (!IsStorable(entry.dtype())) {
    return errors::DataLoss("checkpoint entry ", key, " has dtype ",
                            DataTypeString(entry.dtype()), ", which sg cannot restore");
  }
  absl::StatusOr<TensorShape> shape = TensorShape::FromProto(entry.shape());
  if (!shape.ok()) {
    return errors::DataLoss("checkpoint entry ", key, " has a bad shape: ",
                            shape.status().message());
  }
  std::string bytes;
  SG_RETURN_IF_ERROR(ReadData(entry, &bytes));
  SG_ASSIGN_OR_RETURN(Tensor t, Tensor::Allocate(entry.dtype(), *shape));
  SG_RETURN_IF_ERROR(DecodeTensor(key, entry, bytes, &t));
  *value = std::move(t);
  return absl::OkStatus();
}

// ---- MergeBundles ----------------------------------------------------------------------------

absl::Status MergeBundles(const std::vector<std::string>& prefixes,
                          const std::string& merged_prefix, bool delete_old_dirs) {
  std::vector<std::unique_ptr<BundleReader>> readers;
  int total_shards = 0;
  for (const std::string& p : prefixes) {
    SG_ASSIGN_OR_RETURN(auto r, BundleReader::Open(p));
    total_shards += std::max(1, r->header().num_shards());
    readers.push_back(std::move(r));
  }
  SG_RETURN_IF_ERROR(CreateParentDir(merged_prefix));
  std::map<std::string, BundleEntryProto> merged;
  int next_shard = 0;
  for (size_t i = 0; i < readers.size(); ++i) {
    const int n = std::max(1, readers[i]->header().num_shards());
    for (const auto& [key, entry] : readers[i]->entries()) {
      BundleEntryProto e = entry;
      e.set_shard_id(next_shard + entry.shard_id());
      if (!merged.emplace(key, std::move(e)).second) {
        return errors::InvalidArgument("tensor ", key, " is in more than one checkpoint to merge");
      }
    }
    for (int s = 0; s < n; ++s) {
      const std::string from = BundleDataFilename(prefixes[i], s, n);
      std::error_code ec;
      if (!fs::exists(from, ec)) {
        if (readers[i]->entries().empty()) continue;
        return errors::NotFound("checkpoint data file ", from, " not found");
      }
      SG_RETURN_IF_ERROR(Rename(from, BundleDataFilename(merged_prefix, next_shard + s,
                                                         total_shards)));
    }
    next_shard += n;
  }
  BundleHeaderProto header;
  header.set_num_shards(total_shards);
  header.set_endianness(BundleHeaderProto::LITTLE);
  header.mutable_version()->set_producer(kBundleVersion);
  const std::string tmp_index = BundleIndexFilename(merged_prefix) + TempSuffix();
  absl::Status s = WriteIndex(tmp_index, header, merged);
  if (s.ok()) s = Rename(tmp_index, BundleIndexFilename(merged_prefix));
  if (!s.ok()) {
    std::error_code ec;
    fs::remove(tmp_index, ec);
    return s;
  }
  readers.clear();
  for (const std::string& p : prefixes) {
    std::error_code ec;
    if (BundleIndexFilename(p) != BundleIndexFilename(merged_prefix)) {
      fs::remove(BundleIndexFilename(p), ec);
    }
    if (delete_old_dirs) {
      fs::path dir = fs::path(p).parent_path();
      // Removes the directory only when it is now empty.
      if (!dir.empty()) fs::remove(dir, ec);
    }
  }
  return absl::OkStatus();
}

}  // namespace sg
