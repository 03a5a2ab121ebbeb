// TestCluster: `sg server` processes for a cluster on 127.0.0.1, with ports picked free, for
// multi-process tests. Each task is a child process (fork/exec of the built sg tool, whose path
// CMake passes as SG_TOOL_PATH); Start returns once every task printed its ready line.
//
//   TestCluster cluster;
//   ASSERT_TRUE(cluster.Start({{"ps", 1}, {"worker", 2}}).ok());
//   cluster.spec();                   // "ps=127.0.0.1:P0;worker=127.0.0.1:P1,127.0.0.1:P2"
//   cluster.target("worker", 0);      // "grpc://127.0.0.1:P1": a session target
//   cluster.Kill("worker", 1);        // SIGKILL (a worker dying mid-step)
//   cluster.StartTask("worker", 1);   // restart it on the same port (new incarnations)
//   int rc = cluster.StopTask("ps", 0);  // SIGTERM; exit code (0 for a clean stop)
//   // The destructor stops every task still running (SIGTERM, then SIGKILL after a bound).
//
// A task's stdout and stderr go to a log file (log_path) that failure messages quote.
// Thread safety: none; use one TestCluster from one thread.
#ifndef SG_TESTS_DISTRIBUTED_CLUSTER_UTIL_H_
#define SG_TESTS_DISTRIBUTED_CLUSTER_UTIL_H_

#include <sys/types.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"

namespace sg {
namespace testing {

struct ClusterOptions {
  // PEM files passed as --tls-cert/--tls-key/--tls-ca to every task (empty: plaintext).
  std::string tls_cert, tls_key, tls_ca;
  // Extra "NAME=value" environment entries for the server processes (e.g. "SG_GRPC_ARGS=...").
  std::vector<std::string> env;
  // How long a task may take to print its ready line.
  absl::Duration ready_timeout = absl::Seconds(30);
  // How long SIGTERM may take before SIGKILL.
  absl::Duration stop_timeout = absl::Seconds(10);
  // The sg tool to run; empty means SG_TOOL_PATH.
  std::string sg_binary;
};

class TestCluster {
 public:
  explicit TestCluster(ClusterOptions options = ClusterOptions());
  ~TestCluster();
  TestCluster(const TestCluster&) = delete;
  TestCluster& operator=(const TestCluster&) = delete;

  // Picks a free loopback port per task and starts every task: {job name, number of tasks}.
  // Errors: the first task that did not become ready, with the end of its log.
  absl::Status Start(const std::vector<std::pair<std::string, int>>& jobs);

  // "job=127.0.0.1:port,...;job=..." of the whole cluster.
  const std::string& spec() const { return spec_; }
  // "127.0.0.1:port" and "grpc://127.0.0.1:port" of one task ("" when there is no such task).
  std::string address(const std::string& job, int task) const;
  std::string target(const std::string& job, int task) const;
  pid_t pid(const std::string& job, int task) const;
  std::string log_path(const std::string& job, int task) const;
  // The task's log so far.
  std::string ReadLog(const std::string& job, int task) const;

  // (Re)starts one task of the spec on its port and waits for its ready line.
  absl::Status StartTask(const std::string& job, int task);
  // SIGTERM, then SIGKILL after stop_timeout. Returns the exit code, 128+signal when killed by a
  // signal, or -1 when the task was not running.
  int StopTask(const std::string& job, int task);
  // SIGKILL at once; waits for the process.
  void Kill(const std::string& job, int task);
  // Stops every running task (as StopTask).
  void StopAll();

 private:
  struct Task {
    std::string job;
    int index = 0;
    std::string address;
    std::string log;
    pid_t pid = -1;
  };
  Task* Find(const std::string& job, int task);
  const Task* Find(const std::string& job, int task) const;
  absl::Status Launch(Task* t);
  int Reap(Task* t, absl::Duration timeout);

  ClusterOptions options_;
  std::string dir_;
  std::string spec_;
  std::vector<Task> tasks_;
};

// A port on 127.0.0.1 that was free a moment ago (bound to port 0, then released).
int PickFreeLoopbackPort();

}  // namespace testing
}  // namespace sg

#endif  // SG_TESTS_DISTRIBUTED_CLUSTER_UTIL_H_
