/* TensorFlow 2.x strings from plain C99: SG_TString's small, large, offset and view forms with
 * the exact bytes TensorFlow 2.21 writes (recorded from its TF_StringCopy / TF_StringAssignView
 * through the wheel's libtensorflow_cc.so.2 for the same inputs: sizes, capacities, size
 * fields), string tensors in TensorFlow 2.x's layout (allocated, over caller memory, converted,
 * fed to and fetched from a session), who releases their elements, SG_TensorMaybeMove and
 * SG_TensorBitcastFrom. Bad input gives SG_INVALID_ARGUMENT (or NULL where the signature has no
 * status), never a crash.
 * Usage: c_api_tstring_test */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sg/c_api.h"
#include "c_check.h"

/* The first `n` bytes of `t` are the hex string `hex`. */
static void CheckBytes(const SG_TString* t, const char* hex, int line) {
  const unsigned char* b = (const unsigned char*)t;
  char got[2 * sizeof(SG_TString) + 1];
  size_t n = strlen(hex) / 2;
  size_t i;
  for (i = 0; i < n; ++i) sprintf(got + 2 * i, "%02x", b[i]);
  got[2 * n] = '\0';
  if (strcmp(got, hex) != 0) {
    fprintf(stderr, "%s:%d: bytes %s, wanted %s\n", __FILE__, line, got, hex);
    ++failures;
  }
}
#define CHECK_BYTES(t, hex) CheckBytes((t), (hex), __LINE__)

/* The string holds the `len` bytes at `want`. */
static void CheckString(const SG_TString* t, SG_TString_Type type, const char* want, size_t len,
                        size_t capacity, int line) {
  const char* data = SG_StringGetDataPointer(t);
  if (SG_StringGetType(t) != type || SG_StringGetSize(t) != len ||
      SG_StringGetCapacity(t) != capacity || (len > 0 && memcmp(data, want, len) != 0)) {
    fprintf(stderr, "%s:%d: type %d size %lu capacity %lu; wanted type %d size %lu "
            "capacity %lu and the bytes\n", __FILE__, line, (int)SG_StringGetType(t),
            (unsigned long)SG_StringGetSize(t), (unsigned long)SG_StringGetCapacity(t),
            (int)type, (unsigned long)len, (unsigned long)capacity);
    ++failures;
  }
}
#define CHECK_STRING(t, type, want, len, cap) \
  CheckString((t), (type), (want), (len), (cap), __LINE__)

/* A string of `n` copies of `c` (n < 256). */
static const char* Repeat(char c, size_t n) {
  static char buf[256];
  memset(buf, c, n);
  buf[n] = '\0';
  return buf;
}

/* ---- SG_TString ----------------------------------------------------------------------------- */

static void TestInitIsTwentyFourZeros(void) {
  SG_TString t;
  memset(&t, 0xAB, sizeof(t));
  SG_StringInit(&t);
  CHECK_BYTES(&t, "000000000000000000000000000000000000000000000000");
  CHECK_STRING(&t, SG_TSTR_SMALL, "", 0, SG_TSTRING_SMALL_CAPACITY);
  CHECK(SG_StringGetDataPointer(&t) == t.u.smll.str);
  CHECK(sizeof(SG_TString) == 24 && SG_TSTRING_SMALL_CAPACITY == 22);
}

/* Small strings: the size byte is size << 2 (type 0), the bytes and a NUL follow. */
static void TestSmall(void) {
  SG_TString t;
  SG_StringInit(&t);
  SG_StringCopy(&t, "hello", 5);
  CHECK_BYTES(&t, "1468656c6c6f000000000000000000000000000000000000");
  CHECK_STRING(&t, SG_TSTR_SMALL, "hello", 5, 22);
  SG_StringInit(&t);
  SG_StringCopy(&t, Repeat('x', 22), 22);
  CHECK_BYTES(&t, "587878787878787878787878787878787878787878787800");
  CHECK_STRING(&t, SG_TSTR_SMALL, Repeat('x', 22), 22, 22);
  SG_StringCopy(&t, "a\0b", 3); /* embedded NULs are bytes like any other */
  CHECK_BYTES(&t, "0c610062");
  CHECK_STRING(&t, SG_TSTR_SMALL, "a\0b", 3, 22);
  SG_StringDealloc(&t); /* a small string owns nothing: left as it is */
  CHECK_STRING(&t, SG_TSTR_SMALL, "a\0b", 3, 22);
}

/* Large strings: size << 2 | 1, the capacity a multiple of 16 minus 1, TensorFlow's growth and
 * shrink rules (the sequence and every size field and capacity as TF_StringCopy gives them). */
