package org.sg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SavedModelTest {
  @Test
  void digitsSavedModelGivesTensorFlowsProbabilities() throws Exception {
    float[][] x = TestData.npy(TestData.testdata("digits_test_x.npy")).floats2d();
    float[][] tf = TestData.npy(TestData.testdata("digits_tf_probs.npy")).floats2d();
    try (SavedModelBundle m = SavedModelBundle.load(TestData.testdata("digits_saved_model").toString(), "serve");
         Tensor in = Tensor.create(x);
         Session.Result r = m.session().runner().feed("input:0", in).fetch("probs:0").run()) {
      assertTrue(m.metaGraphDef().length > 0);
      assertEquals("VariableV2", m.graph().operation("hidden/w").type());
      float[][] p = r.get(0).copyTo(new float[360][10]);
      for (int i = 0; i < 360; ++i) {
        for (int j = 0; j < 10; ++j) assertEquals(tf[i][j], p[i][j], 1e-5);
      }
    }
  }

  @Test
  void missingDirectoryOrTagsAreNotFound() {
    assertThrows(NotFoundException.class, () -> SavedModelBundle.load("/no/such/model", "serve"));
    assertThrows(NotFoundException.class,
        () -> SavedModelBundle.load(TestData.testdata("digits_saved_model").toString(), "train"));
  }
}
