package org.sg;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A typed, shaped block of native memory: what sessions take and give back.
 *
 * <pre>{@code
 * try (Tensor x = Tensor.create(new float[][] {{1, 2}, {3, 4}})) {
 *   x.shape();                       // [2, 2]
 *   float[][] back = x.copyTo(new float[2][2]);
 * }
 * }</pre>
 *
 * <p>Java arrays map to dtypes by their element type: float FLOAT, double DOUBLE, int INT32,
 * long INT64, short INT16, byte UINT8, boolean BOOL, String STRING (UTF-8); {@link
 * #create(Object, DataType)} picks any other dtype the element type can hold (byte for INT8 and
 * the quantized 8-bit types, float for HALF and BFLOAT16, a trailing dimension of 2 for complex
 * numbers, byte[] elements for binary STRINGs). Ragged arrays and null rows are an
 * IllegalArgumentException before any native memory is taken.
 *
 * <p>Ownership: the creator closes a tensor (or its {@link Session.Result}); the Cleaner frees a
 * forgotten one and logs it. Threads: reads may run concurrently; close must not race other calls.
 */
public final class Tensor implements AutoCloseable {
  private final NativeResource res;
  private final DataType dtype;
  private final long[] shape;

  private Tensor(long handle) {
    res = new NativeResource(this, "Tensor", handle, Native::SG_DeleteTensor);
    dtype = DataType.fromValue(Native.SG_TensorType(handle));
    shape = new long[Native.SG_NumDims(handle)];
    for (int i = 0; i < shape.length; ++i) shape[i] = Native.SG_Dim(handle, i);
  }

  /** Takes ownership of a tensor the C API returned. */
  static Tensor fromHandle(long handle) {
    return new Tensor(handle);
  }

  /** A tensor holding {@code value}: a boxed scalar, a String, or a (nested) Java array. */
  public static Tensor create(Object value) {
    return create(value, defaultType(value));
  }

  /** A tensor of {@code dtype} holding {@code value} (see the class comment for what fits). */
  public static Tensor create(Object value, DataType dtype) {
    if (value == null) throw new IllegalArgumentException("cannot make a tensor of null");
    Layout layout = Layout.of(value, dtype);
    long handle;
    if (dtype == DataType.STRING) {
      List<byte[]> strings = new ArrayList<>();
      layout.forEachRow(value, row -> {
        if (layout.javaRank == 0) {
          strings.add(stringBytes(row));
        } else {
          for (int i = 0, n = Array.getLength(row); i < n; ++i) strings.add(stringBytes(Array.get(row, i)));
        }
      });
      handle = newStringTensor(layout.shape, strings);
    } else {
      long bytes = Math.multiplyExact(layout.numElements(), (long) dtype.byteSize());
      handle = allocate(dtype, layout.shape, bytes);
      ByteBuffer buf = view(handle);
      if (buf != null) layout.forEachRow(value, row -> writeRow(dtype, row, buf));
    }
    return new Tensor(handle);
  }

  /**
   * A tensor of {@code dtype} and {@code shape} holding the bytes remaining in {@code data}: the
   * elements in row-major order and native byte order (for STRING, the C API's encoding).
   */
  public static Tensor create(DataType dtype, long[] shape, ByteBuffer data) {
    long handle = allocate(dtype, shape.clone(), data.remaining());
    ByteBuffer dst = view(handle);
    if (dst != null) dst.put(data.duplicate());
    return new Tensor(handle);
  }

  /** The element type. */
  public DataType dataType() {
    return dtype;
  }

  /** The dimensions (a new array; empty for a scalar). */
  public long[] shape() {
    return shape.clone();
  }

  public int numDimensions() {
    return shape.length;
  }

  public long numElements() {
    long n = 1;
    for (long d : shape) n *= d;
    return n;
  }

  /** The size of the data in bytes (for STRING, of the encoding). */
  public long numBytes() {
    return Native.SG_TensorByteSize(handle());
  }

