package org.sg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConcurrencyTest {
  @Test
  void eightThreadsRunOneSession() throws Exception {
    float[][] x = TestData.npy(TestData.testdata("digits_test_x.npy")).floats2d();
    float[][] tf = TestData.npy(TestData.testdata("digits_tf_probs.npy")).floats2d();
    try (Graph g = new Graph(); ) {
      g.importGraphDef(TestData.testdata("digits_mlp.pb"));
      Output in = g.output("input");
      Output probs = g.output("probs");
      try (Session s = new Session(g)) {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Integer>> done = new ArrayList<>();
        for (int w = 0; w < 8; ++w) {
          final int worker = w;
          done.add(pool.submit(() -> {
            int checked = 0;
            for (int r = 0; r < 45; ++r) {
              int i = worker * 45 + r;
              try (Tensor t = Tensor.create(new float[][] {x[i]});
                   Session.Result res = s.runner().feed(in, t).fetch(probs).run()) {
                float[][] p = res.get(0).copyTo(new float[1][10]);
                for (int j = 0; j < 10; ++j) assertEquals(tf[i][j], p[0][j], 1e-5);
                ++checked;
              }
            }
            return checked;
          }));
        }
        int total = 0;
        for (Future<Integer> f : done) total += f.get(120, TimeUnit.SECONDS);
        pool.shutdown();
        assertEquals(360, total);
      }
    }
  }

  /** close() during runs: it waits for them; each run finishes or is cancelled, none crashes. */
  @Test
  void closeDuringRunWaitsForRunsInFlight() throws Exception {
    try (Graph g = new Graph()) {
      g.importGraphDef(Files.readAllBytes(TestData.testdata("digits_mlp.pb")));
      Session s = new Session(g);
      float[][] big = new float[20000][64];
      try (Tensor x = Tensor.create(big)) {
        int threads = 4;
        CountDownLatch started = new CountDownLatch(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<String>> runs = new ArrayList<>();
        for (int t = 0; t < threads; ++t) {
          runs.add(pool.submit(() -> {
            started.countDown();
            String outcome = "ok";
            for (int r = 0; r < 50; ++r) {
              try (Session.Result res = s.runner().feed("input", x).fetch("probs").run()) {
                assertEquals(20000, res.get(0).shape()[0]);
              } catch (CancelledException | IllegalStateException e) {
                outcome = "stopped";  // cancelled in flight, or refused after close
                break;
              }
            }
            return outcome;
          }));
        }
        started.await();
        Thread.sleep(20);
        s.close();  // returns only when no run is in flight
        for (Future<String> f : runs) {
          String o = f.get(120, TimeUnit.SECONDS);
          assertTrue(o.equals("ok") || o.equals("stopped"), o);
        }
        pool.shutdown();
        assertThrows(IllegalStateException.class, () -> s.runner().feed("input", x).fetch("probs").run());
      }
    }
  }

  @Test
  void graphCloseWaitsAndSessionsOutliveTheirGraph() throws Exception {
    Graph g = new Graph();
    g.importGraphDef(TestData.testdata("digits_mlp.pb"));
    Output in = g.output("input");
    Output probs = g.output("probs");
    try (Session s = new Session(g)) {
      g.close();
      assertThrows(IllegalStateException.class, () -> g.operation("probs"));
      try (Tensor t = Tensor.create(new float[1][64]);
           Session.Result r = s.runner().feed(in, t).fetch(probs).run()) {
        assertEquals(10, r.get(0).shape()[1]);
      }
    }
  }
}
