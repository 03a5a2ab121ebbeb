/* c_api.h, tf_c_api.h, ops.h and kernels.h compile as strict C99 (-std=c99 -Wall -Wextra -pedantic -Werror, set in
 * tests/CMakeLists.txt) and the value structs keep their layout (abi_layout.h). Running it checks
 * the version macros against SG_Version(). */
#include <stdio.h>
#include <string.h>

#include "sg/c_api.h"
#include "sg/kernels.h"
#include "sg/ops.h"
#include "sg/tf_c_api.h"

#include "abi_layout.h"

#define SG_STR2(x) #x
#define SG_STR(x) SG_STR2(x)

int main(void) {
  const char* macro = SG_STR(SG_VERSION_MAJOR) "." SG_STR(SG_VERSION_MINOR) "." SG_STR(
      SG_VERSION_PATCH);
  TF_Output out = {NULL, 0};
  /* The op-library functions keep their types (a changed signature is a compile error). */
  void (*register_op)(SG_OpDefinitionBuilder*, SG_Status*) = &SG_RegisterOpDefinition;
  void (*register_kernel)(const char*, SG_KernelBuilder*, SG_Status*) = &SG_RegisterKernelBuilder;
  if (strcmp(macro, SG_VERSION_STRING) != 0) {
    fprintf(stderr, "SG_VERSION_STRING %s != %s\n", SG_VERSION_STRING, macro);
    return 1;
  }
  if (strcmp(SG_Version(), SG_VERSION_STRING) != 0) {
    fprintf(stderr, "SG_Version() %s != SG_VERSION_STRING %s\n", SG_Version(), SG_VERSION_STRING);
    return 1;
  }
  if (register_op == NULL || register_kernel == NULL) return 1;
  printf("C99: sg %s, SG_Output %u bytes, SG_Buffer %u bytes, TF_Output index %d\n", SG_Version(),
         (unsigned)sizeof(SG_Output), (unsigned)sizeof(SG_Buffer), out.index);
  return 0;
}
