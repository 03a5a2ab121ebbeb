package org.sg;

/** The system was not in the state the operation needs (for example an uninitialized variable). Status code FAILED_PRECONDITION (9). */
public class FailedPreconditionException extends SgException {
  private static final long serialVersionUID = 1L;

  public FailedPreconditionException(String message) {
    super(Code.FAILED_PRECONDITION, message);
  }
}
