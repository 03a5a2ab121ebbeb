// IntraOpPool (core/framework/intra_op_pool.h) and ParallelFor / ParallelForChunks
// (core/kernels/parallel_for.h): every closure runs once, on a pool thread that knows its index;
// the destructor runs what is still queued; a loop covers each index exactly once whatever the
// split; a loop finishes on the calling thread alone when every pool thread is held up, and
// runs as one range there while another kernel call splits its work; closures run while idle
// threads sleep at once because oneDNN's OpenMP team was just used, and loops run on that team.
#include <gtest/gtest.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "core/framework/intra_op_pool.h"
#include "core/framework/openmp_team.h"
#include "core/kernels/parallel_for.h"
#include "core/util/mutex.h"

namespace sg {
namespace {

TEST(IntraOpPool, RunsEveryClosureOnceOnAPoolThread) {
  IntraOpPool pool(3, absl::Microseconds(50));
  EXPECT_EQ(pool.NumThreads(), 3);
  EXPECT_EQ(pool.CurrentThreadId(), -1);
  constexpr int kPerCaller = 2000;
  std::vector<std::atomic<int>> runs(4 * kPerCaller);
  std::atomic<int> bad_ids{0};
  std::atomic<int> finished{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&, c] {
      for (int i = 0; i < kPerCaller; ++i) {
        pool.Schedule([&, k = c * kPerCaller + i] {
          const int id = pool.CurrentThreadId();
          if (id < 0 || id >= 3) bad_ids.fetch_add(1);
          runs[k].fetch_add(1);
          finished.fetch_add(1);
        });
      }
    });
  }
  for (std::thread& t : callers) t.join();
  while (finished.load() < 4 * kPerCaller) std::this_thread::yield();
  for (int k = 0; k < 4 * kPerCaller; ++k) ASSERT_EQ(runs[k].load(), 1) << "closure " << k;
  EXPECT_EQ(bad_ids.load(), 0);
}

TEST(IntraOpPool, DestructorRunsWhatIsQueued) {
  std::atomic<int> ran{0};
  absl::Notification release;
  {
    IntraOpPool pool(1, absl::ZeroDuration());
    // The one thread waits on the first closure while the rest queue up behind it.
    pool.Schedule([&] {
      release.WaitForNotification();
      ran.fetch_add(1);
    });
    for (int i = 0; i < 100; ++i) pool.Schedule([&] { ran.fetch_add(1); });
    release.Notify();
  }
  EXPECT_EQ(ran.load(), 101);
}

TEST(IntraOpPool, SleepingThreadsWakeForWork) {
  // No spinning: every closure after the first idle period needs a sleeping thread woken.
  IntraOpPool pool(2, absl::ZeroDuration());
  for (int round = 0; round < 20; ++round) {
    absl::Notification done;
    pool.Schedule([&] { done.Notify(); });
    ASSERT_TRUE(done.WaitForNotificationWithTimeout(absl::Seconds(30))) << "round " << round;
    absl::SleepFor(absl::Microseconds(200));
  }
}

TEST(IntraOpPool, ThreadsWakeForWorkWhileAnOpenMpTeamWasUsed) {
  // A pool that would poll, while oneDNN's OpenMP team has just run (openmp_team.h): its idle
  // threads sleep at once, and every closure still runs, on a thread woken for it.
  NoteOpenMpTeamUsed();
  EXPECT_TRUE(OpenMpTeamRecentlyUsed());
  IntraOpPool pool(2, absl::Milliseconds(50));
  for (int round = 0; round < 20; ++round) {
    NoteOpenMpTeamUsed();
    absl::Notification done;
    pool.Schedule([&] { done.Notify(); });
    ASSERT_TRUE(done.WaitForNotificationWithTimeout(absl::Seconds(30))) << "round " << round;
    absl::SleepFor(absl::Microseconds(200));
  }
}

// Counts how often each index of [0, n) was visited.
void ExpectEachIndexOnce(const std::vector<std::atomic<int>>& visits) {
  for (size_t i = 0; i < visits.size(); ++i) ASSERT_EQ(visits[i].load(), 1) << "index " << i;
}

TEST(ParallelFor, CoversEachIndexOnceForAnySplit) {
  IntraOpPool pool(2, absl::Microseconds(50));
  Eigen::ThreadPoolDevice device(&pool, 3);
  for (Eigen::Index n : {1, 2, 3, 7, 64, 1000, 4097}) {
    for (Eigen::Index chunk : {1, 3, 16, 5000}) {
      for (int helpers : {0, 1, 2, 5}) {
        std::vector<std::atomic<int>> visits(n);
        std::atomic<int> ranges{0}, too_long{0};
        ParallelForChunks(device, n, chunk, helpers, [&](Eigen::Index b, Eigen::Index e) {
          ranges.fetch_add(1);
          if (e - b > chunk) too_long.fetch_add(1);
          for (Eigen::Index i = b; i < e; ++i) visits[i].fetch_add(1);
        });
        SCOPED_TRACE(testing::Message()
                     << "n=" << n << " chunk=" << chunk << " helpers=" << helpers);
        ExpectEachIndexOnce(visits);
        if (helpers == 0 || chunk >= n) {
          EXPECT_EQ(ranges.load(), 1);  // no split: fn(0, n) on this thread
        } else {
          EXPECT_EQ(ranges.load(), (n + chunk - 1) / chunk);
          EXPECT_EQ(too_long.load(), 0);
        }
      }
    }
    // Through the cost model: expensive per index (split), and cheap (one range on this thread).
    for (double cycles : {1e6, 1.0}) {
      std::vector<std::atomic<int>> visits(n);
      std::atomic<int> ranges{0};
      ParallelFor(device, n, Eigen::TensorOpCost(4, 4, cycles),
                  [&](Eigen::Index b, Eigen::Index e) {
                    ranges.fetch_add(1);
                    for (Eigen::Index i = b; i < e; ++i) visits[i].fetch_add(1);
                  });
      ExpectEachIndexOnce(visits);
      if (cycles == 1.0) EXPECT_EQ(ranges.load(), 1) << "n=" << n;
      if (cycles == 1e6 && n >= 12) EXPECT_GT(ranges.load(), 1) << "n=" << n;
    }
  }
}

