package com.example.reports;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A report service whose pool gets stuck, recorded by JDK Flight Recorder with a thread dump
 * every second (testdata/gen/jfr/threaddump.jfc).
 *
 * <p>Six report-N workers render reports; each render reads its template from the
 * TemplateCache under the cache's monitor, then renders for 50 ms. For the first two seconds
 * the pool keeps up and its workers mostly wait for work. Then cache-refresh takes the cache's
 * monitor and reloads it from a template server that accepts the connection and never answers
 * (a socket read with no timeout, on 127.0.0.1 in this process): every worker blocks behind it,
 * for good. The program exits after STUCK_MS more; the recording is written on exit.
 *
 * Usage: java -XX:StartFlightRecording:settings=threaddump.jfc,filename=rec.jfr
 *        -cp CLASSES com.example.reports.ReportService
 */
public final class ReportService {
    static final long HEALTHY_MS = 2200;
    static final long STUCK_MS = 3300;

    public static void main(String[] args) throws Exception {
        ServerSocket templates = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread server = new Thread(() -> acceptForever(templates), "template-server");
        server.setDaemon(true);
        server.start();

        TemplateCache cache = new TemplateCache();
        ExecutorService pool = Executors.newFixedThreadPool(6, named("report-"));
        long start = System.currentTimeMillis();
        Thread feeder = new Thread(() -> {
            for (int i = 0; ; i++) {
                int id = i;
                pool.submit(() -> cache.render("report-" + id));
                sleep(20);
            }
        }, "report-feeder");
        feeder.setDaemon(true);
        feeder.start();

        sleep(HEALTHY_MS - (System.currentTimeMillis() - start));
        Thread refresh = new Thread(() -> cache.reload(templates.getLocalPort()), "cache-refresh");
        refresh.setDaemon(true);
        refresh.start();
        sleep(STUCK_MS);
        System.out.println("done");
        System.exit(0);
    }

    static final class TemplateCache {
        private String template = "<h1>%s</h1>";

        String render(String report) {
            String t;
            synchronized (this) {
                t = template;
            }
            sleep(50); // the rendering itself
            return String.format(t, report);
        }

        synchronized void reload(int port) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port); InputStream in = s.getInputStream()) {
                in.read(); // the template server never answers
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static void acceptForever(ServerSocket ss) {
        try {
            while (true) {
                Socket s = ss.accept(); // kept open, never written to
                s.getInetAddress();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    static void sleep(long ms) {
        if (ms <= 0) {
            return;
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
