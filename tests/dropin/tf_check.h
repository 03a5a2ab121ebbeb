/* The checks of the drop-in's C clients, written against TensorFlow's C API only (they are also
 * built against TensorFlow's own headers): each failed check prints where and what, counts in
 * `failures`, and the client goes on; main returns non-zero when `failures` is not 0. The SG_
 * twin is tests/c_api/c_check.h.
 *   CHECK(cond)               cond holds
 *   CHECK_CODE(status, code)  TF_GetCode(status) == code (prints the status's message if not)
 * One program per translation unit: `failures` is static. */
#ifndef SG_TESTS_DROPIN_TF_CHECK_H_
#define SG_TESTS_DROPIN_TF_CHECK_H_

#include <stdio.h>

#include "tensorflow/c/c_api.h"

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#define CHECK_CODE(s, code)                                                   \
  do {                                                                        \
    if (TF_GetCode(s) != (code)) {                                            \
      fprintf(stderr, "%s:%d: status %d (want %d): %s\n", __FILE__, __LINE__, \
              (int)TF_GetCode(s), (int)(code), TF_Message(s));                \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

#endif  /* SG_TESTS_DROPIN_TF_CHECK_H_ */