static void TestLargeCapacities(void) {
  SG_TString t;
  SG_StringInit(&t);
  SG_StringCopy(&t, Repeat('y', 23), 23);
  CHECK_BYTES(&t, "5d000000000000001f00000000000000");
  CHECK_STRING(&t, SG_TSTR_LARGE, Repeat('y', 23), 23, 31);
  CHECK(SG_StringGetDataPointer(&t)[23] == '\0');
  SG_StringCopy(&t, Repeat('z', 40), 40); /* grows */
  CHECK_BYTES(&t, "a1000000000000002f00000000000000");
  CHECK_STRING(&t, SG_TSTR_LARGE, Repeat('z', 40), 40, 47);
  SG_StringCopy(&t, Repeat('w', 25), 25); /* fits: the block is kept */
  CHECK_BYTES(&t, "65000000000000002f00000000000000");
  CHECK_STRING(&t, SG_TSTR_LARGE, Repeat('w', 25), 25, 47);
  SG_StringCopy(&t, Repeat('v', 100), 100);
  CHECK_BYTES(&t, "91010000000000006f00000000000000");
  CHECK_STRING(&t, SG_TSTR_LARGE, Repeat('v', 100), 100, 111);
  SG_StringCopy(&t, Repeat('u', 30), 30); /* below half the capacity: shrinks to 63 */
  CHECK_BYTES(&t, "79000000000000003f00000000000000");
  CHECK_STRING(&t, SG_TSTR_LARGE, Repeat('u', 30), 30, 63);
  SG_StringCopy(&t, Repeat('t', 10), 10); /* back to small: the block is freed */
  CHECK_BYTES(&t, "287474747474747474747400");
  CHECK_STRING(&t, SG_TSTR_SMALL, Repeat('t', 10), 10, 22);
  SG_StringCopy(&t, "", 0);
  CHECK_BYTES(&t, "0000");
  CHECK_STRING(&t, SG_TSTR_SMALL, "", 0, 22);

  SG_StringCopy(&t, Repeat('q', 50), 50);
  SG_StringDealloc(&t); /* frees the block, leaves the empty small string */
  CHECK_BYTES(&t, "000000000000000000000000000000000000000000000000");
}

/* A copy from the string's own bytes (a part of them) reads them before releasing them. */
static void TestCopyFromItself(void) {
  const char* digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN";
  SG_TString t;
  SG_StringInit(&t);
  SG_StringCopy(&t, digits, 50);
  SG_StringCopy(&t, SG_StringGetDataPointer(&t) + 5, 40); /* block kept, bytes moved */
  CHECK_STRING(&t, SG_TSTR_LARGE, digits + 5, 40, 63);
  SG_StringCopy(&t, SG_StringGetDataPointer(&t) + 2, 20); /* to small, the block freed after */
  CHECK_STRING(&t, SG_TSTR_SMALL, digits + 7, 20, 22);
  SG_StringDealloc(&t);
}

/* A shared owner that counts its references. */
typedef struct Owner {
  SG_TStringOwner api;
  int refs, unrefs;
} Owner;
static void OwnerRef(SG_TStringOwner* self) { ++((Owner*)self)->refs; }
static unsigned char OwnerUnref(SG_TStringOwner* self) {
  ++((Owner*)self)->unrefs;
  return 0;
}
static void InitOwner(Owner* o) {
  o->api.ref = OwnerRef;
  o->api.unref = OwnerUnref;
  o->api.obj = o;
  o->refs = o->unrefs = 0;
}

/* Views: size << 2 | 3, the caller's pointer, no owner; read-only (capacity 0). */
static void TestView(void) {
  static const char text[] = "viewed bytes";
  SG_TString t;
  Owner owner;
  SG_StringInit(&t);
  SG_StringAssignView(&t, text, 12);
  CHECK_BYTES(&t, "3300000000000000");
  CHECK(t.u.view.ptr == text && t.u.view.owner_ref == NULL);
  CHECK_STRING(&t, SG_TSTR_VIEW, text, 12, 0);
  CHECK(SG_StringGetDataPointer(&t) == text);
  SG_StringDealloc(&t); /* a view without owner is left as it is */
  CHECK_STRING(&t, SG_TSTR_VIEW, text, 12, 0);
  SG_StringCopy(&t, "abc", 3); /* copied out of the view */
  CHECK_BYTES(&t, "0c616263");
  CHECK_STRING(&t, SG_TSTR_SMALL, "abc", 3, 22);

  /* A view of a shared owner (as TensorFlow's AssignViewWithOwner leaves it): SG_StringDealloc
   * and an SG_StringCopy over it release the owner once. */
  InitOwner(&owner);
  SG_StringAssignView(&t, text, 12);
  t.u.view.owner_ref = &owner.api;
  SG_StringDealloc(&t);
  CHECK(owner.unrefs == 1 && owner.refs == 0);
  CHECK_BYTES(&t, "000000000000000000000000000000000000000000000000");
  SG_StringAssignView(&t, text, 12);
  t.u.view.owner_ref = &owner.api;
  SG_StringCopy(&t, Repeat('L', 30), 30);
  CHECK(owner.unrefs == 2);
  CHECK_STRING(&t, SG_TSTR_LARGE, Repeat('L', 30), 30, 31);
  SG_StringAssignView(&t, text, 4); /* the large block is freed first */
  CHECK_STRING(&t, SG_TSTR_VIEW, text, 4, 0);
}

