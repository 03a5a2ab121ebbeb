package org.sg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Attribute readers on conv_net.pb (tests/testdata/README.md and make_testdata.py give each
 * value below) and on operations built here.
 */
class AttrTest {
  @Test
  void convNetAttrsAreTheOnesTheGraphWasMadeWith() throws Exception {
    try (Graph g = new Graph()) {
      g.importGraphDef(TestData.testdata("conv_net.pb"));
      Operation conv3 = g.operation("conv3/Conv2D");
      assertArrayEquals(new long[] {1, 2, 2, 1}, conv3.attrIntList("strides"));
      assertArrayEquals(new long[] {1, 1, 1, 1}, conv3.attrIntList("dilations"));
      assertArrayEquals(new long[0], conv3.attrIntList("explicit_paddings"));
      assertEquals("SAME", conv3.attrString("padding"));
      assertEquals("NHWC", conv3.attrString("data_format"));
      assertTrue(conv3.attrBool("use_cudnn_on_gpu"));
      assertEquals(DataType.FLOAT, conv3.attrType("T"));
      assertEquals("VALID", g.operation("conv2/Conv2D").attrString("padding"));

      AttrMetadata strides = conv3.attrMetadata("strides");
      assertTrue(strides.isList());
      assertEquals(4, strides.listSize());
      assertEquals(AttrMetadata.Kind.INT, strides.kind());
      AttrMetadata padding = conv3.attrMetadata("padding");
      assertFalse(padding.isList());
      assertEquals(AttrMetadata.Kind.STRING, padding.kind());
      assertEquals(4, padding.totalSize());

      Operation bn = g.operation("bn/FusedBatchNormV3");
      assertEquals(0.001f, bn.attrFloat("epsilon"));
      assertFalse(bn.attrBool("is_training"));
      assertArrayEquals(new long[] {1, 2, 2, 1}, g.operation("maxpool").attrIntList("ksize"));
      assertEquals(2, g.operation("concat").attrInt("N"));

      Operation input = g.operation("input");
      assertArrayEquals(new long[] {-1, 8, 8, 1}, input.attrShape("shape"));
      assertEquals(4, input.attrMetadata("shape").totalSize());

      try (Tensor shape = g.operation("flatten/shape").attrTensor("value");
           Tensor axis = g.operation("concat/axis").attrTensor("value")) {
        assertEquals(DataType.INT32, shape.dataType());
        assertArrayEquals(new int[] {-1, 40}, shape.copyTo(new int[2]));
        assertEquals(0, axis.numDimensions());
        assertEquals(3, axis.intValue());
      }
    }
  }

  @Test
  void listsOfTypesShapesFloatsAndStrings() {
    try (Graph g = new Graph();
         Tensor x = Tensor.create(new float[] {0.5f});
         Tensor matrix = Tensor.create(new float[][] {{0.5f}})) {
      Operation q = g.opBuilder("FIFOQueueV2", "q")
          .setAttr("component_types", new DataType[] {DataType.FLOAT, DataType.INT64})
          .setAttrShapeList("shapes", new long[][] {{2, 3}, null, {}})
          .setAttr("shared_name", "shared queue")
          .build();
      assertArrayEquals(new DataType[] {DataType.FLOAT, DataType.INT64}, q.attrTypeList("component_types"));
      long[][] shapes = q.attrShapeList("shapes");
      assertEquals(3, shapes.length);
      assertArrayEquals(new long[] {2, 3}, shapes[0]);
      assertNull(shapes[1]);
      assertArrayEquals(new long[0], shapes[2]);
      assertEquals(-1, q.attrInt("capacity"));  // the OpDef's default, filled in
      assertEquals("shared queue", q.attrString("shared_name"));
      assertEquals("", q.attrString("container"));

      Output in = g.opBuilder("Const", "x").setAttr("dtype", DataType.FLOAT).setAttr("value", x).build().output(0);
      Operation bucketize = g.opBuilder("Bucketize", "b").addInput(in)
          .setAttr("boundaries", new float[] {-1.5f, 0f, 2.25f}).build();
      assertArrayEquals(new float[] {-1.5f, 0f, 2.25f}, bucketize.attrFloatList("boundaries"));

      Output m = g.opBuilder("Const", "m").setAttr("dtype", DataType.FLOAT).setAttr("value", matrix)
          .build().output(0);
      Operation fused = g.opBuilder("_FusedMatMul", "fm").addInput(m).addInput(m)
          .addInputList(new Output[0]).setAttr("num_args", 0L)
          .setAttr("fused_ops", new String[] {"BiasAdd", "Relu"}).build();
      assertArrayEquals(new String[] {"BiasAdd", "Relu"}, fused.attrStringList("fused_ops"));
    }
  }

  @Test
  void missingAttrIsNotFoundAndWrongKindInvalidArgument() throws Exception {
    try (Graph g = new Graph()) {
      g.importGraphDef(TestData.testdata("conv_net.pb"));
      Operation conv = g.operation("conv1/Conv2D");
      NotFoundException missing = assertThrows(NotFoundException.class, () -> conv.attrInt("no_such_attr"));
      assertEquals(Code.NOT_FOUND, missing.code());
      assertTrue(missing.getMessage().contains("no_such_attr"), missing.getMessage());
      assertThrows(NotFoundException.class, () -> conv.attrMetadata("no_such_attr"));
      assertThrows(NotFoundException.class, () -> conv.attrIntList("no_such_attr"));
      assertThrows(NotFoundException.class, () -> conv.attrShape("no_such_attr"));

      InvalidArgumentException kind = assertThrows(InvalidArgumentException.class, () -> conv.attrInt("padding"));
      assertEquals(Code.INVALID_ARGUMENT, kind.code());
      assertThrows(InvalidArgumentException.class, () -> conv.attrString("strides"));
      assertThrows(InvalidArgumentException.class, () -> conv.attrIntList("padding"));
      assertThrows(InvalidArgumentException.class, () -> conv.attrShape("T"));
      assertThrows(InvalidArgumentException.class, () -> conv.attrTensor("T"));
      assertThrows(InvalidArgumentException.class, () -> conv.attrFloatList("strides"));
      assertThrows(InvalidArgumentException.class, () -> conv.attrStringList("strides"));
      assertThrows(InvalidArgumentException.class, () -> conv.attrShapeList("strides"));
      assertThrows(InvalidArgumentException.class, () -> conv.attrInt(null));
    }
  }
}