  public float floatValue() {
    scalar(DataType.FLOAT, DataType.HALF, DataType.BFLOAT16);
    return readFloat(dtype, buffer(), 0);
  }

  public double doubleValue() {
    scalar(DataType.DOUBLE);
    return buffer().getDouble(0);
  }

  public int intValue() {
    scalar(DataType.INT32, DataType.UINT32, DataType.QINT32);
    return buffer().getInt(0);
  }

  public long longValue() {
    scalar(DataType.INT64, DataType.UINT64);
    return buffer().getLong(0);
  }

  public boolean booleanValue() {
    scalar(DataType.BOOL);
    return buffer().get(0) != 0;
  }

  /** The bytes of a scalar STRING. */
  public byte[] bytesValue() {
    scalar(DataType.STRING);
    return strings().get(0);
  }

  /** A scalar STRING decoded as UTF-8. */
  public String stringValue() {
    return new String(bytesValue(), StandardCharsets.UTF_8);
  }

  /**
   * Copies the elements into {@code dst}, a Java array of the tensor's shape whose element type
   * fits the dtype (as for {@link #create(Object, DataType)}), and returns it.
   * IllegalArgumentException when the shape or type does not fit.
   */
  public <T> T copyTo(T dst) {
    if (dst == null) throw new IllegalArgumentException("copyTo: the destination is null");
    Layout layout = Layout.of(dst, dtype, true);
    if (!Arrays.equals(layout.shape, shape)) {
      throw new IllegalArgumentException("copyTo: the destination has shape "
          + Arrays.toString(layout.shape) + ", the tensor " + Arrays.toString(shape));
    }
    if (layout.javaRank == 0) throw new IllegalArgumentException("copyTo needs an array; use "
        + "floatValue(), intValue(), ... for scalars");
    if (dtype == DataType.STRING) {
      List<byte[]> strings = strings();
      int[] next = {0};
      boolean utf8 = layout.leaf == String.class;
      layout.forEachRow(dst, row -> {
        for (int i = 0, n = Array.getLength(row); i < n; ++i) {
          byte[] s = strings.get(next[0]++);
          Array.set(row, i, utf8 ? new String(s, StandardCharsets.UTF_8) : s);
        }
      });
    } else {
      ByteBuffer buf = buffer();
      if (buf != null) layout.forEachRow(dst, row -> readRow(dtype, row, buf));
    }
    return dst;
  }

  /** Copies the raw bytes (native order; for STRING, the encoding) into {@code dst}. */
  public void writeTo(ByteBuffer dst) {
    ByteBuffer buf = buffer();
    if (buf != null) dst.put(buf);
  }

  @Override
  public String toString() {
    return (res.isClosed() ? "closed " : "") + dtype + " tensor with shape " + Arrays.toString(shape);
  }

  /** Frees the native memory (idempotent). The tensor must not be used afterwards. */
  @Override
  public void close() {
    res.close();
  }

  /** The native handle; IllegalStateException once closed. */
  long handle() {
    long h = res.handle();
    if (h == 0) throw new IllegalStateException("the Tensor is closed");
    return h;
  }

  // ---- private helpers ----------------------------------------------------------------------

  private ByteBuffer buffer() {
    ByteBuffer b = view(handle());
    java.lang.ref.Reference.reachabilityFence(this);
    return b;
  }

  private static ByteBuffer view(long handle) {
    ByteBuffer b = Native.sgb_TensorView(handle);
    return b == null ? null : b.order(ByteOrder.nativeOrder());
  }

  private static long allocate(DataType dtype, long[] shape, long bytes) {
    if (dtype.byteSize() < 0 && dtype != DataType.STRING) {
      throw new IllegalArgumentException("cannot make a " + dtype + " tensor from Java values");
    }
    long h = Native.SG_AllocateTensor(dtype.value(), shape, bytes);
    if (h == 0) {
      throw new IllegalArgumentException("cannot allocate a " + dtype + " tensor of shape "
          + Arrays.toString(shape) + " and " + bytes + " bytes");
    }
    return h;
  }

