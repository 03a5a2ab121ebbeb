package org.sg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Partial runs: one step in several calls, values kept between them. */
class PartialRunTest {
  /** sum = a + b, product = sum * c; every input a float placeholder. */
  static Graph sumTimesC() {
    Graph g = new Graph();
    Output a = g.opBuilder("Placeholder", "a").setAttr("dtype", DataType.FLOAT).build().output(0);
    Output b = g.opBuilder("Placeholder", "b").setAttr("dtype", DataType.FLOAT).build().output(0);
    Output c = g.opBuilder("Placeholder", "c").setAttr("dtype", DataType.FLOAT).build().output(0);
    Output sum = g.opBuilder("AddV2", "sum").addInput(a).addInput(b).build().output(0);
    g.opBuilder("Mul", "product").addInput(sum).addInput(c).build();
    return g;
  }

  @Test
  void sumThenProductInTwoCallsGivesTheNumbersWrittenDown() {
    try (Graph g = sumTimesC();
         Session s = new Session(g);
         Tensor a = Tensor.create(new float[] {1, 2});
         Tensor b = Tensor.create(new float[] {10, 20});
         Tensor c = Tensor.create(new float[] {2, 3});
         PartialRun pr = s.partialRun(
             List.of(g.output("a"), g.output("b"), g.output("c")),
             List.of(g.output("sum"), g.output("product")), List.of())) {
      try (Session.Result r = pr.runner().feed("a", a).feed("b", b).fetch("sum").run()) {
        assertArrayEquals(new float[] {11, 22}, r.get(0).copyTo(new float[2]));
      }
      // product needs sum, computed by the first call from a and b, which are not fed again.
      try (Session.Result r = pr.runner().feed("c", c).fetch("product").run()) {
        assertArrayEquals(new float[] {22, 66}, r.get(0).copyTo(new float[2]));
      }
    }
  }

  @Test
  void undeclaredFeedReusedFetchAndClosedRunAreInvalidArgument() {
    try (Graph g = sumTimesC();
         Session s = new Session(g);
         Tensor a = Tensor.create(new float[] {1});
         Tensor b = Tensor.create(new float[] {2});
         Tensor c = Tensor.create(new float[] {3})) {
      PartialRun pr = s.partialRun(List.of(g.output("a"), g.output("b")), List.of(g.output("sum")),
          List.of());
      // c was not declared by the setup.
      SgException e = assertThrows(InvalidArgumentException.class,
          () -> pr.runner().feed("c", c).fetch("sum").run());
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      // product was not declared as a fetch.
      assertThrows(InvalidArgumentException.class, () -> pr.runner().fetch("product").run());
      try (Session.Result r = pr.runner().feed("a", a).feed("b", b).fetch("sum").run()) {
        assertArrayEquals(new float[] {3}, r.get(0).copyTo(new float[1]));
      }
      // sum was fetched already.
      assertThrows(InvalidArgumentException.class, () -> pr.runner().fetch("sum").run());
      pr.close();
      pr.close();
      SgException closed = assertThrows(InvalidArgumentException.class,
          () -> pr.runner().feed("a", a).fetch("sum").run());
      assertEquals(Code.INVALID_ARGUMENT, closed.code());
    }
  }

  @Test
  void partialRunOfAClosedSessionIsCancelled() {
    try (Graph g = sumTimesC(); Tensor a = Tensor.create(new float[] {1})) {
      Session s = new Session(g);
      try (PartialRun pr = s.partialRun(List.of(g.output("a"), g.output("b")),
               List.of(g.output("sum")), List.of())) {
        s.close();
        assertThrows(CancelledException.class, () -> pr.runner().feed("a", a).fetch("sum").run());
      }
    }
  }
}
