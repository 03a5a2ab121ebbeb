// The non-eager functions of TensorFlow's c_api_experimental.h that sg honours: config and run
// option builders, the graph's debug string, a checkpoint reader over sg's tensor bundles, op
// registry queries, shape-and-dtype lists, and the XLA switches (accepted, without effect: sg has
// no XLA). TF_AttrBuilder*, the named-tensor queue helpers and the device plugin loader are in
// tf_c_api_unimplemented.cc.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "c_api/c_api_internal.h"
#include "c_api/dropin/tf_handles.h"
#include "core/framework/op.h"
#include "core/proto/config.pb.h"
#include "core/proto/tensor_bundle.pb.h"
#include "core/util/tensor_bundle.h"

using sg::dropin::ToSg;
using sg::dropin::ToTf;
namespace errors = sg::errors;

// A checkpoint opened for reading; Lookup opens data files as it goes, hence the lock.
struct TF_CheckpointReader {
  absl::Mutex mu;
  std::unique_ptr<sg::BundleReader> reader ABSL_GUARDED_BY(mu);
  std::vector<std::string> names;  // the variables, in name order
};

namespace {

TF_Buffer* SerializedBuffer(const google::protobuf::MessageLite& message) {
  return sg::c_api::GuardValue<TF_Buffer*>(nullptr, [&] {
    const std::string bytes = message.SerializeAsString();
    return ToTf(SG_NewBufferFromString(bytes.data(), bytes.size()));
  });
}

// The entry of variable `name`, or nullptr.
const sg::BundleEntryProto* Entry(TF_CheckpointReader* r, const char* name)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(r->mu) {
  if (name == nullptr) return nullptr;
  auto it = r->reader->entries().find(name);
  return it == r->reader->entries().end() ? nullptr : &it->second;
}

// Item `index` of `list`, or nullptr when either is out of reach.
TF_ShapeAndType* Item(TF_ShapeAndTypeList* list, int index) {
  if (list == nullptr || index < 0 || index >= list->num_items) return nullptr;
  return &list->items[index];
}

}  // namespace

