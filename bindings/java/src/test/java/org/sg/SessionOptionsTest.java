package org.sg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Typed SessionOptions and RunOptions: their bytes, and their effect on a session. */
class SessionOptionsTest {
  private static byte[] hex(String s) {
    return HexFormat.of().parseHex(s);
  }

  @Test
  void configProtoBytesEqualTensorFlowsSerialization() {
    // python: tf.compat.v1.ConfigProto(device_count={'CPU': 2}, intra_op_parallelism_threads=3,
    //   inter_op_parallelism_threads=-1, allow_soft_placement=True, log_device_placement=True,
    //   operation_timeout_in_ms=1500).SerializeToString().hex()
    byte[] tf = hex("0a070a034350551002100328ffffffffffffffffff013801400158dc0b");
    SessionOptions o = SessionOptions.builder().deviceCount("CPU", 2).intraOpParallelismThreads(3)
        .interOpParallelismThreads(-1).allowSoftPlacement(true).logDevicePlacement(true)
        .operationTimeoutInMs(1500).build();
    assertArrayEquals(tf, o.configProto());
    assertArrayEquals(new byte[0], SessionOptions.builder().build().configProto());
  }

  @Test
  void typedFieldsFollowRawConfigBytes() {
    // python: tf.compat.v1.ConfigProto(intra_op_parallelism_threads=1,
    //   inter_op_parallelism_threads=4).SerializeToString().hex()
    byte[] raw = hex("10012804");
    SessionOptions o = SessionOptions.builder().config(raw).intraOpParallelismThreads(3).build();
    // The raw bytes, then intra_op_parallelism_threads = 3 (field 2), which wins on parsing.
    assertArrayEquals(hex("100128041003"), o.configProto());
  }

  @Test
  void runOptionsBytesEqualTensorFlowsSerialization() {
    // python: tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.FULL_TRACE,
    //   timeout_in_ms=2500, output_partition_graphs=True).SerializeToString().hex()
    RunOptions r = RunOptions.builder().traceLevel(RunOptions.TraceLevel.FULL_TRACE).timeoutInMs(2500)
        .outputPartitionGraphs(true).build();
    assertArrayEquals(hex("080310c4132801"), r.toByteArray());
  }

  @Test
  void badValuesAreInvalidArgument() {
    assertThrows(InvalidArgumentException.class, () -> SessionOptions.builder().intraOpParallelismThreads(-1));
    assertThrows(InvalidArgumentException.class, () -> SessionOptions.builder().operationTimeoutInMs(-5));
    assertThrows(InvalidArgumentException.class, () -> SessionOptions.builder().deviceCount("", 1));
    assertThrows(InvalidArgumentException.class, () -> SessionOptions.builder().deviceCount("CPU", -1));
    assertThrows(InvalidArgumentException.class, () -> RunOptions.builder().timeoutInMs(-1));
    try (Graph g = new Graph()) {
      SessionOptions garbage = SessionOptions.builder().config(new byte[] {(byte) 0xff, 1}).build();
      assertThrows(InvalidArgumentException.class, () -> new Session(g, garbage));
    }
  }

  /** A dequeue from an empty queue blocks until the session's operation timeout ends the step. */
  @Test
  void operationTimeoutEndsABlockedDequeueWithDeadlineExceeded() {
    try (Graph g = new Graph()) {
      Output q = g.opBuilder("FIFOQueueV2", "q")
          .setAttr("component_types", new DataType[] {DataType.FLOAT}).build().output(0);
      g.opBuilder("QueueDequeueV2", "dequeue").addInput(q)
          .setAttr("component_types", new DataType[] {DataType.FLOAT}).build();
      SessionOptions opts = SessionOptions.builder().operationTimeoutInMs(300).build();
      try (Session s = new Session(g, opts)) {
        long start = System.nanoTime();
        SgException e = assertThrows(DeadlineExceededException.class,
            () -> s.runner().fetch("dequeue").run());
        assertEquals(Code.DEADLINE_EXCEEDED, e.code());
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms >= 250 && ms < 30_000, "returned after " + ms + " ms");
      }
    }
  }

  /** A node pinned to /device:CPU:1 runs only when device_count gives the session two CPUs. */
  @Test
  void deviceCountTwoCpusLetsANodePinnedToCpu1Run() {
    try (Graph g = new Graph(); Tensor two = Tensor.create(2f)) {
      Output c = g.opBuilder("Const", "c").setAttr("dtype", DataType.FLOAT).setAttr("value", two)
          .setDevice("/device:CPU:1").build().output(0);
      g.opBuilder("Square", "sq").addInput(c).setDevice("/device:CPU:1").build();
      try (Session one = new Session(g)) {
        assertThrows(InvalidArgumentException.class, () -> one.runner().fetch("sq").run());
      }
      SessionOptions opts = SessionOptions.builder().deviceCount("CPU", 2).build();
      RunOptions trace = RunOptions.builder().traceLevel(RunOptions.TraceLevel.FULL_TRACE).build();
      try (Session s = new Session(g, opts);
           Session.Result r = s.runner().fetch("sq").setOptions(trace).runAndFetchMetadata()) {
        assertEquals(4f, r.get(0).floatValue());
        boolean onCpu1 = false;
        for (RunMetadata.DeviceStepStats d : r.runMetadata().stepStats()) {
          for (RunMetadata.NodeExecStats n : d.nodeStats()) {
            if (n.nodeName().equals("sq")) onCpu1 = d.device().endsWith("/device:CPU:1");
          }
        }
        assertTrue(onCpu1, "sq did not run on CPU:1");
      }
    }
  }
}
