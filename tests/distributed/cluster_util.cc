#include "tests/distributed/cluster_util.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

#ifndef SG_TOOL_PATH
#define SG_TOOL_PATH "sg"
#endif

namespace sg {
namespace testing {
namespace {

constexpr char kReadyPrefix[] = "sg: serving ";

std::string Tail(const std::string& s, size_t n = 2000) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

}  // namespace

int PickFreeLoopbackPort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    socklen_t len = sizeof(addr);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      port = ntohs(addr.sin_port);
    }
  }
  close(fd);
  return port;
}

TestCluster::TestCluster(ClusterOptions options) : options_(std::move(options)) {
  if (options_.sg_binary.empty()) options_.sg_binary = SG_TOOL_PATH;
  char tmpl[] = "/tmp/sg_cluster_XXXXXX";
  const char* d = mkdtemp(tmpl);
  dir_ = d != nullptr ? d : "/tmp";
}

TestCluster::~TestCluster() { StopAll(); }

TestCluster::Task* TestCluster::Find(const std::string& job, int task) {
  for (Task& t : tasks_) {
    if (t.job == job && t.index == task) return &t;
  }
  return nullptr;
}

const TestCluster::Task* TestCluster::Find(const std::string& job, int task) const {
  for (const Task& t : tasks_) {
    if (t.job == job && t.index == task) return &t;
  }
  return nullptr;
}

std::string TestCluster::address(const std::string& job, int task) const {
  const Task* t = Find(job, task);
  return t ? t->address : "";
}

std::string TestCluster::target(const std::string& job, int task) const {
  const Task* t = Find(job, task);
  return t ? "grpc://" + t->address : "";
}

pid_t TestCluster::pid(const std::string& job, int task) const {
  const Task* t = Find(job, task);
  return t ? t->pid : -1;
}

std::string TestCluster::log_path(const std::string& job, int task) const {
  const Task* t = Find(job, task);
  return t ? t->log : "";
}

std::string TestCluster::ReadLog(const std::string& job, int task) const {
  const Task* t = Find(job, task);
  if (t == nullptr) return "";
  std::ifstream in(t->log);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

absl::Status TestCluster::Start(const std::vector<std::pair<std::string, int>>& jobs) {
  StopAll();
  tasks_.clear();
  std::vector<std::string> parts;
  for (const auto& job : jobs) {
    std::vector<std::string> addrs;
    for (int i = 0; i < job.second; ++i) {
      Task t;
      t.job = job.first;
      t.index = i;
      const int port = PickFreeLoopbackPort();
      if (port == 0) return absl::UnavailableError("no free loopback port");
      t.address = absl::StrCat("127.0.0.1:", port);
      t.log = absl::StrCat(dir_, "/", job.first, "_", i, ".log");
      addrs.push_back(t.address);
      tasks_.push_back(t);
    }
    parts.push_back(absl::StrCat(job.first, "=", absl::StrJoin(addrs, ",")));
  }
  spec_ = absl::StrJoin(parts, ";");
  for (Task& t : tasks_) {
    absl::Status s = Launch(&t);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status TestCluster::StartTask(const std::string& job, int task) {
  Task* t = Find(job, task);
  if (t == nullptr) {
    return absl::NotFoundError(absl::StrCat("no task ", job, ":", task, " in ", spec_));
  }
  if (t->pid > 0) return absl::OkStatus();
  return Launch(t);
}

absl::Status TestCluster::Launch(Task* t) {
  std::vector<std::string> args = {options_.sg_binary, "server",  "--cluster",
                                   spec_,              "--job",   t->job,
                                   "--task",           std::to_string(t->index)};
  if (!options_.tls_cert.empty()) args.insert(args.end(), {"--tls-cert", options_.tls_cert});
  if (!options_.tls_key.empty()) args.insert(args.end(), {"--tls-key", options_.tls_key});
  if (!options_.tls_ca.empty()) args.insert(args.end(), {"--tls-ca", options_.tls_ca});
  const int log_fd = open(t->log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) return absl::InternalError("cannot create " + t->log);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // Everything the child needs is built before fork: no allocation after it.
  std::vector<std::string> env = options_.env;
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());  // first: getenv finds these
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(log_fd);
    return absl::InternalError("fork failed");
  }
  if (pid == 0) {
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // die with the test process
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(log_fd);
  t->pid = pid;
  const absl::Time deadline = absl::Now() + options_.ready_timeout;
  while (absl::Now() < deadline) {
    const std::string log = ReadLog(t->job, t->index);
    if (log.find(kReadyPrefix) != std::string::npos) return absl::OkStatus();
    int wstatus = 0;
    if (waitpid(pid, &wstatus, WNOHANG) == pid) {
      t->pid = -1;
      return absl::UnavailableError(absl::StrCat("task ", t->job, ":", t->index,
                                                 " exited before it was ready; its log:\n",
                                                 Tail(ReadLog(t->job, t->index))));
    }
    absl::SleepFor(absl::Milliseconds(10));
  }
  Kill(t->job, t->index);
  return absl::DeadlineExceededError(absl::StrCat("task ", t->job, ":", t->index,
                                                  " was not ready within ",
                                                  absl::FormatDuration(options_.ready_timeout),
                                                  "; its log:\n", Tail(ReadLog(t->job, t->index))));
}

int TestCluster::Reap(Task* t, absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  int wstatus = 0;
  while (true) {
    pid_t r = waitpid(t->pid, &wstatus, WNOHANG);
    if (r == t->pid) break;
    if (r < 0) {
      t->pid = -1;
      return -1;
    }
    if (absl::Now() >= deadline) return -2;
    absl::SleepFor(absl::Milliseconds(5));
  }
  t->pid = -1;
  if (WIFEXITED(wstatus)) return WEXITSTATUS(wstatus);
  if (WIFSIGNALED(wstatus)) return 128 + WTERMSIG(wstatus);
  return -1;
}

int TestCluster::StopTask(const std::string& job, int task) {
  Task* t = Find(job, task);
  if (t == nullptr || t->pid <= 0) return -1;
  kill(t->pid, SIGTERM);
  int rc = Reap(t, options_.stop_timeout);
  if (rc == -2) {
    std::fprintf(stderr, "TestCluster: %s:%d did not stop within %s after SIGTERM; killing it\n",
                 job.c_str(), task, absl::FormatDuration(options_.stop_timeout).c_str());
    kill(t->pid, SIGKILL);
    rc = Reap(t, absl::Seconds(10));
  }
  return rc;
}

void TestCluster::Kill(const std::string& job, int task) {
  Task* t = Find(job, task);
  if (t == nullptr || t->pid <= 0) return;
  kill(t->pid, SIGKILL);
  Reap(t, absl::Seconds(10));
}

void TestCluster::StopAll() {
  // SIGTERM to all first, so they stop in parallel.
  for (Task& t : tasks_) {
    if (t.pid > 0) kill(t.pid, SIGTERM);
  }
  for (Task& t : tasks_) {
    if (t.pid > 0) StopTask(t.job, t.index);
  }
}

}  // namespace testing
}  // namespace sg
