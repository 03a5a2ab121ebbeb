package org.sg;

/** Something named was not there (an op type, an operation, a file). Status code NOT_FOUND (5). */
public class NotFoundException extends SgException {
  private static final long serialVersionUID = 1L;

  public NotFoundException(String message) {
    super(Code.NOT_FOUND, message);
  }
}
