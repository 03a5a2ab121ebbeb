package org.sg;

import java.nio.charset.StandardCharsets;

/**
 * Reads protobuf wire format by hand, for the typed views of serialized messages
 * ({@link RunMetadata}). Unknown fields are skipped by their wire type; malformed input is an
 * {@link InvalidArgumentException} naming the message and the byte offset.
 */
final class ProtoReader {
  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LENGTH_DELIMITED = 2;
  static final int FIXED32 = 5;

  private final String what;
  private final byte[] buf;
  private int pos;
  private final int end;
  private int wireType;

  ProtoReader(String what, byte[] buf) {
    this(what, buf, 0, buf.length);
  }

  private ProtoReader(String what, byte[] buf, int pos, int end) {
    this.what = what;
    this.buf = buf;
    this.pos = pos;
    this.end = end;
  }

  /** The next field's number, or 0 at the end of the message. */
  int next() {
    if (pos >= end) return 0;
    long tag = varint();
    wireType = (int) (tag & 7);
    int field = (int) (tag >>> 3);
    if (field <= 0) throw malformed("field number " + field);
    return field;
  }

  /** The current field as a varint (int32, int64, uint32, bool, enum). */
  long int64() {
    expect(VARINT);
    return varint();
  }

  private long varint() {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= end) throw malformed("truncated varint");
      int b = buf[pos++] & 0xFF;
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) return v;
    }
    throw malformed("varint longer than ten bytes");
  }

  /** A length-delimited field's bytes as a reader of the embedded message. */
  ProtoReader message(String name) {
    int n = length();
    ProtoReader r = new ProtoReader(name, buf, pos, pos + n);
    pos += n;
    return r;
  }

  byte[] bytes() {
    int n = length();
    byte[] b = new byte[n];
    System.arraycopy(buf, pos, b, 0, n);
    pos += n;
    return b;
  }

  String string() {
    int n = length();
    String s = new String(buf, pos, n, StandardCharsets.UTF_8);
    pos += n;
    return s;
  }

  /** Skips the current field's value, whatever its wire type. */
  void skip() {
    switch (wireType) {
      case VARINT: varint(); break;
      case FIXED64: advance(8); break;
      case LENGTH_DELIMITED: advance(length()); break;
      case FIXED32: advance(4); break;
      default: throw malformed("wire type " + wireType);
    }
  }

  /** The current field's wire type must be {@code expected} (else the input is malformed). */
  ProtoReader expect(int expected) {
    if (wireType != expected) throw malformed("wire type " + wireType + ", expected " + expected);
    return this;
  }

  private int length() {
    expect(LENGTH_DELIMITED);
    long n = varint();
    if (n < 0 || n > end - pos) throw malformed("length " + n + " past the end");
    return (int) n;
  }

  private void advance(int n) {
    if (n > end - pos) throw malformed("field past the end");
    pos += n;
  }

  private InvalidArgumentException malformed(String why) {
    return new InvalidArgumentException("malformed " + what + " at byte " + pos + ": " + why);
  }
}
