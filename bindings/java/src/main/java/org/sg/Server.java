package org.sg;

/**
 * One task of a cluster (its master and worker services), for sessions whose target is
 * {@link #target()}.
 *
 * <pre>{@code
 * try (Server s = new Server("worker=localhost:0", "worker", 0)) {
 *   s.start();
 *   try (Session session = new Session(graph, s.target(), null)) { ... }
 * }
 * }</pre>
 *
 * <p>Ownership: the creator closes the server (close stops it first). Threads: every method may be
 * called from any thread; join() blocks until another thread calls stop() or close().
 */
public final class Server implements AutoCloseable {
  private final NativeResource res;
  private final CallGuard guard = new CallGuard("Server");

  /**
   * The server of task {@code task} of job {@code job} of {@code clusterSpec}, e.g.
   * "ps=127.0.0.1:2222;worker=127.0.0.1:2223,127.0.0.1:2224" (port 0 picks a free one at start).
   */
  public Server(String clusterSpec, String job, int task) {
    res = new NativeResource(this, "Server", Native.SG_NewServerFromClusterSpec(clusterSpec, job, task),
        Native::SG_DeleteServer);
  }

  /** The server described by a serialized ServerDef. */
  public Server(byte[] serverDef) {
    res = new NativeResource(this, "Server", Native.SG_NewServer(serverDef), Native::SG_DeleteServer);
  }

  /** Binds the address and serves (UnavailableException when the address is taken). */
  public void start() {
    guard.enter();
    try {
      Native.SG_ServerStart(res.handle());
    } finally {
      guard.exit();
    }
  }

  /** Stops serving; steps in flight end CANCELLED. */
  public void stop() {
    guard.enter();
    try {
      Native.SG_ServerStop(res.handle());
    } finally {
      guard.exit();
    }
  }

  /** Blocks until the server is stopped. */
  public void join() {
    guard.enter();
    try {
      Native.SG_ServerJoin(res.handle());
    } finally {
      guard.exit();
    }
  }

  /** "grpc://host:port": the target of sessions on this server. */
  public String target() {
    guard.enter();
    try {
      return Native.SG_ServerTarget(res.handle());
    } finally {
      guard.exit();
    }
  }

  /** Stops the server (join() callers return), waits for calls in progress, frees it. */
  @Override
  public void close() {
    if (!guard.beginClose()) return;
    try {
      Native.SG_ServerStop(res.handle());
    } finally {
      guard.awaitIdle();
      res.close();
    }
  }
}
