package org.sg;

/** One output of an {@link Operation}: what a session feeds or fetches ("name:index"). */
public final class Output {
  private final Operation op;
  private final int index;

  Output(Operation op, int index) {
    this.op = op;
    this.index = index;
  }

  public Operation op() {
    return op;
  }

  public int index() {
    return index;
  }

  /** The dtype the graph gives this output. */
  public DataType dataType() {
    Graph g = op.graph();
    g.acquire();
    try {
      return DataType.fromValue(Native.sgb_OperationOutputType(op.handle(), index));
    } finally {
      g.releaseRef();
    }
  }

  /** The static shape as far as known: -1 for unknown dims; null when even the rank is unknown. */
  public long[] shape() {
    Graph g = op.graph();
    long gh = g.acquire();
    try {
      int rank = Native.sgb_GraphGetTensorNumDims(gh, op.handle(), index);
      if (rank < 0) return null;
      long[] dims = new long[rank];
      Native.sgb_GraphGetTensorShape(gh, op.handle(), index, dims);
      return dims;
    } finally {
      g.releaseRef();
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Output && ((Output) o).op.equals(op) && ((Output) o).index == index;
  }

  @Override
  public int hashCode() {
    return op.hashCode() * 31 + index;
  }

  @Override
  public String toString() {
    return op.name() + ":" + index;
  }
}
