package org.sg;

/** An argument was wrong whatever the state (a bad dtype, shape, name or attr). Status code INVALID_ARGUMENT (3). */
public class InvalidArgumentException extends SgException {
  private static final long serialVersionUID = 1L;

  public InvalidArgumentException(String message) {
    super(Code.INVALID_ARGUMENT, message);
  }
}