extern "C" {

// ---- XLA: sg has none; the switches are accepted and report "off" ------------------------------

void TF_EnableXLACompilation(TF_SessionOptions* options, unsigned char enable) {}
unsigned char TF_SetXlaEnableLazyCompilation(unsigned char enable) { return 0; }
unsigned char TF_SetTfXlaCpuGlobalJit(unsigned char enable) { return 0; }
void TF_SetXlaAutoJitMode(const char* mode) {}
unsigned char TF_GetXlaAutoJitEnabled(void) { return 0; }
void TF_SetXlaMinClusterSize(int size) {}
unsigned char TF_GetXlaConstantFoldingDisabled(void) { return 0; }
void TF_SetXlaConstantFoldingDisabled(unsigned char should_enable) {}

// ---- Configs, debug strings, statuses ----------------------------------------------------------

TF_Buffer* TF_CreateConfig(unsigned char enable_xla_compilation,
                           unsigned char gpu_memory_allow_growth, unsigned int num_cpu_devices) {
  sg::ConfigProto config;
  (*config.mutable_device_count())["CPU"] = static_cast<int32_t>(num_cpu_devices);
  return SerializedBuffer(config);
}

TF_Buffer* TF_CreateRunOptions(unsigned char enable_full_trace) {
  sg::RunOptions options;
  options.set_trace_level(enable_full_trace ? sg::RunOptions::FULL_TRACE
                                            : sg::RunOptions::NO_TRACE);
  return SerializedBuffer(options);
}

const char* TF_GraphDebugString(TF_Graph* graph, size_t* len) {
  if (len != nullptr) *len = 0;
  if (graph == nullptr) return nullptr;
  return sg::c_api::GuardValue<const char*>(nullptr, [&]() -> const char* {
    sg::GraphDef def;
    {
      SG_Graph* g = ToSg(graph);
      absl::MutexLock lock(&g->mu);
      g->graph.ToGraphDef(&def);
    }
    const std::string text = def.DebugString();
    char* copy = static_cast<char*>(std::malloc(text.size() + 1));
    if (copy == nullptr) return nullptr;
    std::memcpy(copy, text.c_str(), text.size() + 1);
    if (len != nullptr) *len = text.size();
    return copy;
  });
}

char* TF_FunctionDebugString(TF_Function* func, size_t* len) {
  if (len != nullptr) *len = 0;
  return nullptr;  // sg makes no TF_Function
}

void TF_MakeInternalErrorStatus(TF_Status* status, const char* errMsg) {
  SG_SetStatus(ToSg(status), SG_INTERNAL, errMsg);
}

// ---- Checkpoints --------------------------------------------------------------------------------

TF_CheckpointReader* TF_NewCheckpointReader(const char* filename, TF_Status* status) {
  TF_CheckpointReader* result = nullptr;
  sg::c_api::Guard("TF_NewCheckpointReader", ToSg(status), [&]() -> absl::Status {
    if (filename == nullptr) {
      return errors::InvalidArgument("TF_NewCheckpointReader: filename is NULL");
    }
    SG_ASSIGN_OR_RETURN(std::unique_ptr<sg::BundleReader> bundle,
                        sg::BundleReader::Open(filename));
    auto r = std::make_unique<TF_CheckpointReader>();
    for (const auto& entry : bundle->entries()) {
      if (!entry.first.empty()) r->names.push_back(entry.first);  // "" is the bundle's header
    }
    absl::MutexLock lock(&r->mu);
    r->reader = std::move(bundle);
    result = r.release();
    return absl::OkStatus();
  });
  return result;
}

void TF_DeleteCheckpointReader(TF_CheckpointReader* reader) { delete reader; }

int TF_CheckpointReaderHasTensor(TF_CheckpointReader* reader, const char* name) {
  if (reader == nullptr) return 0;
  absl::MutexLock lock(&reader->mu);
  return Entry(reader, name) != nullptr ? 1 : 0;
}

const char* TF_CheckpointReaderGetVariable(TF_CheckpointReader* reader, int index) {
  if (reader == nullptr || index < 0 || index >= static_cast<int>(reader->names.size())) {
    return nullptr;
  }
  return reader->names[index].c_str();
}

int TF_CheckpointReaderSize(TF_CheckpointReader* reader) {
  return reader == nullptr ? 0 : static_cast<int>(reader->names.size());
}

TF_DataType TF_CheckpointReaderGetVariableDataType(TF_CheckpointReader* reader,
                                                   const char* name) {
  if (reader == nullptr) return static_cast<TF_DataType>(0);
  absl::MutexLock lock(&reader->mu);
  const sg::BundleEntryProto* e = Entry(reader, name);
  return static_cast<TF_DataType>(e == nullptr ? 0 : e->dtype());
}

void TF_CheckpointReaderGetVariableShape(TF_CheckpointReader* reader, const char* name,
                                         int64_t* dims, int num_dims, TF_Status* status) {
  sg::c_api::Guard("TF_CheckpointReaderGetVariableShape", ToSg(status), [&]() -> absl::Status {
    if (reader == nullptr) {
      return errors::InvalidArgument("TF_CheckpointReaderGetVariableShape: reader is NULL");
    }
    SG_RETURN_IF_ERROR(sg::c_api::CheckArray(dims, num_dims, "dims"));
    absl::MutexLock lock(&reader->mu);
    const sg::BundleEntryProto* e = Entry(reader, name);
    if (e == nullptr) {
      return errors::NotFound("variable '", name == nullptr ? "(NULL)" : name,
                              "' is not in the checkpoint");
    }
    if (num_dims != e->shape().dim_size()) {
      return errors::InvalidArgument("variable '", name, "' has rank ", e->shape().dim_size(),
                                     ", not ", num_dims);
    }
    for (int i = 0; i < num_dims; ++i) dims[i] = e->shape().dim(i).size();
    return absl::OkStatus();
  });
}

int TF_CheckpointReaderGetVariableNumDims(TF_CheckpointReader* reader, const char* name) {
  if (reader == nullptr) return -1;
  absl::MutexLock lock(&reader->mu);
  const sg::BundleEntryProto* e = Entry(reader, name);
  return e == nullptr ? -1 : e->shape().dim_size();
}

TF_Tensor* TF_CheckpointReaderGetTensor(TF_CheckpointReader* reader, const char* name,
                                        TF_Status* status) {
  SG_Tensor* result = nullptr;
  sg::c_api::Guard("TF_CheckpointReaderGetTensor", ToSg(status), [&]() -> absl::Status {
    if (reader == nullptr || name == nullptr) {
      return errors::InvalidArgument("TF_CheckpointReaderGetTensor: ",
                                     reader == nullptr ? "reader" : "name", " is NULL");
    }
    sg::Tensor value;
    {
      absl::MutexLock lock(&reader->mu);
      SG_RETURN_IF_ERROR(reader->reader->Lookup(name, &value));
    }
    SG_ASSIGN_OR_RETURN(result, sg::c_api::FromTensor(value));
    return absl::OkStatus();
  });
  return ToTf(result);
}

// ---- The op registry ----------------------------------------------------------------------------

const char* TF_GetNumberAttrForOpListInput(const char* op_name, int input_index,
                                           TF_Status* status) {
  const char* result = nullptr;
  sg::c_api::Guard("TF_GetNumberAttrForOpListInput", ToSg(status), [&]() -> absl::Status {
    if (op_name == nullptr) {
      return errors::InvalidArgument("TF_GetNumberAttrForOpListInput: op_name is NULL");
    }
    const sg::OpDef* op_def = nullptr;
    SG_RETURN_IF_ERROR(sg::OpRegistry::Global()->LookUpOpDef(op_name, &op_def));
    if (input_index < 0 || input_index >= op_def->input_arg_size()) {
      return errors::InvalidArgument("op ", op_name, " has ", op_def->input_arg_size(),
                                     " inputs, there is no input ", input_index);
    }
    const std::string& attr = op_def->input_arg(input_index).number_attr();
    if (attr.empty()) {
      return errors::NotFound("input ", input_index, " of op ", op_name,
                              " is not a list of one type (it has no number_attr)");
    }
    result = attr.c_str();  // the registry's OpDef lives as long as the process
    return absl::OkStatus();
  });
  return result;
}

int TF_OpIsStateful(const char* op_type, TF_Status* status) {
  int result = 0;
  sg::c_api::Guard("TF_OpIsStateful", ToSg(status), [&]() -> absl::Status {
    if (op_type == nullptr) return errors::InvalidArgument("TF_OpIsStateful: op_type is NULL");
    const sg::OpDef* op_def = nullptr;
    SG_RETURN_IF_ERROR(sg::OpRegistry::Global()->LookUpOpDef(op_type, &op_def));
    result = op_def->is_stateful() ? 1 : 0;
    return absl::OkStatus();
  });
  return result;
}

// ---- Process helpers ----------------------------------------------------------------------------

void TF_InitMain(const char* usage, int* argc, char*** argv) {}

int TF_PickUnusedPortOrDie(void) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) continue;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;  // the kernel picks a free port
    socklen_t addr_len = sizeof(addr);
    const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
                    getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &addr_len) == 0;
    close(fd);
    if (ok) return ntohs(addr.sin_port);
  }
  std::fprintf(stderr, "TF_PickUnusedPortOrDie: no free TCP port on 127.0.0.1\n");
  std::abort();
}

