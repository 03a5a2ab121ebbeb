package org.sg;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * Runs a {@link Graph}: in this process, or on a cluster when the target is "grpc://host:port".
 *
 * <pre>{@code
 * try (Session s = new Session(graph);
 *      Tensor x = Tensor.create(new float[][] {{1, 2}});
 *      Session.Result r = s.runner().feed("input", x).fetch("probs").run()) {
 *   float[][] probs = r.get(0).copyTo(new float[1][10]);
 * }
 * }</pre>
 *
 * <p>Ownership: the creator closes the session; feeds stay the caller's; a {@link Result} owns
 * the fetched tensors. Threads: runs may go on concurrently from any number of threads; close()
 * refuses new runs, waits for those in flight, then frees the session.
 */
public final class Session implements AutoCloseable {
  private final Graph graph;
  private final NativeResource res;
  private final CallGuard guard = new CallGuard("Session");

  /** A session in this process with the default configuration. */
  public Session(Graph graph) {
    this(graph, null, null);
  }

  /** A session in this process with a serialized ConfigProto ({@code null}: default). */
  public Session(Graph graph, byte[] config) {
    this(graph, null, config);
  }

  /**
   * A session on {@code target} ("" or null for this process, "grpc://host:port" for a cluster)
   * with a serialized ConfigProto ({@code null}: default).
   */
  public Session(Graph graph, String target, byte[] config) {
    this.graph = graph;
    long opts = Native.SG_NewSessionOptions();
    long h;
    try {
      if (target != null) Native.SG_SetTarget(opts, target);
      if (config != null) Native.SG_SetConfig(opts, config);
      long g = graph.acquire();
      try {
        h = Native.SG_NewSession(g, opts);
      } finally {
        graph.releaseRef();
      }
    } finally {
      Native.SG_DeleteSessionOptions(opts);
    }
    res = new NativeResource(this, "Session", h, Session::delete);
  }

  /** Takes ownership of a session the C API made on {@code graph} (SavedModelBundle). */
  Session(Graph graph, long handle) {
    this.graph = graph;
    res = new NativeResource(this, "Session", handle, Session::delete);
  }

  /** A new Runner: feeds, fetches and targets of one run. */
  public Runner runner() {
    return new Runner();
  }

  /**
   * Refuses new runs, waits for the runs in flight, and frees the session (idempotent).
   * SgException when closing the session reported an error (it is freed all the same).
   */
  @Override
  public void close() {
    if (!guard.beginClose()) return;
    try {
      Native.SG_CloseSession(res.handle());
    } finally {
      guard.awaitIdle();
      res.close();
    }
  }

  private static void delete(long handle) {
    try {
      Native.SG_DeleteSession(handle);
    } catch (SgException e) {
      // The session is freed all the same; close() has already reported SG_CloseSession's error.
    }
  }

  /** The fetched tensors of one run, in fetch order; closing it closes them all. */
  public static final class Result implements AutoCloseable, Iterable<Tensor> {
    private final List<Tensor> tensors;
    private final byte[] metadata;

    Result(List<Tensor> tensors, byte[] metadata) {
      this.tensors = Collections.unmodifiableList(tensors);
      this.metadata = metadata;
    }

    /** The i-th fetched tensor (owned by this Result). */
    public Tensor get(int i) {
      return tensors.get(i);
    }

    public int size() {
      return tensors.size();
    }

    /** The serialized RunMetadata from runAndFetchMetadata(), else null. */
    public byte[] metadata() {
      return metadata == null ? null : metadata.clone();
    }

    @Override
    public Iterator<Tensor> iterator() {
      return tensors.iterator();
    }

    @Override
    public void close() {
      for (Tensor t : tensors) t.close();
    }
  }

  /** Collects one run's feeds, fetches and targets. Used by one thread; may run many times. */
  public final class Runner {
    private final List<Output> feeds = new ArrayList<>();
    private final List<Tensor> feedValues = new ArrayList<>();
    private final List<Output> fetches = new ArrayList<>();
    private final List<Operation> targets = new ArrayList<>();
    private byte[] options;

    /** Feeds {@code t} to output "op:index" or "op" (index 0). */
    public Runner feed(String name, Tensor t) {
      return feed(graph.output(name), t);
    }

    public Runner feed(Output output, Tensor t) {
      if (t == null) throw new IllegalArgumentException("feed of " + output + " is null");
      feeds.add(output);
      feedValues.add(t);
      return this;
    }

    /** Fetches output "op:index" or "op" (index 0). */
    public Runner fetch(String name) {
      return fetch(graph.output(name));
    }

    public Runner fetch(Output output) {
      fetches.add(output);
      return this;
    }

    /** Runs operation {@code name} for its effect. */
    public Runner addTarget(String name) {
      Operation op = graph.operation(name);
      if (op == null) throw new IllegalArgumentException("no operation named '" + name + "' in the graph");
      return addTarget(op);
    }

    public Runner addTarget(Operation op) {
      targets.add(op);
      return this;
    }

    /** A serialized RunOptions for the runs of this Runner (null: none). */
    public Runner setOptions(byte[] runOptions) {
      options = runOptions == null ? null : runOptions.clone();
      return this;
    }

    /** Runs; the Result owns the fetched tensors. SgException on failure. */
    public Result run() {
      return doRun(false);
    }

    /** Runs and also returns the serialized RunMetadata. */
    public Result runAndFetchMetadata() {
      return doRun(true);
    }

    private Result doRun(boolean wantMetadata) {
      long[] feedArray = new long[3 * feeds.size()];
      for (int i = 0; i < feeds.size(); ++i) {
        feedArray[3 * i] = feeds.get(i).op().handle();
        feedArray[3 * i + 1] = feeds.get(i).index();
        feedArray[3 * i + 2] = feedValues.get(i).handle();
      }
      long[] fetchArray = new long[2 * fetches.size()];
      for (int i = 0; i < fetches.size(); ++i) {
        fetchArray[2 * i] = fetches.get(i).op().handle();
        fetchArray[2 * i + 1] = fetches.get(i).index();
      }
      long[] targetArray = new long[targets.size()];
      for (int i = 0; i < targets.size(); ++i) targetArray[i] = targets.get(i).handle();
      long[] outputs = new long[fetches.size()];
      long runOptions = 0;
      long runMetadata = 0;
      byte[] metadata = null;
      guard.enter();
      try {
        if (options != null) runOptions = Native.SG_NewBufferFromString(options);
        if (wantMetadata) runMetadata = Native.SG_NewBuffer();
        Native.sgb_SessionRun(res.handle(), runOptions, feedArray, fetchArray, outputs, targetArray,
            runMetadata);
        if (wantMetadata) metadata = Graph.bytes(runMetadata);
      } finally {
        guard.exit();
        Native.SG_DeleteBuffer(runOptions);
        Native.SG_DeleteBuffer(runMetadata);
        java.lang.ref.Reference.reachabilityFence(feedValues);
        java.lang.ref.Reference.reachabilityFence(Session.this);
      }
      List<Tensor> out = new ArrayList<>(outputs.length);
      for (long h : outputs) out.add(Tensor.fromHandle(h));
      return new Result(out, metadata);
    }
  }
}
