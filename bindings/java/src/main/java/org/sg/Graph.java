package org.sg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A dataflow graph: imported from a GraphDef or built with {@link #opBuilder}.
 *
 * <pre>{@code
 * try (Graph g = new Graph()) {
 *   g.importGraphDef(Path.of("model.pb"));
 *   Operation probs = g.operation("probs");
 * }
 * }</pre>
 *
 * <p>Ownership: the creator closes the graph; sessions keep what they need of it alive, so a
 * graph may be closed before its sessions, but its {@link Operation}s and {@link Output}s may not
 * be used afterwards. Threads: every method may be called from several threads; close waits for
 * calls in progress.
 */
public final class Graph implements AutoCloseable {
  private final NativeResource res;
  private final CallGuard guard = new CallGuard("Graph");

  public Graph() {
    long h = Native.SG_NewGraph();
    if (h == 0) throw new OutOfMemoryError("SG_NewGraph");
    res = new NativeResource(this, "Graph", h, Native::SG_DeleteGraph);
  }

  /** Imports a serialized GraphDef (binary or text format), all or nothing. */
  public void importGraphDef(byte[] graphDef) {
    importGraphDef(graphDef, "");
  }

  /** Imports a GraphDef with every name prefixed by {@code prefix + "/"} (none when empty). */
  public void importGraphDef(byte[] graphDef, String prefix) {
    if (graphDef == null) throw new IllegalArgumentException("graphDef is null");
    long g = acquire();
    long buf = 0;
    long opts = 0;
    try {
      buf = Native.SG_NewBufferFromString(graphDef);
      opts = Native.SG_NewImportGraphDefOptions();
      if (prefix != null && !prefix.isEmpty()) Native.SG_ImportGraphDefOptionsSetPrefix(opts, prefix);
      Native.SG_GraphImportGraphDef(g, buf, opts);
    } finally {
      Native.SG_DeleteImportGraphDefOptions(opts);
      Native.SG_DeleteBuffer(buf);
      releaseRef();
    }
  }

  /** Imports the GraphDef in a .pb or .pbtxt file. */
  public void importGraphDef(Path file) throws IOException {
    importGraphDef(Files.readAllBytes(file));
  }

  /** The operation named {@code name}, or null when there is none. */
  public Operation operation(String name) {
    long g = acquire();
    try {
      long op = Native.SG_GraphOperationByName(g, name);
      return op == 0 ? null : new Operation(this, op);
    } finally {
      releaseRef();
    }
  }

  /**
   * The output named {@code "op:index"} or {@code "op"} (index 0).
   * IllegalArgumentException when there is no such operation or output.
   */
  public Output output(String name) {
    int colon = name.lastIndexOf(':');
    String op = name;
    int index = 0;
    if (colon > 0 && colon + 1 < name.length()
        && name.substring(colon + 1).chars().allMatch(Character::isDigit)) {
      op = name.substring(0, colon);
      index = Integer.parseInt(name.substring(colon + 1));
    }
    Operation o = operation(op);
    if (o == null) throw new IllegalArgumentException("no operation named '" + op + "' in the graph");
    return o.output(index);
  }

  /** Starts a new operation of type {@code type} named {@code name}; build() adds it. */
  public OperationBuilder opBuilder(String type, String name) {
    return new OperationBuilder(this, type, name);
  }

  /**
   * Adds the gradient of {@code y}'s sum with respect to each of {@code x} to the graph, as
   * TensorFlow's {@code Graph.addGradients}: the partial derivatives d(y_0 + y_1 + ...)/dx_i,
   * each weighted by {@code dx} (the gradients flowing into each y; null means ones), built from
   * TensorFlow's gradient formulas under the name scope {@code prefix} ("gradients",
   * "gradients_1" ... when null or empty). Returns one output per x, of x's dtype and shape; null
   * for an x that a y reaches only through ops without a gradient (StopGradient, integers...).
   *
   * <p>Errors: InvalidArgumentException for an x or y of another graph, a prefix that already
   * names an operation, dx of the wrong count; a {@link SgException} naming the op for an op on
   * the path from x to y that has no gradient. The graph is unchanged on error.
   */
  public Output[] addGradients(String prefix, Output[] y, Output[] x, Output[] dx) {
    if (y == null || x == null) throw new IllegalArgumentException("y and x must not be null");
    if (dx != null && dx.length != y.length) {
      throw new IllegalArgumentException("dx has " + dx.length + " outputs, y has " + y.length);
    }
    long g = acquire();
    try {
      long[] out = new long[2 * x.length];
      Native.sgb_AddGradients(g, prefix == null ? "" : prefix, pairs(y), pairs(x),
                              dx == null ? new long[0] : pairs(dx), out);
      Output[] grads = new Output[x.length];
      for (int i = 0; i < x.length; ++i) {
        grads[i] = out[2 * i] == 0 ? null : new Operation(this, out[2 * i]).output((int) out[2 * i + 1]);
      }
      return grads;
    } finally {
      releaseRef();
    }
  }

  /** {@code addGradients(null, new Output[] {y}, x, null)}: d(y)/dx_i under a default name. */
  public Output[] addGradients(Output y, Output[] x) {
    return addGradients(null, new Output[] {y}, x, null);
  }

  private long[] pairs(Output[] outputs) {
    long[] p = new long[2 * outputs.length];
    for (int i = 0; i < outputs.length; ++i) {
      if (outputs[i] == null) throw new IllegalArgumentException("output " + i + " is null");
      if (outputs[i].op().graph() != this) {
        throw new IllegalArgumentException(outputs[i] + " belongs to another graph");
      }
      p[2 * i] = outputs[i].op().handle();
      p[2 * i + 1] = outputs[i].index();
    }
    return p;
  }

  /** The whole graph as a serialized GraphDef. */
  public byte[] toGraphDef() {
    long g = acquire();
    long buf = Native.SG_NewBuffer();
    try {
      Native.SG_GraphToGraphDef(g, buf);
      return bytes(buf);
    } finally {
      Native.SG_DeleteBuffer(buf);
      releaseRef();
    }
  }

  /** Drops the graph (sessions keep their own reference). Waits for calls in progress. */
  @Override
  public void close() {
    if (!guard.beginClose()) return;
    guard.awaitIdle();
    res.close();
  }

  /** Marks a native call in progress and returns the handle; IllegalStateException once closed. */
  long acquire() {
    guard.enter();
    return res.handle();
  }

  void releaseRef() {
    guard.exit();
    java.lang.ref.Reference.reachabilityFence(this);
  }

  static byte[] bytes(long buffer) {
    java.nio.ByteBuffer view = Native.sgb_BufferView(buffer);
    byte[] out = new byte[view == null ? 0 : view.remaining()];
    if (view != null) view.get(out);
    return out;
  }
}