  private void scalar(DataType... accepted) {
    if (shape.length != 0) {
      throw new IllegalStateException("not a scalar: shape " + Arrays.toString(shape));
    }
    for (DataType t : accepted) {
      if (t == dtype) return;
    }
    throw new IllegalStateException("the tensor is " + dtype + ", not " + accepted[0]);
  }

  private static DataType defaultType(Object value) {
    if (value == null) throw new IllegalArgumentException("cannot make a tensor of null");
    Class<?> c = value.getClass();
    while (c.isArray()) c = c.getComponentType();
    c = unboxed(c);
    if (c == float.class) return DataType.FLOAT;
    if (c == double.class) return DataType.DOUBLE;
    if (c == int.class) return DataType.INT32;
    if (c == long.class) return DataType.INT64;
    if (c == short.class) return DataType.INT16;
    if (c == byte.class) return DataType.UINT8;
    if (c == boolean.class) return DataType.BOOL;
    if (c == String.class) return DataType.STRING;
    throw new IllegalArgumentException("no sg dtype holds " + c.getName() + " values");
  }

  private static Class<?> unboxed(Class<?> c) {
    if (c == Float.class) return float.class;
    if (c == Double.class) return double.class;
    if (c == Integer.class) return int.class;
    if (c == Long.class) return long.class;
    if (c == Short.class) return short.class;
    if (c == Byte.class) return byte.class;
    if (c == Boolean.class) return boolean.class;
    return c;
  }

  /** The Java element type that holds `dtype` (byte[] and String both hold STRING). */
  private static Class<?> javaElement(DataType dtype) {
    switch (dtype) {
      case FLOAT: case HALF: case BFLOAT16: case COMPLEX64: return float.class;
      case DOUBLE: case COMPLEX128: return double.class;
      case INT32: case UINT32: case QINT32: return int.class;
      case INT64: case UINT64: return long.class;
      case INT16: case UINT16: case QINT16: case QUINT16: return short.class;
      case INT8: case UINT8: case QINT8: case QUINT8: return byte.class;
      case BOOL: return boolean.class;
      case STRING: return String.class;
      default:
        throw new IllegalArgumentException(dtype + " tensors cannot be made from or read into Java arrays");
    }
  }

  /** The shape of a Java value for a dtype, checked in full (no ragged rows, no nulls). */
  private static final class Layout {
    final int javaRank;  // array dimensions down to the element rows
    final long[] shape;  // the tensor's shape
    final Class<?> leaf;
    private final int[] javaDims;

    private Layout(int javaRank, int[] javaDims, long[] shape, Class<?> leaf) {
      this.javaRank = javaRank;
      this.javaDims = javaDims;
      this.shape = shape;
      this.leaf = leaf;
    }

    long numElements() {
      long n = 1;
      for (long d : shape) n = Math.multiplyExact(n, d);
      return n;
    }

    static Layout of(Object value, DataType dtype) {
      return of(value, dtype, false);
    }

    /** `nullLeaves`: a copyTo destination, whose String or byte[] elements are still to come. */
    static Layout of(Object value, DataType dtype, boolean nullLeaves) {
      Class<?> want = javaElement(dtype);
      boolean complex = dtype == DataType.COMPLEX64 || dtype == DataType.COMPLEX128;
      Class<?> c = value.getClass();
      int rank = 0;
      while (c.isArray() && !(dtype == DataType.STRING && c == byte[].class)) {
        c = c.getComponentType();
        ++rank;
      }
      Class<?> leaf = rank == 0 ? unboxed(c) : c;
      boolean fits = leaf == want || (dtype == DataType.STRING && leaf == byte[].class);
      if (!fits) {
        throw new IllegalArgumentException("a " + dtype + " tensor takes " + want.getName()
            + " elements, not " + leaf.getName());
      }
      int[] dims = new int[rank];
      Object cur = value;
      for (int d = 0; d < rank; ++d) {
        int n = Array.getLength(cur);
        dims[d] = n;
        if (n == 0) break;
        if (d + 1 < rank) {
          cur = Array.get(cur, 0);
          if (cur == null) throw new IllegalArgumentException("null row at " + path(d + 1, 0));
        }
      }
      check(value, 0, dims, nullLeaves ? null : leaf, new int[rank]);
      if (complex && (rank == 0 || dims[rank - 1] != 2)) {
        throw new IllegalArgumentException(dtype + " needs a last Java dimension of 2 (real, imaginary)");
      }
      long[] shape = new long[complex ? rank - 1 : rank];
      for (int d = 0; d < shape.length; ++d) shape[d] = dims[d];
      return new Layout(rank, dims, shape, leaf);
    }

