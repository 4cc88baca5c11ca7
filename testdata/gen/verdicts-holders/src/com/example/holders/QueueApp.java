package com.example.holders;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * JDK queue hand-offs seen from both sides (issue 33). In "stuck":
 * <ul>
 * <li>six "ingest-N" put events into a LinkedBlockingQueue of 8; its two consumers,
 * "enricher-1" and "enricher-2", take one each and look it up on a service on 127.0.0.1 that
 * accepts and never answers (a socket read with no timeout): the queue stays full.</li>
 * <li>four "audit-N" put into an ArrayBlockingQueue of 4; its consumer "audit-sink" took one and
 * is BLOCKED on a monitor "archiver" holds while it sleeps (a slow archive).</li>
 * <li>three "report-N" wait in CountDownLatch.await for a warm-up that died: the thread that
 * would count down ("warmup") threw and is gone; nobody left counts down.</li>
 * </ul>
 * In "healthy" the service answers, the archive is fast and the warm-up counts down; the
 * producers put at a rate the consumers keep up with; the report threads then wait on their
 * own queue for work. "rising" is "healthy" until 5 s after "ready", then the service stops
 * answering and the archive stops (a stall that begins between the first dump and the second).
 */
public final class QueueApp {
    static final Object ARCHIVE = new Object();
    /** When the service and the archive stop: at once (stuck), 5 s after ready (rising), never. */
    static volatile long stallAt = Long.MAX_VALUE;

    static boolean stalled() {
        return System.currentTimeMillis() >= stallAt;
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "healthy";
        boolean stuck = mode.equals("stuck");
        if (stuck) {
            stallAt = 0;
        } else if (mode.equals("rising")) {
            stallAt = System.currentTimeMillis() + 1500 + 5000;
        }
        ServerSocket service = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon("lookup-service", () -> serve(service));

        BlockingQueue<Long> events = new LinkedBlockingQueue<>(8);
        for (int i = 1; i <= 6; i++) {
            // rising: a light load before the stall (an event every 200 ms a producer), so
            // that the first dump finds the consumers waiting in take.
            long pace = mode.equals("rising") ? 200 : 40;
            daemon("ingest-" + i, () -> Ingest.run(events, stuck, pace));
        }
        for (int i = 1; i <= 2; i++) {
            daemon("enricher-" + i, () -> Enricher.run(events, service.getLocalPort()));
        }

        BlockingQueue<String> audits = new ArrayBlockingQueue<>(4);
        for (int i = 1; i <= 4; i++) {
            daemon("audit-" + i, () -> Audit.run(audits, stuck));
        }
        daemon("archiver", Audit::archive);
        daemon("audit-sink", () -> Audit.sink(audits));

        CountDownLatch warm = new CountDownLatch(1);
        BlockingQueue<String> reports = new LinkedBlockingQueue<>();
        daemon("warmup", () -> {
            if (stuck) {
                throw new IllegalStateException("warm-up failed"); // never counts down
            }
            warm.countDown();
        });
        for (int i = 1; i <= 3; i++) {
            daemon("report-" + i, () -> Reports.run(warm, reports));
        }
        Thread.sleep(1500);
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }

    static final class Ingest {
        static void run(BlockingQueue<Long> q, boolean stuck, long pace) {
            for (long id = 0; ; id++) {
                try {
                    q.put(id);
                    if (!stuck) {
                        Thread.sleep(pace);
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    static final class Enricher {
        static void run(BlockingQueue<Long> q, int port) {
            for (;;) {
                try {
                    long id = q.take();
                    enrich(id, port);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }
        }

        static void enrich(long id, int port) throws Exception {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                s.getOutputStream().write(("lookup " + id + "\n").getBytes());
                s.getInputStream().read();
            }
        }
    }

    static final class Audit {
        static void run(BlockingQueue<String> q, boolean stuck) {
            for (long id = 0; ; id++) {
                try {
                    q.put("audit " + id);
                    if (!stuck) {
                        Thread.sleep(50);
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        static void archive() {
            for (;;) {
                synchronized (ARCHIVE) {
                    pause(stalled() ? Long.MAX_VALUE : 2);
                }
                pause(20);
            }
        }

        static void sink(BlockingQueue<String> q) {
            for (;;) {
                try {
                    String a = q.take();
                    store(a);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        static void store(String a) {
            synchronized (ARCHIVE) {
                a.length();
            }
        }
    }

    static final class Reports {
        static void run(CountDownLatch warm, BlockingQueue<String> work) {
            try {
                warm.await();
                for (;;) {
                    work.poll(1, TimeUnit.HOURS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static void serve(ServerSocket ss) {
        try {
            for (;;) {
                Socket c = ss.accept();
                daemon("lookup-conn", () -> {
                    try (c) {
                        c.getInputStream().read();
                        if (stalled()) {
                            Thread.sleep(Long.MAX_VALUE); // accepted, never answers
                        }
                        pause(5);
                        c.getOutputStream().write('1');
                    } catch (Exception e) {
                        // the client went away
                    }
                });
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    static void daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
