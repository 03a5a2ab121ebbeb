// Soak test: a three-task cluster of `sg server` processes on 127.0.0.1 (ps, worker 0, worker 1)
// under concurrent clients while a chaos thread kills tasks (SIGKILL) and restarts them at random.
//
// Every client step runs test::CrossTaskGraph (d = 3 * 4 + x, on all three tasks) with its own x
// and a deadline. The test passes when
//   - every step either succeeds with d == 12 + x, or fails with a status, within its deadline
//     plus a margin (nothing hangs; a failed step's client makes a new session and goes on);
//   - steps keep succeeding: a number of them, in each third of the run;
//   - memory stays bounded: this process's resident size grows by less than a bound from the end
//     of the first third to the end, and no server's goes over a bound.
// It runs SG_SOAK_SECONDS seconds (default 60; "several minutes" by hand, e.g. 600).
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "core/runtime/session.h"
#include "tests/distributed/cluster_util.h"
#include "tests/distributed/test_graphs.h"

namespace sg {
namespace {

using testing::TestCluster;

constexpr int kClients = 4;
constexpr int64_t kStepTimeoutMs = 4000;
// What a step may take past its deadline: the master's error reply, a session's set-up calls.
constexpr absl::Duration kMargin = absl::Seconds(4);
constexpr int64_t kMaxClientGrowthKiB = 128 << 10;
constexpr int64_t kMaxServerRssKiB = 1 << 20;

absl::Duration SoakDuration() {
  const char* v = std::getenv("SG_SOAK_SECONDS");
  const int s = v != nullptr ? std::atoi(v) : 0;
  return absl::Seconds(s > 0 ? s : 60);
}

// VmRSS of a process in KiB, or -1.
int64_t RssKiB(pid_t pid) {
  std::ifstream in(pid == 0 ? std::string("/proc/self/status")
                            : absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atoll(line.c_str() + 6);
  }
  return -1;
}

struct Tally {
  absl::Mutex mu;
  int64_t ok ABSL_GUARDED_BY(mu) = 0;
  int64_t failed ABSL_GUARDED_BY(mu) = 0;
  int64_t ok_per_third[3] ABSL_GUARDED_BY(mu) = {0, 0, 0};
  std::vector<std::string> violations ABSL_GUARDED_BY(mu);
  std::map<std::string, int64_t> failures_by_code ABSL_GUARDED_BY(mu);
  // The first failures of each kind (code and the message's start), printed at the end.
  std::map<std::string, std::string> failure_samples ABSL_GUARDED_BY(mu);

  void Violation(std::string what) {
    absl::MutexLock lock(&mu);
    violations.push_back(std::move(what));
  }
  void Failure(const absl::Status& s) {
    absl::MutexLock lock(&mu);
    ++failed;
    ++failures_by_code[absl::StatusCodeToString(s.code())];
    const std::string kind = absl::StrCat(absl::StatusCodeToString(s.code()), ": ",
                                          s.message().substr(0, 60));
    if (failure_samples.size() < 20) {
      failure_samples.emplace(kind, absl::StrCat(absl::FormatTime("%H:%M:%E3S", absl::Now(),
                                                                  absl::LocalTimeZone()),
                                                 " ", s.message()));
    }
  }
  void Success(int third) {
    absl::MutexLock lock(&mu);
    ++ok;
    ++ok_per_third[third < 0 ? 0 : third > 2 ? 2 : third];
  }
};

// One client: a session on one of `targets` (picked at random), steps until `stop`; after a
// failed step, a new session.
void Client(int id, const std::vector<std::string>& targets, absl::Time start,
            absl::Duration duration, const std::atomic<bool>* stop, Tally* tally) {
  std::mt19937 rng(1000 + id);
  std::unique_ptr<Session> session;
  int64_t step = 0;
  while (!stop->load()) {
    if (session == nullptr) {
      SessionOptions options;
      options.target = targets[rng() % targets.size()];
      options.config.set_operation_timeout_in_ms(kStepTimeoutMs);
      const absl::Time t0 = absl::Now();
      absl::Status s = NewSession(options, &session);
      if (s.ok()) s = session->Create(test::CrossTaskGraph());
      const absl::Duration took = absl::Now() - t0;
      if (took > absl::Milliseconds(kStepTimeoutMs) + kMargin) {
        tally->Violation(absl::StrCat("client ", id, ": creating a session took ",
                                      absl::FormatDuration(took), " (", s.ToString(), ")"));
      }
      if (!s.ok()) {
        tally->Failure(s);
        session.reset();
        absl::SleepFor(absl::Milliseconds(100));
      }
      continue;
    }
    const float x = static_cast<float>(id * 1000 + ++step % 1000);
    RunOptions run_options;
    run_options.set_timeout_in_ms(kStepTimeoutMs);
    std::vector<Tensor> out;
    const absl::Time t0 = absl::Now();
    absl::Status s =
        session->Run(run_options, {{"x", Tensor::Scalar<float>(x)}}, {"d:0"}, {}, &out, nullptr);
    const absl::Duration took = absl::Now() - t0;
    if (took > absl::Milliseconds(kStepTimeoutMs) + kMargin) {
      tally->Violation(absl::StrCat("client ", id, ": a step took ", absl::FormatDuration(took),
                                    " (", s.ToString(), ")"));
    }
    if (!s.ok()) {
      tally->Failure(s);
      session->Close().IgnoreError();
      session.reset();
      continue;
    }
    if (out.size() != 1 || out[0].dtype() != DT_FLOAT || out[0].NumElements() != 1 ||
        out[0].data<float>()[0] != 12.0f + x) {
      tally->Violation(absl::StrCat("client ", id, ": a step returned ",
                                    out.empty() ? "nothing" : out[0].DebugString(), ", want ",
                                    12.0f + x));
    }
    tally->Success(static_cast<int>(3 * absl::FDivDuration(absl::Now() - start, duration)));
  }
  if (session != nullptr) session->Close().IgnoreError();
}

TEST(Soak, ClientsGetRightValuesOrTimelyErrorsWhileTasksAreKilledAndRestarted) {
  const absl::Duration duration = SoakDuration();
  TestCluster cluster;
  absl::Status st = cluster.Start({{"ps", 1}, {"worker", 2}});
  ASSERT_TRUE(st.ok()) << st;
  const std::vector<std::pair<std::string, int>> tasks = {
      {"ps", 0}, {"worker", 0}, {"worker", 1}};
  std::vector<std::string> targets;
  for (const auto& [job, task] : tasks) targets.push_back(cluster.target(job, task));

  Tally tally;
  std::atomic<bool> stop{false};
  const absl::Time start = absl::Now();
  std::vector<std::thread> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.emplace_back(Client, i, targets, start, duration, &stop, &tally);
  }

