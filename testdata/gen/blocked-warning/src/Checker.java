import io.netty.channel.nio.NioEventLoopGroup;
import io.vertx.core.VertxException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Logger;

// A blocked-thread checker that logs the way Vert.x's
// io.vertx.core.impl.BlockedThreadChecker does (its logger name, its
// message "Thread <Thread.toString()> has been blocked for N ms, time
// limit is L ms", the stack under a VertxException "Thread blocked"),
// over threads named and used as Vert.x names and uses them: the event
// loop is Netty's (Debian's libnetty-java 4.1.48, a NioEventLoopGroup of
// one thread named as Vert.x names its loops), a worker is an executor's.
//
// Modes:
//   loop-latch:  the event loop "vert.x-eventloop-thread-0" runs a task that
//                awaits a latch nobody counts down; warned every second
//                (limit 2000 ms) for 6 s.
//   loop-lock:   the event loop waits to enter a monitor that
//                "vert.x-worker-thread-0" holds while it sleeps; the same.
//   worker-once: "vert.x-worker-thread-0" runs a blocking task 2.5 s with a
//                limit of 1500 ms: warned once, then it finishes and the
//                checker says nothing more (the healthy control).
public class Checker {
  static final Logger log = Logger.getLogger("io.vertx.core.impl.BlockedThreadChecker");

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    Object monitor = new Object();
    CountDownLatch never = new CountDownLatch(1);
    NioEventLoopGroup loop = new NioEventLoopGroup(1, (java.util.concurrent.ThreadFactory) r -> daemon(r, "vert.x-eventloop-thread-0"));
    ExecutorService workers = Executors.newFixedThreadPool(1, r -> daemon(r, "vert.x-worker-thread-0"));
    Thread[] running = new Thread[1];
    CountDownLatch started = new CountDownLatch(1);
    long limit = 2000;
    long runFor = 6500;
    Runnable task;
    switch (mode) {
      case "loop-latch":
        task = () -> handleRequest(never);
        break;
      case "loop-lock":
        CountDownLatch held = new CountDownLatch(1);
        workers.execute(() -> {
          synchronized (monitor) { held.countDown(); sleep(60_000); }
        });
        held.await();
        task = () -> { synchronized (monitor) { sleep(1); } };
        break;
      case "worker-once":
        task = () -> sleep(2500);
        limit = 1500; // the checker looks each second: at 2 s (over the limit) and not at 3 s (done)
        runFor = 4000;
        break;
      default:
        throw new IllegalArgumentException(mode);
    }
    long[] start = new long[1];
    Runnable timed = () -> {
      running[0] = Thread.currentThread();
      start[0] = System.nanoTime();
      started.countDown();
      task.run();
      running[0] = null;
    };
    if (mode.startsWith("worker")) {
      workers.execute(timed);
    } else {
      loop.execute(timed);
    }
    started.await();
    long end = System.currentTimeMillis() + runFor;
    while (System.currentTimeMillis() < end) {
      sleep(1000);
      long blocked = (System.nanoTime() - start[0]) / 1_000_000;
      Thread target = running[0];
      if (target != null && blocked > limit) {
        VertxException e = new VertxException("Thread blocked");
        e.setStackTrace(target.getStackTrace());
        log.logp(java.util.logging.Level.WARNING, "io.vertx.core.impl.BlockedThreadChecker", null, "Thread " + target + " has been blocked for " + blocked + " ms, time limit is " + limit + " ms", e);
      }
    }
  }

  static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  static void handleRequest(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
