package org.sg;

/** sg does not implement or support this. Status code UNIMPLEMENTED (12). */
public class UnimplementedException extends SgException {
  private static final long serialVersionUID = 1L;

  public UnimplementedException(String message) {
    super(Code.UNIMPLEMENTED, message);
  }
}
