package org.sg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Sessions on a cluster of `sg server` processes, and an in-process Server. */
class ClusterTest {
  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void digitsOnATwoTaskClusterOfSgServerProcesses() throws Exception {
    String tool = System.getProperty("sg.tool", "");
    assumeTrue(new File(tool).canExecute(), "the sg tool is not built: " + tool);
    int p0 = freePort();
    int p1 = freePort();
    String spec = "worker=127.0.0.1:" + p0 + ",127.0.0.1:" + p1;
    List<Process> tasks = new ArrayList<>();
    try {
      for (int task = 0; task < 2; ++task) {
        Process p = new ProcessBuilder(tool, "server", "--cluster", spec, "--job", "worker",
            "--task", String.valueOf(task)).redirectErrorStream(true).start();
        tasks.add(p);
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine();
        assertTrue(line != null && line.startsWith("sg: serving worker:" + task), "task " + task + ": " + line);
      }
      float[][] x = TestData.npy(TestData.testdata("digits_test_x.npy")).floats2d();
      float[][] tf = TestData.npy(TestData.testdata("digits_tf_probs.npy")).floats2d();
      try (Graph g = new Graph()) {
        g.importGraphDef(TestData.testdata("digits_mlp.pb"));
        // The classifier runs where the master puts it; this Identity runs on the other task, so
        // the probabilities cross the wire.
        Output remote = g.opBuilder("Identity", "on_task1").addInput(g.output("probs"))
            .setDevice("/job:worker/replica:0/task:1/device:CPU:0").build().output(0);
        try (Session s = new Session(g, "grpc://127.0.0.1:" + p0, null);
             Tensor in = Tensor.create(x);
             Session.Result res = s.runner().feed("input", in).fetch(remote).run()) {
          float[][] p = res.get(0).copyTo(new float[360][10]);
          for (int i = 0; i < 360; ++i) {
            for (int j = 0; j < 10; ++j) assertEquals(tf[i][j], p[i][j], 1e-5);
          }
        }
      }
    } finally {
      for (Process p : tasks) {
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly();
      }
    }
  }

  @Test
  void inProcessServerServesASession() throws Exception {
    try (Server server = new Server("worker=127.0.0.1:0", "worker", 0)) {
      server.start();
      String target = server.target();
      assertTrue(target.startsWith("grpc://127.0.0.1:") && !target.endsWith(":0"), target);
      Thread joiner = new Thread(server::join);
      joiner.start();
      try (Graph g = new Graph()) {
        g.importGraphDef(TestData.testdata("digits_mlp.pb"));
        try (Session s = new Session(g, target, null);
             Tensor in = Tensor.create(new float[2][64]);
             Session.Result r = s.runner().feed("input", in).fetch("probs").run()) {
          assertEquals(2, r.get(0).shape()[0]);
        }
      }
      server.close();  // stops it: join() returns
      joiner.join(10_000);
      assertTrue(!joiner.isAlive(), "join() did not return after close()");
    }
  }
}
