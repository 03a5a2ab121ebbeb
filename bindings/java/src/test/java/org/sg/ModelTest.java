package org.sg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Real graphs end to end: results compared with TensorFlow's own outputs. */
class ModelTest {
  @Test
  void digitsClassifierMatchesTensorFlowOnAll360Samples() throws Exception {
    float[][] x = TestData.npy(TestData.testdata("digits_test_x.npy")).floats2d();
    int[] y = TestData.npy(TestData.testdata("digits_test_y.npy")).ints();
    float[][] tfProbs = TestData.npy(TestData.testdata("digits_tf_probs.npy")).floats2d();
    assertEquals(360, x.length);

    try (Graph g = new Graph()) {
      g.importGraphDef(TestData.testdata("digits_mlp.pb"));
      assertEquals("Softmax", g.operation("probs").type());
      assertEquals(DataType.FLOAT, g.output("input:0").dataType());
      assertArrayEquals(new long[] {-1, 64}, g.output("input").shape());
      try (Session s = new Session(g);
           Tensor input = Tensor.create(x);
           Session.Result r = s.runner().feed("input:0", input).fetch("probs:0").run()) {
        Tensor probs = r.get(0);
        assertEquals(DataType.FLOAT, probs.dataType());
        assertArrayEquals(new long[] {360, 10}, probs.shape());
        float[][] p = probs.copyTo(new float[360][10]);
        int ours = 0;
        int theirs = 0;
        for (int i = 0; i < 360; ++i) {
          for (int j = 0; j < 10; ++j) {
            assertEquals(tfProbs[i][j], p[i][j], 1e-5, "probs[" + i + "][" + j + "]");
          }
          if (TestData.argmax(p[i]) == y[i]) ++ours;
          if (TestData.argmax(tfProbs[i]) == y[i]) ++theirs;
        }
        assertEquals(theirs, ours, "accuracy (correct of 360) differs from TensorFlow's");
      }
    }
  }

  @Test
  void mnistMlpT10kAccuracyIs08989() throws Exception {
    byte[] images = TestData.gunzip(TestData.shared("mnist_t10k/t10k-images-idx3-ubyte.gz"));
    byte[] labels = TestData.gunzip(TestData.shared("mnist_t10k/t10k-labels-idx1-ubyte.gz"));
    ByteBuffer ib = ByteBuffer.wrap(images).order(ByteOrder.BIG_ENDIAN);
    assertEquals(2051, ib.getInt(0));
    int n = ib.getInt(4);
    assertEquals(10000, n);
    try (Graph g = new Graph()) {
      g.importGraphDef(TestData.shared("mnist_mlp_frozen.pb"));
      Output in = g.output("Placeholder:0");
      Output logits = g.output("softmax_linear/add:0");
      int correct = 0;
      try (Session s = new Session(g)) {
        float[][] batch = new float[100][784];
        for (int start = 0; start < n; start += 100) {
          for (int i = 0; i < 100; ++i) {
            for (int k = 0; k < 784; ++k) batch[i][k] = (images[16 + (start + i) * 784 + k] & 0xff) / 255.0f;
          }
          try (Tensor t = Tensor.create(batch);
               Session.Result r = s.runner().feed(in, t).fetch(logits).run()) {
            float[][] out = r.get(0).copyTo(new float[100][10]);
            if (start == 0) {
              assertEquals(8.89346f, out[0][7], 1e-3);
            }
            for (int i = 0; i < 100; ++i) {
              if (TestData.argmax(out[i]) == (labels[8 + start + i] & 0xff)) ++correct;
            }
          }
        }
      }
      assertEquals(8989, correct, "t10k accuracy 0.8989");
    }
  }

  @Test
  void builtGraphRunsAndExports() {
    try (Graph g = new Graph()) {
      Output a = g.opBuilder("Placeholder", "a").setAttr("dtype", DataType.FLOAT).build().output(0);
      Output two;
      try (Tensor t = Tensor.create(2.0f)) {
        two = g.opBuilder("Const", "two").setAttr("dtype", DataType.FLOAT).setAttr("value", t)
            .build().output(0);
      }
      Operation mul = g.opBuilder("Mul", "mul").addInput(a).addInput(two).build();
      assertEquals("Mul", mul.type());
      assertNotNull(g.operation("mul"));
      byte[] def = g.toGraphDef();
      assertTrue(def.length > 0);

      try (Graph copy = new Graph()) {
        copy.importGraphDef(def, "imported");
        assertNotNull(copy.operation("imported/mul"));
      }
      try (Session s = new Session(g);
           Tensor x = Tensor.create(new float[] {1, 2, 3});
           Session.Result r = s.runner().feed(a, x).fetch(mul.output(0)).run()) {
        assertArrayEquals(new float[] {2, 4, 6}, r.get(0).copyTo(new float[3]));
      }
    }
  }
}
