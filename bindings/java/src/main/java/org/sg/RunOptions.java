package org.sg;

/**
 * Options of one run, as TensorFlow's {@code RunOptions} (config.proto): the trace level that
 * fills {@link RunMetadata}'s step statistics, a per-step timeout, and whether the partition
 * graphs come back. Immutable; encoded by hand into a serialized RunOptions (no protobuf
 * library), fields in field-number order and defaults left out, as protobuf writes them.
 *
 * <pre>{@code
 * RunOptions trace = RunOptions.builder().traceLevel(RunOptions.TraceLevel.FULL_TRACE).build();
 * try (Session.Result r = s.runner().fetch("probs").setOptions(trace).runAndFetchMetadata()) {
 *   RunMetadata md = r.runMetadata();
 * }
 * }</pre>
 *
 * <p>Threads: instances may be shared; a Builder is for one thread.
 */
public final class RunOptions {
  /** RunOptions.TraceLevel: how much a step records. sg records the same for all but NO_TRACE. */
  public enum TraceLevel {
    NO_TRACE(0),
    SOFTWARE_TRACE(1),
    HARDWARE_TRACE(2),
    FULL_TRACE(3);

    private final int value;

    TraceLevel(int value) {
      this.value = value;
    }

    /** The number in RunOptions.trace_level. */
    public int value() {
      return value;
    }
  }

  // RunOptions' field numbers (TensorFlow's config.proto).
  private static final int TRACE_LEVEL = 1;
  private static final int TIMEOUT_IN_MS = 2;
  private static final int OUTPUT_PARTITION_GRAPHS = 5;

  private final byte[] bytes;

  private RunOptions(byte[] bytes) {
    this.bytes = bytes;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The serialized RunOptions (a new array; empty for the defaults). */
  public byte[] toByteArray() {
    return bytes.clone();
  }

  /** Collects the fields; each starts at RunOptions' default. */
  public static final class Builder {
    private TraceLevel traceLevel = TraceLevel.NO_TRACE;
    private long timeoutInMs;
    private boolean outputPartitionGraphs;

    private Builder() {}

    /** RunOptions.trace_level: above NO_TRACE, the step's RunMetadata gets step_stats. */
    public Builder traceLevel(TraceLevel level) {
      if (level == null) throw new InvalidArgumentException("trace level is null");
      traceLevel = level;
      return this;
    }

    /** RunOptions.timeout_in_ms: the step fails with DEADLINE_EXCEEDED past it (0: none). */
    public Builder timeoutInMs(long ms) {
      if (ms < 0) throw new InvalidArgumentException("timeout_in_ms " + ms + " < 0");
      timeoutInMs = ms;
      return this;
    }

    /** RunOptions.output_partition_graphs: RunMetadata gets the per-device graphs run. */
    public Builder outputPartitionGraphs(boolean output) {
      outputPartitionGraphs = output;
      return this;
    }

    public RunOptions build() {
      ProtoWriter w = new ProtoWriter();
      if (traceLevel != TraceLevel.NO_TRACE) w.varint(TRACE_LEVEL, traceLevel.value());
      if (timeoutInMs != 0) w.varint(TIMEOUT_IN_MS, timeoutInMs);
      if (outputPartitionGraphs) w.bool(OUTPUT_PARTITION_GRAPHS, true);
      return new RunOptions(w.toByteArray());
    }
  }
}
