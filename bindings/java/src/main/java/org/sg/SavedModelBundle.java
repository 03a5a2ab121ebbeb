package org.sg;

import java.nio.charset.StandardCharsets;
import java.io.ByteArrayOutputStream;

/**
 * A TensorFlow SavedModel loaded into a new graph and session, its variables restored.
 *
 * <pre>{@code
 * try (SavedModelBundle m = SavedModelBundle.load("/models/digits/1", "serve");
 *      Tensor x = Tensor.create(new float[1][64]);
 *      Session.Result r = m.session().runner().feed("input", x).fetch("probs").run()) { ... }
 * }</pre>
 *
 * <p>Ownership: close() closes the session, then the graph. Threads: as {@link Session}.
 */
public final class SavedModelBundle implements AutoCloseable {
  private final Graph graph;
  private final Session session;
  private final byte[] metaGraphDef;

  private SavedModelBundle(Graph graph, Session session, byte[] metaGraphDef) {
    this.graph = graph;
    this.session = session;
    this.metaGraphDef = metaGraphDef;
  }

  /** Loads the MetaGraphDef of {@code exportDir} whose tags are exactly {@code tags}. */
  public static SavedModelBundle load(String exportDir, String... tags) {
    return loader(exportDir).withTags(tags).load();
  }

  public static Loader loader(String exportDir) {
    return new Loader(exportDir);
  }

  public Graph graph() {
    return graph;
  }

  public Session session() {
    return session;
  }

  /** The serialized MetaGraphDef (signatures, collections). */
  public byte[] metaGraphDef() {
    return metaGraphDef.clone();
  }

  @Override
  public void close() {
    try {
      session.close();
    } finally {
      graph.close();
    }
  }

  /** Options of a load. */
  public static final class Loader {
    private final String exportDir;
    private String[] tags = {"serve"};
    private String target;
    private byte[] config;
    private byte[] runOptions;
    private SessionOptions sessionOptions;

    private Loader(String exportDir) {
      this.exportDir = exportDir;
    }

    /** The MetaGraphDef's exact tag set (default "serve"). */
    public Loader withTags(String... tags) {
      this.tags = tags.clone();
      return this;
    }

    /** The session's target ("" for this process, "grpc://host:port" for a cluster). */
    public Loader withTarget(String target) {
      this.target = target;
      return this;
    }

    /** A serialized ConfigProto for the session. */
    public Loader withConfigProto(byte[] config) {
      this.config = config == null ? null : config.clone();
      return this;
    }

    /**
     * Typed options of the session (threads, timeouts, devices, target); when set, they are used
     * instead of withTarget and withConfigProto.
     */
    public Loader withSessionOptions(SessionOptions options) {
      this.sessionOptions = options;
      return this;
    }

    /** Typed RunOptions for the restore and init runs. */
    public Loader withRunOptions(RunOptions runOptions) {
      this.runOptions = runOptions == null ? null : runOptions.toByteArray();
      return this;
    }

    /** A serialized RunOptions for the restore and init runs. */
    public Loader withRunOptions(byte[] runOptions) {
      this.runOptions = runOptions == null ? null : runOptions.clone();
      return this;
    }

    /** Loads; NotFoundException for a missing directory or tag set, and so on. */
    public SavedModelBundle load() {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      long[] lengths = new long[tags.length];
      for (int i = 0; i < tags.length; ++i) {
        byte[] b = tags[i].getBytes(StandardCharsets.UTF_8);
        lengths[i] = b.length;
        all.writeBytes(b);
      }
      SessionOptions options = sessionOptions != null ? sessionOptions
          : SessionOptions.builder().target(target).config(config).build();
      long opts = options.toNative();
      Graph graph = new Graph();
      long runOpts = 0;
      long meta = Native.SG_NewBuffer();
      try {
        if (runOptions != null) runOpts = Native.SG_NewBufferFromString(runOptions);
        long g = graph.acquire();
        long session;
        try {
          session = Native.sgb_LoadSessionFromSavedModel(opts, runOpts, exportDir, all.toByteArray(),
              lengths, g, meta);
        } finally {
          graph.releaseRef();
        }
        return new SavedModelBundle(graph, new Session(graph, session), Graph.bytes(meta));
      } catch (RuntimeException e) {
        graph.close();
        throw e;
      } finally {
        Native.SG_DeleteBuffer(meta);
        Native.SG_DeleteBuffer(runOpts);
        Native.SG_DeleteSessionOptions(opts);
      }
    }
  }
}
