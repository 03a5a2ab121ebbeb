package org.sg;

/** The element types of sg tensors, numbered as TensorFlow's DataType (types.proto). */
public enum DataType {
  FLOAT(1, 4),
  DOUBLE(2, 8),
  INT32(3, 4),
  UINT8(4, 1),
  INT16(5, 2),
  INT8(6, 1),
  /** Byte strings (any bytes; Java Strings are encoded as UTF-8). */
  STRING(7, -1),
  /** Pairs of floats (real, imaginary): a Java array with one more dimension of size 2. */
  COMPLEX64(8, 8),
  INT64(9, 8),
  BOOL(10, 1),
  QINT8(11, 1),
  QUINT8(12, 1),
  QINT32(13, 4),
  /** Brain float: Java floats are rounded to it (nearest even). */
  BFLOAT16(14, 2),
  QINT16(15, 2),
  QUINT16(16, 2),
  UINT16(17, 2),
  /** Pairs of doubles (real, imaginary): a Java array with one more dimension of size 2. */
  COMPLEX128(18, 16),
  /** IEEE half: Java floats are rounded to it (nearest even). */
  HALF(19, 2),
  RESOURCE(20, -1),
  VARIANT(21, -1),
  UINT32(22, 4),
  UINT64(23, 8);

  private final int value;
  private final int byteSize;

  DataType(int value, int byteSize) {
    this.value = value;
    this.byteSize = byteSize;
  }

  /** The C API's number (SG_DataType). */
  public int value() {
    return value;
  }

  /** Bytes per element, or -1 for STRING, RESOURCE and VARIANT. */
  public int byteSize() {
    return byteSize;
  }

  /** The type numbered {@code value}; IllegalArgumentException for numbers sg does not have. */
  public static DataType fromValue(int value) {
    for (DataType t : values()) {
      if (t.value == value) return t;
    }
    throw new IllegalArgumentException("sg has no DataType " + value);
  }
}
