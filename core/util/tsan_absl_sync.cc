// ThreadSanitizer's view of Abseil's synchronization, for the TSan build (SG_SANITIZE=thread).
//
// Debian's libabsl is not built with -fsanitize=thread, so TSan cannot see that absl::Mutex,
// absl::Notification and absl::CondVar order memory (nor that absl::Status counts its message's
// references): their atomics and futex calls run in uninstrumented code, and every member guarded
// by a Mutex would be reported as a race. Each
// function below stands in, at link time, for one Abseil function called from sg's code
// (`ld --wrap=SYMBOL` sends sg's calls to __wrap_SYMBOL; __real_SYMBOL is Abseil's function): it
// calls Abseil's, and tells TSan what happened with the annotation calls of
// <sanitizer/tsan_interface.h>. A lock acquires the mutex's address, an unlock releases it.
// A condition is evaluated by Abseil while the mutex is held, possibly on the thread that is
// unlocking, so each one is evaluated between an acquire and a release as well.
//
// The top CMakeLists.txt passes a --wrap for every __wrap_ function defined here (it reads
// them from this file), and only in the TSan build; elsewhere this file compiles to nothing. The
// mangled names are those of Debian 12's Abseil (inline namespace debian3): another Abseil fails
// to compile here (the static_assert) rather than silently losing the annotations.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SG_TSAN_ABSL_SYNC 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define SG_TSAN_ABSL_SYNC 1
#endif

#ifdef SG_TSAN_ABSL_SYNC

#include <sanitizer/tsan_interface.h>

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "absl/synchronization/mutex.h"
#include "absl/status/status.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

static_assert(std::is_same_v<absl::Mutex, absl::debian3::Mutex>,
              "the __wrap_ names below are those of Debian 12's Abseil (namespace debian3)");

namespace {

using absl::CondVar;
using absl::Condition;
using absl::Duration;
using absl::Mutex;
using absl::Notification;
using absl::Time;

void Acquire(const void* addr) { __tsan_acquire(const_cast<void*>(addr)); }
void Release(const void* addr) { __tsan_release(const_cast<void*>(addr)); }

// A Notification's flag: HasBeenNotified() is an inline acquire load of it, which TSan sees; the
// release store happens in Abseil. Releasing the flag's address makes that load synchronize.
struct NotificationLayout {
  Mutex mutex;
  std::atomic<bool> notified_yet;
};
static_assert(sizeof(NotificationLayout) == sizeof(Notification), "absl::Notification changed");
const void* FlagOf(const Notification* n) {
  return &reinterpret_cast<const NotificationLayout*>(n)->notified_yet;
}

// `cond` evaluated as if in a critical section of `mu`.
struct AnnotatedCondition {
  const Condition* cond;
  const Mutex* mu;
  static bool Eval(void* arg) {
    auto* self = static_cast<AnnotatedCondition*>(arg);
    Acquire(self->mu);
    const bool result = self->cond->Eval();
    Release(self->mu);
    return result;
  }
};

}  // namespace

// Abseil's functions, as ld --wrap names them; `self` is the object (`this`).
extern "C" {
void __real__ZN4absl7debian35Mutex4LockEv(Mutex* self);
void __real__ZN4absl7debian35Mutex6UnlockEv(Mutex* self);
bool __real__ZN4absl7debian35Mutex7TryLockEv(Mutex* self);
void __real__ZN4absl7debian35Mutex10ReaderLockEv(Mutex* self);
void __real__ZN4absl7debian35Mutex12ReaderUnlockEv(Mutex* self);
bool __real__ZN4absl7debian35Mutex13ReaderTryLockEv(Mutex* self);
void __real__ZN4absl7debian35Mutex5AwaitERKNS0_9ConditionE(Mutex* self, const Condition& c);
bool __real__ZN4absl7debian35Mutex16AwaitWithTimeoutERKNS0_9ConditionENS0_8DurationE(
    Mutex* self, const Condition& c, Duration timeout);
bool __real__ZN4absl7debian35Mutex17AwaitWithDeadlineERKNS0_9ConditionENS0_4TimeE(
    Mutex* self, const Condition& c, Time deadline);
void __real__ZN4absl7debian35Mutex8LockWhenERKNS0_9ConditionE(Mutex* self, const Condition& c);
bool __real__ZN4absl7debian35Mutex19LockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE(
    Mutex* self, const Condition& c, Duration timeout);
bool __real__ZN4absl7debian35Mutex20LockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE(
    Mutex* self, const Condition& c, Time deadline);
void __real__ZN4absl7debian35Mutex14ReaderLockWhenERKNS0_9ConditionE(Mutex* self,
                                                                     const Condition& c);
void __real__ZN4absl7debian37CondVar4WaitEPNS0_5MutexE(CondVar* self, Mutex* mu);
bool __real__ZN4absl7debian37CondVar15WaitWithTimeoutEPNS0_5MutexENS0_8DurationE(
    CondVar* self, Mutex* mu, Duration timeout);
bool __real__ZN4absl7debian37CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE(CondVar* self,
                                                                              Mutex* mu,
                                                                              Time deadline);
void __real__ZN4absl7debian312Notification6NotifyEv(Notification* self);
void __real__ZNK4absl7debian312Notification19WaitForNotificationEv(const Notification* self);
void __real__ZN4absl7debian36Status15UnrefNonInlinedEm(uintptr_t rep);
bool __real__ZNK4absl7debian312Notification30WaitForNotificationWithTimeoutENS0_8DurationE(
    const Notification* self, Duration timeout);
bool __real__ZNK4absl7debian312Notification31WaitForNotificationWithDeadlineENS0_4TimeE(
    const Notification* self, Time deadline);
}

