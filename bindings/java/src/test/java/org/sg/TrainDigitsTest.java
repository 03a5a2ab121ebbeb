package org.sg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Training from Java: the digits classifier (64 -> 64 ReLU -> 10) built with opBuilder, its
 * gradients added with {@link Graph#addGradients}, trained with Adam (ApplyAdam) as TensorFlow
 * trained tests/testdata/digits_mlp.pb (learning rate 0.005, 600 steps of 64 samples, from
 * TensorFlow's initial weights on TensorFlow's batches: digits_train_init.npy and
 * digits_train_batches.npy), and its held-out accuracy compared with TensorFlow's for that model
 * (digits_mlp's test_accuracy in tests/testdata/expected.json: 354 of 360) within one point.
 */
class TrainDigitsTest {
  static final double TF_ACCURACY = 354.0 / 360.0;

  static Output constant(Graph g, String name, Object value) {
    try (Tensor t = Tensor.create(value)) {
      return g.opBuilder("Const", name).setAttr("value", t).setAttr("dtype", t.dataType())
          .build().output(0);
    }
  }

  /** A VariableV2, its initializer and its value (NAME/read), as tf.compat.v1 writes them. */
  static final class Var {
    final Output ref;
    final Output read;
    final Operation init;

    Var(Graph g, String name, Object initial, long[] shape) {
      ref = g.opBuilder("VariableV2", name).setAttr("dtype", DataType.FLOAT)
          .setAttrShape("shape", shape).build().output(0);
      init = g.opBuilder("Assign", name + "/Assign").addInput(ref)
          .addInput(constant(g, name + "/initial_value", initial)).build();
      read = g.opBuilder("Identity", name + "/read").addInput(ref).build().output(0);
    }
  }

  static Output op(Graph g, String type, String name, Output... in) {
    OperationBuilder b = g.opBuilder(type, name);
    for (Output o : in) b.addInput(o);
    return b.build().output(0);
  }

  /** rows x cols floats of `flat` from `offset`, row-major. */
  static float[][] matrix(float[] flat, int offset, int rows, int cols) {
    float[][] m = new float[rows][cols];
    for (int i = 0; i < rows; ++i) System.arraycopy(flat, offset + i * cols, m[i], 0, cols);
    return m;
  }

  @Test
  void adamReachesTensorFlowsHeldOutAccuracy() throws Exception {
    float[][] xtr = TestData.npy(TestData.testdata("digits_train_x.npy")).floats2d();
    int[] ytr = TestData.npy(TestData.testdata("digits_train_y.npy")).ints();
    float[][] xte = TestData.npy(TestData.testdata("digits_test_x.npy")).floats2d();
    int[] yte = TestData.npy(TestData.testdata("digits_test_y.npy")).ints();
    float[] init = TestData.npy(TestData.testdata("digits_train_init.npy")).floats();
    int[][] batches = TestData.npy(TestData.testdata("digits_train_batches.npy")).ints2d();
    assertEquals(64 * 64 + 64 + 64 * 10 + 10, init.length);
    try (Graph g = new Graph()) {
      Output x = g.opBuilder("Placeholder", "input").setAttr("dtype", DataType.FLOAT)
          .setAttrShape("shape", new long[] {-1, 64}).build().output(0);
      Output labels = g.opBuilder("Placeholder", "labels").setAttr("dtype", DataType.INT32).build()
          .output(0);
      Output beta1Power = g.opBuilder("Placeholder", "beta1_power").setAttr("dtype", DataType.FLOAT)
          .build().output(0);
      Output beta2Power = g.opBuilder("Placeholder", "beta2_power").setAttr("dtype", DataType.FLOAT)
          .build().output(0);
      long[][] shapes = {{64, 64}, {64}, {64, 10}, {10}};
      Object[] initial = {matrix(init, 0, 64, 64), matrix(init, 4096, 1, 64)[0],
                          matrix(init, 4160, 64, 10), matrix(init, 4800, 1, 10)[0]};
      String[] names = {"hidden/w", "hidden/b", "out/w", "out/b"};
      Var[] vars = new Var[4];
      Var[] m = new Var[4];
      Var[] v = new Var[4];
      Output[] reads = new Output[4];
      for (int i = 0; i < 4; ++i) {
        Object zeros = shapes[i].length == 2 ? new float[(int) shapes[i][0]][(int) shapes[i][1]]
                                             : new float[(int) shapes[i][0]];
        vars[i] = new Var(g, names[i], initial[i], shapes[i]);
        m[i] = new Var(g, names[i] + "/Adam", zeros, shapes[i]);
        v[i] = new Var(g, names[i] + "/Adam_1", zeros, shapes[i]);
        reads[i] = vars[i].read;
      }
      Output h = op(g, "Relu", "hidden/Relu", op(g, "BiasAdd", "hidden/BiasAdd",
          op(g, "MatMul", "hidden/MatMul", x, reads[0]), reads[1]));
      Output logits = op(g, "BiasAdd", "logits", op(g, "MatMul", "out/MatMul", h, reads[2]), reads[3]);
      Output xent = op(g, "SparseSoftmaxCrossEntropyWithLogits", "xent", logits, labels);
      Output loss = op(g, "Mean", "loss", xent, constant(g, "axis", 0));

      Output[] grads = g.addGradients(loss, reads);
      assertEquals(4, grads.length);
      for (int i = 0; i < 4; ++i) {
        assertEquals(DataType.FLOAT, grads[i].dataType());
        assertArrayEquals(shapes[i], grads[i].shape(), "the gradient of " + names[i]);
      }
      // A second call gets its own name scope.
      Output[] again = g.addGradients("second", new Output[] {loss}, new Output[] {reads[3]}, null);
      assertTrue(again[0].op().name().startsWith("second/"), again[0].op().name());

      Output lr = constant(g, "learning_rate", 0.005f);
      Output beta1 = constant(g, "beta1", 0.9f);
      Output beta2 = constant(g, "beta2", 0.999f);
      Output epsilon = constant(g, "epsilon", 1e-8f);
      Operation[] apply = new Operation[4];
      for (int i = 0; i < 4; ++i) {
        apply[i] = g.opBuilder("ApplyAdam", names[i] + "/ApplyAdam").addInput(vars[i].ref)
            .addInput(m[i].ref).addInput(v[i].ref).addInput(beta1Power).addInput(beta2Power)
            .addInput(lr).addInput(beta1).addInput(beta2).addInput(epsilon).addInput(grads[i])
            .build();
      }

      try (Session s = new Session(g)) {
        Session.Runner initialize = s.runner();
        for (int i = 0; i < 4; ++i) {
          initialize.addTarget(vars[i].init).addTarget(m[i].init).addTarget(v[i].init);
        }
        initialize.run().close();
        float firstLoss = 0;
        float lastLoss = 0;
        for (int step = 1; step <= 600; ++step) {
          float[][] bx = new float[64][];
          int[] by = new int[64];
          for (int i = 0; i < 64; ++i) {
            int row = batches[step - 1][i];
            bx[i] = xtr[row];
            by[i] = ytr[row];
          }
          try (Tensor tx = Tensor.create(bx);
               Tensor ty = Tensor.create(by);
               Tensor p1 = Tensor.create((float) Math.pow(0.9, step));
               Tensor p2 = Tensor.create((float) Math.pow(0.999, step))) {
            Session.Runner r = s.runner().feed(x, tx).feed(labels, ty).feed(beta1Power, p1)
                .feed(beta2Power, p2).fetch(loss);
            for (Operation a : apply) r.addTarget(a);
            try (Session.Result res = r.run()) {
              lastLoss = res.get(0).floatValue();
              if (step == 1) firstLoss = lastLoss;
            }
          }
        }
        assertTrue(lastLoss < firstLoss / 5, "loss " + firstLoss + " -> " + lastLoss);
        int correct = 0;
        try (Tensor tx = Tensor.create(xte);
             Session.Result res = s.runner().feed(x, tx).fetch(logits).run()) {
          float[][] out = res.get(0).copyTo(new float[xte.length][10]);
          for (int i = 0; i < out.length; ++i) {
            if (TestData.argmax(out[i]) == yte[i]) ++correct;
          }
        }
        double accuracy = (double) correct / yte.length;
        assertTrue(accuracy >= TF_ACCURACY - 0.01,
            "held-out accuracy " + accuracy + ", TensorFlow's " + TF_ACCURACY);
      }
    }
  }

  @Test
  void anOpWithoutAGradientIsNamed() {
    try (Graph g = new Graph()) {
      // TensorFlow defines no gradient for AdjustContrastv2.
      Output x = g.opBuilder("Placeholder", "x").setAttr("dtype", DataType.FLOAT).build().output(0);
      Output y = op(g, "AdjustContrastv2", "contrast", x, constant(g, "factor", 2.0f));
      SgException e = assertThrows(SgException.class,
          () -> g.addGradients(null, new Output[] {y}, new Output[] {x}, null));
      assertTrue(e.getMessage().contains("contrast") && e.getMessage().contains("AdjustContrastv2"),
          e.getMessage());
    }
  }

  @Test
  void anXReachedOnlyThroughStopGradientGetsNull() {
    try (Graph g = new Graph()) {
      Output a = g.opBuilder("Placeholder", "a").setAttr("dtype", DataType.FLOAT).build().output(0);
      Output b = g.opBuilder("Placeholder", "b").setAttr("dtype", DataType.FLOAT).build().output(0);
      Output y = op(g, "AddV2", "y", a, op(g, "StopGradient", "stop", b));
      Output[] grads = g.addGradients(y, new Output[] {a, b});
      assertEquals(DataType.FLOAT, grads[0].dataType());
      assertEquals(null, grads[1]);
    }
  }

  @Test
  void outputsOfAnotherGraphAreRefused() {
    try (Graph g = new Graph(); Graph other = new Graph()) {
      Output x = g.opBuilder("Placeholder", "x").setAttr("dtype", DataType.FLOAT).build().output(0);
      Output y = other.opBuilder("Placeholder", "y").setAttr("dtype", DataType.FLOAT).build().output(0);
      assertThrows(IllegalArgumentException.class, () -> g.addGradients(y, new Output[] {x}));
    }
  }
}
