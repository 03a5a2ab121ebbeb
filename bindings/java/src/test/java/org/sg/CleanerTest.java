package org.sg;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class CleanerTest {
  @Test
  void aForgottenTensorIsFreedAndLogged() throws Exception {
    List<String> messages = Collections.synchronizedList(new ArrayList<>());
    Handler h = new Handler() {
      @Override
      public void publish(LogRecord r) {
        messages.add(r.getMessage());
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    Logger log = Logger.getLogger("org.sg");
    log.addHandler(h);
    try {
      forget();
      for (int i = 0; i < 100 && !logged(messages); ++i) {
        System.gc();
        Thread.sleep(50);
      }
      assertTrue(logged(messages), "no Cleaner warning in " + messages);
    } finally {
      log.removeHandler(h);
    }
  }

  private static void forget() {
    Tensor.create(new float[] {1, 2, 3});  // never closed
  }

  private static boolean logged(List<String> messages) {
    synchronized (messages) {
      return messages.stream().anyMatch(m -> m.contains("a Tensor was not closed"));
    }
  }
}
