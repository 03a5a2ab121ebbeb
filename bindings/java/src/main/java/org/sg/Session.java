package org.sg;

import java.util.ArrayList;
import java.util.Collection;
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
 * <p>Options: {@link SessionOptions} (threads, timeouts, device counts, placement) when made;
 * {@link RunOptions} per run ({@link Runner#setOptions(RunOptions)}), whose trace level fills a
 * typed {@link RunMetadata} ({@link Result#runMetadata()}). Partial runs: {@link #partialRun}.
 *
 * <p>Ownership: the creator closes the session; feeds stay the caller's; a {@link Result} owns
 * the fetched tensors. Threads: runs may go on concurrently from any number of threads; close()
 * refuses new runs, waits for those in flight, then frees the session.
 */
public final class Session implements AutoCloseable {
  private final Graph graph;
  private final NativeResource res;
  private final CallGuard guard = new CallGuard("Session");
  // Serializes the frees of partial-run handles with the session's own free (SG_DeletePRunHandle
  // reaches into the session that made the handle).
  private final Object handleLock = new Object();

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
    this(graph, SessionOptions.builder().target(target).config(config).build());
  }

  /**
   * A session with typed options (null: this process, default configuration).
   * InvalidArgumentException for a target no session factory takes or a config that does not
   * parse.
   */
  public Session(Graph graph, SessionOptions options) {
    if (graph == null) throw new IllegalArgumentException("graph is null");
    this.graph = graph;
    long opts = (options == null ? SessionOptions.builder().build() : options).toNative();
    long h;
    try {
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
   * Sets up a {@link PartialRun} that will feed {@code feeds}, fetch {@code fetches} and run
   * {@code targets} (each may be empty, not null), as TensorFlow's partial_run_setup.
   * Ownership: the caller closes the PartialRun. Errors: InvalidArgumentException for an output
   * or operation of another graph or listed twice; IllegalStateException once closed.
   */
  public PartialRun partialRun(Collection<Output> feeds, Collection<Output> fetches,
      Collection<Operation> targets) {
    long[] feedArray = pairs(new ArrayList<>(feeds));
    long[] fetchArray = pairs(new ArrayList<>(fetches));
    long[] targetArray = new long[targets.size()];
    int i = 0;
    for (Operation op : targets) {
      if (op == null) throw new IllegalArgumentException("target " + i + " is null");
      targetArray[i++] = op.handle();
    }
    guard.enter();
    try {
      long handle = Native.sgb_SessionPRunSetup(res.handle(), feedArray, fetchArray, targetArray);
      return new PartialRun(this, handle);
    } finally {
      guard.exit();
      java.lang.ref.Reference.reachabilityFence(this);
    }
  }

  /** One call of a partial run; CancelledException once the session is closed. */
  void prun(long handle, long[] feeds, long[] fetches, long[] outputs) {
    try {
      guard.enter();
    } catch (IllegalStateException e) {
      throw new CancelledException("the Session is closed");
    }
    try {
      Native.sgb_SessionPRun(res.handle(), handle, feeds, fetches, outputs, new long[0]);
    } finally {
      guard.exit();
      java.lang.ref.Reference.reachabilityFence(this);
    }
  }

  void freePRunHandle(long handle) {
    synchronized (handleLock) {
      Native.sgb_DeletePRunHandle(handle);
    }
  }

  Graph graph() {
    return graph;
  }

  /** (operation, index) pairs of {@code outputs}, as the sgb_ helpers take them. */
  static long[] pairs(List<Output> outputs) {
    long[] p = new long[2 * outputs.size()];
    for (int i = 0; i < outputs.size(); ++i) {
      Output o = outputs.get(i);
      if (o == null) throw new IllegalArgumentException("output " + i + " is null");
      p[2 * i] = o.op().handle();
      p[2 * i + 1] = o.index();
    }
    return p;
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
      synchronized (handleLock) {
        res.close();
      }
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

    /**
     * The RunMetadata from runAndFetchMetadata(), read into its typed view (its step statistics
     * are empty unless the run's {@link RunOptions} asked for a trace); null after run().
     */
    public RunMetadata runMetadata() {
      return metadata == null ? null : RunMetadata.parse(metadata);
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

    /** Typed RunOptions (trace level, timeout) for the runs of this Runner (null: none). */
    public Runner setOptions(RunOptions runOptions) {
      options = runOptions == null ? null : runOptions.toByteArray();
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
