package org.sg;

/** Something to be created was already there. Status code ALREADY_EXISTS (6). */
public class AlreadyExistsException extends SgException {
  private static final long serialVersionUID = 1L;

  public AlreadyExistsException(String message) {
    super(Code.ALREADY_EXISTS, message);
  }
}