// Waits until the loops no longer go to the OpenMP team (an earlier test noted it as used).
void WaitForOpenMpTeamWindowToPass() {
  while (OpenMpTeamRecentlyUsed()) absl::SleepFor(absl::Milliseconds(1));
}

TEST(ParallelFor, FinishesOnTheCallerWhenEveryPoolThreadIsBusy) {
  WaitForOpenMpTeamWindowToPass();
  IntraOpPool pool(2, absl::Microseconds(50));
  Eigen::ThreadPoolDevice device(&pool, 3);
  absl::Notification release;
  std::atomic<int> blocked{0};
  for (int i = 0; i < 2; ++i) {
    pool.Schedule([&] {
      blocked.fetch_add(1);
      release.WaitForNotification();
    });
  }
  while (blocked.load() < 2) std::this_thread::yield();
  std::set<std::thread::id> threads;
  mutex mu;
  std::vector<std::atomic<int>> visits(1000);
  ParallelForChunks(device, 1000, 10, 2, [&](Eigen::Index b, Eigen::Index e) {
    {
      mutex_lock lock(mu);
      threads.insert(std::this_thread::get_id());
    }
    for (Eigen::Index i = b; i < e; ++i) visits[i].fetch_add(1);
  });
  ExpectEachIndexOnce(visits);
  EXPECT_EQ(threads, std::set<std::thread::id>{std::this_thread::get_id()});
  release.Notify();
}

TEST(ParallelFor, RunsAsOneRangeWhileAnotherCallSplitsItsWork) {
  IntraOpPool pool(2, absl::Microseconds(50));
  Eigen::ThreadPoolDevice device(&pool, 3);
  auto count_ranges = [&] {
    std::atomic<int> ranges{0};
    std::vector<std::atomic<int>> visits(1000);
    ParallelForChunks(device, 1000, 10, 2, [&](Eigen::Index b, Eigen::Index e) {
      ranges.fetch_add(1);
      for (Eigen::Index i = b; i < e; ++i) visits[i].fetch_add(1);
    });
    ExpectEachIndexOnce(visits);
    return ranges.load();
  };
  EXPECT_EQ(count_ranges(), 100);
  {
    const ParallelSection other;  // as a kernel of another step splitting its work
    EXPECT_TRUE(other.alone());
    const ParallelSection mine;
    EXPECT_FALSE(mine.alone());
    EXPECT_EQ(count_ranges(), 1);
  }
  EXPECT_EQ(count_ranges(), 100);
}

TEST(ParallelFor, RunsOnTheOpenMpTeamAfterItWasUsed) {
#ifndef _OPENMP
  GTEST_SKIP() << "sg is built without OpenMP";
#else
  // Right after oneDNN's team was used, the ranges run inside a parallel region of that team
  // (two threads: the caller and one of the team's), not on the pool. The window is 10 ms, so
  // an attempt may miss it on a stalled machine: any of 50 attempts will do.
  IntraOpPool pool(2, absl::Microseconds(50));
  Eigen::ThreadPoolDevice device(&pool, 2);
  bool on_team = false;
  for (int attempt = 0; attempt < 50 && !on_team; ++attempt) {
    NoteOpenMpTeamUsed();
    std::vector<std::atomic<int>> visits(1000);
    std::atomic<int> in_team{0}, on_pool{0};
    ParallelForChunks(device, 1000, 10, 1, [&](Eigen::Index b, Eigen::Index e) {
      if (omp_in_parallel() && omp_get_num_threads() == 2) in_team.fetch_add(1);
      if (pool.CurrentThreadId() >= 0) on_pool.fetch_add(1);
      for (Eigen::Index i = b; i < e; ++i) visits[i].fetch_add(1);
    });
    ExpectEachIndexOnce(visits);
    on_team = in_team.load() == 100 && on_pool.load() == 0;
  }
  EXPECT_TRUE(on_team);
#endif
}

TEST(ParallelFor, NestedLoopsFinish) {
  IntraOpPool pool(2, absl::Microseconds(50));
  Eigen::ThreadPoolDevice device(&pool, 3);
  std::vector<std::atomic<int>> visits(64 * 64);
  ParallelForChunks(device, 64, 1, 2, [&](Eigen::Index b, Eigen::Index e) {
    for (Eigen::Index row = b; row < e; ++row) {
      ParallelForChunks(device, 64, 4, 2, [&](Eigen::Index cb, Eigen::Index ce) {
        for (Eigen::Index c = cb; c < ce; ++c) visits[row * 64 + c].fetch_add(1);
      });
    }
  });
  ExpectEachIndexOnce(visits);
}

}  // namespace
}  // namespace sg
