package org.sg;

/** TensorFlow's status codes (the gRPC canonical codes), as sg's C API reports them. */
public enum Code {
  OK(0),
  CANCELLED(1),
  UNKNOWN(2),
  INVALID_ARGUMENT(3),
  DEADLINE_EXCEEDED(4),
  NOT_FOUND(5),
  ALREADY_EXISTS(6),
  PERMISSION_DENIED(7),
  RESOURCE_EXHAUSTED(8),
  FAILED_PRECONDITION(9),
  ABORTED(10),
  OUT_OF_RANGE(11),
  UNIMPLEMENTED(12),
  INTERNAL(13),
  UNAVAILABLE(14),
  DATA_LOSS(15),
  UNAUTHENTICATED(16);

  private final int value;

  Code(int value) {
    this.value = value;
  }

  /** The number the C API uses (SG_Code). */
  public int value() {
    return value;
  }

  /** The code for {@code value}; UNKNOWN for numbers outside 0..16. */
  public static Code fromValue(int value) {
    for (Code c : values()) {
      if (c.value == value) return c;
    }
    return UNKNOWN;
  }
}