// Default visibility: a shared library on the link line that calls these Abseil functions itself
// (gRPC does) makes ld look at the wrappers too, and it refuses hidden ones. Calls from such a
// library still go to Abseil directly at run time; only sg's own are wrapped.
#define SG_WRAPPER extern "C" __attribute__((visibility("default")))

// Mutex::Lock, Unlock, TryLock and their reader forms.
SG_WRAPPER void __wrap__ZN4absl7debian35Mutex4LockEv(Mutex* self) {
  __real__ZN4absl7debian35Mutex4LockEv(self);
  Acquire(self);
}
SG_WRAPPER void __wrap__ZN4absl7debian35Mutex6UnlockEv(Mutex* self) {
  Release(self);
  __real__ZN4absl7debian35Mutex6UnlockEv(self);
}
SG_WRAPPER bool __wrap__ZN4absl7debian35Mutex7TryLockEv(Mutex* self) {
  const bool locked = __real__ZN4absl7debian35Mutex7TryLockEv(self);
  if (locked) Acquire(self);
  return locked;
}
SG_WRAPPER void __wrap__ZN4absl7debian35Mutex10ReaderLockEv(Mutex* self) {
  __real__ZN4absl7debian35Mutex10ReaderLockEv(self);
  Acquire(self);
}
SG_WRAPPER void __wrap__ZN4absl7debian35Mutex12ReaderUnlockEv(Mutex* self) {
  Release(self);
  __real__ZN4absl7debian35Mutex12ReaderUnlockEv(self);
}
SG_WRAPPER bool __wrap__ZN4absl7debian35Mutex13ReaderTryLockEv(Mutex* self) {
  const bool locked = __real__ZN4absl7debian35Mutex13ReaderTryLockEv(self);
  if (locked) Acquire(self);
  return locked;
}

// Mutex::Await*: the mutex is released while waiting and held again on return.
SG_WRAPPER void __wrap__ZN4absl7debian35Mutex5AwaitERKNS0_9ConditionE(Mutex* self,
                                                                      const Condition& c) {
  AnnotatedCondition ac{&c, self};
  Release(self);
  __real__ZN4absl7debian35Mutex5AwaitERKNS0_9ConditionE(
      self, Condition(&AnnotatedCondition::Eval, &ac));
  Acquire(self);
}
SG_WRAPPER bool __wrap__ZN4absl7debian35Mutex16AwaitWithTimeoutERKNS0_9ConditionENS0_8DurationE(
    Mutex* self, const Condition& c, Duration timeout) {
  AnnotatedCondition ac{&c, self};
  Release(self);
  const bool met = __real__ZN4absl7debian35Mutex16AwaitWithTimeoutERKNS0_9ConditionENS0_8DurationE(
      self, Condition(&AnnotatedCondition::Eval, &ac), timeout);
  Acquire(self);
  return met;
}
SG_WRAPPER bool __wrap__ZN4absl7debian35Mutex17AwaitWithDeadlineERKNS0_9ConditionENS0_4TimeE(
    Mutex* self, const Condition& c, Time deadline) {
  AnnotatedCondition ac{&c, self};
  Release(self);
  const bool met = __real__ZN4absl7debian35Mutex17AwaitWithDeadlineERKNS0_9ConditionENS0_4TimeE(
      self, Condition(&AnnotatedCondition::Eval, &ac), deadline);
  Acquire(self);
  return met;
}