  // Chaos on this thread (TestCluster is not thread-safe): every 1 to 4 s a random task is
  // killed, then restarted 0.2 to 1.5 s later. Memory is sampled as it goes.
  std::mt19937 rng(42);
  int kills = 0;
  int64_t client_rss_after_warmup = -1, client_rss_max = 0, server_rss_max = 0;
  std::vector<std::string> restart_failures;
  while (absl::Now() - start < duration) {
    absl::SleepFor(absl::Milliseconds(1000 + rng() % 3000));
    const auto& [job, task] = tasks[rng() % tasks.size()];
    for (const auto& [j, t] : tasks) {
      server_rss_max = std::max(server_rss_max, RssKiB(cluster.pid(j, t)));
    }
    auto now = [] { return absl::FormatTime("%H:%M:%E3S", absl::Now(), absl::LocalTimeZone()); };
    std::printf("soak_test: %s kill /job:%s/task:%d\n", now().c_str(), job.c_str(), task);
    cluster.Kill(job, task);
    ++kills;
    absl::SleepFor(absl::Milliseconds(200 + rng() % 1300));
    absl::Status s = cluster.StartTask(job, task);
    std::printf("soak_test: %s restarted /job:%s/task:%d: %s\n", now().c_str(), job.c_str(),
                task, s.ToString().c_str());
    if (!s.ok()) restart_failures.push_back(s.ToString());
    const int64_t rss = RssKiB(0);
    client_rss_max = std::max(client_rss_max, rss);
    if (client_rss_after_warmup < 0 && absl::Now() - start > duration / 3) {
      client_rss_after_warmup = rss;
    }
  }
  stop.store(true);

  // Nothing hangs: every client ends within a step's deadline and margin.
  absl::Notification joined;
  std::thread joiner([&] {
    for (auto& c : clients) c.join();
    joined.Notify();
  });
  const bool in_time =
      joined.WaitForNotificationWithTimeout(absl::Milliseconds(2 * kStepTimeoutMs) + 2 * kMargin);
  if (!in_time) {
    std::fprintf(stderr, "soak_test: a client did not finish its step in time; aborting\n");
    std::abort();  // the clients' threads cannot be joined: a hang is the failure
  }
  joiner.join();
  const int64_t client_rss_end = RssKiB(0);

  absl::MutexLock lock(&tally.mu);
  std::string codes;
  for (const auto& [code, n] : tally.failures_by_code) absl::StrAppend(&codes, " ", code, "=", n);
  std::printf("soak_test: %s, %d clients, %d kills; steps ok %lld (thirds %lld/%lld/%lld), "
              "failed %lld;%s; client RSS %lld KiB after warm-up, %lld KiB at the end; "
              "largest server RSS %lld KiB\n",
              absl::FormatDuration(duration).c_str(), kClients, kills,
              static_cast<long long>(tally.ok), static_cast<long long>(tally.ok_per_third[0]),
              static_cast<long long>(tally.ok_per_third[1]),
              static_cast<long long>(tally.ok_per_third[2]), static_cast<long long>(tally.failed),
              codes.c_str(), static_cast<long long>(client_rss_after_warmup),
              static_cast<long long>(client_rss_end), static_cast<long long>(server_rss_max));
  for (const auto& [kind, sample] : tally.failure_samples) {
    std::printf("soak_test: a failure: %s\n", sample.c_str());
  }
  EXPECT_TRUE(restart_failures.empty()) << restart_failures.front();
  for (const std::string& v : tally.violations) ADD_FAILURE() << v;
  for (int i = 0; i < 3; ++i) {
    EXPECT_GT(tally.ok_per_third[i], 0) << "no step succeeded in third " << i + 1 << " of 3";
  }
  if (client_rss_after_warmup > 0) {
    EXPECT_LT(client_rss_end - client_rss_after_warmup, kMaxClientGrowthKiB);
  }
  EXPECT_LT(server_rss_max, kMaxServerRssKiB);
}

}  // namespace
}  // namespace sg
