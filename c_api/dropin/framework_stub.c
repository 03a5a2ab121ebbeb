/* libtensorflow_framework.so.2 of sg: the name TensorFlow's op libraries link to
 * (`-l:libtensorflow_framework.so.2`, which tf.sysconfig.get_link_flags() gives, or
 * `-ltensorflow_framework`, which TensorFlow's generate-pc.sh puts in tensorflow.pc), for sg's
 * libtensorflow.so.2. TensorFlow splits its C library in two and puts the functions of
 * tf_status.h, tf_tensor.h, tf_buffer.h, tf_datatype.h, ops.h and kernels.h (among others) in
 * libtensorflow_framework.so.2; sg has one library, so this one holds no code of its own.
 *
 * It is an ELF filter (DT_FILTER libtensorflow.so.2): the dynamic loader loads libtensorflow.so.2
 * with it and resolves every symbol looked up here in libtensorflow.so.2 instead, so an op library
 * linked with -ltensorflow_framework gets sg's functions even when the process loaded
 * libtensorflow.so.2 with RTLD_LOCAL (Python's ctypes does). The definitions below exist for the
 * static linker only: they give the library TensorFlow's framework names (unversioned, as
 * TensorFlow's are, so that an op library linked here also loads into TensorFlow), which lets
 * `-Wl,--no-undefined` and `-Wl,--as-needed` link an op library as they would against
 * TensorFlow's. They are never called where the loader honours DT_FILTER (glibc does); elsewhere
 * the first call says so and aborts rather than doing nothing.
 *
 * The names are those the drop-in's own headers of that list declare (framework_symbols.inc,
 * written by write_tf_names.cmake at build time). */
#include <stdio.h>
#include <stdlib.h>

static void SgFrameworkStubCalled(const char* name) {
  fprintf(stderr,
          "libtensorflow_framework.so.2 (sg): %s was called in the stub rather than in "
          "libtensorflow.so.2: this dynamic loader does not honour DT_FILTER; link the op "
          "library with -ltensorflow instead\n",
          name);
  abort();
}

#define SG_FRAMEWORK_SYMBOL(name)                          \
  __attribute__((visibility("default"))) void name(void); \
  void name(void) { SgFrameworkStubCalled(#name); }
#include "framework_symbols.inc"