// ---- Shape and dtype lists ----------------------------------------------------------------------

TF_ShapeAndTypeList* TF_NewShapeAndTypeList(int num_shapes) {
  if (num_shapes < 0) return nullptr;
  auto* list = static_cast<TF_ShapeAndTypeList*>(std::calloc(1, sizeof(TF_ShapeAndTypeList)));
  if (list == nullptr) return nullptr;
  list->num_items = num_shapes;
  if (num_shapes > 0) {
    list->items = static_cast<TF_ShapeAndType*>(std::calloc(num_shapes, sizeof(TF_ShapeAndType)));
    if (list->items == nullptr) {
      std::free(list);
      return nullptr;
    }
  }
  return list;
}

void TF_ShapeAndTypeListSetShape(TF_ShapeAndTypeList* shape_list, int index,
                                 const int64_t* dims, int num_dims) {
  TF_ShapeAndType* item = Item(shape_list, index);
  if (item == nullptr || num_dims < 0 || (dims == nullptr && num_dims > 0)) return;
  int64_t* copy = nullptr;
  if (num_dims > 0) {
    copy = static_cast<int64_t*>(std::malloc(num_dims * sizeof(int64_t)));
    if (copy == nullptr) return;
    std::memcpy(copy, dims, num_dims * sizeof(int64_t));
  }
  std::free(item->dims);
  item->dims = copy;
  item->num_dims = num_dims;
}

void TF_ShapeAndTypeListSetUnknownShape(TF_ShapeAndTypeList* shape_list, int index) {
  TF_ShapeAndType* item = Item(shape_list, index);
  if (item == nullptr) return;
  std::free(item->dims);
  item->dims = nullptr;
  item->num_dims = -1;
}

void TF_ShapeAndTypeListSetDtype(TF_ShapeAndTypeList* shape_list, int index,
                                 TF_DataType dtype) {
  TF_ShapeAndType* item = Item(shape_list, index);
  if (item != nullptr) item->dtype = dtype;
}

void TF_DeleteShapeAndTypeList(TF_ShapeAndTypeList* shape_list) {
  if (shape_list == nullptr) return;
  for (int i = 0; i < shape_list->num_items; ++i) std::free(shape_list->items[i].dims);
  std::free(shape_list->items);
  std::free(shape_list);
}

void TF_DeleteShapeAndTypeListArray(TF_ShapeAndTypeList** shape_list_array, int num_items) {
  if (shape_list_array == nullptr) return;
  for (int i = 0; i < num_items; ++i) TF_DeleteShapeAndTypeList(shape_list_array[i]);
  std::free(shape_list_array);
}

// ---- Import options -----------------------------------------------------------------------------

void TF_ImportGraphDefOptionsSetValidateColocationConstraints(TF_ImportGraphDefOptions* opts,
                                                              unsigned char enable) {}

}  // extern "C"