// Mutex::LockWhen*: a lock whose condition is evaluated under the mutex.
SG_WRAPPER void __wrap__ZN4absl7debian35Mutex8LockWhenERKNS0_9ConditionE(Mutex* self,
                                                                         const Condition& c) {
  AnnotatedCondition ac{&c, self};
  __real__ZN4absl7debian35Mutex8LockWhenERKNS0_9ConditionE(
      self, Condition(&AnnotatedCondition::Eval, &ac));
  Acquire(self);
}
SG_WRAPPER bool __wrap__ZN4absl7debian35Mutex19LockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE(
    Mutex* self, const Condition& c, Duration timeout) {
  AnnotatedCondition ac{&c, self};
  const bool met =
      __real__ZN4absl7debian35Mutex19LockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE(
          self, Condition(&AnnotatedCondition::Eval, &ac), timeout);
  Acquire(self);
  return met;
}
SG_WRAPPER bool __wrap__ZN4absl7debian35Mutex20LockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE(
    Mutex* self, const Condition& c, Time deadline) {
  AnnotatedCondition ac{&c, self};
  const bool met =
      __real__ZN4absl7debian35Mutex20LockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE(
          self, Condition(&AnnotatedCondition::Eval, &ac), deadline);
  Acquire(self);
  return met;
}
SG_WRAPPER void __wrap__ZN4absl7debian35Mutex14ReaderLockWhenERKNS0_9ConditionE(Mutex* self,
                                                                     const Condition& c) {
  AnnotatedCondition ac{&c, self};
  __real__ZN4absl7debian35Mutex14ReaderLockWhenERKNS0_9ConditionE(
      self, Condition(&AnnotatedCondition::Eval, &ac));
  Acquire(self);
}

// CondVar::Wait*: releases `mu` while waiting, holds it again on return.
SG_WRAPPER void __wrap__ZN4absl7debian37CondVar4WaitEPNS0_5MutexE(CondVar* self, Mutex* mu) {
  Release(mu);
  __real__ZN4absl7debian37CondVar4WaitEPNS0_5MutexE(self, mu);
  Acquire(mu);
}
SG_WRAPPER bool __wrap__ZN4absl7debian37CondVar15WaitWithTimeoutEPNS0_5MutexENS0_8DurationE(
    CondVar* self, Mutex* mu, Duration timeout) {
  Release(mu);
  const bool timed_out =
      __real__ZN4absl7debian37CondVar15WaitWithTimeoutEPNS0_5MutexENS0_8DurationE(self, mu,
                                                                                  timeout);
  Acquire(mu);
  return timed_out;
}
SG_WRAPPER bool __wrap__ZN4absl7debian37CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE(
    CondVar* self, Mutex* mu, Time deadline) {
  Release(mu);
  const bool timed_out =
      __real__ZN4absl7debian37CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE(self, mu,
                                                                               deadline);
  Acquire(mu);
  return timed_out;
}

// Notification: Notify releases, a wait that saw the notification acquires.
SG_WRAPPER void __wrap__ZN4absl7debian312Notification6NotifyEv(Notification* self) {
  Release(FlagOf(self));
  __real__ZN4absl7debian312Notification6NotifyEv(self);
}
SG_WRAPPER void __wrap__ZNK4absl7debian312Notification19WaitForNotificationEv(
    const Notification* self) {
  __real__ZNK4absl7debian312Notification19WaitForNotificationEv(self);
  Acquire(FlagOf(self));
}
SG_WRAPPER bool
__wrap__ZNK4absl7debian312Notification30WaitForNotificationWithTimeoutENS0_8DurationE(
    const Notification* self, Duration timeout) {
  const bool notified =
      __real__ZNK4absl7debian312Notification30WaitForNotificationWithTimeoutENS0_8DurationE(
          self, timeout);
  if (notified) Acquire(FlagOf(self));
  return notified;
}
SG_WRAPPER bool __wrap__ZNK4absl7debian312Notification31WaitForNotificationWithDeadlineENS0_4TimeE(
    const Notification* self, Time deadline) {
  const bool notified =
      __real__ZNK4absl7debian312Notification31WaitForNotificationWithDeadlineENS0_4TimeE(
          self, deadline);
  if (notified) Acquire(FlagOf(self));
  return notified;
}

// Status::UnrefNonInlined: an absl::Status's message is counted with atomics inside Abseil, so the
// thread that drops the last reference and frees it seems unordered with the threads that held
// it. Each drop releases the rep's address and acquires what the others released, as the atomic
// decrement does.
SG_WRAPPER void __wrap__ZN4absl7debian36Status15UnrefNonInlinedEm(uintptr_t rep) {
  Release(reinterpret_cast<const void*>(rep));
  Acquire(reinterpret_cast<const void*>(rep));
  __real__ZN4absl7debian36Status15UnrefNonInlinedEm(rep);
}

#undef SG_WRAPPER

#endif  // SG_TSAN_ABSL_SYNC