/* Offsets: TensorFlow's serialized form, the bytes at the string's own address + offset. */
static void TestOffset(void) {
  SG_TString arr[3];
  memset(arr, 0, sizeof(arr));
  memcpy(&arr[2], "offset bytes", 12);
  arr[0].u.offset.size = 6u << 2 | SG_TSTR_OFFSET;
  arr[0].u.offset.offset = 2 * sizeof(SG_TString);
  CHECK_BYTES(&arr[0], "1a00000030000000");
  CHECK_STRING(&arr[0], SG_TSTR_OFFSET, "offset", 6, 0);
  CHECK(SG_StringGetDataPointer(&arr[0]) == (const char*)&arr[2]);
  SG_StringDealloc(&arr[0]); /* owns nothing */
  CHECK(SG_StringGetType(&arr[0]) == SG_TSTR_OFFSET);
  SG_StringCopy(&arr[0], SG_StringGetDataPointer(&arr[0]), 6); /* to a small copy */
  CHECK_STRING(&arr[0], SG_TSTR_SMALL, "offset", 6, 22);
}

/* No status to report on: NULL strings are no-ops, impossible arguments leave dst alone. */
static void TestNullsAreNoOps(void) {
  SG_TString t;
  SG_StringInit(NULL);
  SG_StringCopy(NULL, "x", 1);
  SG_StringAssignView(NULL, "x", 1);
  SG_StringDealloc(NULL);
  CHECK(SG_StringGetDataPointer(NULL) == NULL && SG_StringGetSize(NULL) == 0 &&
        SG_StringGetCapacity(NULL) == 0 && SG_StringGetType(NULL) == SG_TSTR_SMALL);
  SG_StringInit(&t);
  SG_StringCopy(&t, "keep", 4);
  SG_StringCopy(&t, NULL, 5);
  SG_StringAssignView(&t, NULL, 5);
  SG_StringCopy(&t, "x", (size_t)-1);
  CHECK_STRING(&t, SG_TSTR_SMALL, "keep", 4, 22);
}

/* ---- string tensors in TensorFlow 2.x's layout ---------------------------------------------- */

static SG_TString* Strings(SG_Tensor* t) { return (SG_TString*)SG_TensorData(t); }

/* Element `i` of `t`, through SG_StringTensorGet, is the `len` bytes at `want`. */
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

static void TestAllocate(void) {
  const int64_t dims[2] = {2, 2};
  SG_Tensor* t = SG_AllocateTensorWithLayout(SG_STRING, dims, 2, 4 * sizeof(SG_TString),
                                             SG_STRING_LAYOUT_TSTRING);
  SG_TString zero;
  int i;
  CHECK(t != NULL);
  if (t == NULL) return;
  CHECK(SG_TensorType(t) == SG_STRING && SG_TensorElementCount(t) == 4);
  CHECK(SG_TensorStringLayout(t) == SG_STRING_LAYOUT_TSTRING);
  CHECK(SG_TensorByteSize(t) == 4 * sizeof(SG_TString));
  SG_StringInit(&zero);
  for (i = 0; i < 4; ++i) CHECK(memcmp(&Strings(t)[i], &zero, sizeof(zero)) == 0);
  SG_StringCopy(&Strings(t)[0], "sg", 2);
  SG_StringCopy(&Strings(t)[3], Repeat('b', 99), 99);
  CHECK_ELEMENT(t, 0, "sg", 2);
  CHECK_ELEMENT(t, 1, "", 0);
  CHECK_ELEMENT(t, 3, Repeat('b', 99), 99);
  CHECK(SG_TensorMaybeMove(t) == t); /* sg's memory, used by nobody else */
  SG_DeleteTensor(t);                 /* frees element 3's block (ASan checks) */

  /* Too few bytes for the elements, a bad layout, bad dims: NULL. */
  CHECK(SG_AllocateTensorWithLayout(SG_STRING, dims, 2, 3 * sizeof(SG_TString),
                                    SG_STRING_LAYOUT_TSTRING) == NULL);
  CHECK(SG_AllocateTensorWithLayout(SG_STRING, dims, 2, 4 * sizeof(SG_TString),
                                    (SG_StringLayout)7) == NULL);
  CHECK(SG_AllocateTensorWithLayout(SG_STRING, NULL, 2, 4 * sizeof(SG_TString),
                                    SG_STRING_LAYOUT_TSTRING) == NULL);
  /* Other dtypes and the 1.x layout: SG_AllocateTensor. */
  t = SG_AllocateTensorWithLayout(SG_FLOAT, dims, 2, 16, SG_STRING_LAYOUT_TSTRING);
  CHECK(t != NULL && SG_TensorStringLayout(t) == SG_STRING_LAYOUT_ENCODED);
  SG_DeleteTensor(t);
  t = SG_AllocateTensorWithLayout(SG_STRING, dims, 2, 64, SG_STRING_LAYOUT_ENCODED);
  CHECK(t != NULL && SG_TensorStringLayout(t) == SG_STRING_LAYOUT_ENCODED);
  SG_DeleteTensor(t);
  CHECK(SG_TensorStringLayout(NULL) == SG_STRING_LAYOUT_ENCODED);
}

