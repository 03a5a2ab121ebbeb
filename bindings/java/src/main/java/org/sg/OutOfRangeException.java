package org.sg;

/** An operation went past a valid range (for example the end of input). Status code OUT_OF_RANGE (11). */
public class OutOfRangeException extends SgException {
  private static final long serialVersionUID = 1L;

  public OutOfRangeException(String message) {
    super(Code.OUT_OF_RANGE, message);
  }
}