    private static void check(Object v, int depth, int[] dims, Class<?> leaf, int[] index) {
      if (depth == dims.length) {
        if (v == null) throw new IllegalArgumentException("null element at " + path(index, depth));
        return;
      }
      int n = Array.getLength(v);
      if (n != dims[depth]) {
        throw new IllegalArgumentException("ragged array: the row at " + path(index, depth)
            + " has " + n + " elements, the first row at that depth has " + dims[depth]);
      }
      boolean objects = depth + 1 < dims.length || (leaf != null && !leaf.isPrimitive());
      if (!objects) return;
      for (int i = 0; i < n; ++i) {
        Object e = Array.get(v, i);
        index[depth] = i;
        if (e == null) {
          throw new IllegalArgumentException((depth + 1 < dims.length ? "null row at " : "null element at ")
              + path(index, depth + 1));
        }
        if (depth + 1 < dims.length) check(e, depth + 1, dims, leaf, index);
      }
    }

    private static String path(int depth, int unused) {
      return path(new int[depth], depth);  // the first row at each level
    }

    private static String path(int[] index, int depth) {
      StringBuilder b = new StringBuilder();
      for (int d = 0; d < depth; ++d) b.append('[').append(index[d]).append(']');
      return depth == 0 ? "the top level" : b.toString();
    }

    /** Calls `f` on each innermost Java array (or on the scalar itself), row-major. */
    void forEachRow(Object value, Consumer<Object> f) {
      if (javaRank == 0) {
        f.accept(value);
        return;
      }
      if (numJavaElements() == 0) return;
      if (leaf.isPrimitive() && shape.length < javaRank && javaRank == 1) {
        f.accept(new Object[] {value});  // a complex scalar: one (real, imaginary) pair
        return;
      }
      visit(value, 0, f);
    }

    private long numJavaElements() {
      long n = 1;
      for (int d : javaDims) n *= d;
      return n;
    }

    private void visit(Object v, int depth, Consumer<Object> f) {
      boolean complexRows = leaf.isPrimitive() && shape.length < javaRank;
      int rowDepth = complexRows ? javaRank - 2 : javaRank - 1;
      if (depth == rowDepth) {
        f.accept(v);
        return;
      }
      for (int i = 0, n = Array.getLength(v); i < n; ++i) visit(Array.get(v, i), depth + 1, f);
    }
  }

