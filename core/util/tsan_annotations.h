// ThreadSanitizer annotations for hand-offs TSan cannot see, and nothing in other builds.
//
// gRPC (Debian's libgrpc, not built with TSan) passes a call from the thread that starts it to
// the thread that completes it inside its own code. The transport (distributed/rpc/) marks each
// hand-off: the handing thread releases the call's address, the receiving thread acquires it, and
// gRPC's inline code (grpcpp headers, compiled into sg) runs with memory accesses ignored, since
// the objects it touches on both sides are gRPC's to synchronize.
//
//   tsan::Release(tag);                      // everything this thread did to `tag` so far ...
//   { tsan::IgnoreAccesses ignore; reader->Finish(resp, &status, tag); }
//   ...                                     // ... happens before what follows:
//   tsan::Acquire(tag);                      // on the thread that got `tag` back from gRPC
//
// Not for sg's own synchronization: use a mutex (absl::Mutex, which TSan is told about in
// core/util/tsan_absl_sync.cc) so that TSan checks it.
#ifndef SG_CORE_UTIL_TSAN_ANNOTATIONS_H_
#define SG_CORE_UTIL_TSAN_ANNOTATIONS_H_

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SG_TSAN_ANNOTATIONS 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define SG_TSAN_ANNOTATIONS 1
#endif

#ifdef SG_TSAN_ANNOTATIONS
#include <sanitizer/tsan_interface.h>
// In the TSan runtime (GCC's and Clang's) but not in its public header.
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
#endif

namespace sg {
namespace tsan {

#ifdef SG_TSAN_ANNOTATIONS
inline void Release(const void* addr) { __tsan_release(const_cast<void*>(addr)); }
inline void Acquire(const void* addr) { __tsan_acquire(const_cast<void*>(addr)); }
// Ignores this thread's memory accesses while alive (synchronization still counts).
class IgnoreAccesses {
 public:
  IgnoreAccesses() { __tsan_ignore_thread_begin(); }
  ~IgnoreAccesses() { __tsan_ignore_thread_end(); }
  IgnoreAccesses(const IgnoreAccesses&) = delete;
  IgnoreAccesses& operator=(const IgnoreAccesses&) = delete;
};
#else
inline void Release(const void*) {}
inline void Acquire(const void*) {}
class IgnoreAccesses {
 public:
  IgnoreAccesses() {}
  IgnoreAccesses(const IgnoreAccesses&) = delete;
  IgnoreAccesses& operator=(const IgnoreAccesses&) = delete;
};
#endif

}  // namespace tsan
}  // namespace sg

#endif  // SG_CORE_UTIL_TSAN_ANNOTATIONS_H_
