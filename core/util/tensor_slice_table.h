// V1 checkpoints, TensorFlow's "tensor slice" format, read and written as TensorFlow 1.x does
// (Save, SaveSlices, Restore, RestoreSlice, and RestoreV2 when no V2 bundle is there).
//
// A V1 checkpoint is one table file (LevelDB's table format, uncompressed) per shard. Its empty
// key holds a SavedTensorSlices whose `meta` lists each tensor (name, full shape, dtype, slices
// saved); every other key is the ordered-code encoding of (tensor name, slice) and holds a
// SavedTensorSlices whose `data` has that slice's values in the typed fields of a TensorProto.
// A checkpoint written by SaveSlices may hold several slices of one tensor, in one file or
// spread over the shards a file pattern matches.
#ifndef SG_CORE_UTIL_TENSOR_SLICE_TABLE_H_
#define SG_CORE_UTIL_TENSOR_SLICE_TABLE_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "core/proto/saved_tensor_slice.pb.h"
#include "core/util/saved_tensor_slice.h"

namespace sg {

// The table key of one saved slice: TensorFlow's ordered-code encoding of 0, the name, the rank,
// then per dim the start and the length (-1 for a whole dim), as signed numbers.
std::string EncodeTensorNameSlice(const std::string& name, const SavedSliceSpec& spec);

// Writes one V1 checkpoint file. Not thread safe.
class TensorSliceWriter {
 public:
  explicit TensorSliceWriter(std::string path) : path_(std::move(path)) {}

  // Adds `data`, the values of the part `spec` of tensor `name` (of dtype data.dtype()).
  // INVALID_ARGUMENT for an empty or repeated (name, slice), a name added before with another
  // dtype or full shape, data whose shape is not the slice's, or a dtype V1 checkpoints cannot
  // hold (uint32, uint64, resource handles, variants); UNIMPLEMENTED for bfloat16 (TensorFlow's
  // codes for both).
  absl::Status Add(const std::string& name, const SavedSliceSpec& spec, const Tensor& data);

  // Writes the file (under a temporary name, then renamed to the path). UNKNOWN or the
  // file system's error when it cannot be written.
  absl::Status Finish();

 private:
  std::string path_;
  std::map<std::string, SavedSliceMeta> meta_;      // by tensor name
  std::map<std::string, std::string> entries_;      // encoded key -> serialized value
};

// Reads the V1 checkpoint files a pattern matches. Thread compatible: const methods may run
// concurrently.
class TensorSliceReader {
 public:
  // Opens and indexes every file that `pattern` (a glob: *, ?, [...]) matches. NOT_FOUND when
  // none does; DATA_LOSS for a file that is not a V1 checkpoint.
  static absl::StatusOr<std::unique_ptr<TensorSliceReader>> Open(const std::string& pattern);
  ~TensorSliceReader();

  // The dtype and full shape saved for `name`; NOT_FOUND when no file has it.
  absl::Status Lookup(const std::string& name, DataType* dtype, TensorShape* shape) const;

  // Reads the part `spec` of tensor `name` (the whole tensor when spec.extents is empty) into a
  // new tensor of the part's shape. NOT_FOUND for an unknown name; INVALID_ARGUMENT when `dtype`
  // or spec's full shape differs from the checkpoint's, or the saved slices do not cover the
  // part; DATA_LOSS for an entry that does not decode.
  absl::Status Read(const std::string& name, DataType dtype, const SavedSliceSpec& spec,
                    Tensor* out) const;

 private:
  struct File;
  struct Slice {
    const File* file;
    SavedSliceSpec spec;  // full_shape and one extent per dim, (0, -1) for a whole dim
  };
  struct Entry {
    DataType dtype;
    TensorShape shape;
    std::vector<Slice> slices;
  };
  TensorSliceReader() = default;
  absl::Status ReadSlice(const std::string& name, const Entry& entry, const Slice& slice,
                         Tensor* values) const;

  std::string pattern_;
  std::vector<std::unique_ptr<File>> files_;
  std::map<std::string, Entry> tensors_;
};

}  // namespace sg

#endif  // SG_CORE_UTIL_TENSOR_SLICE_TABLE_H_
