package org.sg;

/** The caller may not do this. Status code PERMISSION_DENIED (7). */
public class PermissionDeniedException extends SgException {
  private static final long serialVersionUID = 1L;

  public PermissionDeniedException(String message) {
    super(Code.PERMISSION_DENIED, message);
  }
}