  private static void writeRow(DataType dtype, Object row, ByteBuffer buf) {
    switch (dtype) {
      case FLOAT:
        if (row instanceof float[]) {
          float[] a = (float[]) row;
          buf.asFloatBuffer().put(a);
          buf.position(buf.position() + 4 * a.length);
        } else {
          buf.putFloat((Float) row);
        }
        return;
      case DOUBLE:
        if (row instanceof double[]) {
          double[] a = (double[]) row;
          buf.asDoubleBuffer().put(a);
          buf.position(buf.position() + 8 * a.length);
        } else {
          buf.putDouble((Double) row);
        }
        return;
      case INT32: case UINT32: case QINT32:
        if (row instanceof int[]) {
          int[] a = (int[]) row;
          buf.asIntBuffer().put(a);
          buf.position(buf.position() + 4 * a.length);
        } else {
          buf.putInt((Integer) row);
        }
        return;
      case INT64: case UINT64:
        if (row instanceof long[]) {
          long[] a = (long[]) row;
          buf.asLongBuffer().put(a);
          buf.position(buf.position() + 8 * a.length);
        } else {
          buf.putLong((Long) row);
        }
        return;
      case INT16: case UINT16: case QINT16: case QUINT16:
        if (row instanceof short[]) {
          short[] a = (short[]) row;
          buf.asShortBuffer().put(a);
          buf.position(buf.position() + 2 * a.length);
        } else {
          buf.putShort((Short) row);
        }
        return;
      case INT8: case UINT8: case QINT8: case QUINT8:
        if (row instanceof byte[]) {
          buf.put((byte[]) row);
        } else {
          buf.put((Byte) row);
        }
        return;
      case BOOL:
        if (row instanceof boolean[]) {
          for (boolean b : (boolean[]) row) buf.put((byte) (b ? 1 : 0));
        } else {
          buf.put((byte) ((Boolean) row ? 1 : 0));
        }
        return;
      case HALF: case BFLOAT16:
        if (row instanceof float[]) {
          for (float f : (float[]) row) buf.putShort(dtype == DataType.HALF ? floatToHalf(f) : floatToBfloat16(f));
        } else {
          float f = (Float) row;
          buf.putShort(dtype == DataType.HALF ? floatToHalf(f) : floatToBfloat16(f));
        }
        return;
      case COMPLEX64: {  // rows are the float[] of one element's pairs' parent: float[n][2]
        for (Object pair : (Object[]) row) {
          float[] p = (float[]) pair;
          buf.putFloat(p[0]).putFloat(p[1]);
        }
        return;
      }
      case COMPLEX128: {
        for (Object pair : (Object[]) row) {
          double[] p = (double[]) pair;
          buf.putDouble(p[0]).putDouble(p[1]);
        }
        return;
      }
      default:
        throw new IllegalArgumentException("cannot write " + dtype + " from Java values");
    }
  }

  private static void readRow(DataType dtype, Object row, ByteBuffer buf) {
    switch (dtype) {
      case FLOAT: {
        float[] a = (float[]) row;
        buf.asFloatBuffer().get(a);
        buf.position(buf.position() + 4 * a.length);
        return;
      }
      case DOUBLE: {
        double[] a = (double[]) row;
        buf.asDoubleBuffer().get(a);
        buf.position(buf.position() + 8 * a.length);
        return;
      }
      case INT32: case UINT32: case QINT32: {
        int[] a = (int[]) row;
        buf.asIntBuffer().get(a);
        buf.position(buf.position() + 4 * a.length);
        return;
      }
      case INT64: case UINT64: {
        long[] a = (long[]) row;
        buf.asLongBuffer().get(a);
        buf.position(buf.position() + 8 * a.length);
        return;
      }
      case INT16: case UINT16: case QINT16: case QUINT16: {
        short[] a = (short[]) row;
        buf.asShortBuffer().get(a);
        buf.position(buf.position() + 2 * a.length);
        return;
      }
      case INT8: case UINT8: case QINT8: case QUINT8:
        buf.get((byte[]) row);
        return;
      case BOOL: {
        boolean[] a = (boolean[]) row;
        for (int i = 0; i < a.length; ++i) a[i] = buf.get() != 0;
        return;
      }
      case HALF: case BFLOAT16: {
        float[] a = (float[]) row;
        for (int i = 0; i < a.length; ++i) {
          short s = buf.getShort();
          a[i] = dtype == DataType.HALF ? halfToFloat(s) : bfloat16ToFloat(s);
        }
        return;
      }
      case COMPLEX64:
        for (Object pair : (Object[]) row) {
          float[] p = (float[]) pair;
          p[0] = buf.getFloat();
          p[1] = buf.getFloat();
        }
        return;
      case COMPLEX128:
        for (Object pair : (Object[]) row) {
          double[] p = (double[]) pair;
          p[0] = buf.getDouble();
          p[1] = buf.getDouble();
        }
        return;
      default:
        throw new IllegalArgumentException("cannot read " + dtype + " into Java values");
    }
  }

