package org.sg;

/** Data was lost or corrupted. Status code DATA_LOSS (15). */
public class DataLossException extends SgException {
  private static final long serialVersionUID = 1L;

  public DataLossException(String message) {
    super(Code.DATA_LOSS, message);
  }
}