/* Deleting a tensor sg allocated releases every element: a view's owner is released. */
static void TestDeleteReleasesElements(void) {
  const int64_t dims[1] = {3};
  Owner owner;
  SG_Tensor* t = SG_AllocateTensorWithLayout(SG_STRING, dims, 1, 3 * sizeof(SG_TString),
                                             SG_STRING_LAYOUT_TSTRING);
  CHECK(t != NULL);
  if (t == NULL) return;
  InitOwner(&owner);
  SG_StringAssignView(&Strings(t)[0], "abc", 3);
  Strings(t)[0].u.view.owner_ref = &owner.api;
  SG_StringAssignView(&Strings(t)[2], "def", 3);
  Strings(t)[2].u.view.owner_ref = &owner.api;
  SG_StringCopy(&Strings(t)[1], Repeat('c', 64), 64);
  SG_DeleteTensor(t);
  CHECK(owner.unrefs == 2);
}

static int deallocations = 0;
static void CountDeallocation(void* data, size_t len, void* arg) {
  (void)data;
  (void)len;
  (void)arg;
  ++deallocations;
}

/* A tensor over caller memory: read in place, never copied, its elements left to the caller. */
static void TestOverCallerMemory(void) {
  const int64_t dims[1] = {3};
  SG_TString strings[4]; /* one spare: `len` may be larger than the elements need */
  char* big = (char*)malloc(40);
  Owner owner;
  SG_Tensor* t;
  memcpy(big, Repeat('B', 40), 40);
  SG_StringInit(&strings[0]);
  SG_StringCopy(&strings[0], "tiny", 4);
  SG_StringInit(&strings[1]);
  SG_StringAssignView(&strings[1], big, 40);
  InitOwner(&owner);
  strings[1].u.view.owner_ref = &owner.api;
  /* Element 2 is an offset string whose bytes are in the spare element. */
  memset(&strings[2], 0, 2 * sizeof(SG_TString));
  strings[2].u.offset.size = 5u << 2 | SG_TSTR_OFFSET;
  strings[2].u.offset.offset = sizeof(SG_TString);
  memcpy(&strings[3], "after", 5);
  deallocations = 0;
  t = SG_NewTensorWithLayout(SG_STRING, dims, 1, strings, sizeof(strings), CountDeallocation,
                             NULL, SG_STRING_LAYOUT_TSTRING);
  CHECK(t != NULL);
  if (t == NULL) return;
  CHECK(SG_TensorData(t) == (void*)strings && SG_TensorByteSize(t) == sizeof(strings));
  CHECK(SG_TensorStringLayout(t) == SG_STRING_LAYOUT_TSTRING);
  CHECK_ELEMENT(t, 0, "tiny", 4);
  CHECK_ELEMENT(t, 1, big, 40);
  CHECK_ELEMENT(t, 2, "after", 5);
  CHECK(SG_TensorMaybeMove(t) == NULL); /* the caller's memory */
  SG_DeleteTensor(t);
  CHECK(deallocations == 1 && owner.unrefs == 0);
  free(big);

  /* Too few bytes: NULL, and the deallocator has run. */
  deallocations = 0;
  CHECK(SG_NewTensorWithLayout(SG_STRING, dims, 1, strings, 2 * sizeof(SG_TString),
                               CountDeallocation, NULL, SG_STRING_LAYOUT_TSTRING) == NULL);
  CHECK(deallocations == 1);
  deallocations = 0;
  CHECK(SG_NewTensorWithLayout(SG_STRING, dims, 1, strings, sizeof(strings), CountDeallocation,
                               NULL, (SG_StringLayout)-1) == NULL);
  CHECK(deallocations == 1);
}

