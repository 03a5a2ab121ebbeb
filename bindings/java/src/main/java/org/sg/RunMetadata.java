package org.sg;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A typed view of a serialized TensorFlow {@code RunMetadata} (config.proto), read by hand from
 * the wire format (no protobuf library): the step statistics that a run with {@link
 * RunOptions.TraceLevel} above NO_TRACE records ({@code step_stats.proto}: per device, per node
 * run, its times, thread, outputs and memory) and the partition graphs that {@code
 * output_partition_graphs} asks for. Fields sg does not fill read as 0, "" or empty lists;
 * fields this view does not name are skipped.
 *
 * <pre>{@code
 * RunMetadata md = result.runMetadata();
 * for (RunMetadata.DeviceStepStats d : md.stepStats()) {
 *   for (RunMetadata.NodeExecStats n : d.nodeStats()) {
 *     System.out.println(d.device() + " " + n.nodeName() + " " + n.opEndRelMicros() + "us");
 *   }
 * }
 * }</pre>
 *
 * <p>Immutable; may be shared between threads.
 */
public final class RunMetadata {
  private final List<DeviceStepStats> stepStats;
  private final List<byte[]> partitionGraphs;

  private RunMetadata(List<DeviceStepStats> stepStats, List<byte[]> partitionGraphs) {
    this.stepStats = Collections.unmodifiableList(stepStats);
    this.partitionGraphs = Collections.unmodifiableList(partitionGraphs);
  }

  /**
   * Reads a serialized RunMetadata (an empty array is an empty one).
   * InvalidArgumentException naming the message and offset when the bytes are not wire format.
   */
  public static RunMetadata parse(byte[] serialized) {
    if (serialized == null) throw new InvalidArgumentException("RunMetadata bytes are null");
    List<DeviceStepStats> devices = new ArrayList<>();
    List<byte[]> partitions = new ArrayList<>();
    ProtoReader r = new ProtoReader("RunMetadata", serialized);
    for (int f; (f = r.next()) != 0; ) {
      if (f == 1) {  // step_stats
        ProtoReader s = r.message("StepStats");
        for (int g; (g = s.next()) != 0; ) {
          if (g == 1) devices.add(DeviceStepStats.read(s.message("DeviceStepStats")));
          else s.skip();
        }
      } else if (f == 3) {  // partition_graphs
        partitions.add(r.bytes());
      } else {
        r.skip();
      }
    }
    return new RunMetadata(devices, partitions);
  }

  /** step_stats.dev_stats: one entry per device that ran nodes (empty without tracing). */
  public List<DeviceStepStats> stepStats() {
    return stepStats;
  }

  /** Every node's statistics, of all devices, in the order recorded. */
  public List<NodeExecStats> allNodeStats() {
    List<NodeExecStats> all = new ArrayList<>();
    for (DeviceStepStats d : stepStats) all.addAll(d.nodeStats());
    return all;
  }

  /** partition_graphs: each a serialized GraphDef (a new array each call). */
  public List<byte[]> partitionGraphs() {
    List<byte[]> copies = new ArrayList<>(partitionGraphs.size());
    for (byte[] g : partitionGraphs) copies.add(g.clone());
    return copies;
  }

  /** DeviceStepStats: what ran on one device. */
  public static final class DeviceStepStats {
    private final String device;
    private final List<NodeExecStats> nodeStats;
    private final Map<Long, String> threadNames;

    private DeviceStepStats(String device, List<NodeExecStats> nodeStats, Map<Long, String> threadNames) {
      this.device = device;
      this.nodeStats = Collections.unmodifiableList(nodeStats);
      this.threadNames = Collections.unmodifiableMap(threadNames);
    }

    static DeviceStepStats read(ProtoReader r) {
      String device = "";
      List<NodeExecStats> nodes = new ArrayList<>();
      Map<Long, String> threads = new TreeMap<>();
      for (int f; (f = r.next()) != 0; ) {
        switch (f) {
          case 1: device = r.string(); break;
          case 2: nodes.add(NodeExecStats.read(r.message("NodeExecStats"))); break;
          case 3: {  // map<uint32, string> thread_names: entries {key = 1; value = 2}
            ProtoReader e = r.message("DeviceStepStats.thread_names");
            long key = 0;
            String value = "";
            for (int g; (g = e.next()) != 0; ) {
              if (g == 1) key = e.int64() & 0xFFFFFFFFL;
              else if (g == 2) value = e.string();
              else e.skip();
            }
            threads.put(key, value);
            break;
          }
          default: r.skip();
        }
      }
      return new DeviceStepStats(device, nodes, threads);
    }

