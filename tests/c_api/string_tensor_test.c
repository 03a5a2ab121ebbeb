/* SG_NewStringTensor and SG_StringTensorGet from plain C99: round trips (empty strings, embedded
 * NULs, a string whose varint length takes two bytes, no elements, rank 0 and rank 2), the exact
 * bytes of TensorFlow 1.x's layout written down by hand, every argument error, and corrupt
 * buffers, which must give SG_INVALID_ARGUMENT and leave the outputs alone, never a crash.
 * Usage: c_api_string_tensor_test */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sg/c_api.h"
#include "c_check.h"

/* Element `i` of `t` is the `len` bytes at `want`. */
static void CheckElement(const SG_Tensor* t, int64_t i, const char* want, size_t len, int line) {
  SG_Status* s = SG_NewStatus();
  const char* data = NULL;
  size_t length = (size_t)-1;
  SG_StringTensorGet(t, i, &data, &length, s);
  if (SG_GetCode(s) != SG_OK || length != len || (len > 0 && memcmp(data, want, len) != 0)) {
    fprintf(stderr, "%s:%d: element %ld: status %d (%s), length %lu, wanted %lu bytes\n",
            __FILE__, line, (long)i, (int)SG_GetCode(s), SG_Message(s), (unsigned long)length,
            (unsigned long)len);
    ++failures;
  }
  SG_DeleteStatus(s);
}
#define CHECK_ELEMENT(t, i, want, len) CheckElement((t), (i), (want), (len), __LINE__)

/* SG_StringTensorGet fails with SG_INVALID_ARGUMENT, leaving its outputs alone. */
static void CheckGetFails(const SG_Tensor* t, int64_t i, const char* culprit, int line) {
  SG_Status* s = SG_NewStatus();
  const char* sentinel = "untouched";
  const char* data = sentinel;
  size_t length = 12345;
  SG_StringTensorGet(t, i, &data, &length, s);
  if (SG_GetCode(s) != SG_INVALID_ARGUMENT || data != sentinel || length != 12345 ||
      strstr(SG_Message(s), culprit) == NULL) {
    fprintf(stderr, "%s:%d: get %ld: status %d (%s), outputs %s; wanted INVALID_ARGUMENT "
            "naming \"%s\" and untouched outputs\n", __FILE__, line, (long)i,
            (int)SG_GetCode(s), SG_Message(s),
            data == sentinel && length == 12345 ? "untouched" : "written", culprit);
    ++failures;
  }
  SG_DeleteStatus(s);
}
#define CHECK_GET_FAILS(t, i, culprit) CheckGetFails((t), (i), (culprit), __LINE__)

/* ---- round trips ---------------------------------------------------------------------------- */

/* Three strings: empty, "a\0b" and 300 bytes (varint 0xAC 0x02), against bytes written by hand. */
static void TestRankOneLayout(void) {
  SG_Status* s = SG_NewStatus();
  char long_string[300];
  const char* data[3];
  size_t lengths[3] = {0, 3, 300};
  int64_t dims[1] = {3};
  SG_Tensor* t;
  int i;
  for (i = 0; i < 300; ++i) long_string[i] = (char)('a' + i % 26);
  data[0] = "";
  data[1] = "a\0b";
  data[2] = long_string;
  t = SG_NewStringTensor(dims, 1, data, lengths, 3, s);
  CHECK_CODE(s, SG_OK);
  CHECK(t != NULL);
  if (t == NULL) goto done;
  CHECK(SG_TensorType(t) == SG_STRING && SG_NumDims(t) == 1 && SG_Dim(t, 0) == 3);
  CHECK(SG_TensorElementCount(t) == 3);
  /* 3 offsets of 8 bytes, then (1 + 0) + (1 + 3) + (2 + 300) bytes. */
  CHECK(SG_TensorByteSize(t) == 24 + 1 + 4 + 302);
  if (SG_TensorByteSize(t) == 331) {
    const unsigned char* b = (const unsigned char*)SG_TensorData(t);
    const uint64_t want_offsets[3] = {0, 1, 5};
    const unsigned char want_head[7] = {0x00, 0x03, 'a', 0x00, 'b', 0xAC, 0x02};
    for (i = 0; i < 3; ++i) {
      uint64_t offset;
      memcpy(&offset, b + 8 * i, 8);
      CHECK(offset == want_offsets[i]);
    }
    CHECK(memcmp(b + 24, want_head, 7) == 0);
    CHECK(memcmp(b + 31, long_string, 300) == 0);
  }
  CHECK_ELEMENT(t, 0, "", 0);
  CHECK_ELEMENT(t, 1, "a\0b", 3);
  CHECK_ELEMENT(t, 2, long_string, 300);
  /* The view points into the tensor's own buffer. */
  {
    const char* p = NULL;
    size_t n = 0;
    SG_StringTensorGet(t, 2, &p, &n, s);
    CHECK(p == (const char*)SG_TensorData(t) + 31 && n == 300);
  }
  CHECK_GET_FAILS(t, 3, "index 3");
  CHECK_GET_FAILS(t, -1, "index -1");
done:
  SG_DeleteTensor(t);
  SG_DeleteStatus(s);
}

