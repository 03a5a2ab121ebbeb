package org.sg;

import java.util.ArrayList;
import java.util.List;

/**
 * A partial run: one step of a {@link Session} taken in several calls, as TensorFlow's partial
 * runs ({@code Session.partial_run_setup} / {@code partial_run}, the C API's TF_SessionPRunSetup
 * and TF_SessionPRun). The setup ({@link Session#partialRun}) declares every feed, fetch and
 * target; each {@link Runner#run()} then feeds some of the declared feeds and fetches some of
 * the declared fetches, computing only what those fetches need. Values computed by earlier calls
 * are kept, so a later call may fetch a tensor that depends on feeds given earlier. Each feed and
 * each fetch is used at most once; the targets run with the call that makes the last fetch.
 *
 * <pre>{@code
 * try (PartialRun pr = session.partialRun(List.of(a, b, c), List.of(sum, product), List.of())) {
 *   try (Session.Result r = pr.runner().feed(a, ta).feed(b, tb).fetch(sum).run()) { ... }
 *   try (Session.Result r = pr.runner().feed(c, tc).fetch(product).run()) { ... }
 * }
 * }</pre>
 *
 * <p>Ownership: the caller closes the partial run (a forgotten one is freed by the Cleaner,
 * with a warning); closing abandons a step not yet finished. Each Result owns its fetched
 * tensors; feeds stay the caller's. Closing the session first is allowed; the partial run then
 * fails with CancelledException, and still needs close.
 *
 * <p>Errors: {@link InvalidArgumentException} for a feed or fetch the setup did not declare or
 * one already used, and after close (as the C API reports a released handle); {@link
 * CancelledException} once the session is closed; the kernels' errors as {@link Session.Runner}.
 *
 * <p>Threads: calls may come from several threads; close waits for calls in progress.
 */
public final class PartialRun implements AutoCloseable {
  private final Session session;
  private final NativeResource res;
  private final CallGuard guard = new CallGuard("PartialRun");

  PartialRun(Session session, long handle) {
    this.session = session;
    // The free goes through the session, which serializes it with the session's own free.
    this.res = new NativeResource(this, "PartialRun", handle, session::freePRunHandle);
  }

  /** A new Runner for the next call: some declared feeds and fetches. */
  public Runner runner() {
    return new Runner();
  }

  /** Frees the partial run's handle and state (idempotent); waits for calls in progress. */
  @Override
  public void close() {
    if (!guard.beginClose()) return;
    guard.awaitIdle();
    res.close();
  }

  /** Collects one call's feeds and fetches. Used by one thread; runs once. */
  public final class Runner {
    private final List<Output> feeds = new ArrayList<>();
    private final List<Tensor> feedValues = new ArrayList<>();
    private final List<Output> fetches = new ArrayList<>();

    private Runner() {}

    /** Feeds {@code t} to output "op:index" or "op" (index 0) of the session's graph. */
    public Runner feed(String name, Tensor t) {
      return feed(session.graph().output(name), t);
    }

    public Runner feed(Output output, Tensor t) {
      if (output == null || t == null) throw new IllegalArgumentException("feed output and tensor must not be null");
      feeds.add(output);
      feedValues.add(t);
      return this;
    }

    /** Fetches output "op:index" or "op" (index 0). */
    public Runner fetch(String name) {
      return fetch(session.graph().output(name));
    }

    public Runner fetch(Output output) {
      if (output == null) throw new IllegalArgumentException("fetch output must not be null");
      fetches.add(output);
      return this;
    }

    /** Runs this call; the Result owns the fetched tensors (in fetch order). */
    public Session.Result run() {
      long[] feedArray = new long[3 * feeds.size()];
      for (int i = 0; i < feeds.size(); ++i) {
        feedArray[3 * i] = feeds.get(i).op().handle();
        feedArray[3 * i + 1] = feeds.get(i).index();
        feedArray[3 * i + 2] = feedValues.get(i).handle();
      }
      long[] fetchArray = Session.pairs(fetches);
      long[] outputs = new long[fetches.size()];
      try {
        guard.enter();
      } catch (IllegalStateException e) {
        throw new InvalidArgumentException("the PartialRun is closed");
      }
      try {
        session.prun(res.handle(), feedArray, fetchArray, outputs);
      } finally {
        guard.exit();
        java.lang.ref.Reference.reachabilityFence(feedValues);
        java.lang.ref.Reference.reachabilityFence(PartialRun.this);
      }
      List<Tensor> out = new ArrayList<>(outputs.length);
      for (long h : outputs) out.add(Tensor.fromHandle(h));
      return new Session.Result(out, null);
    }
  }
}
