package com.example.execleak;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP service on 127.0.0.1 whose request handler needs threads of its own, and a client
 * (main) that calls it about ten times a second. The mode says where the handler's threads come
 * from:
 *
 * <ul>
 *   <li>pool-leak: Executors.newFixedThreadPool(2) made per request, two tasks submitted, never
 *       shut down (the leak: each request leaves an executor with its 2 idle threads)
 *   <li>pool-shutdown: the same executor per request, shutdown() in a finally (healthy)
 *   <li>handful: three executors made at start, shared by every request (healthy)
 *   <li>turnover: one cached-style pool whose idle threads die after 100 ms (healthy: its
 *       threads' numbers grow, the pool's id does not)
 *   <li>timer-leak: new java.util.Timer() per request, one task scheduled, never cancelled
 *   <li>timer-cancel: the same Timer per request, cancel() after its task ran (healthy)
 * </ul>
 */
public final class ExecLeakApp {
    static String mode;
    static ExecutorService[] shared;
    static ExecutorService turnover;

    public static void main(String[] args) throws Exception {
        mode = args[0];
        switch (mode) {
            case "handful" -> {
                shared = new ExecutorService[3];
                for (int i = 0; i < 3; i++) {
                    shared[i] = Executors.newFixedThreadPool(4);
                }
            }
            case "turnover" -> turnover = new ThreadPoolExecutor(0, 16, 100, TimeUnit.MILLISECONDS,
                    new SynchronousQueue<>());
            case "pool-leak", "pool-shutdown", "timer-leak", "timer-cancel" -> { }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        AtomicInteger n = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        server.createContext("/report", ExecLeakApp::handle);
        server.setExecutor(Executors.newFixedThreadPool(4, r -> new Thread(r, "http-" + n.incrementAndGet())));
        server.start();
        URL url = new URL("http://127.0.0.1:" + server.getAddress().getPort() + "/report");
        System.out.println("ready");
        System.out.flush();
        for (;;) {
            HttpURLConnection c = (HttpURLConnection) url.openConnection();
            try (InputStream in = c.getInputStream()) {
                in.readAllBytes();
            }
            Thread.sleep(100);
        }
    }

    static void handle(HttpExchange ex) throws java.io.IOException {
        String body;
        try {
            body = switch (mode) {
                case "pool-leak" -> ReportService.perRequest(false);
                case "pool-shutdown" -> ReportService.perRequest(true);
                case "handful" -> ReportService.shared();
                case "turnover" -> ReportService.turnover();
                case "timer-leak" -> Reminders.perRequest(false);
                default -> Reminders.perRequest(true);
            };
        } catch (Exception e) {
            body = "error " + e;
        }
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(200, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    static long work(int seed) {
        long s = seed;
        for (int i = 0; i < 20_000; i++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
        }
        return s;
    }

    static final class ReportService {
        static final AtomicInteger calls = new AtomicInteger();

        /** An executor per request: the bug when shutdown is false. */
        static String perRequest(boolean shutdown) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<Long> a = pool.submit(() -> work(1));
                Future<Long> b = pool.submit(() -> work(2));
                return "report " + (a.get() ^ b.get());
            } finally {
                if (shutdown) {
                    pool.shutdown();
                }
            }
        }

        static String shared() throws Exception {
            ExecutorService pool = shared[calls.getAndIncrement() % shared.length];
            Future<Long> a = pool.submit(() -> work(1));
            Future<Long> b = pool.submit(() -> work(2));
            return "report " + (a.get() ^ b.get());
        }

        static String turnover() throws Exception {
            Future<Long> a = turnover.submit(() -> work(1));
            Future<Long> b = turnover.submit(() -> work(2));
            return "report " + (a.get() ^ b.get());
        }
    }

    static final class Reminders {
        /** A Timer per request: the bug when cancel is false. */
        static String perRequest(boolean cancel) throws Exception {
            Timer timer = new Timer();
            CountDownLatch done = new CountDownLatch(1);
            timer.schedule(new TimerTask() {
                @Override
                public void run() {
                    work(3);
                    done.countDown();
                }
            }, 5);
            done.await();
            if (cancel) {
                timer.cancel();
            }
            return "reminded";
        }
    }
}
