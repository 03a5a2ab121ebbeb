#include "core/util/cpu_isa.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace sg {
namespace {

#if defined(__x86_64__)
// XCR0, the register state the OS saves on a context switch (valid only with OSXSAVE).
unsigned long long ReadXcr0() {
  unsigned int eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<unsigned long long>(edx) << 32) | eax;
}

bool Bits(unsigned int reg, unsigned int mask) { return (reg & mask) == mask; }

// Bit positions are Intel's (SDM vol. 2A, CPUID): leaf 1 ECX, leaf 7.0 EBX, leaf 0x80000001 ECX.
int DetectLevel() {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 2;
  const unsigned int leaf1_ecx = ecx;
  unsigned int leaf7_ebx = 0;
  if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) leaf7_ebx = ebx;
  unsigned int ext_ecx = 0;
  if (__get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx)) ext_ecx = ecx;

  const bool osxsave = Bits(leaf1_ecx, 1u << 27);
  const unsigned long long xcr0 = osxsave ? ReadXcr0() : 0;
  const bool os_ymm = (xcr0 & 0x6) == 0x6;    // SSE and AVX state
  const bool os_zmm = (xcr0 & 0xe0) == 0xe0;  // opmask, ZMM_Hi256, Hi16_ZMM state
  // x86-64-v3: AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE.
  const bool v3 = os_ymm &&
                  Bits(leaf1_ecx, (1u << 28) | (1u << 29) | (1u << 12) | (1u << 22)) &&
                  Bits(leaf7_ebx, (1u << 5) | (1u << 3) | (1u << 8)) && Bits(ext_ecx, 1u << 5);
  if (!v3) return 2;
  // x86-64-v4: AVX512F, AVX512DQ, AVX512CD, AVX512BW, AVX512VL.
  const bool v4 =
      os_zmm && Bits(leaf7_ebx, (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) | (1u << 31));
  return v4 ? 4 : 3;
}
#else
int DetectLevel() { return 0; }
#endif

int ParseCap(const char* s) {
  static const struct {
    const char* name;
    int level;
  } kNames[] = {{"x86-64-v2", 2}, {"v2", 2}, {"sse4.2", 2}, {"x86-64-v3", 3}, {"v3", 3},
                {"avx2", 3},      {"x86-64-v4", 4}, {"v4", 4}, {"avx512", 4}};
  for (const auto& n : kNames) {
    if (std::strcmp(s, n.name) == 0) return n.level;
  }
  std::fprintf(stderr, "sg: SG_MAX_CPU_ISA=%s is not one of x86-64-v2, x86-64-v3, x86-64-v4; "
                       "ignored\n", s);
  return 0;
}

}  // namespace

int SupportedCpuIsaLevel() {
  static const int level = DetectLevel();
  return level;
}

int SelectedCpuIsaLevel() {
  static const int level = [] {
    int l = SupportedCpuIsaLevel();
    const char* cap = std::getenv("SG_MAX_CPU_ISA");
    if (l != 0 && cap != nullptr && *cap != '\0') {
      const int c = ParseCap(cap);
      if (c != 0 && c < l) l = c;
    }
    return l;
  }();
  return level;
}

const char* CpuIsaLevelName(int level) {
  switch (level) {
    case 2: return "x86-64-v2";
    case 3: return "x86-64-v3";
    case 4: return "x86-64-v4";
    default: return "none";
  }
}

}  // namespace sg
