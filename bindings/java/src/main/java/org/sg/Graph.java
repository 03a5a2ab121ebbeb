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
