// TF_STRING tensors, TF_TString and the other TensorFlow 2.x additions of the drop-in
// (TF_Version, TF_TensorMaybeMove, TF_TensorBitcastFrom, TF_TryEvaluateConstant, kernel lists).
//
// Which layout a TF_STRING tensor's data has: TensorFlow 2.x clients read and write arrays of
// TF_TString; TensorFlow 1.x clients read and write the offset table and varint-prefixed bytes of
// TF_StringEncode. TensorFlow's own 2.x library serves only the first. This library serves both,
// one layout per process:
//   - TF_TString (SG_STRING_LAYOUT_TSTRING) from the start;
//   - TensorFlow 1.x's (SG_STRING_LAYOUT_ENCODED) from the first call of TF_StringEncode,
//     TF_StringDecode or TF_StringEncodedSize, which only a 1.x client makes (it sizes its string
//     tensors with them before allocating them, and decodes fetches with them);
//   - either one from the start when SG_TF_STRING_LAYOUT is "tstring" or "encoded" (for a 1.x
//     client that fetches strings without encoding any; the switch above is then off).
// The layout applies to the string tensors TF_AllocateTensor and TF_NewTensor make and to what
// sessions and constant evaluation return (through the layout of every graph TF_NewGraph made:
// SG_GraphSetStringLayout). Feeds are read in either layout, as each tensor records its own.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <set>

#include "absl/synchronization/mutex.h"
#include "c_api/dropin/tf_handles.h"

namespace {

static_assert(sizeof(TF_TString) == sizeof(SG_TString) && alignof(TF_TString) == alignof(SG_TString),
              "TF_TString is not laid out as SG_TString");
static_assert(static_cast<int>(TF_TSTR_SMALL) == SG_TSTR_SMALL &&
                  static_cast<int>(TF_TSTR_LARGE) == SG_TSTR_LARGE &&
                  static_cast<int>(TF_TSTR_OFFSET) == SG_TSTR_OFFSET &&
                  static_cast<int>(TF_TSTR_VIEW) == SG_TSTR_VIEW,
              "TF_TString_Type values differ from SG_TString_Type's");

SG_TString* ToSg(TF_TString* s) { return reinterpret_cast<SG_TString*>(s); }
const SG_TString* ToSg(const TF_TString* s) { return reinterpret_cast<const SG_TString*>(s); }

// The process's layout and the graphs that follow it.
class StringLayoutPolicy {
 public:
  static StringLayoutPolicy& Get() {
    static StringLayoutPolicy* policy = new StringLayoutPolicy();
    return *policy;
  }

  SG_StringLayout layout() const { return layout_.load(std::memory_order_acquire); }

  // A TensorFlow 1.x string function was called: 1.x's layout from now on, for every graph.
  void SawTf1Strings() {
    if (fixed_ || layout() == SG_STRING_LAYOUT_ENCODED) return;
    absl::MutexLock lock(&mu_);
    layout_.store(SG_STRING_LAYOUT_ENCODED, std::memory_order_release);
    for (SG_Graph* g : graphs_) SG_GraphSetStringLayout(g, SG_STRING_LAYOUT_ENCODED, nullptr);
  }

  SG_Graph* NewGraph() {
    SG_Graph* g = SG_NewGraph();
    if (g == nullptr) return nullptr;
    absl::MutexLock lock(&mu_);
    SG_GraphSetStringLayout(g, layout(), nullptr);
    graphs_.insert(g);
    return g;
  }

  void DeleteGraph(SG_Graph* g) {
    if (g == nullptr) return;
    {
      absl::MutexLock lock(&mu_);
      graphs_.erase(g);
    }
    SG_DeleteGraph(g);
  }

 private:
  StringLayoutPolicy() {
    const char* env = std::getenv("SG_TF_STRING_LAYOUT");
    if (env != nullptr && std::strcmp(env, "encoded") == 0) {
      layout_ = SG_STRING_LAYOUT_ENCODED;
      fixed_ = true;
    } else if (env != nullptr && std::strcmp(env, "tstring") == 0) {
      fixed_ = true;
    }
  }

