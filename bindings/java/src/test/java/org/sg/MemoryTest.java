package org.sg;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MemoryTest {
  private static long rssKb() throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }
    throw new IllegalStateException("no VmRSS");
  }

  private static void churn(int n) {
    float[] row = new float[64];
    for (int i = 0; i < n; ++i) {
      try (Tensor t = Tensor.create(row)) {
        if (t.numElements() != 64) throw new AssertionError();
      }
    }
  }

  @Test
  void hundredThousandTensorsCreatedAndClosedKeepResidentMemoryBounded() throws Exception {
    churn(20_000);  // warm up: JIT, allocator pools, the heap's first growth
    System.gc();
    long before = rssKb();
    churn(100_000);
    System.gc();
    long grew = rssKb() - before;
    assertTrue(grew < 20 * 1024, "resident memory grew by " + grew + " KB");
  }
}
