package org.sg;

/**
 * What an operation's attribute holds, as TensorFlow's {@code TF_AttrMetadata}: its kind, whether
 * it is a list and of how many values, and a total size (see {@link #totalSize()}). From {@link
 * Operation#attrMetadata(String)}. Immutable.
 */
public final class AttrMetadata {
  /** The kind of value (TensorFlow's TF_AttrType, numbered as the C API's SG_AttrType). */
  public enum Kind {
    STRING, INT, FLOAT, BOOL, TYPE, SHAPE, TENSOR, PLACEHOLDER, FUNC;

    static Kind fromValue(long value) {
      Kind[] all = values();
      if (value < 0 || value >= all.length) {
        throw new InternalException("SG_OperationGetAttrMetadata gave attr type " + value);
      }
      return all[(int) value];
    }
  }

  private final boolean isList;
  private final long listSize;
  private final Kind kind;
  private final long totalSize;

  AttrMetadata(boolean isList, long listSize, Kind kind, long totalSize) {
    this.isList = isList;
    this.listSize = listSize;
    this.kind = kind;
    this.totalSize = totalSize;
  }

  /** True for a list attr, such as Conv2D's strides (list(int)). */
  public boolean isList() {
    return isList;
  }

  /** The number of values of a list; -1 for a single value. */
  public long listSize() {
    return listSize;
  }

  /** The kind of each value (for an empty list, the kind the op's definition declares). */
  public Kind kind() {
    return kind;
  }

  /**
   * For a string, its length in bytes (a list: the sum); for a shape, its rank (-1 unknown; a
   * list: the sum of the known ranks); -1 for the other kinds.
   */
  public long totalSize() {
    return totalSize;
  }

  @Override
  public String toString() {
    return (isList ? "list(" + kind + ")[" + listSize + "]" : kind.toString()) + " total_size=" + totalSize;
  }
}
