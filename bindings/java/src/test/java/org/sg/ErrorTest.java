package org.sg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Failed C calls arrive as the SgException subclass of their status code. */
class ErrorTest {
  @Test
  void garbageGraphDefIsInvalidArgument() {
    try (Graph g = new Graph()) {
      InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
          () -> g.importGraphDef("not a graph".getBytes(StandardCharsets.UTF_8)));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertTrue(!e.getMessage().isEmpty());
    }
  }

  @Test
  void unknownOpTypeIsNotFoundAndMissingAttrInvalidArgument() {
    try (Graph g = new Graph()) {
      assertThrows(NotFoundException.class, () -> g.opBuilder("NoSuchOp", "x").build());
      assertThrows(InvalidArgumentException.class, () -> g.opBuilder("Placeholder", "p").build());
      OperationBuilder b = g.opBuilder("Placeholder", "q").setAttr("dtype", DataType.INT32);
      b.build();
      assertThrows(IllegalStateException.class, b::build);
    }
  }

  @Test
  void wrongFeedDtypeIsInvalidArgumentAndRunAfterCloseIsIllegalState() throws Exception {
    try (Graph g = new Graph()) {
      g.importGraphDef(TestData.testdata("digits_mlp.pb"));
      Session s = new Session(g);
      try (Tensor wrong = Tensor.create(new int[][] {{1}})) {
        SgException e = assertThrows(InvalidArgumentException.class,
            () -> s.runner().feed("input", wrong).fetch("probs").run());
        assertEquals(Code.INVALID_ARGUMENT, e.code());
        assertThrows(IllegalArgumentException.class, () -> s.runner().fetch("nothing:0"));
        s.close();
        s.close();
        assertThrows(IllegalStateException.class, () -> s.runner().feed("input", wrong).fetch("probs").run());
      }
    }
  }

  @Test
  void badTargetAndClusterSpec() {
    try (Graph g = new Graph()) {
      assertThrows(InvalidArgumentException.class, () -> new Session(g, "nonsense://x", null));
      assertThrows(InvalidArgumentException.class, () -> new Session(g, null, new byte[] {(byte) 0xff, 1}));
    }
    assertThrows(InvalidArgumentException.class, () -> new Server("not a spec", "worker", 0));
    assertThrows(InvalidArgumentException.class, () -> new Server("worker=127.0.0.1:0", "worker", 3));
  }

  /** A child JVM with the JNI library nowhere: the error names every path tried and why. */
  @Test
  void loadFailureListsEveryPathTried(@TempDir Path dir) throws Exception {
    Path jar = dir.resolve("sg.jar");
    Files.copy(Path.of(NativeLibrary.class.getProtectionDomain().getCodeSource().getLocation().toURI()), jar);
    String all = runChild(jar, "-Djava.library.path=/nonexistent-dir");
    assertTrue(all.contains("cannot load the JNI library"), all);
    assertTrue(all.contains("/nonexistent-dir/libsg_jni.so: no such file"), all);
    assertTrue(all.contains(dir.resolve("libsg_jni.so") + ": no such file"), all);
  }

  @Test
  void loadFailureGivesTheLoadersReason(@TempDir Path dir) throws Exception {
    Path notALibrary = Files.writeString(dir.resolve("libsg_jni.so"), "not an ELF file\n".repeat(500));
    Path jar = Path.of(NativeLibrary.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    String all = runChild(jar, "-D" + NativeLibrary.PROPERTY + "=" + notALibrary);
    assertTrue(all.contains(notALibrary + ": "), all);
    assertTrue(all.contains("invalid ELF header"), all);  // dlopen's own words
  }

  private static String runChild(Path jar, String property) throws Exception {
    String java = System.getProperty("java.home") + "/bin/java";
    Process p = new ProcessBuilder(java, property, "-cp", jar.toString(), "org.sg.Sg")
        .redirectErrorStream(true).start();
    String out;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      out = r.lines().collect(Collectors.joining("\n"));
    }
    assertTrue(p.waitFor() != 0, out);
    return out;
  }
}
