package org.sg;

/** The operation was cancelled (for example a run on a closed session). Status code CANCELLED (1). */
public class CancelledException extends SgException {
  private static final long serialVersionUID = 1L;

  public CancelledException(String message) {
    super(Code.CANCELLED, message);
  }
}
