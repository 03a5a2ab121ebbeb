// The x86-64 level this process runs sg's dispatched kernels at.
//
// sg's libraries are compiled for a portable baseline (x86-64-v2, CMakeLists.txt's
// SG_BASELINE_ARCH). The kernel files that gain from wider vectors (cmake/SgDispatch.cmake lists
// them) are compiled again for x86-64-v3 (AVX2, FMA, BMI2) and x86-64-v4 (AVX-512 F/BW/CD/DQ/VL);
// every copy carries the same REGISTER_KERNEL_BUILDERs, and only the copy whose level equals
// SelectedCpuIsaLevel() registers them (op_kernel.h). oneDNN chooses its own code the same way.
//
// The level is the highest the CPU and the operating system both support (the OS must save the
// AVX / AVX-512 registers: XGETBV), capped by the environment variable SG_MAX_CPU_ISA if set:
// "x86-64-v2" (or "v2", "sse4.2"), "x86-64-v3" ("v3", "avx2"), "x86-64-v4" ("v4", "avx512").
// An unknown value is ignored (with one line on stderr). The cap is read once, at the first call,
// which happens while static initializers register the kernels: set it before the process starts
// (or before libsg is loaded).
//
// Thread safety: both functions may be called from any thread.
#ifndef SG_CORE_UTIL_CPU_ISA_H_
#define SG_CORE_UTIL_CPU_ISA_H_

namespace sg {

// 2, 3 or 4 for x86-64-v2..v4; 0 on other architectures (nothing is dispatched there).
int SupportedCpuIsaLevel();

// SupportedCpuIsaLevel() capped by SG_MAX_CPU_ISA; computed once per process.
int SelectedCpuIsaLevel();

// "x86-64-v2" .. "x86-64-v4", or "none" for 0.
const char* CpuIsaLevelName(int level);

}  // namespace sg

#endif  // SG_CORE_UTIL_CPU_ISA_H_
