// `sg server` processes through TestCluster: ready lines, clean SIGTERM stops (exit 0, port
// freed), restarts on the same port, and the tool's errors.
#include "tests/distributed/cluster_util.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace sg {
namespace testing {
namespace {

bool Listening(const std::string& address) {
  const int port = std::stoi(address.substr(address.rfind(':') + 1));
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

// Runs the sg tool with `args`; returns its exit code and what it printed on stderr.
int RunTool(const std::string& args, std::string* err) {
  char path[] = "/tmp/sg_tool_err_XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  const std::string cmd = std::string(SG_TOOL_PATH) + " " + args + " 2>" + path + " >/dev/null";
  int rc = std::system(cmd.c_str());
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  *err = ss.str();
  unlink(path);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(TestCluster, StartsEveryTaskAndStopsThemCleanly) {
  TestCluster cluster;
  absl::Status s = cluster.Start({{"ps", 1}, {"worker", 2}});
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_NE(cluster.spec().find("ps=127.0.0.1:"), std::string::npos);
  for (auto [job, task] : {std::pair<std::string, int>{"ps", 0}, {"worker", 0}, {"worker", 1}}) {
    EXPECT_TRUE(Listening(cluster.address(job, task))) << job << task;
    const std::string log = cluster.ReadLog(job, task);
    EXPECT_NE(log.find("sg: serving " + job + ":" + std::to_string(task) + " on " +
                       cluster.target(job, task)),
              std::string::npos)
        << log;
  }
  const absl::Time start = absl::Now();
  EXPECT_EQ(cluster.StopTask("worker", 1), 0);
  EXPECT_LT(absl::Now() - start, absl::Seconds(5));
  EXPECT_FALSE(Listening(cluster.address("worker", 1)));
  // Restarted on the same port.
  s = cluster.StartTask("worker", 1);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_TRUE(Listening(cluster.address("worker", 1)));
  cluster.Kill("worker", 1);
  EXPECT_FALSE(Listening(cluster.address("worker", 1)));
  EXPECT_EQ(cluster.StopTask("ps", 0), 0);
  EXPECT_EQ(cluster.StopTask("worker", 0), 0);
}

TEST(SgServer, SigintStopsCleanlyToo) {
  TestCluster cluster;
  ASSERT_TRUE(cluster.Start({{"worker", 1}}).ok());
  kill(cluster.pid("worker", 0), SIGINT);
  // StopTask's SIGTERM finds the process already stopping; the exit code is still 0.
  EXPECT_EQ(cluster.StopTask("worker", 0), 0);
}

TEST(SgServer, ReportsBadArgumentsAndABusyPort) {
  std::string err;
  EXPECT_EQ(RunTool("server --cluster 'ps=127.0.0.1' --job ps --task 0", &err), 1);
  EXPECT_NE(err.find("sg: INVALID_ARGUMENT:"), std::string::npos) << err;
  EXPECT_EQ(RunTool("server --cluster 'ps=127.0.0.1:1' --job worker --task 0", &err), 1);
  EXPECT_NE(err.find("INVALID_ARGUMENT"), std::string::npos) << err;
  EXPECT_EQ(RunTool("server --cluster 'ps=127.0.0.1:1' --job ps", &err), 2);
  EXPECT_EQ(RunTool("server --bogus", &err), 2);

  TestCluster cluster;
  ASSERT_TRUE(cluster.Start({{"ps", 1}}).ok());
  EXPECT_EQ(RunTool("server --cluster 'ps=" + cluster.address("ps", 0) + "' --job ps --task 0",
                    &err),
            1);
  EXPECT_NE(err.find("sg: UNAVAILABLE:"), std::string::npos) << err;
  EXPECT_NE(err.find(cluster.address("ps", 0)), std::string::npos) << err;
}

}  // namespace
}  // namespace testing
}  // namespace sg
