package org.sg;

/** An invariant inside sg was broken. Status code INTERNAL (13). */
public class InternalException extends SgException {
  private static final long serialVersionUID = 1L;

  public InternalException(String message) {
    super(Code.INTERNAL, message);
  }
}
