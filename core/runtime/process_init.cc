// Process-wide settings sg makes once, at load time.
#include "absl/synchronization/mutex.h"

namespace sg {
namespace {

// Abseil checks every Mutex acquisition for lock-order cycles when built without NDEBUG (sg's
// tests build "Release with assertions"), and Debian's libabsl keeps that on. sg creates a few
// mutexes per step (rendezvous, call frame, executor state), and the bookkeeping cost about 12%
// of a small step's time (perf, bench/session_bench). The sanitizer build still finds races.
struct ProcessInit {
  ProcessInit() { absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore); }
};
ProcessInit process_init;

}  // namespace
}  // namespace sg
