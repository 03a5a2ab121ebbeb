#include "core/framework/openmp_team.h"

#include <atomic>
#include <cstdint>

#include "absl/time/clock.h"

namespace sg {
namespace {

constexpr int64_t kOpenMpTeamWindowNs = 10'000'000;
std::atomic<int64_t> g_openmp_team_used_ns{0};

}  // namespace

void NoteOpenMpTeamUsed() {
  g_openmp_team_used_ns.store(absl::GetCurrentTimeNanos(), std::memory_order_relaxed);
}

bool OpenMpTeamRecentlyUsed() {
  const int64_t used = g_openmp_team_used_ns.load(std::memory_order_relaxed);
  return used != 0 && absl::GetCurrentTimeNanos() - used < kOpenMpTeamWindowNs;
}

bool RunOnOpenMpTeam(int threads, void (*fn)(void*), void* arg) {
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
  fn(arg);
  if (threads > 1) NoteOpenMpTeamUsed();
  return true;
#else
  (void)threads;
  (void)fn;
  (void)arg;
  return false;
#endif
}

}  // namespace sg
