// sg::mutex, mutex_lock and condition_variable: the locks of the runtime's hot
// paths (a step's executor state, rendezvous, call frame, cancellation, a session's bookkeeping).
//
// Why not absl::Mutex there: Debian's libabsl is built without NDEBUG, so every absl::Mutex
// acquisition records lock order in a process-wide graph under a global lock (deadlock
// detection). A small step takes a dozen such locks, and the bookkeeping cost about 12% of its
// time. Switching the detection off is a setting of the whole host process, which a library must
// not change; these wrap std::mutex and std::condition_variable instead, which do no such
// bookkeeping. Locks off the hot paths (registries, servers) stay absl::Mutex.
//
// The classes carry Clang's thread-safety attributes (as absl::Mutex does), so members they guard
// are checked under SG_THREAD_SAFETY_ANALYSIS, and ThreadSanitizer sees them (pthread).
// Thread safety: as std::mutex and std::condition_variable.
#ifndef SG_CORE_UTIL_MUTEX_H_
#define SG_CORE_UTIL_MUTEX_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace sg {

class ABSL_LOCKABLE mutex {
 public:
  mutex() = default;
  mutex(const mutex&) = delete;
  mutex& operator=(const mutex&) = delete;

  void lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }
  bool try_lock() ABSL_EXCLUSIVE_TRYLOCK_FUNCTION(true) { return mu_.try_lock(); }
  // For the analysis only: tells it the lock is held where it cannot see the acquisition.
  void AssertHeld() const ABSL_ASSERT_EXCLUSIVE_LOCK() {}

 private:
  friend class condition_variable;
  std::mutex mu_;
};

// Holds `mu` from construction to destruction.
class ABSL_SCOPED_LOCKABLE mutex_lock {
 public:
  explicit mutex_lock(mutex& mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) { mu_.lock(); }
  ~mutex_lock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }
  mutex_lock(const mutex_lock&) = delete;
  mutex_lock& operator=(const mutex_lock&) = delete;

 private:
  mutex& mu_;
};

class condition_variable {
 public:
  // Releases `mu` (held by the caller) while waiting; holds it again on return. May wake
  // spuriously: wait in a loop over the predicate.
  void wait(mutex& mu) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  // As wait, until `deadline` at the latest; false when the deadline passed.
  bool wait_until(mutex& mu, absl::Time deadline) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    const bool woken =
        cv_.wait_until(lock, absl::ToChronoTime(deadline)) == std::cv_status::no_timeout;
    lock.release();
    return woken;
  }
  void notify_one() { cv_.notify_one(); }
  void notify_all() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace sg

#endif  // SG_CORE_UTIL_MUTEX_H_
