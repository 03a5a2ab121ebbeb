// The structs behind the C API's opaque handles, and the helpers the c_api*.cc files share.
// Private to libsg: nothing here crosses the ABI.
#ifndef SG_C_API_C_API_INTERNAL_H_
#define SG_C_API_C_API_INTERNAL_H_

#include <atomic>
#include <map>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "c_api/include/sg/c_api.h"
#include "core/framework/status.h"
#include "core/framework/tensor.h"
#include "core/graph/graph.h"
#include "core/graph/graph_constructor.h"
#include "core/proto/device_attributes.pb.h"
#include "core/proto/node_def.pb.h"
#include "core/runtime/session.h"

struct SG_Status {
  absl::Status status;
};

// A tensor as C sees it: numeric data shares the buffer of an sg::Tensor; SG_STRING data is
// held in TensorFlow 1.x's encoded layout or as TensorFlow 2.x's SG_TString array (see c_api.h,
// "TensorFlow 2.x strings") and converted at the session boundary.
struct SG_Tensor {
  sg::DataType dtype;
  sg::TensorShape shape;
  std::shared_ptr<sg::TensorBuffer> buffer;  // nullptr only when it holds no bytes
  SG_StringLayout string_layout = SG_STRING_LAYOUT_ENCODED;  // of SG_STRING data
  // Whether sg allocated the buffer rather than borrowing the caller's memory (SG_NewTensor*):
  // only then may SG_TensorMaybeMove hand it out for reuse (TensorFlow's OwnsMemory).
  bool owns_memory = true;
};

struct SG_SessionOptions {
  sg::SessionOptions options;
};

// A graph shared by the caller and its sessions: freed when the caller has deleted it and the
// last session using it is gone.
struct SG_Graph {
  SG_Graph();   // registers the graph for sg::c_api::GraphOf
  ~SG_Graph();
  absl::Mutex mu;
  sg::Graph graph ABSL_GUARDED_BY(mu);
  // Sessions using the graph, and while loops started on it (SG_NewWhile) and not yet finished.
  int num_sessions ABSL_GUARDED_BY(mu) = 0;
  // How many functions SG_GraphRemoveFunction took out of the library: with the number of
  // functions, tells a session whether the library changed since it last saw it.
  int function_removals ABSL_GUARDED_BY(mu) = 0;
  bool delete_requested ABSL_GUARDED_BY(mu) = false;
  // The layout of the SG_STRING tensors made from this graph (SG_GraphSetStringLayout).
  std::atomic<SG_StringLayout> string_layout{SG_STRING_LAYOUT_ENCODED};
};

// SG_Operation is never defined: an SG_Operation* is an sg::Node* of the graph (ToNode below).

struct SG_OperationDescription {
  // One SG_AddInput (is_list false, one output) or SG_AddInputList call: one OpDef input arg.
  struct InputArg {
    bool is_list;
    std::vector<SG_Output> outputs;
  };
  SG_Graph* graph;
  sg::NodeDef node_def;
  std::vector<InputArg> inputs;
  std::vector<SG_Operation*> control_inputs;
  std::vector<std::string> colocation;
  // The first argument error seen by a setter without a status, reported by SG_FinishOperation.
  absl::Status deferred_error;
};

struct SG_ImportGraphDefOptions {
  std::string prefix;
  std::string default_device;
  bool uniquify_names = false;
  bool uniquify_prefix = false;
  std::vector<std::pair<std::pair<std::string, int>, SG_Output>> input_map;
  std::vector<std::pair<std::string, SG_Operation*>> control_map;
  std::vector<SG_Operation*> control_dependencies;
  std::vector<std::pair<std::string, int>> return_outputs;
  std::vector<std::string> return_operations;
};

struct SG_ImportGraphDefResults {
  std::vector<SG_Output> return_outputs;
  std::vector<SG_Operation*> return_operations;
  std::vector<std::string> missing_names;
  std::vector<const char*> missing_name_ptrs;
  std::vector<int> missing_indexes;
};

struct SG_Session {
  std::unique_ptr<sg::Session> session;
  SG_Graph* graph;
  // Graph extension state: nodes with id below this were sent to the session.
  absl::Mutex mu;
  int extended_node_ids ABSL_GUARDED_BY(mu) = 0;
  int extended_functions ABSL_GUARDED_BY(mu) = 0;
  int extended_function_removals ABSL_GUARDED_BY(mu) = 0;
  bool created ABSL_GUARDED_BY(mu) = false;
};

struct SG_DeviceList {
  std::vector<sg::DeviceAttributes> devices;
};

