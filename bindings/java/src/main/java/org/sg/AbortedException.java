package org.sg;

/** The operation was aborted, typically by a concurrency conflict. Status code ABORTED (10). */
public class AbortedException extends SgException {
  private static final long serialVersionUID = 1L;

  public AbortedException(String message) {
    super(Code.ABORTED, message);
  }
}
