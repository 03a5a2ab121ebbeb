package org.sg;

/** The request lacked valid credentials. Status code UNAUTHENTICATED (16). */
public class UnauthenticatedException extends SgException {
  private static final long serialVersionUID = 1L;

  public UnauthenticatedException(String message) {
    super(Code.UNAUTHENTICATED, message);
  }
}
