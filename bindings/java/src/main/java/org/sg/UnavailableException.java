package org.sg;

/** A service (a cluster task) could not be reached; retrying may help. Status code UNAVAILABLE (14). */
public class UnavailableException extends SgException {
  private static final long serialVersionUID = 1L;

  public UnavailableException(String message) {
    super(Code.UNAVAILABLE, message);
  }
}
