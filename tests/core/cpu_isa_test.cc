// The x86-64 level of the dispatched kernels (core/util/cpu_isa.h, cmake/SgDispatch.cmake):
// detection checked against the kernel's own account of the CPU (/proc/cpuinfo), the
// SG_MAX_CPU_ISA cap, and that exactly one copy of each dispatched kernel is registered, the one
// of the selected level.
//
// ctest runs this file natively, with SG_MAX_CPU_ISA=x86-64-v2 and =x86-64-v3, and under
// qemu-x86_64 emulating CPUs without AVX (Nehalem) and without AVX-512 (Haswell); there the
// expected level comes from SG_EXPECT_CPU_ISA, as /proc/cpuinfo still describes the host.
#include "core/util/cpu_isa.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "core/framework/op_kernel.h"

namespace sg {
namespace {

int EnvLevel(const char* var) {
  const char* v = std::getenv(var);
  if (v == nullptr || *v == '\0') return 0;
  const std::string s(v);
  // The names core/util/cpu_isa.h accepts, and bare digits for SG_EXPECT_CPU_ISA.
  if (s == "x86-64-v2" || s == "v2" || s == "sse4.2" || s == "2") return 2;
  if (s == "x86-64-v3" || s == "v3" || s == "avx2" || s == "3") return 3;
  if (s == "x86-64-v4" || s == "v4" || s == "avx512" || s == "4") return 4;
  ADD_FAILURE() << var << "=" << s << " is not a level this test knows";
  return 0;
}

// The level the Linux kernel's flags line of the first CPU describes (x86-64 psABI's lists;
// the kernel calls LZCNT "abm" and BMI1 "bmi1").
int LevelFromProcCpuinfo() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  std::set<std::string> flags;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    for (std::string w; words >> w;) flags.insert(w);
    break;
  }
  auto all = [&](std::vector<std::string> names) {
    return std::all_of(names.begin(), names.end(), [&](const std::string& n) {
      return flags.count(n) > 0;
    });
  };
  if (!all({"sse4_2", "ssse3", "popcnt", "cx16"})) return 1;
  if (!all({"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe"})) return 2;
  if (!all({"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"})) return 3;
  return 4;
}

int ExpectedSelected() {
  const int expected = EnvLevel("SG_EXPECT_CPU_ISA");
  if (expected != 0) return expected;
  const int cap = EnvLevel("SG_MAX_CPU_ISA");
  const int supported = LevelFromProcCpuinfo();
  return cap != 0 ? std::min(cap, supported) : supported;
}

TEST(CpuIsa, SupportedLevelIsTheOneProcCpuinfoDescribes) {
  if (EnvLevel("SG_EXPECT_CPU_ISA") != 0) {
    GTEST_SKIP() << "emulated CPU: /proc/cpuinfo describes the host";
  }
  EXPECT_EQ(SupportedCpuIsaLevel(), LevelFromProcCpuinfo());
}

TEST(CpuIsa, SelectedLevelIsTheSupportedOneUnderTheCap) {
  EXPECT_EQ(SelectedCpuIsaLevel(), ExpectedSelected())
      << "selected " << CpuIsaLevelName(SelectedCpuIsaLevel()) << ", supported "
      << CpuIsaLevelName(SupportedCpuIsaLevel());
  EXPECT_STREQ(CpuIsaLevelName(3), "x86-64-v3");
}

// Every registration's identity: op, device, type constraints, priority. Two equal ones would be
// two copies of one kernel (which one runs would depend on registration order).
using KernelKey = std::tuple<std::string, std::string, std::string, int>;

KernelKey KeyOf(const KernelDefBuilder& k) {
  std::string constraints;
  for (const auto& c : k.constraints_) {
    constraints += c.attr + ":";
    for (DataType t : c.allowed) constraints += std::to_string(static_cast<int>(t)) + ",";
    constraints += ";";
  }
  return {k.op_, k.device_, constraints, k.priority_};
}

TEST(CpuIsa, NoKernelIsRegisteredTwice) {
  std::map<KernelKey, int> seen;
  for (const KernelDefBuilder& k : KernelRegistry::Global()->Kernels()) {
    EXPECT_EQ(++seen[KeyOf(k)], 1) << "op " << k.op_ << " on " << k.device_
                                   << " registered more than once (level " << k.isa_level_ << ")";
  }
  EXPECT_GT(seen.size(), 500u);
}

TEST(CpuIsa, DispatchedKernelsAreTheSelectedLevelsCopy) {
#ifdef SG_TEST_DISPATCH
  const int level = ExpectedSelected();
  for (const char* op : {"MatMul", "_FusedMatMul", "AddV2", "Tanh", "BiasAdd", "Softmax", "Sum",
                         "SoftmaxCrossEntropyWithLogits", "ReluGrad", "ApplyAdam", "MaxPool"}) {
    const auto kernels = KernelRegistry::Global()->Kernels(op);
    ASSERT_FALSE(kernels.empty()) << op;
    for (const auto& k : kernels) EXPECT_EQ(k.isa_level_, level) << op;
  }
#else
  // A native build (SG_NATIVE) or a sanitizer build compiles one copy: nothing is dispatched.
  for (const auto& k : KernelRegistry::Global()->Kernels("MatMul")) EXPECT_EQ(k.isa_level_, 0);
#endif
  // Convolutions are oneDNN's, which chooses its code itself: never dispatched by sg.
  for (const auto& k : KernelRegistry::Global()->Kernels("Conv2D")) EXPECT_EQ(k.isa_level_, 0);
}

}  // namespace
}  // namespace sg
