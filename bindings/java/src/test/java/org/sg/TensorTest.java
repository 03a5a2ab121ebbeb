package org.sg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TensorTest {
  @Test
  void scalarsOfEveryJavaTypeRoundTrip() {
    try (Tensor t = Tensor.create(1.5f)) {
      assertEquals(DataType.FLOAT, t.dataType());
      assertEquals(0, t.numDimensions());
      assertEquals(1.5f, t.floatValue());
    }
    try (Tensor t = Tensor.create(-2.25)) {
      assertEquals(-2.25, t.doubleValue());
    }
    try (Tensor t = Tensor.create(7)) {
      assertEquals(DataType.INT32, t.dataType());
      assertEquals(7, t.intValue());
    }
    try (Tensor t = Tensor.create(1L << 40)) {
      assertEquals(1L << 40, t.longValue());
    }
    try (Tensor t = Tensor.create(true)) {
      assertTrue(t.booleanValue());
    }
    try (Tensor t = Tensor.create("héllo")) {
      assertEquals(DataType.STRING, t.dataType());
      assertEquals("héllo", t.stringValue());
    }
    try (Tensor t = Tensor.create(new byte[] {0, 1, (byte) 255}, DataType.STRING)) {
      assertArrayEquals(new byte[] {0, 1, (byte) 255}, t.bytesValue());
    }
  }

  @Test
  void arraysOfEveryDtypeRoundTrip() {
    float[][] f = {{1, 2, 3}, {4, 5, 6}};
    try (Tensor t = Tensor.create(f)) {
      assertArrayEquals(new long[] {2, 3}, t.shape());
      assertEquals(24, t.numBytes());
      assertArrayEquals(f, t.copyTo(new float[2][3]));
    }
    double[][][] d = {{{1}, {2}}, {{3}, {4}}};
    try (Tensor t = Tensor.create(d)) {
      assertArrayEquals(new long[] {2, 2, 1}, t.shape());
      assertArrayEquals(d, t.copyTo(new double[2][2][1]));
    }
    for (DataType dt : new DataType[] {DataType.INT32, DataType.UINT32, DataType.QINT32}) {
      try (Tensor t = Tensor.create(new int[] {1, -2, 3}, dt)) {
        assertEquals(dt, t.dataType());
        assertArrayEquals(new int[] {1, -2, 3}, t.copyTo(new int[3]));
      }
    }
    for (DataType dt : new DataType[] {DataType.INT64, DataType.UINT64}) {
      try (Tensor t = Tensor.create(new long[] {Long.MIN_VALUE, 5}, dt)) {
        assertArrayEquals(new long[] {Long.MIN_VALUE, 5}, t.copyTo(new long[2]));
      }
    }
    for (DataType dt : new DataType[] {DataType.INT16, DataType.UINT16, DataType.QINT16, DataType.QUINT16}) {
      try (Tensor t = Tensor.create(new short[][] {{1}, {-1}}, dt)) {
        assertArrayEquals(new short[][] {{1}, {-1}}, t.copyTo(new short[2][1]));
      }
    }
    for (DataType dt : new DataType[] {DataType.INT8, DataType.UINT8, DataType.QINT8, DataType.QUINT8}) {
      try (Tensor t = Tensor.create(new byte[] {1, (byte) 200}, dt)) {
        assertEquals(dt, t.dataType());
        assertArrayEquals(new byte[] {1, (byte) 200}, t.copyTo(new byte[2]));
      }
    }
    try (Tensor t = Tensor.create(new boolean[] {true, false})) {
      assertEquals(DataType.BOOL, t.dataType());
      assertArrayEquals(new boolean[] {true, false}, t.copyTo(new boolean[2]));
    }
    try (Tensor t = Tensor.create(new float[] {1.5f, -0.25f, 65504f}, DataType.HALF)) {
      assertEquals(6, t.numBytes());
      assertArrayEquals(new float[] {1.5f, -0.25f, 65504f}, t.copyTo(new float[3]));
    }
    try (Tensor t = Tensor.create(new float[] {1.5f, -3f}, DataType.BFLOAT16)) {
      assertArrayEquals(new float[] {1.5f, -3f}, t.copyTo(new float[2]));
    }
    float[][] c = {{1, 2}, {3, -4}};
    try (Tensor t = Tensor.create(c, DataType.COMPLEX64)) {
      assertArrayEquals(new long[] {2}, t.shape());
      assertArrayEquals(c, t.copyTo(new float[2][2]));
    }
    double[][][] c2 = {{{1, 2}}, {{3, 4}}};
    try (Tensor t = Tensor.create(c2, DataType.COMPLEX128)) {
      assertArrayEquals(new long[] {2, 1}, t.shape());
      assertArrayEquals(c2, t.copyTo(new double[2][1][2]));
    }
    String[][] s = {{"a", ""}, {"ccc", "dd"}};
    try (Tensor t = Tensor.create(s)) {
      assertArrayEquals(new long[] {2, 2}, t.shape());
      assertArrayEquals(s, t.copyTo(new String[2][2]));
    }
  }

  @Test
  void rawBytesMakeAnyDtype() {
    ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
    b.putFloat(3f).putFloat(4f).flip();
    try (Tensor t = Tensor.create(DataType.FLOAT, new long[] {2}, b)) {
      assertArrayEquals(new float[] {3, 4}, t.copyTo(new float[2]));
    }
    assertThrows(IllegalArgumentException.class,
        () -> Tensor.create(DataType.FLOAT, new long[] {3}, ByteBuffer.allocate(8)));
  }

  @Test
  void stringsKeepEveryByte() {
    String[] s = {"", "a\0b", "x".repeat(300)};
    try (Tensor t = Tensor.create(s)) {
      // The C API's layout: 3 offsets, then varint lengths (300 takes two bytes) and the bytes.
      assertEquals(3 * 8 + (1 + 0) + (1 + 3) + (2 + 300), t.numBytes());
      assertArrayEquals(s, t.copyTo(new String[3]));
    }
    byte[][] b = {{}, {0, 0}, {(byte) 0xff}};
    try (Tensor t = Tensor.create(b, DataType.STRING)) {
      assertArrayEquals(b, t.copyTo(new byte[3][]));
    }
    try (Tensor t = Tensor.create(new String[2][0])) {
      assertArrayEquals(new long[] {2, 0}, t.shape());
      assertEquals(0, t.numBytes());
      assertArrayEquals(new String[2][0], t.copyTo(new String[2][0]));
    }
  }

  @Test
  void aCorruptStringTensorIsAnInvalidArgumentNotACrash() {
    // One element whose offset (5) points past its one data byte.
    ByteBuffer b = ByteBuffer.allocate(9).order(ByteOrder.nativeOrder());
    b.putLong(5).put((byte) 0).flip();
    try (Tensor t = Tensor.create(DataType.STRING, new long[] {}, b)) {
      InvalidArgumentException e = assertThrows(InvalidArgumentException.class, t::stringValue);
      assertTrue(e.getMessage().contains("offset 5"), e.getMessage());
    }
  }

  @Test
  void aNullRowIsAnExceptionNotACrash() {
    float[][] x = {{1, 2}, null, {3, 4}};
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tensor.create(x));
    assertTrue(e.getMessage().contains("null row at [1]"), e.getMessage());
    float[][] first = {null, {1}};
    assertThrows(IllegalArgumentException.class, () -> Tensor.create(first));
    assertThrows(IllegalArgumentException.class, () -> Tensor.create(new String[] {"a", null}));
  }

  @Test
  void aRaggedArrayIsAnIllegalArgument() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.create(new float[][] {{1, 2}, {3}}));
    assertTrue(e.getMessage().contains("ragged"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> Tensor.create(new int[][][] {{{1}, {2}}, {{3}}}));
  }

  @Test
  void mismatchedTypesAndShapesAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> Tensor.create(new int[] {1}, DataType.FLOAT));
    assertThrows(IllegalArgumentException.class, () -> Tensor.create(new Object()));
    assertThrows(IllegalArgumentException.class, () -> Tensor.create(new float[] {1}, DataType.RESOURCE));
    try (Tensor t = Tensor.create(new float[] {1, 2})) {
      assertThrows(IllegalArgumentException.class, () -> t.copyTo(new float[3]));
      assertThrows(IllegalArgumentException.class, () -> t.copyTo(new int[2]));
      assertThrows(IllegalStateException.class, t::floatValue);
      t.close();
      assertThrows(IllegalStateException.class, () -> t.copyTo(new float[2]));
      t.close();  // idempotent
    }
  }

  @Test
  void graphDefFromAFileAndTheVersion() throws Exception {
    assertTrue(Sg.version().matches("\\d+\\.\\d+\\.\\d+"), Sg.version());
    try (Graph g = new Graph()) {
      g.importGraphDef(Files.readAllBytes(TestData.testdata("digits_mlp.pb")));
      assertEquals("Placeholder", g.operation("input").type());
      assertEquals(null, g.operation("no such op"));
    }
    try (Graph g = new Graph()) {
      assertThrows(java.io.IOException.class, () -> g.importGraphDef(Path.of("/no/such/file.pb")));
    }
  }
}
