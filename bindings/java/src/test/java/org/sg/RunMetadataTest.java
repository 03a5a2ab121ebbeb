package org.sg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The typed RunMetadata: of a FULL_TRACE run, and of bytes written by hand. */
class RunMetadataTest {
  @Test
  void fullTraceListsEveryNodeThatRanWithItsTimesAndOutputs() {
    try (Graph g = PartialRunTest.sumTimesC();
         Session s = new Session(g);
         Tensor a = Tensor.create(new float[] {1, 2});
         Tensor b = Tensor.create(new float[] {10, 20});
         Tensor c = Tensor.create(new float[] {2, 3})) {
      RunOptions trace = RunOptions.builder().traceLevel(RunOptions.TraceLevel.FULL_TRACE).build();
      long before = System.currentTimeMillis() * 1000;
      try (Session.Result r = s.runner().feed("a", a).feed("b", b).feed("c", c).fetch("product")
               .setOptions(trace).runAndFetchMetadata()) {
        long after = System.currentTimeMillis() * 1000 + 1000;
        assertArrayEquals(new float[] {22, 66}, r.get(0).copyTo(new float[2]));
        RunMetadata md = r.runMetadata();
        assertEquals(1, md.stepStats().size());
        assertTrue(md.stepStats().get(0).device().endsWith("/device:CPU:0"), md.stepStats().get(0).device());
        Map<String, RunMetadata.NodeExecStats> byName = new HashMap<>();
        for (RunMetadata.NodeExecStats n : md.allNodeStats()) {
          byName.put(n.nodeName(), n);
          assertTrue(n.allStartMicros() >= before - 1000 && n.allStartMicros() <= after,
              n.nodeName() + " started at " + n.allStartMicros());
          assertTrue(n.opEndRelMicros() >= n.opStartRelMicros(), n.nodeName());
          assertTrue(n.allEndRelMicros() >= n.opEndRelMicros(), n.nodeName());
          assertTrue(n.allEndRelNanos() >= 0, n.nodeName());
          assertTrue(n.threadId() != 0, n.nodeName());
        }
        // The two computed nodes, with their op types and outputs: [2] floats, 8 bytes each.
        for (String[] want : new String[][] {{"sum", "AddV2"}, {"product", "Mul"}}) {
          RunMetadata.NodeExecStats n = byName.get(want[0]);
          assertTrue(n != null, want[0] + " missing from " + byName.keySet());
          assertEquals(want[1], n.opType());
          assertEquals(1, n.outputs().size());
          RunMetadata.NodeOutput o = n.outputs().get(0);
          assertEquals(0, o.slot());
          assertEquals(DataType.FLOAT, o.dataType());
          assertArrayEquals(new long[] {2}, o.shape());
          assertEquals(8, o.requestedBytes());
        }
        // The fed placeholders ran as the step's _Arg nodes, the fetch also as a _Retval node
        // (sg names them "_arg_<name>/_<i>", "_retval_<name>/_<i>"): six nodes, no others.
        for (String prefix : List.of("_arg_a/", "_arg_b/", "_arg_c/", "_retval_product/")) {
          assertTrue(byName.keySet().stream().anyMatch(k -> k.startsWith(prefix)),
              prefix + " missing from " + byName.keySet());
        }
        assertEquals(6, byName.size(), byName.keySet().toString());
      }
      // Without a trace level the metadata is empty.
      try (Session.Result r = s.runner().feed("a", a).feed("b", b).feed("c", c).fetch("product")
               .runAndFetchMetadata()) {
        assertTrue(r.runMetadata().stepStats().isEmpty());
      }
    }
  }

  @Test
  void handWrittenBytesReadFieldByField() {
    // RunMetadata { step_stats { dev_stats { device: "d" node_stats { node_name: "n"
    //   all_start_micros: 5 op_end_rel_micros: 7 all_end_rel_micros: 9 thread_id: 3
    //   timeline_label: "n = Mul(x)" output { slot: 1 tensor_description { dtype: DT_INT64
    //   shape { unknown_rank: true } } } memory { allocator_name: "cpu" total_bytes: 64
    //   peak_bytes: 32 } memory_stats { temp_memory_size: 16 } } } }
    //   partition_graphs { } } with an unknown field 99 (varint) in NodeExecStats.
    String node = "0a016e" + "1005" + "2007" + "2809" + "5003"
        + "420a" + HexFormat.of().formatHex("n = Mul(x)".getBytes())
        + "3a0a" + "0801" + "1a06" + "0809" + "1202" + "1801"
        + "3209" + "0a03" + HexFormat.of().formatHex("cpu".getBytes()) + "1040" + "1820"
        + "6202" + "0810"
        + "9806" + "01";
    String dev = "0a0164" + "12" + String.format("%02x", node.length() / 2) + node;
    String step = "0a" + String.format("%02x", dev.length() / 2) + dev;
    byte[] bytes = HexFormat.of().parseHex("0a" + String.format("%02x", step.length() / 2) + step + "1a00");
    RunMetadata md = RunMetadata.parse(bytes);
    assertEquals(1, md.stepStats().size());
    assertEquals("d", md.stepStats().get(0).device());
    RunMetadata.NodeExecStats n = md.stepStats().get(0).nodeStats().get(0);
    assertEquals("n", n.nodeName());
    assertEquals(5, n.allStartMicros());
    assertEquals(7, n.opEndRelMicros());
    assertEquals(9, n.allEndRelMicros());
    assertEquals(3, n.threadId());
    assertEquals("Mul", n.opType());
    assertEquals(1, n.outputs().get(0).slot());
    assertEquals(DataType.INT64, n.outputs().get(0).dataType());
    assertNull(n.outputs().get(0).shape());
    assertEquals("cpu", n.memory().get(0).allocatorName());
    assertEquals(64, n.memory().get(0).totalBytes());
    assertEquals(32, n.memory().get(0).peakBytes());
    assertEquals(16, n.tempMemorySize());
    assertEquals(1, md.partitionGraphs().size());
    assertEquals(0, md.partitionGraphs().get(0).length);

    assertThrows(InvalidArgumentException.class, () -> RunMetadata.parse(new byte[] {0x0a, 0x05, 0x0a}));
    assertThrows(InvalidArgumentException.class, () -> RunMetadata.parse(new byte[] {(byte) 0x80}));
  }
}
