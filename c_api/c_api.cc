// C API: version, status, buffers, data types, session options, and the helpers the other
// c_api_*.cc files share. Each C function converts its arguments and delegates.
#include <cstdlib>
#include <cstring>
#include <new>

#include "c_api/c_api_internal.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/cord.h"
#include "absl/synchronization/mutex.h"
#include "core/framework/types.h"
#include "core/framework/op_kernel.h"
#include "core/proto/kernel_def.pb.h"
#include "core/proto/op_def.pb.h"

namespace sg {
namespace c_api {

namespace {
std::atomic<MessageRewriter> message_rewriter{nullptr};
}  // namespace

void SetMessageRewriter(MessageRewriter rewriter) {
  message_rewriter.store(rewriter, std::memory_order_release);
}

void Set(SG_Status* status, const absl::Status& s) {
  if (status == nullptr) return;
  MessageRewriter rewrite = message_rewriter.load(std::memory_order_acquire);
  if (rewrite != nullptr && !s.ok()) {
    try {
      absl::Status rewritten(s.code(), rewrite(s.message()));
      s.ForEachPayload([&](absl::string_view key, const absl::Cord& value) {
        rewritten.SetPayload(key, value);
      });
      status->status = std::move(rewritten);
      return;
    } catch (...) {  // out of memory: the message as it was
    }
  }
  status->status = s;
}

std::string OutputName(SG_Output out) {
  if (out.oper == nullptr) return absl::StrCat("<null>:", out.index);
  return absl::StrCat(ToNode(out.oper)->name(), ":", out.index);
}

absl::Status CheckOwned(const Graph& g, const SG_Operation* oper, const std::string& what) {
  if (oper == nullptr) return errors::InvalidArgument(what, " is a NULL operation");
  const Node* n = ToNode(oper);
  // A Node of another graph still has an id; it is ours only if our table holds it there.
  if (g.FindNodeId(n->id()) != n) {
    return errors::InvalidArgument(what, " is an operation of another graph (or a removed one)");
  }
  return absl::OkStatus();
}

absl::Status CheckArray(const void* ptr, int count, const char* what) {
  if (count < 0) return errors::InvalidArgument(what, ": negative count ", count);
  if (ptr == nullptr && count > 0) {
    return errors::InvalidArgument(what, " is NULL but its count is ", count);
  }
  return absl::OkStatus();
}

absl::Status CheckEmptyBuffer(const SG_Buffer* buf, const char* what) {
  if (buf == nullptr) return errors::InvalidArgument(what, " is a NULL buffer");
  if (buf->data != nullptr || buf->length != 0) {
    return errors::InvalidArgument("Passing non-empty SG_Buffer is invalid (", what, ")");
  }
  return absl::OkStatus();
}

void FillBuffer(const std::string& bytes, SG_Buffer* buf) {
  void* copy = std::malloc(bytes.empty() ? 1 : bytes.size());
  if (copy == nullptr) throw std::bad_alloc();
  std::memcpy(copy, bytes.data(), bytes.size());
  buf->data = copy;
  buf->length = bytes.size();
  buf->data_deallocator = [](void* data, size_t) { std::free(data); };
}

namespace {

// The serialized KernelList of op `op`'s registrations (of every op when `op` is empty).
std::string SerializedKernelList(absl::string_view op) {
  KernelList list;
  for (const KernelDefBuilder& def : KernelRegistry::Global()->Kernels(op)) {
    KernelDef* k = list.add_kernel();
    k->set_op(def.op_);
    k->set_device_type(def.device_);
    for (const KernelDefBuilder::Constraint& c : def.constraints_) {
      KernelDef::AttrConstraint* a = k->add_constraint();
      a->set_name(c.attr);
      for (DataType t : c.allowed) a->mutable_allowed_values()->mutable_list()->add_type(t);
    }
    for (const std::string& arg : def.host_memory_args_) k->add_host_memory_arg(arg);
    k->set_priority(def.priority_);
  }
  return list.SerializeAsString();
}

// A new SG_Buffer holding `bytes`, or RESOURCE_EXHAUSTED naming `where`.
absl::StatusOr<SG_Buffer*> NewBuffer(const std::string& bytes, const char* where) {
  SG_Buffer* buf = SG_NewBufferFromString(bytes.data(), bytes.size());
  if (buf == nullptr) return errors::ResourceExhausted(where, ": out of memory");
  return buf;
}

}  // namespace

namespace {
// Every live SG_Graph by its sg::Graph, for GraphOf.
absl::Mutex graphs_mu(absl::kConstInit);
absl::flat_hash_map<const sg::Graph*, SG_Graph*>& Graphs() ABSL_EXCLUSIVE_LOCKS_REQUIRED(graphs_mu) {
  static auto* graphs = new absl::flat_hash_map<const sg::Graph*, SG_Graph*>;
  return *graphs;
}
}  // namespace

SG_Graph* GraphOf(const sg::Node* n) {
  absl::MutexLock lock(&graphs_mu);
  auto it = Graphs().find(n->graph());
  return it == Graphs().end() ? nullptr : it->second;
}

void ReleaseGraph(SG_Graph* g, bool from_session) {
  bool del;
  {
    absl::MutexLock lock(&g->mu);
    if (from_session) {
      --g->num_sessions;
    } else {
      g->delete_requested = true;
    }
    del = g->delete_requested && g->num_sessions == 0;
  }
  if (del) delete g;
}

}  // namespace c_api
}  // namespace sg