namespace sg {
namespace c_api {

// An SG_Operation* is an sg::Node* of its graph.
inline sg::Node* ToNode(SG_Operation* op) { return reinterpret_cast<sg::Node*>(op); }
inline const sg::Node* ToNode(const SG_Operation* op) {
  return reinterpret_cast<const sg::Node*>(op);
}
inline SG_Operation* ToOperation(sg::Node* n) { return reinterpret_cast<SG_Operation*>(n); }
// The SG_Graph an operation belongs to (whose mu guards its edges), or nullptr for a node of no
// SG_Graph.
SG_Graph* GraphOf(const sg::Node* n);
// Runs fn() under the lock of n's graph: reading a node's edges while SG_FinishOperation (or an
// import) may add edges to the same graph from another thread.
template <typename Fn>
auto UnderGraphLock(const sg::Node* n, Fn&& fn) {
  SG_Graph* g = GraphOf(n);
  if (g == nullptr) return fn();
  absl::MutexLock lock(&g->mu);
  return fn();
}

// Stores `s` in `status` (which may be NULL), its message passed through the message rewriter
// if one is installed.
void Set(SG_Status* status, const absl::Status& s);
// Messages name the C API's functions as "SG_X" (the function that failed, or another to call).
// sg's libtensorflow.so.2, built from the same objects, installs a rewriter when it is loaded so
// that a TensorFlow client reads "TF_X" instead (c_api/dropin/tf_messages.cc). It applies to
// the statuses Set stores, not to those a caller sets itself (SG_SetStatus); it returns the new
// message and may throw (Set then keeps the original). NULL removes it.
using MessageRewriter = std::string (*)(absl::string_view message);
void SetMessageRewriter(MessageRewriter rewriter);
inline void SetOk(SG_Status* status) {
  if (status) status->status = absl::OkStatus();
}

// Runs `fn` (returning absl::Status); any C++ exception becomes SG_INTERNAL naming `where`.
template <typename Fn>
void Guard(const char* where, SG_Status* status, Fn&& fn) {
  absl::Status s;
  try {
    s = fn();
  } catch (const std::bad_alloc&) {
    s = errors::ResourceExhausted(where, ": out of memory");
  } catch (const std::exception& e) {
    s = errors::Internal(where, ": ", e.what());
  } catch (...) {
    s = errors::Internal(where, ": unknown C++ exception");
  }
  Set(status, s);
}

// The number a caller passed as an SG_StringLayout. A C caller may pass any int there, and in C++
// loading an enum object outside its enumerators' range is undefined behaviour, so the argument's
// bytes are read as an int first and checked before the enum is used.
inline int LayoutNumber(const SG_StringLayout& layout) {
  static_assert(sizeof(SG_StringLayout) == sizeof(int), "SG_StringLayout is not int-sized");
  int value;
  std::memcpy(&value, &layout, sizeof value);
  return value;
}

// Like Guard for functions without a status: returns `fn()` or `fallback` on an exception.
template <typename T, typename Fn>
T GuardValue(T fallback, Fn&& fn) {
  try {
    return fn();
  } catch (...) {
    return fallback;
  }
}

// "name:index" for messages and session feeds.
std::string OutputName(SG_Output out);
// INVALID_ARGUMENT naming `what` when `oper` is NULL or not a node of `g`.
absl::Status CheckOwned(const Graph& g, const SG_Operation* oper, const std::string& what);
// INVALID_ARGUMENT when `ptr` is NULL and `count` is not zero, or `count` is negative.
absl::Status CheckArray(const void* ptr, int count, const char* what);

// Conversions between C tensors and sg tensors; strings are decoded / encoded (into
// `string_layout`).
absl::StatusOr<Tensor> ToTensor(const SG_Tensor& t);
absl::StatusOr<SG_Tensor*> FromTensor(const Tensor& t,
                                      SG_StringLayout string_layout = SG_STRING_LAYOUT_ENCODED);
// The string layout of the graph `n` belongs to (ENCODED for a node of no SG_Graph).
SG_StringLayout StringLayoutOf(const Node* n);

// TensorFlow 2.x's string tensors (c_api_tstring.cc).
// Element `i` of `n` SG_TStrings in [data, data + len): sets *str and *size, or INVALID_ARGUMENT
// saying what is corrupt (too few bytes, an offset element outside them, a NULL pointer).
absl::Status TStringAt(const char* data, size_t len, int64_t n, int64_t i, const char** str,
                       size_t* size);
// A zeroed buffer of `len` bytes (n empty SG_TStrings first) that SG_StringDealloc's its first
// `n` elements when released; nullptr when the memory cannot be had.
std::shared_ptr<TensorBuffer> NewTStringBuffer(size_t len, int64_t n);

// Fills an empty output buffer with `bytes`; INVALID_ARGUMENT when it is NULL or not empty.
absl::Status CheckEmptyBuffer(const SG_Buffer* buf, const char* what);
void FillBuffer(const std::string& bytes, SG_Buffer* buf);

// `node` as a NodeDef with its inputs rebuilt from its edges (as Graph::ToGraphDef writes it).
void NodeToDef(const Node& node, NodeDef* def);
// The same, shared: the node's own NodeDef when its inputs are already those of its edges (a
// frozen graph's Consts, which have none, are not copied), else a new one.
std::shared_ptr<const NodeDef> SharedNodeDef(const Node& node);

// Sends the session every node (and function) added to its graph since the last call: the
// first call Creates the session's graph, later ones Extend it, as TensorFlow's C API does.
// On failure nothing is recorded, so the next call sends the same nodes again.
absl::Status ExtendSession(SG_Session* s);

// The graph reference sessions hold; deletes the graph when no one uses it anymore.
void ReleaseGraph(SG_Graph* g, bool from_session);

}  // namespace c_api
}  // namespace sg

#endif  // SG_C_API_C_API_INTERNAL_H_
