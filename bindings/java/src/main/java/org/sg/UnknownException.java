package org.sg;

/** An error sg could not classify. Status code UNKNOWN (2). */
public class UnknownException extends SgException {
  private static final long serialVersionUID = 1L;

  public UnknownException(String message) {
    super(Code.UNKNOWN, message);
  }
}
