#include "core/framework/intra_op_pool.h"

#include <cstdint>
#include <utility>

#include "absl/time/clock.h"
#include "core/framework/openmp_team.h"

namespace sg {
namespace {

struct WorkerIdentity {
  const IntraOpPool* pool = nullptr;
  int index = -1;
};
thread_local WorkerIdentity t_worker;

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

std::atomic<int>& ActiveParallelSections() {
  static std::atomic<int> active{0};
  return active;
}

IntraOpPool::IntraOpPool(int num_threads, absl::Duration spin)
    : spin_ns_(absl::ToInt64Nanoseconds(spin)),
      max_spinners_(num_threads > 1 ? num_threads - 1 : 1) {
  threads_.reserve(num_threads);
  for (int i = 0; i < num_threads; ++i) threads_.emplace_back([this, i] { WorkerLoop(i); });
}

IntraOpPool::~IntraOpPool() {
  {
    mutex_lock lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void IntraOpPool::Schedule(std::function<void()> fn) {
  bool wake;
  {
    mutex_lock lock(mu_);
    queue_.push_back(std::move(fn));
    const int queued = queued_.fetch_add(1) + 1;
    // A spinner sees queued_ rise and takes the closure itself; a thread that stops spinning
    // meanwhile finds it under the lock before it sleeps.
    wake = sleeping_ > 0 && queued > spinning_.load();
  }
  if (wake) cv_.notify_one();
}

int IntraOpPool::CurrentThreadId() const {
  return t_worker.pool == this ? t_worker.index : -1;
}

bool IntraOpPool::TryPop(std::function<void()>* fn) {
  if (queued_.load(std::memory_order_acquire) == 0) return false;
  mutex_lock lock(mu_);
  if (queue_.empty()) return false;
  *fn = std::move(queue_.front());
  queue_.pop_front();
  queued_.fetch_sub(1);
  return true;
}

void IntraOpPool::WorkerLoop(int index) {
  t_worker = WorkerIdentity{this, index};
  std::function<void()> fn;
  for (;;) {
    if (TryPop(&fn)) {
      fn();
      fn = nullptr;
      continue;
    }
    // Poll for work a while, if fewer than max_spinners_ threads already do and oneDNN's
    // OpenMP threads are not spinning on the cores themselves (openmp_team.h).
    int spinners = spinning_.load(std::memory_order_relaxed);
    bool spin = false;
    const bool may_spin = spin_ns_ > 0 && !OpenMpTeamRecentlyUsed();
    while (may_spin && spinners < max_spinners_) {
      if (spinning_.compare_exchange_weak(spinners, spinners + 1)) {
        spin = true;
        break;
      }
    }
    if (spin) {
      const int64_t deadline = absl::GetCurrentTimeNanos() + spin_ns_;
      bool found = false;
      for (int i = 1;; ++i) {
        if (queued_.load(std::memory_order_acquire) > 0) {
          found = true;
          break;
        }
        if (i % 64 == 0 && absl::GetCurrentTimeNanos() > deadline) break;
        CpuRelax();
      }
      spinning_.fetch_sub(1);
      if (found) continue;
    }
    {
      mutex_lock lock(mu_);
      while (queue_.empty() && !stop_) {
        ++sleeping_;
        cv_.wait(mu_);
        --sleeping_;
      }
      if (queue_.empty()) return;  // stopped, and nothing is left to run
      fn = std::move(queue_.front());
      queue_.pop_front();
      queued_.fetch_sub(1);
    }
    fn();
    fn = nullptr;
  }
}

}  // namespace sg
