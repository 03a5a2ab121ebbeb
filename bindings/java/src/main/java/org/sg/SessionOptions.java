package org.sg;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link Session} runs on and how: the target and a ConfigProto built from typed fields,
 * as TensorFlow's {@code ConfigProto} (config.proto) names them. Immutable; made by a
 * {@link Builder}.
 *
 * <pre>{@code
 * SessionOptions opts = SessionOptions.builder()
 *     .intraOpParallelismThreads(2)
 *     .operationTimeoutInMs(5_000)
 *     .deviceCount("CPU", 2)
 *     .build();
 * try (Session s = new Session(graph, opts)) { ... }
 * }</pre>
 *
 * <p>The ConfigProto is encoded by hand (no protobuf library): {@link #configProto()} is the raw
 * config bytes given to {@link Builder#config}, if any, followed by the typed fields in
 * field-number order. Protobuf parses concatenated messages as one merged message, in which a
 * later scalar field wins, so a typed field overrides the same field of the raw bytes. As proto3
 * does, a field at its default (0, false, no device counts) is not written, and so does not
 * override the raw bytes.
 *
 * <p>Threads: instances are immutable and may be shared; a Builder is for one thread.
 */
public final class SessionOptions {
  // ConfigProto's field numbers (TensorFlow's config.proto).
  private static final int DEVICE_COUNT = 1;
  private static final int INTRA_OP_PARALLELISM_THREADS = 2;
  private static final int INTER_OP_PARALLELISM_THREADS = 5;
  private static final int ALLOW_SOFT_PLACEMENT = 7;
  private static final int LOG_DEVICE_PLACEMENT = 8;
  private static final int OPERATION_TIMEOUT_IN_MS = 11;

  private final String target;
  private final byte[] configProto;

  private SessionOptions(String target, byte[] configProto) {
    this.target = target;
    this.configProto = configProto;
  }

  /** A builder with every field at its default: target "", default ConfigProto. */
  public static Builder builder() {
    return new Builder();
  }

  /** The target: "" for this process, "grpc://host:port" for a cluster. */
  public String target() {
    return target;
  }

  /** The serialized ConfigProto (a new array; empty for the default configuration). */
  public byte[] configProto() {
    return configProto.clone();
  }

  /**
   * A new SG_SessionOptions holding these options; the caller frees it with
   * SG_DeleteSessionOptions. InvalidArgumentException when the C API cannot parse the config.
   */
  long toNative() {
    long opts = Native.SG_NewSessionOptions();
    if (opts == 0) throw new OutOfMemoryError("SG_NewSessionOptions");
    try {
      if (!target.isEmpty()) Native.SG_SetTarget(opts, target);
      if (configProto.length > 0) Native.SG_SetConfig(opts, configProto);
      return opts;
    } catch (RuntimeException e) {
      Native.SG_DeleteSessionOptions(opts);
      throw e;
    }
  }

  /**
   * Collects the options. Setters check their argument and throw {@link
   * InvalidArgumentException} (code INVALID_ARGUMENT, as the C API's typed setters) for a value
   * the ConfigProto field cannot mean.
   */
  public static final class Builder {
    private String target = "";
    private byte[] config = new byte[0];
    private int intraOpThreads;
    private int interOpThreads;
    private long operationTimeoutInMs;
    private final Map<String, Integer> deviceCount = new TreeMap<>();
    private boolean allowSoftPlacement;
    private boolean logDevicePlacement;

    private Builder() {}

    /** "" or null for this process, "grpc://host:port" for a cluster. */
    public Builder target(String target) {
      this.target = target == null ? "" : target;
      return this;
    }

    /**
     * A serialized ConfigProto that the typed fields are merged over (null: none). The bytes are
     * copied; they are parsed when a session is made (InvalidArgumentException there when they
     * do not parse).
     */
    public Builder config(byte[] configProto) {
      this.config = configProto == null ? new byte[0] : configProto.clone();
      return this;
    }

    /** ConfigProto.intra_op_parallelism_threads: threads one kernel may use (0: sg picks). */
    public Builder intraOpParallelismThreads(int n) {
      if (n < 0) throw new InvalidArgumentException("intra_op_parallelism_threads " + n + " < 0");
      intraOpThreads = n;
      return this;
    }

    /**
     * ConfigProto.inter_op_parallelism_threads: threads that run kernels side by side (0: sg
     * picks; negative: each step runs in its caller's thread).
     */
    public Builder interOpParallelismThreads(int n) {
      interOpThreads = n;
      return this;
    }

    /** ConfigProto.operation_timeout_in_ms: a step longer than this fails with DEADLINE_EXCEEDED (0: none). */
    public Builder operationTimeoutInMs(long ms) {
      if (ms < 0) throw new InvalidArgumentException("operation_timeout_in_ms " + ms + " < 0");
      operationTimeoutInMs = ms;
      return this;
    }

    /** ConfigProto.device_count: at most {@code count} devices of {@code deviceType} (e.g. "CPU"). */
    public Builder deviceCount(String deviceType, int count) {
      if (deviceType == null || deviceType.isEmpty()) {
        throw new InvalidArgumentException("device_count: empty device type");
      }
      if (count < 0) throw new InvalidArgumentException("device_count[" + deviceType + "] " + count + " < 0");
      deviceCount.put(deviceType, count);
      return this;
    }

    /** ConfigProto.allow_soft_placement: a node asking for a device that is absent runs elsewhere. */
    public Builder allowSoftPlacement(boolean allow) {
      allowSoftPlacement = allow;
      return this;
    }

    /** ConfigProto.log_device_placement: logs each node's device when a step is placed. */
    public Builder logDevicePlacement(boolean log) {
      logDevicePlacement = log;
      return this;
    }

    public SessionOptions build() {
      ProtoWriter w = new ProtoWriter().raw(config);
      for (Map.Entry<String, Integer> e : deviceCount.entrySet()) {
        // A map entry is a message {key = 1; value = 2}; proto3 leaves out a zero value.
        ProtoWriter entry = new ProtoWriter().string(1, e.getKey());
        if (e.getValue() != 0) entry.varint(2, e.getValue());
        w.bytes(DEVICE_COUNT, entry.toByteArray());
      }
      if (intraOpThreads != 0) w.varint(INTRA_OP_PARALLELISM_THREADS, intraOpThreads);
      if (interOpThreads != 0) w.varint(INTER_OP_PARALLELISM_THREADS, interOpThreads);
      if (allowSoftPlacement) w.bool(ALLOW_SOFT_PLACEMENT, true);
      if (logDevicePlacement) w.bool(LOG_DEVICE_PLACEMENT, true);
      if (operationTimeoutInMs != 0) w.varint(OPERATION_TIMEOUT_IN_MS, operationTimeoutInMs);
      return new SessionOptions(target, w.toByteArray());
    }
  }
}