  private static float readFloat(DataType dtype, ByteBuffer buf, int at) {
    if (dtype == DataType.HALF) return halfToFloat(buf.getShort(at));
    if (dtype == DataType.BFLOAT16) return bfloat16ToFloat(buf.getShort(at));
    return buf.getFloat(at);
  }

  // ---- STRING: made and read by the C API (SG_NewStringTensor, SG_StringTensorGet). ----------

  private static byte[] stringBytes(Object s) {
    return s instanceof String ? ((String) s).getBytes(StandardCharsets.UTF_8) : (byte[]) s;
  }

  /** A new STRING tensor of {@code shape} holding {@code strings}, row-major. */
  private static long newStringTensor(long[] shape, List<byte[]> strings) {
    long total = 0;
    long[] lengths = new long[strings.size()];
    for (int i = 0; i < lengths.length; ++i) {
      lengths[i] = strings.get(i).length;
      total += lengths[i];
    }
    if (total > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("the strings hold " + total + " bytes, more than a Java "
          + "array can pass");
    }
    byte[] all = new byte[(int) total];
    int at = 0;
    for (byte[] b : strings) {
      System.arraycopy(b, 0, all, at, b.length);
      at += b.length;
    }
    return Native.sgb_NewStringTensor(shape, all, lengths);
  }

  /** The elements of this STRING tensor, row-major, copied (InvalidArgumentException if bad). */
  private List<byte[]> strings() {
    long h = handle();
    long n = numElements();
    List<byte[]> out = new ArrayList<>();
    for (long i = 0; i < n; ++i) {
      ByteBuffer view = Native.sgb_StringTensorGet(h, i);
      byte[] b = new byte[view == null ? 0 : view.remaining()];
      if (view != null) view.get(b);
      out.add(b);
    }
    java.lang.ref.Reference.reachabilityFence(this);
    return out;
  }

  // ---- 16-bit floats, rounded to nearest even. ----------------------------------------------

  static short floatToHalf(float f) {
    int x = Float.floatToRawIntBits(f);
    int sign = (x >>> 16) & 0x8000;
    int exp = (x >>> 23) & 0xff;
    int mant = x & 0x7fffff;
    if (exp == 0xff) return (short) (sign | 0x7c00 | (mant != 0 ? 0x200 | (mant >>> 13) : 0));
    int e = exp - 127 + 15;
    if (e >= 0x1f) return (short) (sign | 0x7c00);
    if (e <= 0) {
      if (e < -10) return (short) sign;
      mant |= 0x800000;
      int shift = 14 - e;
      int half = mant >>> shift;
      int rem = mant & ((1 << shift) - 1);
      int mid = 1 << (shift - 1);
      if (rem > mid || (rem == mid && (half & 1) != 0)) ++half;
      return (short) (sign | half);
    }
    int half = (e << 10) | (mant >>> 13);
    int rem = mant & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (half & 1) != 0)) ++half;
    return (short) (sign | half);
  }

  static float halfToFloat(short h) {
    int s = (h & 0x8000) << 16;
    int e = (h >>> 10) & 0x1f;
    int m = h & 0x3ff;
    if (e == 0) {
      float v = m * 0x1p-24f;
      return s != 0 ? -v : v;
    }
    if (e == 31) return Float.intBitsToFloat(s | 0x7f800000 | (m << 13));
    return Float.intBitsToFloat(s | ((e - 15 + 127) << 23) | (m << 13));
  }

  static short floatToBfloat16(float f) {
    int x = Float.floatToRawIntBits(f);
    if (Float.isNaN(f)) return (short) ((x >>> 16) | 0x40);
    int rounding = 0x7fff + ((x >>> 16) & 1);
    return (short) ((x + rounding) >>> 16);
  }

  static float bfloat16ToFloat(short b) {
    return Float.intBitsToFloat((b & 0xffff) << 16);
  }
}