/* The tensor SG_NewTensor takes from hand-encoded bytes reads back the same. */
static void TestReadsBytesFromNewTensor(void) {
  /* "hi" and "" as two offsets, then 02 'h' 'i' 00. */
  static const unsigned char bytes[20] = {0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0,
                                          2, 'h', 'i', 0};
  int64_t dims[1] = {2};
  SG_Tensor* t = SG_NewTensor(SG_STRING, dims, 1, (void*)bytes, sizeof bytes, NULL, NULL);
  CHECK(t != NULL);
  if (t == NULL) return;
  CHECK_ELEMENT(t, 0, "hi", 2);
  CHECK_ELEMENT(t, 1, "", 0);
  SG_DeleteTensor(t);
}

static void TestScalar(void) {
  SG_Status* s = SG_NewStatus();
  const char* data[1] = {"scalar"};
  size_t lengths[1] = {6};
  SG_Tensor* t = SG_NewStringTensor(NULL, 0, data, lengths, 1, s);
  CHECK_CODE(s, SG_OK);
  CHECK(t != NULL && SG_NumDims(t) == 0 && SG_TensorElementCount(t) == 1);
  CHECK(SG_TensorByteSize(t) == 8 + 1 + 6);
  CHECK_ELEMENT(t, 0, "scalar", 6);
  CHECK_GET_FAILS(t, 1, "index 1");
  SG_DeleteTensor(t);
  /* A scalar holds one element, not zero. */
  t = SG_NewStringTensor(NULL, 0, NULL, NULL, 0, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(t == NULL);
  SG_DeleteStatus(s);
}

/* [2, 3], read back by row-major index. */
static void TestRankTwo(void) {
  SG_Status* s = SG_NewStatus();
  const char* data[6] = {"r0c0", "", "r0c2", "x", "\0\0", "last one"};
  size_t lengths[6] = {4, 0, 4, 1, 2, 8};
  int64_t dims[2] = {2, 3};
  int64_t i;
  SG_Tensor* t = SG_NewStringTensor(dims, 2, data, lengths, 6, s);
  CHECK_CODE(s, SG_OK);
  CHECK(t != NULL && SG_NumDims(t) == 2 && SG_Dim(t, 0) == 2 && SG_Dim(t, 1) == 3);
  for (i = 0; t != NULL && i < 6; ++i) CHECK_ELEMENT(t, i, data[i], lengths[i]);
  CHECK_GET_FAILS(t, 6, "index 6");
  SG_DeleteTensor(t);
  SG_DeleteStatus(s);
}

static void TestNoElements(void) {
  SG_Status* s = SG_NewStatus();
  int64_t dims[2] = {2, 0};
  SG_Tensor* t = SG_NewStringTensor(dims, 2, NULL, NULL, 0, s);
  CHECK_CODE(s, SG_OK);
  CHECK(t != NULL && SG_TensorElementCount(t) == 0 && SG_TensorByteSize(t) == 0);
  CHECK(SG_Dim(t, 0) == 2 && SG_Dim(t, 1) == 0);
  CHECK_GET_FAILS(t, 0, "index 0");
  SG_DeleteTensor(t);
  SG_DeleteStatus(s);
}

/* A NULL pointer with length 0 is an empty string. */
static void TestNullEmptyElement(void) {
  SG_Status* s = SG_NewStatus();
  const char* data[2] = {NULL, "b"};
  size_t lengths[2] = {0, 1};
  int64_t dims[1] = {2};
  SG_Tensor* t = SG_NewStringTensor(dims, 1, data, lengths, 2, s);
  CHECK_CODE(s, SG_OK);
  CHECK_ELEMENT(t, 0, "", 0);
  CHECK_ELEMENT(t, 1, "b", 1);
  SG_DeleteTensor(t);
  SG_DeleteStatus(s);
}

/* ---- argument errors ------------------------------------------------------------------------ */

/* SG_NewStringTensor fails with SG_INVALID_ARGUMENT naming `culprit` and returns NULL. */
static void CheckNewFails(const int64_t* dims, int num_dims, const char* const* data,
                          const size_t* lengths, int64_t n, const char* culprit, int line) {
  SG_Status* s = SG_NewStatus();
  SG_Tensor* t = SG_NewStringTensor(dims, num_dims, data, lengths, n, s);
  if (t != NULL || SG_GetCode(s) != SG_INVALID_ARGUMENT ||
      strstr(SG_Message(s), culprit) == NULL) {
    fprintf(stderr, "%s:%d: got %s, status %d (%s); wanted NULL and INVALID_ARGUMENT naming "
            "\"%s\"\n", __FILE__, line, t != NULL ? "a tensor" : "NULL", (int)SG_GetCode(s),
            SG_Message(s), culprit);
    ++failures;
  }
  SG_DeleteTensor(t);
  SG_DeleteStatus(s);
}
#define CHECK_NEW_FAILS(dims, nd, data, lengths, n, culprit) \
  CheckNewFails((dims), (nd), (data), (lengths), (n), (culprit), __LINE__)

static void TestNewStringTensorErrors(void) {
  const char* two[2] = {"ab", "c"};
  size_t two_lengths[2] = {2, 1};
  const char* with_null[2] = {"ab", NULL};
  int64_t dims2[1] = {2};
  int64_t negative[2] = {2, -1};
  int64_t huge[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
  size_t too_long[2] = {(size_t)-1, 1};
  size_t halves[2] = {(size_t)1 << 61, (size_t)1 << 61};
  int64_t dims3[1] = {3};
  CHECK_NEW_FAILS(dims3, 1, two, two_lengths, 2, "num_elements is 2");
  CHECK_NEW_FAILS(dims2, 1, two, two_lengths, 3, "num_elements is 3");
  CHECK_NEW_FAILS(dims2, 1, two, two_lengths, -1, "num_elements is -1");
  CHECK_NEW_FAILS(dims2, 1, NULL, two_lengths, 2, "NULL");
  CHECK_NEW_FAILS(dims2, 1, two, NULL, 2, "NULL");
  CHECK_NEW_FAILS(dims2, 1, with_null, two_lengths, 2, "data[1] is NULL");
  CHECK_NEW_FAILS(negative, 2, two, two_lengths, 2, "dims[1] is -1");
  CHECK_NEW_FAILS(NULL, 1, two, two_lengths, 2, "dims");
  CHECK_NEW_FAILS(dims2, -1, two, two_lengths, 2, "dims");
  CHECK_NEW_FAILS(huge, 2, two, two_lengths, 2, "2^62");
  /* Lengths whose encoding cannot fit: refused before any byte of `data` is read. */
  CHECK_NEW_FAILS(dims2, 1, two, too_long, 2, "2^62");
  CHECK_NEW_FAILS(dims2, 1, two, halves, 2, "2^62");
}

static void TestGetErrors(void) {
  SG_Status* s = SG_NewStatus();
  const char* one[1] = {"x"};
  size_t one_length[1] = {1};
  int64_t dims[1] = {1};
  SG_Tensor* floats = SG_AllocateTensor(SG_FLOAT, dims, 1, 4);
  SG_Tensor* t = SG_NewStringTensor(dims, 1, one, one_length, 1, s);
  const char* data = NULL;
  size_t length = 0;
  CHECK_GET_FAILS(NULL, 0, "NULL");
  CHECK_GET_FAILS(floats, 0, "float");
  SG_StringTensorGet(t, 0, NULL, &length, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_StringTensorGet(t, 0, &data, NULL, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(data == NULL && length == 0);
  SG_DeleteTensor(t);
  SG_DeleteTensor(floats);
  SG_DeleteStatus(s);
}

/* ---- corrupt buffers ------------------------------------------------------------------------ */

static void FreeBytes(void* data, size_t len, void* arg) {
  (void)len;
  (void)arg;
  free(data);
}

/* A tensor made by SG_NewTensor from a heap copy of `len` well-formed bytes (SG_NewTensor checks
 * them), to be corrupted afterwards through SG_TensorData. */
static SG_Tensor* FromBytes(const unsigned char* bytes, size_t len, int64_t n) {
  int64_t dims[1];
  void* copy = malloc(len);
  dims[0] = n;
  if (copy == NULL) return NULL;
  memcpy(copy, bytes, len);
  return SG_NewTensor(SG_STRING, dims, 1, copy, len, FreeBytes, NULL);
}

/* A valid [2] tensor {"hi", "xyz"}, corrupted in place: each corruption is reported for the
 * element it touches, and the other element still reads. */
static void TestCorruptBuffers(void) {
  static const unsigned char valid[23] = {0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0,
                                          2, 'h', 'i', 3, 'x', 'y', 'z'};
  /* One 11-byte string, whose length will become a varint of more than 64 bits. */
  static const unsigned char eleven[20] = {0, 0, 0, 0, 0, 0, 0, 0, 11,
                                           'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'};
  SG_Tensor* t = FromBytes(valid, sizeof valid, 2);
  unsigned char* b;
  uint64_t offset;
  CHECK(t != NULL);
  if (t == NULL) return;
  b = (unsigned char*)SG_TensorData(t);
  CHECK_ELEMENT(t, 0, "hi", 2);
  CHECK_ELEMENT(t, 1, "xyz", 3);

  /* Offset past the end of the data (7 data bytes). */
  offset = 7;
  memcpy(b + 8, &offset, 8);
  CHECK_GET_FAILS(t, 1, "offset 7");
  offset = UINT64_MAX;
  memcpy(b + 8, &offset, 8);
  CHECK_GET_FAILS(t, 1, "offset");
  CHECK_ELEMENT(t, 0, "hi", 2);
  offset = 3;
  memcpy(b + 8, &offset, 8);
  CHECK_ELEMENT(t, 1, "xyz", 3);

  /* A length past the end: element 1 says 4 bytes, 3 follow. */
  b[16 + 3] = 4;
  CHECK_GET_FAILS(t, 1, "length");
  /* A varint cut off by the end of the buffer. */
  memset(b + 16 + 3, 0x80, 4);
  CHECK_GET_FAILS(t, 1, "length");
  CHECK_ELEMENT(t, 0, "hi", 2);
  SG_DeleteTensor(t);

  /* A varint of 11 bytes, all but the last with the continuation bit: more than 64 bits. */
  t = FromBytes(eleven, sizeof eleven, 1);
  CHECK(t != NULL);
  if (t != NULL) {
    CHECK_ELEMENT(t, 0, "abcdefghijk", 11);
    b = (unsigned char*)SG_TensorData(t);
    memset(b + 8, 0xFF, 11);
    b[19] = 0x01;
    CHECK_GET_FAILS(t, 0, "length");
    SG_DeleteTensor(t);
  }

  /* Fewer bytes than the offset table needs (SG_AllocateTensor takes any size for strings). */
  {
    int64_t three[1] = {3};
    t = SG_AllocateTensor(SG_STRING, three, 1, 16);
    CHECK(t != NULL);
    if (t != NULL) memset(SG_TensorData(t), 0, 16);
    CHECK_GET_FAILS(t, 0, "offsets");
    CHECK_GET_FAILS(t, 2, "offsets");
    SG_DeleteTensor(t);
    t = SG_AllocateTensor(SG_STRING, three, 1, 0);
    CHECK_GET_FAILS(t, 0, "offsets");
    SG_DeleteTensor(t);
  }
}

/* The same strings through SG_NewStringTensor and through the per-element SG_StringEncode give
 * the same bytes, and SG_NewTensor accepts them as well-formed. */
static void TestAgreesWithStringEncode(void) {
  SG_Status* s = SG_NewStatus();
  char big[200];
  const char* data[4];
  size_t lengths[4] = {5, 0, 200, 1};
  int64_t dims[2] = {2, 2};
  size_t total = 4 * 8, at = 0;
  char* manual;
  SG_Tensor *t, *again;
  int i;
  memset(big, 'q', sizeof big);
  data[0] = "hello";
  data[1] = "";
  data[2] = big;
  data[3] = "\0";
  for (i = 0; i < 4; ++i) total += SG_StringEncodedSize(lengths[i]);
  manual = (char*)malloc(total);
  for (i = 0; manual != NULL && i < 4; ++i) {
    uint64_t offset = at;
    memcpy(manual + 8 * i, &offset, 8);
    at += SG_StringEncode(data[i], lengths[i], manual + 32 + at, total - 32 - at, s);
    CHECK_CODE(s, SG_OK);
  }
  t = SG_NewStringTensor(dims, 2, data, lengths, 4, s);
  CHECK_CODE(s, SG_OK);
  CHECK(t != NULL && SG_TensorByteSize(t) == total);
  CHECK(t != NULL && manual != NULL && memcmp(SG_TensorData(t), manual, total) == 0);
  again = SG_NewTensor(SG_STRING, dims, 2, SG_TensorData(t), SG_TensorByteSize(t), NULL, NULL);
  CHECK(again != NULL);
  SG_DeleteTensor(again);
  SG_DeleteTensor(t);
  free(manual);
  SG_DeleteStatus(s);
}

int main(void) {
  TestRankOneLayout();
  TestReadsBytesFromNewTensor();
  TestScalar();
  TestRankTwo();
  TestNoElements();
  TestNullEmptyElement();
  TestNewStringTensorErrors();
  TestGetErrors();
  TestCorruptBuffers();
  TestAgreesWithStringEncode();
  if (failures) {
    fprintf(stderr, "c_api_string_tensor_test: %d check(s) failed\n", failures);
    return 1;
  }
  printf("c_api_string_tensor_test: all checks passed\n");
  return 0;
}
