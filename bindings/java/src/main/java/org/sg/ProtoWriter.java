package org.sg;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes protobuf wire format by hand (varints and length-delimited fields), so that the typed
 * options need no protobuf library. Fields go out in the order written; callers write them in
 * field-number order, as protobuf's own serializers do, so the bytes equal theirs.
 */
final class ProtoWriter {
  private static final int VARINT = 0;
  private static final int LENGTH_DELIMITED = 2;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  /** A varint field (int32, int64, uint32, bool, enum); negative values take ten bytes. */
  ProtoWriter varint(int field, long value) {
    tag(field, VARINT);
    rawVarint(value);
    return this;
  }

  ProtoWriter bool(int field, boolean value) {
    return varint(field, value ? 1 : 0);
  }

  ProtoWriter bytes(int field, byte[] value) {
    tag(field, LENGTH_DELIMITED);
    rawVarint(value.length);
    out.writeBytes(value);
    return this;
  }

  ProtoWriter string(int field, String value) {
    return bytes(field, value.getBytes(StandardCharsets.UTF_8));
  }

  /** Appends bytes that already are wire format (a message merges with what follows). */
  ProtoWriter raw(byte[] wire) {
    out.writeBytes(wire);
    return this;
  }

  byte[] toByteArray() {
    return out.toByteArray();
  }

  private void tag(int field, int wireType) {
    rawVarint(((long) field << 3) | wireType);
  }

  private void rawVarint(long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }
}
