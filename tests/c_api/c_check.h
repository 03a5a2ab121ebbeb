/* The checks of sg's C API tests (C99): each failed check prints where and what, counts in
 * `failures`, and the test goes on; main returns non-zero when `failures` is not 0.
 *   CHECK(cond)                 cond holds
 *   CHECK_CODE(status, code)    SG_GetCode(status) == code (prints the status's message if not)
 *   CHECK_MESSAGE(status, what) SG_Message(status) contains the string `what`
 * One test program per translation unit: `failures` is static. */
#ifndef SG_TESTS_C_API_C_CHECK_H_
#define SG_TESTS_C_API_C_CHECK_H_

#include <stdio.h>
#include <string.h>

#include "sg/c_api.h"

static int failures = 0;

#define CHECK(cond)                                                                \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
      ++failures;                                                                  \
    }                                                                              \
  } while (0)

#define CHECK_CODE(s, code)                                                        \
  do {                                                                             \
    if (SG_GetCode(s) != (code)) {                                                 \
      fprintf(stderr, "%s:%d: status %d (want %d): %s\n", __FILE__, __LINE__,      \
              (int)SG_GetCode(s), (int)(code), SG_Message(s));                     \
      ++failures;                                                                  \
    }                                                                              \
  } while (0)

#define CHECK_MESSAGE(s, what)                                                     \
  do {                                                                             \
    if (strstr(SG_Message(s), (what)) == NULL) {                                   \
      fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__,  \
              SG_Message(s), (what));                                              \
      ++failures;                                                                  \
    }                                                                              \
  } while (0)

#endif /* SG_TESTS_C_API_C_CHECK_H_ */
