package org.sg;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Test files: tests/testdata (always there) and ../shared/testdata/tf_graphs (may be absent). */
final class TestData {
  private TestData() {}

  static Path testdata(String name) {
    return Path.of(System.getProperty("sg.testdata", "tests/testdata")).resolve(name);
  }

  /** A file of the shared real graphs; skips the test (Assumptions) when they are absent. */
  static Path shared(String name) {
    Path p = Path.of(System.getProperty("sg.shared", "../shared/testdata/tf_graphs")).resolve(name);
    assumeTrue(Files.exists(p), "shared test data absent: " + p);
    return p;
  }

  /** A little-endian float32 or int32 .npy file of rank 1 or 2, as a flat array and its shape. */
  static final class Npy {
    final String descr;
    final int[] shape;
    final ByteBuffer data;

    Npy(String descr, int[] shape, ByteBuffer data) {
      this.descr = descr;
      this.shape = shape;
      this.data = data;
    }

    float[][] floats2d() {
      if (!descr.equals("<f4") || shape.length != 2) throw new IllegalStateException(descr);
      float[][] out = new float[shape[0]][shape[1]];
      ByteBuffer d = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      for (float[] row : out) {
        for (int j = 0; j < row.length; ++j) row[j] = d.getFloat();
      }
      return out;
    }

    float[] floats() {
      if (!descr.equals("<f4") || shape.length != 1) throw new IllegalStateException(descr);
      float[] out = new float[shape[0]];
      data.duplicate().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
      return out;
    }

    int[][] ints2d() {
      if (!descr.equals("<i4") || shape.length != 2) throw new IllegalStateException(descr);
      int[][] out = new int[shape[0]][shape[1]];
      java.nio.IntBuffer d = data.duplicate().order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
      for (int[] row : out) d.get(row);
      return out;
    }

    int[] ints() {
      if (!descr.equals("<i4") || shape.length != 1) throw new IllegalStateException(descr);
      int[] out = new int[shape[0]];
      data.duplicate().order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
      return out;
    }
  }

  static Npy npy(Path file) throws IOException {
    byte[] all = Files.readAllBytes(file);
    ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
    int major = all[6];
    int headerLen = major == 1 ? (b.getShort(8) & 0xffff) : b.getInt(8);
    int start = major == 1 ? 10 : 12;
    String header = new String(all, start, headerLen, StandardCharsets.US_ASCII);
    String descr = header.replaceAll(".*'descr': '([^']*)'.*", "$1").trim();
    String dims = header.replaceAll(".*'shape': \\(([^)]*)\\).*", "$1").trim();
    String[] parts = dims.split(",");
    int n = 0;
    for (String p : parts) if (!p.trim().isEmpty()) ++n;
    int[] shape = new int[n];
    int k = 0;
    for (String p : parts) if (!p.trim().isEmpty()) shape[k++] = Integer.parseInt(p.trim());
    ByteBuffer data = ByteBuffer.wrap(all, start + headerLen, all.length - start - headerLen).slice()
        .order(ByteOrder.LITTLE_ENDIAN);
    return new Npy(descr, shape, data);
  }

  static byte[] gunzip(Path file) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  static int argmax(float[] v) {
    int best = 0;
    for (int i = 1; i < v.length; ++i) if (v[i] > v[best]) best = i;
    return best;
  }
}
