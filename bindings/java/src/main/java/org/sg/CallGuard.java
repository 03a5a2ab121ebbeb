package org.sg;

/**
 * Counts native calls in progress on one object so that close() can refuse new calls and wait
 * for the running ones before the handle is freed (freeing under a running call would be a
 * use-after-free in C).
 */
final class CallGuard {
  private final String what;
  private int inUse;        // guarded by this
  private boolean closed;   // guarded by this

  CallGuard(String what) {
    this.what = what;
  }

  /** Marks a call in progress; IllegalStateException once closed. Pair with exit(). */
  synchronized void enter() {
    if (closed) throw new IllegalStateException("the " + what + " is closed");
    ++inUse;
  }

  synchronized void exit() {
    if (--inUse == 0) notifyAll();
  }

  /** Refuses new calls from now on; false when close had already begun. */
  synchronized boolean beginClose() {
    if (closed) return false;
    closed = true;
    return true;
  }

  /** Waits until no call is in progress (an interrupt is kept, not thrown). */
  synchronized void awaitIdle() {
    boolean interrupted = false;
    while (inUse > 0) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }
}
