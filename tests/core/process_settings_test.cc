// Linking sg leaves the host process's settings alone. sg used to switch off Abseil's mutex
// deadlock detection for the whole process when it was loaded (to keep small steps fast); its hot
// locks are now sg::mutex (core/util/mutex.h) instead, and the host's setting stands.
#include <gtest/gtest.h>

#include "absl/synchronization/mutex.h"
#include "core/runtime/session.h"

namespace sg {
namespace {

// Takes two mutexes in one order, then in the other.
void LockInBothOrders() {
  absl::Mutex a;
  absl::Mutex b;
  {
    absl::MutexLock la(&a);
    absl::MutexLock lb(&b);
  }
  {
    absl::MutexLock lb(&b);
    absl::MutexLock la(&a);
  }
}

// Debian's libabsl is built with deadlock detection on (it aborts on a lock-order cycle): a host
// that takes two mutexes in both orders must still be told so with sg linked in.
TEST(ProcessSettings, AbseilStillReportsALockOrderCycleInTheHost) {
  // Something of sg's, so that the linker keeps it (and its static initializers) in this test.
  SessionOptions options;
  ASSERT_NE(&options, nullptr);
  EXPECT_DEATH(LockInBothOrders(), "Potential Mutex deadlock");
}

}  // namespace
}  // namespace sg
