package org.sg;

import java.nio.charset.StandardCharsets;

/**
 * A node of a {@link Graph}. Valid while its graph is open; equal operations wrap the same node.
 *
 * <p>Its attributes are read with the typed readers ({@code attrString}, {@code attrInt},
 * {@code attrIntList}, {@code attrShape}, {@code attrTensor} ...) or described with {@link
 * #attrMetadata}:
 *
 * <pre>{@code
 * Operation conv = graph.operation("conv1/Conv2D");
 * long[] strides = conv.attrIntList("strides");   // [1, 1, 1, 1]
 * String padding = conv.attrString("padding");    // "SAME"
 * }</pre>
 *
 * <p>Threads: all methods may be called from several threads.
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

  // ---- Attribute readers, as TensorFlow's TF_OperationGetAttr* (and Java's Operation.attr...).
  // Each reads attr `name` of this operation. Errors: NotFoundException when the operation has
  // no such attr; InvalidArgumentException when it holds another kind (the message names both);
  // IllegalStateException once the graph is closed. Threads: safe, as the graph's other reads.

  /** What attr {@code name} holds (kind, list size, total size), as TF_OperationGetAttrMetadata. */
  public AttrMetadata attrMetadata(String name) {
    long[] m = new long[4];
    graph.acquire();
    try {
      Native.sgb_OperationGetAttrMetadata(handle, checkName(name), m);
    } finally {
      graph.releaseRef();
    }
    return new AttrMetadata(m[0] != 0, m[1], AttrMetadata.Kind.fromValue(m[2]), m[3]);
  }

  /** A string attr (e.g. Conv2D's "padding") decoded as UTF-8. */
  public String attrString(String name) {
    return new String(attrBytes(name), StandardCharsets.UTF_8);
  }

  /** A string attr's bytes as they are (string attrs may hold any bytes). */
  public byte[] attrBytes(String name) {
    graph.acquire();
    long buf = 0;
    try {
      buf = Native.sgb_OperationGetAttrString(handle, checkName(name));
      return Graph.bytes(buf);
    } finally {
      Native.SG_DeleteBuffer(buf);
      graph.releaseRef();
    }
  }

  /** A list(string) attr, each decoded as UTF-8. */
  public String[] attrStringList(String name) {
    long n = listSize(name);
    long[] lengths = new long[(int) n];
    byte[] all;
    graph.acquire();
    long buf = 0;
    try {
      buf = Native.sgb_OperationGetAttrStringList(handle, name, lengths);
      all = Graph.bytes(buf);
    } finally {
      Native.SG_DeleteBuffer(buf);
      graph.releaseRef();
    }
    String[] out = new String[lengths.length];
    int at = 0;
    for (int i = 0; i < out.length; ++i) {
      out[i] = new String(all, at, (int) lengths[i], StandardCharsets.UTF_8);
      at += (int) lengths[i];
    }
    return out;
  }

  /** An int attr (e.g. ConcatV2's "N"). */
  public long attrInt(String name) {
    graph.acquire();
    try {
      return Native.sgb_OperationGetAttrInt(handle, checkName(name));
    } finally {
      graph.releaseRef();
    }
  }

  /** A list(int) attr (e.g. Conv2D's "strides"). */
  public long[] attrIntList(String name) {
    long[] out = new long[(int) listSize(name)];
    graph.acquire();
    try {
      Native.sgb_OperationGetAttrIntList(handle, name, out);
    } finally {
      graph.releaseRef();
    }
    return out;
  }

  /** A float attr (e.g. FusedBatchNormV3's "epsilon"). */
  public float attrFloat(String name) {
    graph.acquire();
    try {
      return Native.sgb_OperationGetAttrFloat(handle, checkName(name));
    } finally {
      graph.releaseRef();
    }
  }

  public float[] attrFloatList(String name) {
    float[] out = new float[(int) listSize(name)];
    graph.acquire();
    try {
      Native.sgb_OperationGetAttrFloatList(handle, name, out);
    } finally {
      graph.releaseRef();
    }
    return out;
  }

  /** A bool attr (e.g. FusedBatchNormV3's "is_training"). */
  public boolean attrBool(String name) {
    graph.acquire();
    try {
      return Native.sgb_OperationGetAttrBool(handle, checkName(name)) != 0;
    } finally {
      graph.releaseRef();
    }
  }

  public boolean[] attrBoolList(String name) {
    long[] raw = new long[(int) listSize(name)];
    graph.acquire();
    try {
      Native.sgb_OperationGetAttrBoolList(handle, name, raw);
    } finally {
      graph.releaseRef();
    }
    boolean[] out = new boolean[raw.length];
    for (int i = 0; i < raw.length; ++i) out[i] = raw[i] != 0;
    return out;
  }

  /** A type attr (e.g. "T", "dtype"). */
  public DataType attrType(String name) {
    graph.acquire();
    int t;
    try {
      t = Native.sgb_OperationGetAttrType(handle, checkName(name));
    } finally {
      graph.releaseRef();
    }
    return DataType.fromValue(t);
  }

  public DataType[] attrTypeList(String name) {
    long[] raw = new long[(int) listSize(name)];
    graph.acquire();
    try {
      Native.sgb_OperationGetAttrTypeList(handle, name, raw);
    } finally {
      graph.releaseRef();
    }
    DataType[] out = new DataType[raw.length];
    for (int i = 0; i < raw.length; ++i) out[i] = DataType.fromValue((int) raw[i]);
    return out;
  }

  /**
   * A shape attr (e.g. Placeholder's "shape"): its dims, -1 for an unknown dim; null for an
   * unknown rank.
   */
  public long[] attrShape(String name) {
    AttrMetadata m = attrMetadata(name);
    boolean isShape = m.kind() == AttrMetadata.Kind.SHAPE && !m.isList();
    if (isShape && m.totalSize() < 0) return null;
    // For another kind the getter throws, naming the attr and both kinds.
    long[] dims = new long[isShape ? (int) m.totalSize() : 0];
    graph.acquire();
    try {
      Native.sgb_OperationGetAttrShape(handle, name, dims);
    } finally {
      graph.releaseRef();
    }
    return dims;
  }

  /** A list(shape) attr: one {@link #attrShape}-style array per shape (null: unknown rank). */
  public long[][] attrShapeList(String name) {
    AttrMetadata m = attrMetadata(name);
    long n = Math.max(0, m.listSize());
    long[] ranks = new long[(int) n];
    long[] dims = new long[(int) Math.max(0, m.totalSize())];
    graph.acquire();
    try {
      Native.sgb_OperationGetAttrShapeList(handle, name, ranks, dims);
    } finally {
      graph.releaseRef();
    }
    long[][] out = new long[ranks.length][];
    int at = 0;
    for (int i = 0; i < ranks.length; ++i) {
      if (ranks[i] < 0) continue;
      out[i] = java.util.Arrays.copyOfRange(dims, at, at + (int) ranks[i]);
      at += (int) ranks[i];
    }
    return out;
  }

  /** A tensor attr (e.g. Const's "value"): a new Tensor the caller closes. */
  public Tensor attrTensor(String name) {
    graph.acquire();
    long t;
    try {
      t = Native.sgb_OperationGetAttrTensor(handle, checkName(name));
    } finally {
      graph.releaseRef();
    }
    return Tensor.fromHandle(t);
  }

  /** A list(tensor) attr: new Tensors the caller closes. */
  public Tensor[] attrTensorList(String name) {
    long[] handles = new long[(int) listSize(name)];
    graph.acquire();
    try {
      Native.sgb_OperationGetAttrTensorList(handle, name, handles);
    } finally {
      graph.releaseRef();
    }
    Tensor[] out = new Tensor[handles.length];
    for (int i = 0; i < handles.length; ++i) out[i] = Tensor.fromHandle(handles[i]);
    return out;
  }

  /** The list size of attr {@code name} (0 when it is not a list: the getter then reports the kind). */
  private long listSize(String name) {
    return Math.max(0, attrMetadata(name).listSize());
  }

  private static String checkName(String name) {
    if (name == null) throw new InvalidArgumentException("attr name is null");
    return name;
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
