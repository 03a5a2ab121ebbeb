package org.sg;

import java.lang.ref.Cleaner;
import java.util.function.LongConsumer;

/**
 * One native handle and how to free it, registered with a {@link Cleaner}: close() frees it at
 * once; if the owner becomes unreachable unclosed, the Cleaner frees it and logs a warning naming
 * the kind of object (a leak in the caller's code, fixed by try-with-resources).
 *
 * <p>The action holds the handle, never the owner, so the owner can become unreachable.
 */
final class NativeResource implements Runnable {
  private static final Cleaner CLEANER = Cleaner.create();
  private static final System.Logger LOG = System.getLogger("org.sg");

  private final String kind;
  private final LongConsumer free;
  private volatile long handle;
  private volatile boolean closing;
  private final Cleaner.Cleanable cleanable;

  NativeResource(Object owner, String kind, long handle, LongConsumer free) {
    this.kind = kind;
    this.free = free;
    this.handle = handle;
    this.cleanable = CLEANER.register(owner, this);
  }

  long handle() {
    return handle;
  }

  boolean isClosed() {
    return handle == 0;
  }

  /** Frees the handle now (idempotent). */
  void close() {
    closing = true;
    cleanable.clean();
  }

  /** Gives the handle up without freeing it (its ownership moved elsewhere). */
  long release() {
    long h = handle;
    handle = 0;
    closing = true;
    cleanable.clean();
    return h;
  }

  @Override
  public void run() {
    long h = handle;
    handle = 0;
    if (h == 0) return;
    if (!closing) {
      LOG.log(System.Logger.Level.WARNING,
          "sg: a " + kind + " was not closed; the Cleaner freed it (use try-with-resources)");
    }
    free.accept(h);
  }
}
