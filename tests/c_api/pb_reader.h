/* A protobuf wire-format reader for sg's C API tests (C99), enough to check messages the C API
 * returns as bytes (RunMetadata, KernelList) without a protobuf library:
 *   Reader r = {bytes, bytes + size};
 *   while (NextField(&r, &field, &wire, &value, &sub)) ...
 * Include after c_check.h: malformed input counts in its `failures`. */
#ifndef SG_TESTS_C_API_PB_READER_H_
#define SG_TESTS_C_API_PB_READER_H_

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The bytes [p, end) of a message. */
typedef struct Reader {
  const unsigned char* p;
  const unsigned char* end;
} Reader;

static int ReadVarint(Reader* r, uint64_t* v) {
  int shift;
  *v = 0;
  for (shift = 0; shift < 64 && r->p < r->end; shift += 7) {
    unsigned char byte = *r->p++;
    *v |= (uint64_t)(byte & 127) << shift;
    if (byte < 128) return 1;
  }
  return 0;
}

/* Reads one field: its number, its wire type, and either its varint value (type 0, `value`) or
 * its bytes (type 2, `sub`; otherwise sub->p is NULL); fixed32 and fixed64 fields are skipped
 * over. 0 at the end or on malformed input (which counts as a failure). */
static int NextField(Reader* r, int* field, int* wire, uint64_t* value, Reader* sub) {
  uint64_t key, len;
  if (r->p >= r->end) return 0;
  if (!ReadVarint(r, &key)) goto bad;
  *field = (int)(key >> 3);
  *wire = (int)(key & 7);
  sub->p = sub->end = NULL;
  switch (*wire) {
    case 0:
      if (!ReadVarint(r, value)) goto bad;
      return 1;
    case 1: /* fixed64 */
    case 5: /* fixed32 */
      len = *wire == 1 ? 8 : 4;
      if (len > (uint64_t)(r->end - r->p)) goto bad;
      r->p += len;
      return 1;
    case 2:
      if (!ReadVarint(r, &len) || len > (uint64_t)(r->end - r->p)) goto bad;
      sub->p = r->p;
      sub->end = r->p + len;
      r->p += len;
      return 1;
    default:
      break;
  }
bad:
  fprintf(stderr, "malformed protobuf message\n");
  ++failures;
  return 0;
}

/* The bytes of `s` as a C string in out[size], cut to fit. */
static void CopyString(Reader s, char* out, size_t size) {
  size_t n = (size_t)(s.end - s.p) < size - 1 ? (size_t)(s.end - s.p) : size - 1;
  memcpy(out, s.p, n);
  out[n] = '\0';
}

#endif  /* SG_TESTS_C_API_PB_READER_H_ */
