/* Loads an op library the way a process that opened libtensorflow.so.2 with RTLD_LOCAL does
 * (Python's ctypes, a plugin host): the library's TF_ symbols are not in the global scope, so an
 * op library resolves them only through its own dependencies (for one linked with
 * -ltensorflow_framework, sg's libtensorflow_framework.so.2, a filter of libtensorflow.so.2).
 *   tf_plugin_local_loader LIBTENSORFLOW OP_LIBRARY
 * Prints "loaded, op SgTestAddOne registered" and exits 0, or prints TF_LoadLibrary's error and
 * exits 2; 1 on any other failure. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "tensorflow/c/c_api.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s LIBTENSORFLOW OP_LIBRARY\n", argv[0]);
    return 1;
  }
  void* tf = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (tf == NULL) {
    fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
    return 1;
  }
  /* The functions by name, through the handle only (none of them is in the global scope). */
  TF_Status* (*new_status)(void) = (TF_Status * (*)(void)) dlsym(tf, "TF_NewStatus");
  void (*delete_status)(TF_Status*) = (void (*)(TF_Status*))dlsym(tf, "TF_DeleteStatus");
  TF_Code (*get_code)(const TF_Status*) = (TF_Code(*)(const TF_Status*))dlsym(tf, "TF_GetCode");
  const char* (*message)(const TF_Status*) =
      (const char* (*)(const TF_Status*))dlsym(tf, "TF_Message");
  TF_Library* (*load_library)(const char*, TF_Status*) =
      (TF_Library * (*)(const char*, TF_Status*)) dlsym(tf, "TF_LoadLibrary");
  TF_Buffer (*get_op_list)(TF_Library*) = (TF_Buffer(*)(TF_Library*))dlsym(tf, "TF_GetOpList");
  void (*delete_handle)(TF_Library*) = (void (*)(TF_Library*))dlsym(tf, "TF_DeleteLibraryHandle");
  if (!new_status || !delete_status || !get_code || !message || !load_library || !get_op_list ||
      !delete_handle) {
    fprintf(stderr, "a TF_ function is missing from %s\n", argv[1]);
    return 1;
  }
  if (dlsym(RTLD_DEFAULT, "TF_NewStatus") != NULL) {
    fprintf(stderr, "TF_NewStatus is in the global scope: this test would prove nothing\n");
    return 1;
  }
  TF_Status* status = new_status();
  TF_Library* library = load_library(argv[2], status);
  if (get_code(status) != TF_OK || library == NULL) {
    printf("not loaded: code %d: %s\n", (int)get_code(status), message(status));
    delete_status(status);
    return 2;
  }
  /* The op list (an OpList message) names the op. */
  TF_Buffer ops = get_op_list(library);
  const char* name = "SgTestAddOne";
  int found = 0;
  for (size_t i = 0; ops.data != NULL && i + strlen(name) <= ops.length; ++i) {
    if (memcmp((const char*)ops.data + i, name, strlen(name)) == 0) found = 1;
  }
  delete_handle(library);
  delete_status(status);
  if (!found) {
    printf("loaded, but op SgTestAddOne is not in its op list\n");
    return 1;
  }
  printf("loaded, op SgTestAddOne registered\n");
  return 0;
}