    /** The device's full name, e.g. "/job:localhost/replica:0/task:0/device:CPU:0". */
    public String device() {
      return device;
    }

    public List<NodeExecStats> nodeStats() {
      return nodeStats;
    }

    /** thread_names: thread id to name, where the runtime named its threads. */
    public Map<Long, String> threadNames() {
      return threadNames;
    }
  }

  /** NodeExecStats: one node's run. Times are microseconds (and nanoseconds) since the epoch or since its start. */
  public static final class NodeExecStats {
    private String nodeName = "";
    private String timelineLabel = "";
    private long allStartMicros;
    private long opStartRelMicros;
    private long opEndRelMicros;
    private long allEndRelMicros;
    private long scheduledMicros;
    private long allStartNanos;
    private long opStartRelNanos;
    private long opEndRelNanos;
    private long allEndRelNanos;
    private long threadId;
    private long tempMemorySize;
    private long persistentMemorySize;
    private final List<NodeOutput> outputs = new ArrayList<>();
    private final List<AllocatorMemoryUsed> memory = new ArrayList<>();

    private NodeExecStats() {}

    static NodeExecStats read(ProtoReader r) {
      NodeExecStats n = new NodeExecStats();
      for (int f; (f = r.next()) != 0; ) {
        switch (f) {
          case 1: n.nodeName = r.string(); break;
          case 2: n.allStartMicros = r.int64(); break;
          case 3: n.opStartRelMicros = r.int64(); break;
          case 4: n.opEndRelMicros = r.int64(); break;
          case 5: n.allEndRelMicros = r.int64(); break;
          case 6: n.memory.add(AllocatorMemoryUsed.read(r.message("AllocatorMemoryUsed"))); break;
          case 7: n.outputs.add(NodeOutput.read(r.message("NodeOutput"))); break;
          case 8: n.timelineLabel = r.string(); break;
          case 9: n.scheduledMicros = r.int64(); break;
          case 10: n.threadId = r.int64() & 0xFFFFFFFFL; break;
          case 12: {  // memory_stats
            ProtoReader m = r.message("MemoryStats");
            for (int g; (g = m.next()) != 0; ) {
              if (g == 1) n.tempMemorySize = m.int64();
              else if (g == 3) n.persistentMemorySize = m.int64();
              else m.skip();
            }
            break;
          }
          case 13: n.allStartNanos = r.int64(); break;
          case 14: n.opStartRelNanos = r.int64(); break;
          case 15: n.opEndRelNanos = r.int64(); break;
          case 16: n.allEndRelNanos = r.int64(); break;
          default: r.skip();
        }
      }
      return n;
    }

    public String nodeName() {
      return nodeName;
    }

    /** "name = Op(inputs...)", from which timelines take the op type. */
    public String timelineLabel() {
      return timelineLabel;
    }

    /** The op type taken from the timeline label ("" when the label has none). */
    public String opType() {
      int eq = timelineLabel.indexOf(" = ");
      int paren = timelineLabel.indexOf('(', eq + 3);
      return eq < 0 || paren < 0 ? "" : timelineLabel.substring(eq + 3, paren);
    }

    /** When the node started, microseconds since the Unix epoch. */
    public long allStartMicros() {
      return allStartMicros;
    }

    public long opStartRelMicros() {
      return opStartRelMicros;
    }

    /** When the kernel finished, microseconds after allStartMicros. */
    public long opEndRelMicros() {
      return opEndRelMicros;
    }

    /** When the node was done (outputs handed on), microseconds after allStartMicros. */
    public long allEndRelMicros() {
      return allEndRelMicros;
    }

    public long scheduledMicros() {
      return scheduledMicros;
    }

    public long allStartNanos() {
      return allStartNanos;
    }

    public long opStartRelNanos() {
      return opStartRelNanos;
    }

    public long opEndRelNanos() {
      return opEndRelNanos;
    }

    public long allEndRelNanos() {
      return allEndRelNanos;
    }

    /** The id of the thread that ran the kernel (a uint32). */
    public long threadId() {
      return threadId;
    }

    /** memory_stats.temp_memory_size: bytes of scratch memory the kernel took. */
    public long tempMemorySize() {
      return tempMemorySize;
    }

