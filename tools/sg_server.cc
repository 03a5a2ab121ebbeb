// sg server --cluster SPEC --job J --task T [--tls-cert F --tls-key F --tls-ca F]
//
// Serves task T of job J of the cluster SPEC ("ps=127.0.0.1:2222;worker=127.0.0.1:2223,...")
// until SIGTERM or SIGINT, then stops cleanly (steps in flight end CANCELLED, the port is freed)
// and exits 0. When it serves it prints one line "sg: serving J:T on grpc://host:port" to stdout
// (scripts and tests wait for it). Through libsg's C API only.
#include "tools/sg_server.h"

#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sg/c_api.h"
#include "tools/cmd_error.h"

namespace sg_tool {
namespace {

const char kServerUsage[] =
    "usage: sg server --cluster SPEC --job JOB --task INDEX\n"
    "                 [--tls-cert FILE --tls-key FILE [--tls-ca FILE]]\n"
    "SPEC is job=host:port[,host:port...][;job=...], e.g.\n"
    "  ps=127.0.0.1:2222;worker=127.0.0.1:2223,127.0.0.1:2224\n"
    "Runs until SIGTERM or SIGINT, then stops cleanly.\n";

int Fail(SG_Code code, const std::string& message) {
  std::string m = message;
  for (char& c : m) {
    if (c == '\n') c = ' ';
  }
  std::fprintf(stderr, "sg: %s: %s\n", CmdCodeName(code), m.c_str());
  return 1;
}

int Usage(const std::string& message) {
  std::fprintf(stderr, "sg: INVALID_ARGUMENT: %s\n%s", message.c_str(), kServerUsage);
  return 2;
}

}  // namespace

int ServerMain(int argc, char** argv) {
  std::string cluster, job, task_text, cert, key, ca;
  bool have_task = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kServerUsage, stdout);
      return 0;
    }
    std::string* dest = nullptr;
    if (arg == "--cluster") dest = &cluster;
    if (arg == "--job") dest = &job;
    if (arg == "--task") {
      dest = &task_text;
      have_task = true;
    }
    if (arg == "--tls-cert") dest = &cert;
    if (arg == "--tls-key") dest = &key;
    if (arg == "--tls-ca") dest = &ca;
    if (dest == nullptr) return Usage("unknown argument '" + arg + "'");
    if (i + 1 >= argc) return Usage(arg + " needs a value");
    *dest = argv[++i];
  }
  if (cluster.empty()) return Usage("server needs --cluster");
  if (job.empty()) return Usage("server needs --job");
  if (!have_task) return Usage("server needs --task");
  char* end = nullptr;
  const long task = std::strtol(task_text.c_str(), &end, 10);
  if (task_text.empty() || *end != '\0' || task < 0 || task > 1000000) {
    return Usage("--task '" + task_text + "' is not a task index");
  }

  // The signals are taken synchronously by this thread (sigwait); every thread the server
  // starts inherits the mask, so none of them is interrupted.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  SG_Status* status = SG_NewStatus();
  SG_Server* server = SG_NewServerFromClusterSpecWithTls(
      cluster.c_str(), job.c_str(), static_cast<int>(task), cert.c_str(), key.c_str(), ca.c_str(),
      status);
  if (SG_GetCode(status) != SG_OK) {
    int rc = Fail(SG_GetCode(status), SG_Message(status));
    SG_DeleteStatus(status);
    return rc;
  }
  SG_ServerStart(server, status);
  if (SG_GetCode(status) != SG_OK) {
    int rc = Fail(SG_GetCode(status), SG_Message(status));
    SG_DeleteServer(server);
    SG_DeleteStatus(status);
    return rc;
  }
  std::printf("sg: serving %s:%ld on %s\n", job.c_str(), task, SG_ServerTarget(server));
  std::fflush(stdout);

  int sig = 0;
  sigwait(&signals, &sig);
  std::fprintf(stderr, "sg: %s received, stopping %s:%ld\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
               job.c_str(), task);
  SG_ServerStop(server, status);
  int rc = 0;
  if (SG_GetCode(status) != SG_OK) rc = Fail(SG_GetCode(status), SG_Message(status));
  SG_DeleteServer(server);
  SG_DeleteStatus(status);
  return rc;
}

}  // namespace sg_tool
