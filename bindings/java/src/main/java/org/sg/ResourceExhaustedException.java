package org.sg;

/** Memory or another resource ran out. Status code RESOURCE_EXHAUSTED (8). */
public class ResourceExhaustedException extends SgException {
  private static final long serialVersionUID = 1L;

  public ResourceExhaustedException(String message) {
    super(Code.RESOURCE_EXHAUSTED, message);
  }
}
