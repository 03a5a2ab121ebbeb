package org.sg;

/** The deadline passed before the operation finished. Status code DEADLINE_EXCEEDED (4). */
public class DeadlineExceededException extends SgException {
  private static final long serialVersionUID = 1L;

  public DeadlineExceededException(String message) {
    super(Code.DEADLINE_EXCEEDED, message);
  }
}
