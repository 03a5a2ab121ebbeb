package org.sg;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Describes a new operation; {@link #build()} checks it against its OpDef and adds it to the
 * graph. Each builder is used by one thread and built once (building consumes it, also on
 * failure). Attr values are copied.
 *
 * <pre>{@code
 * Output x = g.opBuilder("Placeholder", "x").setAttr("dtype", DataType.FLOAT).build().output(0);
 * }</pre>
 */
public final class OperationBuilder {
  private final Graph graph;
  private long desc;

  OperationBuilder(Graph graph, String type, String name) {
    this.graph = graph;
    long g = graph.acquire();
    try {
      desc = Native.SG_NewOperation(g, type, name);
    } finally {
      graph.releaseRef();
    }
  }

  /** Adds the operation; SgException (InvalidArgument, NotFound for an unknown type) on failure. */
  public Operation build() {
    long d = take();
    graph.acquire();
    try {
      return new Operation(graph, Native.SG_FinishOperation(d));
    } finally {
      graph.releaseRef();
    }
  }

  public OperationBuilder addInput(Output input) {
    Native.sgb_AddInput(open(), mine(input).op().handle(), input.index());
    return this;
  }

  /** Adds a list input (an OpDef arg "N * T" or a list(type)). */
  public OperationBuilder addInputList(Output[] inputs) {
    long[] pairs = new long[2 * inputs.length];
    for (int i = 0; i < inputs.length; ++i) {
      pairs[2 * i] = mine(inputs[i]).op().handle();
      pairs[2 * i + 1] = inputs[i].index();
    }
    Native.sgb_AddInputList(open(), pairs);
    return this;
  }

  public OperationBuilder addControlInput(Operation op) {
    if (op.graph() != graph) throw new IllegalArgumentException(op + " belongs to another graph");
    Native.SG_AddControlInput(open(), op.handle());
    return this;
  }

  public OperationBuilder setDevice(String device) {
    Native.SG_SetDevice(open(), device);
    return this;
  }

  public OperationBuilder setAttr(String name, String value) {
    return setAttr(name, value.getBytes(StandardCharsets.UTF_8));
  }

  public OperationBuilder setAttr(String name, byte[] value) {
    Native.SG_SetAttrString(open(), name, value);
    return this;
  }

  public OperationBuilder setAttr(String name, String[] values) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    long[] lengths = new long[values.length];
    for (int i = 0; i < values.length; ++i) {
      byte[] b = values[i].getBytes(StandardCharsets.UTF_8);
      lengths[i] = b.length;
      all.writeBytes(b);
    }
    Native.sgb_SetAttrStringList(open(), name, all.toByteArray(), lengths);
    return this;
  }

  public OperationBuilder setAttr(String name, long value) {
    Native.SG_SetAttrInt(open(), name, value);
    return this;
  }

  public OperationBuilder setAttr(String name, long[] values) {
    Native.SG_SetAttrIntList(open(), name, values);
    return this;
  }

  public OperationBuilder setAttr(String name, float value) {
    Native.SG_SetAttrFloat(open(), name, value);
    return this;
  }

  public OperationBuilder setAttr(String name, float[] values) {
    Native.SG_SetAttrFloatList(open(), name, values);
    return this;
  }

  public OperationBuilder setAttr(String name, boolean value) {
    Native.SG_SetAttrBool(open(), name, (short) (value ? 1 : 0));
    return this;
  }

  public OperationBuilder setAttr(String name, boolean[] values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; ++i) b[i] = (byte) (values[i] ? 1 : 0);
    Native.SG_SetAttrBoolList(open(), name, b);
    return this;
  }

  public OperationBuilder setAttr(String name, DataType value) {
    Native.SG_SetAttrType(open(), name, value.value());
    return this;
  }

  public OperationBuilder setAttr(String name, DataType[] values) {
    int[] v = new int[values.length];
    for (int i = 0; i < values.length; ++i) v[i] = values[i].value();
    Native.SG_SetAttrTypeList(open(), name, v);
    return this;
  }

  /** Sets a tensor attr (e.g. Const's "value"); the tensor's contents are copied. */
  public OperationBuilder setAttr(String name, Tensor value) {
    Native.SG_SetAttrTensor(open(), name, value.handle());
    java.lang.ref.Reference.reachabilityFence(value);
    return this;
  }

  public OperationBuilder setAttr(String name, Tensor[] values) {
    long[] h = new long[values.length];
    for (int i = 0; i < values.length; ++i) h[i] = values[i].handle();
    Native.sgb_SetAttrTensorList(open(), name, h);
    java.lang.ref.Reference.reachabilityFence(values);
    return this;
  }

  /** Sets a shape attr: -1 for an unknown dim; {@code null} for an unknown rank. */
  public OperationBuilder setAttrShape(String name, long[] dims) {
    Native.sgb_SetAttrShape(open(), name, dims == null ? new long[0] : dims, dims == null ? 1 : 0);
    return this;
  }

  /** Sets a list of shapes (null entries: unknown rank). */
  public OperationBuilder setAttrShapeList(String name, long[][] shapes) {
    int total = 0;
    for (long[] s : shapes) total += s == null ? 0 : s.length;
    long[] dims = new long[total];
    long[] ranks = new long[shapes.length];
    int at = 0;
    for (int i = 0; i < shapes.length; ++i) {
      ranks[i] = shapes[i] == null ? -1 : shapes[i].length;
      if (shapes[i] != null) {
        System.arraycopy(shapes[i], 0, dims, at, shapes[i].length);
        at += shapes[i].length;
      }
    }
    Native.sgb_SetAttrShapeList(open(), name, dims, ranks);
    return this;
  }

  private long open() {
    if (desc == 0) throw new IllegalStateException("the OperationBuilder was already built");
    return desc;
  }

  private long take() {
    long d = open();
    desc = 0;
    return d;
  }

  private Output mine(Output o) {
    if (o.op().graph() != graph) throw new IllegalArgumentException(o + " belongs to another graph");
    return o;
  }
}
