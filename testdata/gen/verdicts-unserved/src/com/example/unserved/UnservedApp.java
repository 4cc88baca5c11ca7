package com.example.unserved;

import com.google.common.util.concurrent.ListeningExecutorService;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Waits nobody will serve (issue 33: "waits by structure", "a rest is proven by the loop it rests
 * in"). The first argument picks the scene, the second "stuck" or "healthy".
 *
 *   latch     main loads 3 shards on a Guava listening pool of 3 ("loader-N", never shut down)
 *             and awaits a CountDownLatch(3) in loadAll(). stuck: shard 2's task throws before
 *             its countDown; healthy: every task counts down, then main awaits a shutdown latch
 *             that a shutdown hook counts down, in awaitShutdown() (the pool idle the same way).
 *   fjlatch   the same with CompletableFuture.runAsync on the common pool, main awaiting in
 *             warmUp(); stuck: one task returns early (no countDown, no exception).
 *   hook      a "consumer" thread takes from a queue; main returns. The JVM is told to end
 *             (SIGTERM by the generator): a hook ("drain-hook") joins the consumer. stuck: the
 *             hook never interrupts it nor puts an end mark, so it waits in take for good and
 *             the JVM cannot exit; healthy: the hook puts an end mark and the consumer works
 *             through its backlog (sleeps in application code) before it ends.
 *   hookpool  the same with an executor: a single-thread pool ("sink-N") runs a task that takes
 *             from a queue; main returns; on SIGTERM the hook "pool-hook" calls shutdown() (which
 *             interrupts no running task) and awaitTermination(1 day). stuck: nothing more comes
 *             on the queue, the task waits in take for good; healthy: the hook first puts a
 *             backlog of 600 items and an end mark, which the task works through (100 ms each).
 *   client    main fetches 3 prices on a fixed pool of 3 ("fetch-N") with Apache HttpClient 4.5 from
 *             a peer on 127.0.0.1 (another process: "blackhole PORT SECONDS", which reads each
 *             request and answers after SECONDS, 0 for never) and awaits a CountDownLatch(3) in
 *             fetchPrices(). stuck: no socket timeout, the peer never answers; healthy: a 30 s
 *             socket timeout (each read has its deadline), the peer answers each request after
 *             200 ms, and each task polls its price 300 times (a minute) before it counts down.
 *   ui        a Swing-style app, headless: main starts an idle fixed pool of 2 ("render-N"), posts
 *             a refresh to the AWT event thread and returns. stuck: the refresh submits the
 *             rendering to the pool and waits untimed on its CompletableFuture (get), and the
 *             task throws before it completes the future (the pool's workers then idle in
 *             getTask): the event thread waits for good; healthy: a javax.swing.Timer posts the
 *             refresh every 200 ms, which hands the result back to the event thread with
 *             thenAccept (no wait on it): the event thread rests in its queue between events.
 *   blackhole PORT MILLIS: the peer above (not dumped); answers after MILLIS ms, 0 for never.
 */
public final class UnservedApp {
    static void die(String why) {
        throw new IllegalStateException(why);
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static final CountDownLatch SHUTDOWN = new CountDownLatch(1);

    static void awaitShutdown() throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(SHUTDOWN::countDown, "shutdown-latch"));
        System.out.println("ready");
        SHUTDOWN.await();
    }

    static void loadAll(boolean stuck) throws InterruptedException {
        ListeningExecutorService pool = MoreExecutors.listeningDecorator(
                Executors.newFixedThreadPool(3, new ThreadFactoryBuilder().setNameFormat("loader-%d").build()));
        CountDownLatch loaded = new CountDownLatch(3);
        for (int shard = 1; shard <= 3; shard++) {
            int s = shard;
            pool.submit(() -> {
                pause(50);
                if (stuck && s == 2) die("shard 2 unreachable");
                loaded.countDown();
            });
        }
        if (stuck) {
            pause(500);
            System.out.println("ready");
        }
        loaded.await();
    }

    static void warmUp(boolean stuck) throws InterruptedException {
        CountDownLatch warm = new CountDownLatch(4);
        for (int i = 0; i < 4; i++) {
            int n = i;
            CompletableFuture.runAsync(() -> {
                pause(50);
                if (stuck && n == 3) return; // cache 3 already warm: returns before its countDown
                warm.countDown();
            });
        }
        if (stuck) {
            pause(500);
            System.out.println("ready");
        }
        warm.await();
    }

    static void hook(boolean stuck) {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        Thread consumer = new Thread(() -> {
            try {
                for (;;) {
                    String item = q.take();
                    if (item.equals("END")) return;
                    if (!stuck) pause(100); // works through each item
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "consumer");
        consumer.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!stuck) {
                for (int i = 0; i < 600; i++) q.add("item-" + i); // a backlog of a minute
                q.add("END");
            }
            try {
                consumer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "drain-hook"));
        System.out.println("started");
    }

    static void fetchPrices(int port, boolean stuck) throws InterruptedException {
        RequestConfig.Builder rc = RequestConfig.custom();
        if (!stuck) rc.setSocketTimeout(30_000);
        CloseableHttpClient http = HttpClients.custom().setDefaultRequestConfig(rc.build()).setMaxConnPerRoute(3).build();
        ExecutorService pool = Executors.newFixedThreadPool(3, new ThreadFactoryBuilder().setNameFormat("fetch-%d").build());
        CountDownLatch fetched = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            String url = "http://127.0.0.1:" + port + "/price/" + i;
            pool.execute(() -> {
                try {
                    for (int n = stuck ? 1 : 300; n > 0; n--) {
                        EntityUtils.toString(http.execute(new HttpGet(url)).getEntity());
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                } finally {
                    fetched.countDown();
                }
            });
        }
        pause(500);
        System.out.println("ready");
        fetched.await();
    }

    static void blackhole(int port, int millis) throws Exception {
        try (ServerSocket ss = new ServerSocket(port, 50, java.net.InetAddress.getLoopbackAddress())) {
            System.out.println("listening");
            for (;;) {
                Socket s = ss.accept();
                new Thread(() -> {
                    try (s) {
                        InputStream in = s.getInputStream();
                        byte[] buf = new byte[4096];
                        while (in.read(buf) > 0) { // a request (kept-alive: the next one)
                            if (millis == 0) {
                                in.read(buf); // never answers: waits for the client to close
                                return;
                            }
                            pause(millis);
                            s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n42".getBytes());
                        }
                    } catch (Exception e) {
                        // the client went away
                    }
                }).start();
            }
        }
    }

    static void ui(boolean stuck) {
        ExecutorService pool = Executors.newFixedThreadPool(2, new ThreadFactoryBuilder().setNameFormat("render-%d").build());
        if (stuck) {
            java.awt.EventQueue.invokeLater(() -> refresh(pool, true));
        } else {
            java.awt.EventQueue.invokeLater(() -> new javax.swing.Timer(200, e -> refresh(pool, false)).start());
        }
        pause(500);
        System.out.println("ready");
    }

    static void refresh(ExecutorService pool, boolean stuck) {
        CompletableFuture<String> page = new CompletableFuture<>();
        pool.execute(() -> {
            pause(50);
            if (stuck) die("template missing"); // before page.complete: nobody completes it
            page.complete("<html/>");
        });
        if (!stuck) {
            page.thenAccept(html -> java.awt.EventQueue.invokeLater(() -> html.length()));
            return;
        }
        try {
            System.out.println(page.get());
        } catch (Exception e) {
            e.printStackTrace();
        }
    }

    static void hookPool(boolean stuck) {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        ExecutorService sink = Executors.newSingleThreadExecutor(new ThreadFactoryBuilder().setNameFormat("sink-%d").build());
        sink.execute(() -> {
            try {
                for (;;) {
                    if (q.take().equals("END")) return;
                    if (!stuck) pause(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!stuck) {
                for (int i = 0; i < 600; i++) q.add("item-" + i);
                q.add("END");
            }
            sink.shutdown();
            try {
                sink.awaitTermination(1, java.util.concurrent.TimeUnit.DAYS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "pool-hook"));
        System.out.println("started");
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("blackhole")) {
            blackhole(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            return;
        }
        boolean stuck = args[1].equals("stuck");
        switch (args[0]) {
            case "latch" -> {
                loadAll(stuck);
                awaitShutdown();
            }
            case "fjlatch" -> {
                warmUp(stuck);
                awaitShutdown();
            }
            case "hook" -> hook(stuck);
            case "hookpool" -> hookPool(stuck);
            case "ui" -> ui(stuck);
            case "client" -> fetchPrices(Integer.parseInt(args[2]), stuck);
            default -> throw new IllegalArgumentException(args[0]);
        }
    }
}
