package org.sg;

/**
 * A node of a {@link Graph}. Valid while its graph is open; equal operations wrap the same node.
 */
public final class Operation {
  private final Graph graph;
  private final long handle;

  Operation(Graph graph, long handle) {
    this.graph = graph;
    this.handle = handle;
  }

  public String name() {
    graph.acquire();
    try {
      return Native.SG_OperationName(handle);
    } finally {
      graph.releaseRef();
    }
  }

  /** The op type, e.g. "MatMul". */
  public String type() {
    graph.acquire();
    try {
      return Native.SG_OperationOpType(handle);
    } finally {
      graph.releaseRef();
    }
  }

  public String device() {
    graph.acquire();
    try {
      return Native.SG_OperationDevice(handle);
    } finally {
      graph.releaseRef();
    }
  }

  public int numOutputs() {
    graph.acquire();
    try {
      return Native.SG_OperationNumOutputs(handle);
    } finally {
      graph.releaseRef();
    }
  }

  /** Output {@code index}; IndexOutOfBoundsException outside [0, numOutputs()). */
  public Output output(int index) {
    int n = numOutputs();
    if (index < 0 || index >= n) {
      throw new IndexOutOfBoundsException("operation '" + name() + "' has " + n + " outputs, not " + (index + 1));
    }
    return new Output(this, index);
  }

  public Graph graph() {
    return graph;
  }

  long handle() {
    return handle;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Operation && ((Operation) o).handle == handle && ((Operation) o).graph == graph;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(handle);
  }

  @Override
  public String toString() {
    return "<" + type() + " '" + name() + "'>";
  }
}
