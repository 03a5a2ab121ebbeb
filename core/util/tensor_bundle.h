// TensorBundle: the V2 checkpoint format of TensorFlow, read and written by sg.
//
// A bundle with prefix P is
//   P.index                       a LevelDB-format table: key "" -> BundleHeaderProto, then one
//                                 BundleEntryProto per tensor name, keys in byte order;
//   P.data-00000-of-0000N ...     raw little-endian tensor bytes at each entry's offset; the entry
//                                 records the masked CRC32C of those bytes.
// A DT_STRING tensor is stored as the varint64 lengths of its elements, a 4-byte masked CRC32C of
// the lengths (each as a little-endian uint32), then the bytes of the elements.
//
//   BundleWriter w("/tmp/ckpt/model");
//   SG_RETURN_IF_ERROR(w.Add("w", tensor));
//   SG_RETURN_IF_ERROR(w.Finish());
//   SG_ASSIGN_OR_RETURN(auto r, BundleReader::Open("/tmp/ckpt/model"));
//   Tensor t;
//   SG_RETURN_IF_ERROR(r->Lookup("w", &t));
//
// Thread safety: a writer or reader is used by one thread at a time.
#ifndef SG_CORE_UTIL_TENSOR_BUNDLE_H_
#define SG_CORE_UTIL_TENSOR_BUNDLE_H_

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "core/proto/tensor_bundle.pb.h"

namespace sg {

// "<prefix>.index" and "<prefix>.data-%05d-of-%05d".
std::string BundleIndexFilename(const std::string& prefix);
std::string BundleDataFilename(const std::string& prefix, int shard, int num_shards);

// Writes one bundle of one data file. Tensors go to the data file as they are added; the index is
// written, and both files renamed to their final names, by Finish. The prefix's directory is
// created when missing.
class BundleWriter {
 public:
  explicit BundleWriter(std::string prefix);
  ~BundleWriter();  // drops the temporary files of an unfinished bundle
  BundleWriter(const BundleWriter&) = delete;
  BundleWriter& operator=(const BundleWriter&) = delete;

  // INVALID_ARGUMENT for a key added twice or a dtype the format cannot hold.
  absl::Status Add(const std::string& key, const Tensor& value);
  absl::Status Finish();
  // The first error seen (later calls return it too).
  const absl::Status& status() const { return status_; }

 private:
  const std::string prefix_;
  std::string tmp_data_, tmp_index_;
  std::FILE* data_ = nullptr;
  int64_t offset_ = 0;
  std::map<std::string, BundleEntryProto> entries_;
  absl::Status status_;
  bool finished_ = false;
};

// Reads a bundle. Open reads the whole index (indexes are small); data files are opened as their
// tensors are looked up.
class BundleReader {
 public:
  // NOT_FOUND when P.index does not exist; DATA_LOSS when it is not a readable table (truncated,
  // corrupt) or holds entries that do not parse; UNIMPLEMENTED for a big-endian bundle or a
  // version too new.
  static absl::StatusOr<std::unique_ptr<BundleReader>> Open(const std::string& prefix);
  ~BundleReader();

  const BundleHeaderProto& header() const { return header_; }
  // Every entry by key, in key order.
  const std::map<std::string, BundleEntryProto>& entries() const { return entries_; }
  bool Contains(const std::string& key) const { return entries_.count(key) > 0; }
  // NOT_FOUND "Key k not found in checkpoint P" when absent.
  absl::Status LookupEntry(const std::string& key, BundleEntryProto* entry) const;
  // Reads the tensor of `key`. NOT_FOUND for a missing key or data file; DATA_LOSS when the data
  // file is too short or the bytes do not match the recorded CRC32C; UNIMPLEMENTED for a tensor
  // stored in slices.
  absl::Status Lookup(const std::string& key, Tensor* value);

 private:
  explicit BundleReader(std::string prefix) : prefix_(std::move(prefix)) {}
  absl::Status ReadData(const BundleEntryProto& entry, std::string* bytes);

  const std::string prefix_;
  BundleHeaderProto header_;
  std::map<std::string, BundleEntryProto> entries_;
  std::map<int, std::FILE*> data_files_;
};

// Merges bundles (each written by a BundleWriter, as SaveV2 writes per shard) into one bundle at
// `merged_prefix`: their data files are renamed into the merged bundle's shards and one index is
// written. The inputs' index files are deleted; with `delete_old_dirs`, so are their directories
// when they are left empty. Errors: those of BundleReader::Open; INVALID_ARGUMENT for a key found
// in two inputs.
absl::Status MergeBundles(const std::vector<std::string>& prefixes,
                          const std::string& merged_prefix, bool delete_old_dirs);

}  // namespace sg

#endif  // SG_CORE_UTIL_TENSOR_BUNDLE_H_
