// c_api.h, tf_c_api.h, ops.h and kernels.h compile as C++11 (-std=c++11 -Wall -Wextra -pedantic -Werror, set in
// tests/CMakeLists.txt): extern "C" linkage, no C-only constructs, same layout (abi_layout.h).
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "sg/c_api.h"
#include "sg/kernels.h"
#include "sg/ops.h"
#include "sg/tf_c_api.h"

#include "abi_layout.h"

static_assert(std::is_standard_layout<SG_Output>::value, "SG_Output is plain C");
static_assert(std::is_trivially_copyable<SG_Buffer>::value, "SG_Buffer is plain C");
static_assert(std::is_same<TF_Output, SG_Output>::value, "TF_Output names SG_Output");

int main() {
  // The functions have C linkage: their addresses convert to plain function pointer types.
  const char* (*version)(void) = &SG_Version;
  TF_Status* (*new_status)(void) = &TF_NewStatus;
  void (*register_op)(SG_OpDefinitionBuilder*, SG_Status*) = &SG_RegisterOpDefinition;
  SG_KernelBuilder* (*new_kernel)(const char*, const char*, void* (*)(SG_OpKernelConstruction*),
                                  void (*)(void*, SG_OpKernelContext*), void (*)(void*)) =
      &SG_NewKernelBuilder;
  TF_Status* s = new_status();
  const bool ok = std::strcmp(version(), SG_VERSION_STRING) == 0 && TF_GetCode(s) == TF_OK &&
                  register_op != nullptr && new_kernel != nullptr;
  TF_DeleteStatus(s);
  std::printf("C++11: sg %s, %s\n", version(), ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