SG_Graph::SG_Graph() {
  absl::MutexLock lock(&sg::c_api::graphs_mu);
  sg::c_api::Graphs()[&graph] = this;
}

SG_Graph::~SG_Graph() {
  absl::MutexLock lock(&sg::c_api::graphs_mu);
  sg::c_api::Graphs().erase(&graph);
}

using sg::c_api::Guard;
using sg::c_api::Set;
using sg::c_api::SetOk;
namespace errors = sg::errors;

namespace {

// Applies `fn` to the options' ConfigProto after the NULL check.
template <typename Fn>
void SetConfigField(const char* where, SG_SessionOptions* options, SG_Status* status, Fn&& fn) {
  Guard(where, status, [&]() -> absl::Status {
    if (options == nullptr) return errors::InvalidArgument(where, ": options is NULL");
    return fn(&options->options.config);
  });
}

}  // namespace

extern "C" {

const char* SG_Version(void) { return SG_VERSION_STRING; }

const char* SG_TensorFlowVersion(void) { return SG_TENSORFLOW_VERSION_STRING; }

// ---- status ----------------------------------------------------------------------------------

SG_Status* SG_NewStatus(void) { return new (std::nothrow) SG_Status; }

void SG_DeleteStatus(SG_Status* s) { delete s; }

void SG_SetStatus(SG_Status* s, SG_Code code, const char* msg) {
  if (s == nullptr) return;
  if (code == SG_OK) {
    s->status = absl::OkStatus();
    return;
  }
  try {
    s->status = absl::Status(static_cast<absl::StatusCode>(code), msg ? msg : "");
  } catch (...) {
    s->status = absl::Status(static_cast<absl::StatusCode>(code), "");
  }
}

SG_Code SG_GetCode(const SG_Status* s) {
  if (s == nullptr) return SG_INVALID_ARGUMENT;
  return static_cast<SG_Code>(s->status.code());
}

const char* SG_Message(const SG_Status* s) {
  if (s == nullptr) return "SG_Message: NULL status";
  // absl::Status::message() is a view into the status's own storage, NUL-terminated since the
  // message was built from a std::string.
  return s->status.ok() ? "" : s->status.message().data();
}

// ---- buffers ---------------------------------------------------------------------------------

SG_Buffer* SG_NewBufferFromString(const void* proto, size_t proto_len) {
  if (proto == nullptr && proto_len > 0) return nullptr;
  SG_Buffer* buf = SG_NewBuffer();
  if (buf == nullptr) return nullptr;
  void* copy = std::malloc(proto_len == 0 ? 1 : proto_len);
  if (copy == nullptr) {
    std::free(buf);
    return nullptr;
  }
  if (proto_len > 0) std::memcpy(copy, proto, proto_len);
  buf->data = copy;
  buf->length = proto_len;
  buf->data_deallocator = [](void* data, size_t) { std::free(data); };
  return buf;
}

SG_Buffer* SG_NewBuffer(void) {
  auto* buf = static_cast<SG_Buffer*>(std::calloc(1, sizeof(SG_Buffer)));
  return buf;
}

void SG_DeleteBuffer(SG_Buffer* buffer) {
  if (buffer == nullptr) return;
  if (buffer->data_deallocator != nullptr) {
    buffer->data_deallocator(const_cast<void*>(buffer->data), buffer->length);
  }
  std::free(buffer);
}

SG_Buffer SG_GetBuffer(SG_Buffer* buffer) {
  if (buffer == nullptr) return SG_Buffer{nullptr, 0, nullptr};
  return *buffer;
}

SG_Buffer* SG_GetAllOpList(void) {
  return sg::c_api::GuardValue<SG_Buffer*>(nullptr, [&]() -> SG_Buffer* {
    sg::OpList ops;
    sg::OpRegistry::Global()->Export(&ops);
    std::string bytes = ops.SerializeAsString();
    return SG_NewBufferFromString(bytes.data(), bytes.size());
  });
}

SG_Buffer* SG_GetAllRegisteredKernels(SG_Status* status) {
  SG_Buffer* result = nullptr;
  Guard("SG_GetAllRegisteredKernels", status, [&]() -> absl::Status {
    SG_ASSIGN_OR_RETURN(result, sg::c_api::NewBuffer(sg::c_api::SerializedKernelList(""),
                                                     "SG_GetAllRegisteredKernels"));
    return absl::OkStatus();
  });
  return result;
}

SG_Buffer* SG_GetRegisteredKernelsForOp(const char* name, SG_Status* status) {
  SG_Buffer* result = nullptr;
  Guard("SG_GetRegisteredKernelsForOp", status, [&]() -> absl::Status {
    if (name == nullptr) {
      return errors::InvalidArgument("SG_GetRegisteredKernelsForOp: name is NULL");
    }
    // "" is no op's name (to the registry it means every op).
    const std::string bytes = name[0] == '\0' ? "" : sg::c_api::SerializedKernelList(name);
    SG_ASSIGN_OR_RETURN(result, sg::c_api::NewBuffer(bytes, "SG_GetRegisteredKernelsForOp"));
    return absl::OkStatus();
  });
  return result;
}

// ---- data types ------------------------------------------------------------------------------

size_t SG_DataTypeSize(SG_DataType dt) {
  if (static_cast<int>(dt) <= 0 || static_cast<int>(dt) > 100) return 0;
  return static_cast<size_t>(sg::DataTypeSize(static_cast<sg::DataType>(dt)));
}

// ---- session options -------------------------------------------------------------------------

SG_SessionOptions* SG_NewSessionOptions(void) { return new (std::nothrow) SG_SessionOptions; }

void SG_DeleteSessionOptions(SG_SessionOptions* options) { delete options; }

void SG_SetTarget(SG_SessionOptions* options, const char* target) {
  if (options == nullptr) return;
  sg::c_api::GuardValue<int>(0, [&] {
    options->options.target = target ? target : "";
    return 0;
  });
}

void SG_SetConfig(SG_SessionOptions* options, const void* proto, size_t proto_len,
                  SG_Status* status) {
  Guard("SG_SetConfig", status, [&]() -> absl::Status {
    if (options == nullptr) return errors::InvalidArgument("SG_SetConfig: options is NULL");
    if (proto == nullptr && proto_len > 0) {
      return errors::InvalidArgument("SG_SetConfig: proto is NULL but proto_len is ", proto_len);
    }
    sg::ConfigProto config;
    if (proto_len > static_cast<size_t>(INT32_MAX) ||
        !config.ParseFromArray(proto, static_cast<int>(proto_len))) {
      return errors::InvalidArgument("Unparseable ConfigProto");
    }
    options->options.config = std::move(config);
    return absl::OkStatus();
  });
}

void SG_SetIntraOpParallelismThreads(SG_SessionOptions* options, int num_threads,
                                     SG_Status* status) {
  SetConfigField("SG_SetIntraOpParallelismThreads", options, status, [&](sg::ConfigProto* c) {
    if (num_threads < 0) {
      return errors::InvalidArgument("SG_SetIntraOpParallelismThreads: num_threads is ",
                                     num_threads, "; it must be >= 0 (0 = chosen by sg)");
    }
    c->set_intra_op_parallelism_threads(num_threads);
    return absl::OkStatus();
  });
}

void SG_SetInterOpParallelismThreads(SG_SessionOptions* options, int num_threads,
                                     SG_Status* status) {
  SetConfigField("SG_SetInterOpParallelismThreads", options, status, [&](sg::ConfigProto* c) {
    c->set_inter_op_parallelism_threads(num_threads);
    return absl::OkStatus();
  });
}

void SG_SetOperationTimeoutInMs(SG_SessionOptions* options, int64_t timeout_ms,
                                SG_Status* status) {
  SetConfigField("SG_SetOperationTimeoutInMs", options, status, [&](sg::ConfigProto* c) {
    if (timeout_ms < 0) {
      return errors::InvalidArgument("SG_SetOperationTimeoutInMs: timeout_ms is ", timeout_ms,
                                     "; it must be >= 0 (0 = none)");
    }
    c->set_operation_timeout_in_ms(timeout_ms);
    return absl::OkStatus();
  });
}

void SG_SetDeviceCount(SG_SessionOptions* options, const char* device_type, int count,
                       SG_Status* status) {
  SetConfigField("SG_SetDeviceCount", options, status, [&](sg::ConfigProto* c) {
    if (device_type == nullptr || *device_type == '\0') {
      return errors::InvalidArgument("SG_SetDeviceCount: device_type is NULL or empty");
    }
    if (count < 0) {
      return errors::InvalidArgument("SG_SetDeviceCount: count for '", device_type, "' is ",
                                     count, "; it must be >= 0");
    }
    (*c->mutable_device_count())[device_type] = count;
    return absl::OkStatus();
  });
}

void SG_SetLogDevicePlacement(SG_SessionOptions* options, unsigned char enable,
                              SG_Status* status) {
  SetConfigField("SG_SetLogDevicePlacement", options, status, [&](sg::ConfigProto* c) {
    c->set_log_device_placement(enable != 0);
    return absl::OkStatus();
  });
}

void SG_SetAllowSoftPlacement(SG_SessionOptions* options, unsigned char enable,
                              SG_Status* status) {
  SetConfigField("SG_SetAllowSoftPlacement", options, status, [&](sg::ConfigProto* c) {
    c->set_allow_soft_placement(enable != 0);
    return absl::OkStatus();
  });
}

}  // extern "C"