  std::atomic<SG_StringLayout> layout_{SG_STRING_LAYOUT_TSTRING};
  bool fixed_ = false;
  absl::Mutex mu_;
  std::set<SG_Graph*> graphs_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

using sg::dropin::ToSg;
using sg::dropin::ToSgValue;
using sg::dropin::ToTf;
using sg::dropin::ToTfValue;

extern "C" {

// ---- c_api.h -------------------------------------------------------------------------------------

const char* TF_Version(void) { return SG_TensorFlowVersion(); }

TF_Graph* TF_NewGraph(void) { return ToTf(StringLayoutPolicy::Get().NewGraph()); }
void TF_DeleteGraph(TF_Graph* g) { StringLayoutPolicy::Get().DeleteGraph(ToSg(g)); }

size_t TF_StringEncode(const char* src, size_t src_len, char* dst, size_t dst_len,
                       TF_Status* status) {
  StringLayoutPolicy::Get().SawTf1Strings();
  return SG_StringEncode(src, src_len, dst, dst_len, ToSg(status));
}
size_t TF_StringDecode(const char* src, size_t src_len, const char** dst, size_t* dst_len,
                       TF_Status* status) {
  StringLayoutPolicy::Get().SawTf1Strings();
  return SG_StringDecode(src, src_len, dst, dst_len, ToSg(status));
}
size_t TF_StringEncodedSize(size_t len) {
  StringLayoutPolicy::Get().SawTf1Strings();
  return SG_StringEncodedSize(len);
}

unsigned char TF_TryEvaluateConstant(TF_Graph* graph, TF_Output output, TF_Tensor** result,
                                     TF_Status* status) {
  return SG_TryEvaluateConstant(ToSg(graph), ToSgValue(output), ToSg(result), ToSg(status));
}

TF_Buffer* TF_GetAllRegisteredKernels(TF_Status* status) {
  return ToTf(SG_GetAllRegisteredKernels(ToSg(status)));
}
TF_Buffer* TF_GetRegisteredKernelsForOp(const char* name, TF_Status* status) {
  return ToTf(SG_GetRegisteredKernelsForOp(name, ToSg(status)));
}

// ---- tf_tensor.h ---------------------------------------------------------------------------------

TF_Tensor* TF_NewTensor(TF_DataType dtype, const int64_t* dims, int num_dims, void* data,
                        size_t len, void (*deallocator)(void* data, size_t len, void* arg),
                        void* deallocator_arg) {
  return ToTf(SG_NewTensorWithLayout(ToSgValue(dtype), dims, num_dims, data, len, deallocator,
                                     deallocator_arg, StringLayoutPolicy::Get().layout()));
}
TF_Tensor* TF_AllocateTensor(TF_DataType dtype, const int64_t* dims, int num_dims, size_t len) {
  return ToTf(SG_AllocateTensorWithLayout(ToSgValue(dtype), dims, num_dims, len,
                                          StringLayoutPolicy::Get().layout()));
}

TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor) { return ToTf(SG_TensorMaybeMove(ToSg(tensor))); }

void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type, TF_Tensor* to,
                          const int64_t* new_dims, int num_new_dims, TF_Status* status) {
  SG_TensorBitcastFrom(ToSg(from), ToSgValue(type), ToSg(to), new_dims, num_new_dims,
                       ToSg(status));
}

// ---- tf_tstring.h --------------------------------------------------------------------------------

void TF_StringInit(TF_TString* t) { SG_StringInit(ToSg(t)); }
void TF_StringCopy(TF_TString* dst, const char* src, size_t size) {
  SG_StringCopy(ToSg(dst), src, size);
}
void TF_StringAssignView(TF_TString* dst, const char* src, size_t size) {
  SG_StringAssignView(ToSg(dst), src, size);
}
const char* TF_StringGetDataPointer(const TF_TString* tstr) {
  return SG_StringGetDataPointer(ToSg(tstr));
}
TF_TString_Type TF_StringGetType(const TF_TString* str) {
  return static_cast<TF_TString_Type>(SG_StringGetType(ToSg(str)));
}
size_t TF_StringGetSize(const TF_TString* tstr) { return SG_StringGetSize(ToSg(tstr)); }
size_t TF_StringGetCapacity(const TF_TString* str) { return SG_StringGetCapacity(ToSg(str)); }
void TF_StringDealloc(TF_TString* tstr) { SG_StringDealloc(ToSg(tstr)); }

}  // extern "C"
