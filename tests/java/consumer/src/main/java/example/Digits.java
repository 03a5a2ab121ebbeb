package example;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sg.Graph;
import org.sg.Session;
import org.sg.Tensor;

/**
 * The digits classifier (tests/testdata/digits_mlp.pb) on its 360 held-out samples through sg's
 * Maven artifact: every probability within 1e-5 of TensorFlow's (digits_tf_probs.npy), the same
 * predicted class as TensorFlow's for each sample, and 354 correct (expected.json's test_correct).
 * Also checks that libsg was loaded from the directory the jar's libraries are extracted to.
 * Exits with status 1 and a message on the first difference.
 */
public final class Digits {
  public static void main(String[] args) throws Exception {
    Path data = Path.of(System.getProperty("sg.testdata"));
    float[][] x = floats2d(data.resolve("digits_test_x.npy"), 360, 64);
    float[][] tf = floats2d(data.resolve("digits_tf_probs.npy"), 360, 10);
    int[] y = ints(data.resolve("digits_test_y.npy"), 360);

    float[][] p;
    try (Graph g = new Graph()) {
      g.importGraphDef(data.resolve("digits_mlp.pb"));
      try (Session s = new Session(g);
           Tensor in = Tensor.create(x);
           Session.Result r = s.runner().feed("input:0", in).fetch("probs:0").run()) {
        p = r.get(0).copyTo(new float[360][10]);
      }
    }
    int correct = 0;
    StringBuilder first = new StringBuilder();
    for (int i = 0; i < 360; ++i) {
      for (int j = 0; j < 10; ++j) {
        if (!(Math.abs(p[i][j] - tf[i][j]) <= 1e-5f)) {
          fail("probs[" + i + "][" + j + "] = " + p[i][j] + ", TensorFlow's " + tf[i][j]);
        }
      }
      int ours = argmax(p[i]);
      if (ours != argmax(tf[i])) fail("sample " + i + ": class " + ours + ", TensorFlow's " + argmax(tf[i]));
      if (ours == y[i]) ++correct;
      if (i < 10) first.append(i == 0 ? "" : " ").append(ours);
    }
    if (correct != 354) fail(correct + " of 360 correct, TensorFlow's model has 354");

    String libsg = mapped("libsg.so.1");
    String dir = System.getProperty("sg.native.dir", "");
    if (libsg == null || dir.isEmpty() || !libsg.startsWith(dir + "/")) {
      fail("libsg.so.1 was loaded from " + libsg + ", not from the jar's extraction under " + dir);
    }
    System.out.println("digits: 360 samples as TensorFlow, 354 correct; first ten classes " + first
        + "; libsg from " + libsg);
  }

  /** The path of the mapped file named {@code name} in /proc/self/maps, or null. */
  private static String mapped(String name) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
      int slash = line.indexOf('/');
      if (slash >= 0 && line.endsWith("/" + name)) return line.substring(slash);
    }
    return null;
  }

  private static int argmax(float[] v) {
    int best = 0;
    for (int i = 1; i < v.length; ++i) if (v[i] > v[best]) best = i;
    return best;
  }

  private static void fail(String msg) {
    System.err.println("digits: FAILED: " + msg);
    System.exit(1);
  }

  /** The data of a version-1 .npy file after checking its header's dtype and shape. */
  private static ByteBuffer npy(Path file, String descr, String shape) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    int headerLen = b.getShort(8) & 0xffff;
    String header = new String(b.array(), 10, headerLen, java.nio.charset.StandardCharsets.US_ASCII);
    if (!header.contains("'descr': '" + descr + "'") || !header.contains("'shape': " + shape)
        || !header.contains("'fortran_order': False")) {
      throw new IOException(file + ": header " + header.trim() + ", expected " + descr + " " + shape);
    }
    b.position(10 + headerLen);
    return b.slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  private static float[][] floats2d(Path file, int rows, int cols) throws IOException {
    ByteBuffer b = npy(file, "<f4", "(" + rows + ", " + cols + ")");
    float[][] out = new float[rows][cols];
    for (int i = 0; i < rows; ++i) for (int j = 0; j < cols; ++j) out[i][j] = b.getFloat();
    return out;
  }

  private static int[] ints(Path file, int n) throws IOException {
    ByteBuffer b = npy(file, "<i4", "(" + n + ",)");
    int[] out = new int[n];
    for (int i = 0; i < n; ++i) out[i] = b.getInt();
    return out;
  }
}
