package io.vertx.core;

// The exception Vert.x's BlockedThreadChecker logs a blocked thread's
// stack under (its class name and message, "Thread blocked"): written here
// because Vert.x is not installable on this machine.
public class VertxException extends RuntimeException {
  public VertxException(String msg) {
    super(msg, null, false, true);
  }
}