    /** memory_stats.persistent_memory_size: bytes the kernel keeps across steps. */
    public long persistentMemorySize() {
      return persistentMemorySize;
    }

    /** The outputs the node produced, each with its slot, dtype, shape and bytes. */
    public List<NodeOutput> outputs() {
      return Collections.unmodifiableList(outputs);
    }

    /** Per allocator, the memory the node used. */
    public List<AllocatorMemoryUsed> memory() {
      return Collections.unmodifiableList(memory);
    }
  }

  /** NodeOutput: one output tensor's description. */
  public static final class NodeOutput {
    private int slot;
    private int dtype;
    private long[] shape = new long[0];
    private long requestedBytes;
    private long allocatedBytes;
    private String allocatorName = "";

    private NodeOutput() {}

    static NodeOutput read(ProtoReader r) {
      NodeOutput o = new NodeOutput();
      for (int f; (f = r.next()) != 0; ) {
        if (f == 1) {
          o.slot = (int) r.int64();
        } else if (f == 3) {  // tensor_description
          ProtoReader d = r.message("TensorDescription");
          for (int g; (g = d.next()) != 0; ) {
            if (g == 1) {
              o.dtype = (int) d.int64();
            } else if (g == 2) {
              o.shape = readShape(d.message("TensorShapeProto"));
            } else if (g == 4) {  // allocation_description
              ProtoReader a = d.message("AllocationDescription");
              for (int h; (h = a.next()) != 0; ) {
                if (h == 1) o.requestedBytes = a.int64();
                else if (h == 2) o.allocatedBytes = a.int64();
                else if (h == 3) o.allocatorName = a.string();
                else a.skip();
              }
            } else {
              d.skip();
            }
          }
        } else {
          r.skip();
        }
      }
      return o;
    }

    /** dims = 2 (Dim {size = 1}), unknown_rank = 3; null for an unknown rank. */
    private static long[] readShape(ProtoReader r) {
      List<Long> dims = new ArrayList<>();
      boolean unknownRank = false;
      for (int f; (f = r.next()) != 0; ) {
        if (f == 2) {
          ProtoReader dim = r.message("TensorShapeProto.Dim");
          long size = 0;
          for (int g; (g = dim.next()) != 0; ) {
            if (g == 1) size = dim.int64();
            else dim.skip();
          }
          dims.add(size);
        } else if (f == 3) {
          unknownRank = r.int64() != 0;
        } else {
          r.skip();
        }
      }
      if (unknownRank) return null;
      long[] out = new long[dims.size()];
      for (int i = 0; i < out.length; ++i) out[i] = dims.get(i);
      return out;
    }

    /** The output's index among the node's outputs. */
    public int slot() {
      return slot;
    }

    /** The dtype; null for a number sg has no DataType for (0: not recorded). */
    public DataType dataType() {
      try {
        return DataType.fromValue(dtype);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }

    /** The dims (a new array; empty for a scalar; -1 for unknown dims); null for an unknown rank. */
    public long[] shape() {
      return shape == null ? null : shape.clone();
    }

    /** allocation_description.requested_bytes: the tensor's size in bytes. */
    public long requestedBytes() {
      return requestedBytes;
    }

    public long allocatedBytes() {
      return allocatedBytes;
    }

    public String allocatorName() {
      return allocatorName;
    }
  }

  /** AllocatorMemoryUsed: one allocator's use by one node. */
  public static final class AllocatorMemoryUsed {
    private String allocatorName = "";
    private long totalBytes;
    private long peakBytes;
    private long liveBytes;
    private long allocatorBytesInUse;

    private AllocatorMemoryUsed() {}

    static AllocatorMemoryUsed read(ProtoReader r) {
      AllocatorMemoryUsed m = new AllocatorMemoryUsed();
      for (int f; (f = r.next()) != 0; ) {
        switch (f) {
          case 1: m.allocatorName = r.string(); break;
          case 2: m.totalBytes = r.int64(); break;
          case 3: m.peakBytes = r.int64(); break;
          case 4: m.liveBytes = r.int64(); break;
          case 5: m.allocatorBytesInUse = r.int64(); break;
          default: r.skip();
        }
      }
      return m;
    }

    public String allocatorName() {
      return allocatorName;
    }

    public long totalBytes() {
      return totalBytes;
    }

    public long peakBytes() {
      return peakBytes;
    }

    public long liveBytes() {
      return liveBytes;
    }

    public long allocatorBytesInUse() {
      return allocatorBytesInUse;
    }
  }
}