/* Corrupt elements: SG_INVALID_ARGUMENT from every reader, never a crash. */
static void TestCorruptElements(void) {
  const int64_t dims[1] = {1};
  SG_TString bad;
  SG_Status* s = SG_NewStatus();
  const char* data = "untouched";
  size_t length = 7;
  SG_Tensor* t;
  SG_Tensor* c;
  memset(&bad, 0, sizeof(bad));
  bad.u.offset.size = 10u << 2 | SG_TSTR_OFFSET;
  bad.u.offset.offset = 20; /* 20 + 10 > the 24 bytes from it to the end */
  t = SG_NewTensorWithLayout(SG_STRING, dims, 1, &bad, sizeof(bad), NULL, NULL,
                             SG_STRING_LAYOUT_TSTRING);
  CHECK(t != NULL);
  if (t == NULL) return;
  SG_StringTensorGet(t, 0, &data, &length, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "offset");
  CHECK(strcmp(data, "untouched") == 0 && length == 7);
  c = SG_TensorToStringLayout(t, SG_STRING_LAYOUT_ENCODED, s);
  CHECK(c == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_DeleteTensor(t);

  memset(&bad, 0, sizeof(bad));
  bad.u.large.size = 30u << 2 | SG_TSTR_LARGE; /* a NULL block */
  t = SG_NewTensorWithLayout(SG_STRING, dims, 1, &bad, sizeof(bad), NULL, NULL,
                             SG_STRING_LAYOUT_TSTRING);
  SG_StringTensorGet(t, 0, &data, &length, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "NULL");
  SG_DeleteTensor(t);

  memset(&bad, 0, sizeof(bad));
  bad.u.smll.size = 23u << 2; /* a small string cannot hold 23 bytes */
  t = SG_NewTensorWithLayout(SG_STRING, dims, 1, &bad, sizeof(bad), NULL, NULL,
                             SG_STRING_LAYOUT_TSTRING);
  SG_StringTensorGet(t, 0, &data, &length, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_DeleteTensor(t);
  SG_DeleteStatus(s);
}

/* Both layouts convert to each other with the same strings. */
static void TestConvertLayouts(void) {
  const int64_t dims[1] = {3};
  const char* words[3] = {"", "two\0words", NULL};
  size_t lengths[3] = {0, 9, 70};
  SG_Status* s = SG_NewStatus();
  SG_Tensor* enc;
  SG_Tensor* ts;
  SG_Tensor* back;
  SG_Tensor* f;
  SG_Tensor* f2;
  float one = 1.0f;
  words[2] = Repeat('x', 70);
  enc = SG_NewStringTensor(dims, 1, words, lengths, 3, s);
  CHECK_CODE(s, SG_OK);
  ts = SG_TensorToStringLayout(enc, SG_STRING_LAYOUT_TSTRING, s);
  CHECK_CODE(s, SG_OK);
  if (ts == NULL) return;
  CHECK(SG_TensorStringLayout(ts) == SG_STRING_LAYOUT_TSTRING);
  CHECK(SG_TensorByteSize(ts) == 3 * sizeof(SG_TString) && SG_NumDims(ts) == 1);
  CHECK_STRING(&Strings(ts)[0], SG_TSTR_SMALL, "", 0, 22);
  CHECK_STRING(&Strings(ts)[1], SG_TSTR_SMALL, "two\0words", 9, 22);
  CHECK_STRING(&Strings(ts)[2], SG_TSTR_LARGE, Repeat('x', 70), 70, 79);
  back = SG_TensorToStringLayout(ts, SG_STRING_LAYOUT_ENCODED, s);
  CHECK_CODE(s, SG_OK);
  CHECK(SG_TensorStringLayout(back) == SG_STRING_LAYOUT_ENCODED);
  CHECK(SG_TensorByteSize(back) == SG_TensorByteSize(enc) &&
        memcmp(SG_TensorData(back), SG_TensorData(enc), SG_TensorByteSize(enc)) == 0);
  SG_DeleteTensor(back);
  SG_DeleteTensor(ts);
  SG_DeleteTensor(enc);

  /* Another dtype: a new handle on the same memory. */
  f = SG_AllocateTensor(SG_FLOAT, NULL, 0, sizeof(float));
  memcpy(SG_TensorData(f), &one, sizeof(one));
  f2 = SG_TensorToStringLayout(f, SG_STRING_LAYOUT_TSTRING, s);
  CHECK_CODE(s, SG_OK);
  CHECK(f2 != NULL && SG_TensorData(f2) == SG_TensorData(f));
  CHECK(SG_TensorMaybeMove(f) == NULL); /* shared now */
  SG_DeleteTensor(f2);
  CHECK(SG_TensorMaybeMove(f) == f);
  SG_DeleteTensor(f);

  CHECK(SG_TensorToStringLayout(NULL, SG_STRING_LAYOUT_TSTRING, s) == NULL);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_DeleteStatus(s);
}

/* ---- sessions ------------------------------------------------------------------------------- */

static SG_Operation* Placeholder(SG_Graph* g, const char* name, SG_DataType dtype, SG_Status* s) {
  SG_OperationDescription* d = SG_NewOperation(g, "Placeholder", name);
  SG_SetAttrType(d, "dtype", dtype);
  return SG_FinishOperation(d, s);
}

/* StringJoin(x, "!") and Identity(x) of a string placeholder x, run with 2.x-layout feeds and
 * fetched in the graph's layout. */
static void TestSessionRoundTrip(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  const int64_t dims[1] = {2};
  const char* bang_word = "!";
  size_t bang_len = 1;
  SG_Operation* x = Placeholder(g, "x", SG_STRING, s);
  SG_Operation* bang;
  SG_Operation* join;
  SG_Operation* ident;
  SG_OperationDescription* d;
  SG_Tensor* bang_value = SG_NewStringTensor(NULL, 0, &bang_word, &bang_len, 1, s);
  SG_Tensor* feed;
  SG_Tensor* out[2] = {NULL, NULL};
  SG_Output outputs[2];
  SG_Output input;
  SG_Output join_inputs[2];
  SG_Session* sess;
  SG_SessionOptions* opts = SG_NewSessionOptions();
  const char* longer = "a string of more than twenty-two bytes";
  CHECK_CODE(s, SG_OK);
  d = SG_NewOperation(g, "Const", "bang");
  SG_SetAttrType(d, "dtype", SG_STRING);
  SG_SetAttrTensor(d, "value", bang_value, s);
  bang = SG_FinishOperation(d, s);
  CHECK_CODE(s, SG_OK);
  SG_DeleteTensor(bang_value);
  join_inputs[0].oper = x;
  join_inputs[0].index = 0;
  join_inputs[1].oper = bang;
  join_inputs[1].index = 0;
  d = SG_NewOperation(g, "StringJoin", "join");
  SG_AddInputList(d, join_inputs, 2);
  join = SG_FinishOperation(d, s);
  CHECK_CODE(s, SG_OK);
  d = SG_NewOperation(g, "Identity", "ident");
  SG_AddInput(d, join_inputs[0]);
  ident = SG_FinishOperation(d, s);
  CHECK_CODE(s, SG_OK);
  if (ident == NULL || join == NULL) return;

  feed = SG_AllocateTensorWithLayout(SG_STRING, dims, 1, 2 * sizeof(SG_TString),
                                     SG_STRING_LAYOUT_TSTRING);
  SG_StringCopy(&Strings(feed)[0], "sg", 2);
  SG_StringCopy(&Strings(feed)[1], longer, strlen(longer));
  input.oper = x;
  input.index = 0;
  outputs[0].oper = join;
  outputs[0].index = 0;
  outputs[1].oper = ident;
  outputs[1].index = 0;
  sess = SG_NewSession(g, opts, s);
  CHECK_CODE(s, SG_OK);

  /* The graph's default: fetches in TensorFlow 1.x's layout (whatever the feeds'). */
  CHECK(SG_GraphStringLayout(g) == SG_STRING_LAYOUT_ENCODED);
  SG_SessionRun(sess, NULL, &input, &feed, 1, outputs, out, 2, NULL, 0, NULL, s);
  CHECK_CODE(s, SG_OK);
  if (out[0] != NULL && out[1] != NULL) {
    CHECK(SG_TensorStringLayout(out[0]) == SG_STRING_LAYOUT_ENCODED);
    CHECK_ELEMENT(out[0], 0, "sg!", 3);
    CHECK_ELEMENT(out[0], 1, "a string of more than twenty-two bytes!", 39);
    CHECK_ELEMENT(out[1], 1, longer, strlen(longer));
  }
  SG_DeleteTensor(out[0]);
  SG_DeleteTensor(out[1]);

  /* Asked for TensorFlow 2.x's layout: SG_TStrings, small and large as TensorFlow makes them. */
  SG_GraphSetStringLayout(g, SG_STRING_LAYOUT_TSTRING, s);
  CHECK_CODE(s, SG_OK);
  CHECK(SG_GraphStringLayout(g) == SG_STRING_LAYOUT_TSTRING);
  SG_SessionRun(sess, NULL, &input, &feed, 1, outputs, out, 2, NULL, 0, NULL, s);
  CHECK_CODE(s, SG_OK);
  if (out[0] != NULL && out[1] != NULL) {
    CHECK(SG_TensorStringLayout(out[0]) == SG_STRING_LAYOUT_TSTRING);
    CHECK(SG_TensorByteSize(out[0]) == 2 * sizeof(SG_TString));
    CHECK(SG_TensorElementCount(out[0]) == 2);
    CHECK_BYTES(&Strings(out[0])[0], "0c73672100");
    CHECK_STRING(&Strings(out[0])[0], SG_TSTR_SMALL, "sg!", 3, 22);
    CHECK_BYTES(&Strings(out[0])[1], "9d000000000000002f00000000000000"); /* 39 << 2 | 1, 47 */
    CHECK_STRING(&Strings(out[0])[1], SG_TSTR_LARGE, "a string of more than twenty-two bytes!",
                 39, 47);
    CHECK_STRING(&Strings(out[1])[0], SG_TSTR_SMALL, "sg", 2, 22);
    CHECK_STRING(&Strings(out[1])[1], SG_TSTR_LARGE, longer, strlen(longer), 47);
    CHECK(SG_TensorMaybeMove(out[0]) == out[0]);
  }
  SG_DeleteTensor(out[0]);
  SG_DeleteTensor(out[1]);

  /* A 1.x-layout feed works the same. */
  {
    const char* words[2] = {"a", "b"};
    size_t lengths[2] = {1, 1};
    SG_Tensor* enc = SG_NewStringTensor(dims, 1, words, lengths, 2, s);
    SG_SessionRun(sess, NULL, &input, &enc, 1, outputs, out, 1, NULL, 0, NULL, s);
    CHECK_CODE(s, SG_OK);
    if (out[0] != NULL) {
      CHECK_STRING(&Strings(out[0])[1], SG_TSTR_SMALL, "b!", 2, 22);
    }
    SG_DeleteTensor(out[0]);
    SG_DeleteTensor(enc);
  }

  /* Partial runs too. */
  {
    const char* handle = NULL;
    SG_SessionPRunSetup(sess, &input, 1, outputs, 1, NULL, 0, &handle, s);
    CHECK_CODE(s, SG_OK);
    SG_SessionPRun(sess, handle, &input, &feed, 1, outputs, out, 1, NULL, 0, s);
    CHECK_CODE(s, SG_OK);
    if (out[0] != NULL) {
      CHECK(SG_TensorStringLayout(out[0]) == SG_STRING_LAYOUT_TSTRING);
      CHECK_STRING(&Strings(out[0])[0], SG_TSTR_SMALL, "sg!", 3, 22);
    }
    SG_DeleteTensor(out[0]);
    SG_DeletePRunHandle(handle);
  }

  /* Attr tensors of the graph's operations take its layout too. */
  {
    SG_Tensor* value = NULL;
    SG_OperationGetAttrTensor(bang, "value", &value, s);
    CHECK_CODE(s, SG_OK);
    CHECK(value != NULL && SG_TensorStringLayout(value) == SG_STRING_LAYOUT_TSTRING);
    if (value != NULL) CHECK_STRING(&Strings(value)[0], SG_TSTR_SMALL, "!", 1, 22);
    SG_DeleteTensor(value);
  }

  SG_GraphSetStringLayout(g, (SG_StringLayout)5, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_GraphSetStringLayout(NULL, SG_STRING_LAYOUT_TSTRING, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);

  SG_DeleteTensor(feed);
  SG_DeleteSession(sess, s);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

/* ---- SG_TensorMaybeMove --------------------------------------------------------------------- */

static void NoDeallocation(void* data, size_t len, void* arg) {
  (void)data;
  (void)len;
  (void)arg;
}

static void TestMaybeMove(void) {
  const int64_t dims[1] = {16};
  SG_Tensor* a = SG_AllocateTensor(SG_FLOAT, dims, 1, 64);
  float* aligned = NULL;
  SG_Tensor* lent;
  SG_Tensor* copied;
  unsigned char* raw = (unsigned char*)malloc(64 * 3);
  CHECK(SG_TensorMaybeMove(a) == a);
  CHECK(SG_TensorMaybeMove(NULL) == NULL);
  SG_DeleteTensor(a);
  /* Aligned caller memory is wrapped: not sg's to move. Unaligned memory is copied: sg's. */
  aligned = (float*)(raw + (64 - (uintptr_t)raw % 64) % 64);
  lent = SG_NewTensor(SG_FLOAT, dims, 1, aligned, 64, NoDeallocation, NULL);
  CHECK(lent != NULL && SG_TensorData(lent) == (void*)aligned);
  CHECK(SG_TensorMaybeMove(lent) == NULL);
  SG_DeleteTensor(lent);
  copied = SG_NewTensor(SG_FLOAT, dims, 1, (unsigned char*)aligned + 4, 64, NoDeallocation, NULL);
  CHECK(copied != NULL && SG_TensorData(copied) != (void*)((unsigned char*)aligned + 4));
  CHECK(SG_TensorMaybeMove(copied) == copied);
  SG_DeleteTensor(copied);
  free(raw);
}

/* A fetched variable shares the variable's memory: not movable; a computed fetch is. */
static void TestMaybeMoveOfFetches(void) {
  SG_Status* s = SG_NewStatus();
  SG_Graph* g = SG_NewGraph();
  SG_SessionOptions* opts = SG_NewSessionOptions();
  SG_Session* sess;
  SG_OperationDescription* d;
  SG_Operation* var;
  SG_Operation* init;
  SG_Operation* c;
  SG_Operation* sum;
  SG_Output in[2];
  SG_Output fetch[2];
  SG_Tensor* out[2] = {NULL, NULL};
  SG_Tensor* value = SG_AllocateTensor(SG_FLOAT, NULL, 0, sizeof(float));
  const float three = 3.0f;
  memcpy(SG_TensorData(value), &three, sizeof(three));
  d = SG_NewOperation(g, "VariableV2", "v");
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  SG_SetAttrShape(d, "shape", NULL, 0);
  var = SG_FinishOperation(d, s);
  CHECK_CODE(s, SG_OK);
  d = SG_NewOperation(g, "Const", "c");
  SG_SetAttrType(d, "dtype", SG_FLOAT);
  SG_SetAttrTensor(d, "value", value, s);
  c = SG_FinishOperation(d, s);
  CHECK_CODE(s, SG_OK);
  in[0].oper = var;
  in[0].index = 0;
  in[1].oper = c;
  in[1].index = 0;
  d = SG_NewOperation(g, "Assign", "init");
  SG_AddInput(d, in[0]);
  SG_AddInput(d, in[1]);
  init = SG_FinishOperation(d, s);
  CHECK_CODE(s, SG_OK);
  d = SG_NewOperation(g, "AddV2", "sum");
  SG_AddInput(d, in[0]);
  SG_AddInput(d, in[1]);
  sum = SG_FinishOperation(d, s);
  CHECK_CODE(s, SG_OK);
  if (sum == NULL || init == NULL) return;
  sess = SG_NewSession(g, opts, s);
  SG_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, (const SG_Operation* const*)&init, 1,
                NULL, s);
  CHECK_CODE(s, SG_OK);
  fetch[0].oper = var;
  fetch[0].index = 0;
  fetch[1].oper = sum;
  fetch[1].index = 0;
  SG_SessionRun(sess, NULL, NULL, NULL, 0, fetch, out, 2, NULL, 0, NULL, s);
  CHECK_CODE(s, SG_OK);
  if (out[0] != NULL && out[1] != NULL) {
    CHECK(*(const float*)SG_TensorData(out[0]) == 3.0f);
    CHECK(*(const float*)SG_TensorData(out[1]) == 6.0f);
    CHECK(SG_TensorMaybeMove(out[0]) == NULL);
    CHECK(SG_TensorMaybeMove(out[1]) == out[1]);
  }
  SG_DeleteTensor(out[0]);
  SG_DeleteTensor(out[1]);
  SG_DeleteTensor(value);
  SG_DeleteSession(sess, s);
  SG_DeleteSessionOptions(opts);
  SG_DeleteGraph(g);
  SG_DeleteStatus(s);
}

/* ---- SG_TensorBitcastFrom ------------------------------------------------------------------- */

static void TestBitcast(void) {
  SG_Status* s = SG_NewStatus();
  const int64_t dims2[1] = {2};
  const int64_t new_dims[2] = {1, 2};
  const int64_t bad_dims[1] = {-1};
  const int64_t four[1] = {4};
  const float values[2] = {1.0f, -2.0f};
  SG_Tensor* from = SG_AllocateTensor(SG_FLOAT, dims2, 1, sizeof(values));
  SG_Tensor* to = SG_AllocateTensor(SG_INT64, NULL, 0, 8);
  const char* word = "w";
  size_t word_len = 1;
  SG_Tensor* str = SG_NewStringTensor(NULL, 0, &word, &word_len, 1, s);
  int32_t bits[2];
  memcpy(SG_TensorData(from), values, sizeof(values));

  SG_TensorBitcastFrom(from, SG_INT32, to, new_dims, 2, s);
  CHECK_CODE(s, SG_OK);
  CHECK(SG_TensorType(to) == SG_INT32 && SG_NumDims(to) == 2 && SG_Dim(to, 0) == 1 &&
        SG_Dim(to, 1) == 2);
  CHECK(SG_TensorData(to) == SG_TensorData(from)); /* shared, not copied */
  memcpy(bits, SG_TensorData(to), sizeof(bits));
  CHECK(bits[0] == 0x3f800000 && bits[1] == (int32_t)0xc0000000);
  CHECK(SG_TensorMaybeMove(from) == NULL && SG_TensorMaybeMove(to) == NULL);

  /* Errors leave `to` as it was. */
  SG_TensorBitcastFrom(from, SG_INT64, to, new_dims, 2, s); /* 8 bytes into 16 */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "input and output shapes/data type sizes are not compatible");
  CHECK(SG_TensorType(to) == SG_INT32 && SG_NumDims(to) == 2);
  SG_TensorBitcastFrom(from, SG_UINT8, to, four, 1, s); /* 8 bytes into 4 */
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_TensorBitcastFrom(str, SG_INT32, to, NULL, 0, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "other tensor has zero-sized data type");
  SG_TensorBitcastFrom(from, SG_STRING, to, dims2, 1, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "specified output type is zero-sized");
  SG_TensorBitcastFrom(from, SG_INT32, to, bad_dims, 1, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK_MESSAGE(s, "Expected a non-negative size, got -1");
  SG_TensorBitcastFrom(from, SG_INT32, to, NULL, 2, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_TensorBitcastFrom(NULL, SG_INT32, to, new_dims, 2, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  SG_TensorBitcastFrom(from, SG_INT32, NULL, new_dims, 2, s);
  CHECK_CODE(s, SG_INVALID_ARGUMENT);
  CHECK(SG_TensorType(to) == SG_INT32 && SG_TensorData(to) == SG_TensorData(from));

  /* The memory lives until both are gone; `to` still reads it after `from` is deleted. */
  SG_DeleteTensor(from);
  memcpy(bits, SG_TensorData(to), sizeof(bits));
  CHECK(bits[0] == 0x3f800000);
  CHECK(SG_TensorMaybeMove(to) == to);
  SG_DeleteTensor(to);
  SG_DeleteTensor(str);
  SG_DeleteStatus(s);
}

int main(void) {
  TestInitIsTwentyFourZeros();
  TestSmall();
  TestLargeCapacities();
  TestCopyFromItself();
  TestView();
  TestOffset();
  TestNullsAreNoOps();
  TestAllocate();
  TestDeleteReleasesElements();
  TestOverCallerMemory();
  TestCorruptElements();
  TestConvertLayouts();
  TestSessionRoundTrip();
  TestMaybeMove();
  TestMaybeMoveOfFetches();
  TestBitcast();
  if (failures > 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("tstring_test: all checks passed\n");
  return 0;
}
