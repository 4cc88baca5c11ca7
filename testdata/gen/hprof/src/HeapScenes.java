import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JVMs whose heap dumps testdata/hprof holds (testdata/gen/hprof/gen.sh runs them).
 *
 * <pre>
 * java HeapScenes threads GOFILE  thread per task: each task thread reads from an upstream that
 *                                 never answers, until the JVM can create no more threads
 * java HeapScenes heap GOFILE     8 report workers blocked behind a cache refresh that reads from a
 *                                 silent upstream while holding the cache's monitor; then a queue
 *                                 of work items fills the heap
 * java HeapScenes healthy GOFILE  a small HTTP service answering a client, all threads idle or busy
 * </pre>
 *
 * Each prints READY when its threads are in place and waits for GOFILE to exist before its last
 * step (so the script can attach jcmd/jstack first), and prints what it did.
 */
public class HeapScenes {
    public static void main(String[] args) throws Exception {
        Path go = Path.of(args[1]);
        switch (args[0]) {
            case "threads" -> threads(go);
            case "heap" -> heap(go);
            case "healthy" -> healthy(go);
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static void await(Path go) throws InterruptedException {
        System.out.println("READY");
        System.out.flush();
        while (!Files.exists(go)) {
            Thread.sleep(20);
        }
    }

    /** An upstream that accepts connections and never writes a byte. */
    static ServerSocket silentUpstream() throws Exception {
        ServerSocket ss = new ServerSocket();
        ss.bind(new InetSocketAddress("127.0.0.1", 0));
        List<Socket> held = new ArrayList<>();
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    held.add(ss.accept());
                }
            } catch (Exception e) {
                // closed
            }
        }, "upstream-acceptor");
        t.setDaemon(true);
        t.start();
        return ss;
    }

    static int readUpstream(int port) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            InputStream in = s.getInputStream();
            return in.read(); // never answers
        }
    }

    static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> new Thread(r, prefix + n.incrementAndGet());
    }

    // threads: a dispatcher starts one thread per task; each blocks reading the upstream.
    static void threads(Path go) throws Exception {
        ServerSocket up = silentUpstream();
        int port = up.getLocalPort();
        ExecutorService idle = Executors.newFixedThreadPool(4, named("worker-"));
        for (int i = 0; i < 4; i++) {
            idle.submit(() -> { });
        }
        await(go);
        int n = 0;
        try {
            while (true) {
                Thread t = new Thread(() -> {
                    try {
                        readUpstream(port);
                    } catch (Exception e) {
                        // ignored
                    }
                }, "task-" + (n + 1));
                t.start();
                n++;
            }
        } catch (OutOfMemoryError e) {
            System.out.println("OOM after " + n + " task threads: " + e.getMessage());
            System.out.flush();
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    static final class TemplateCache {
        synchronized String render(String name) {
            return name.toUpperCase();
        }

        synchronized void refresh(int port) throws Exception {
            readUpstream(port); // holds the monitor while the upstream is silent
        }
    }

    // heap: 8 report workers block behind the cache refresh; then the heap fills.
    static void heap(Path go) throws Exception {
        ServerSocket up = silentUpstream();
        TemplateCache cache = new TemplateCache();
        Thread refresher = new Thread(() -> {
            try {
                cache.refresh(up.getLocalPort());
            } catch (Exception e) {
                // ignored
            }
        }, "cache-refresh");
        refresher.setDaemon(true);
        refresher.start();
        Thread.sleep(300); // the refresh holds the monitor and reads
        ExecutorService pool = Executors.newFixedThreadPool(8, named("report-"));
        for (int i = 0; i < 8; i++) {
            int k = i;
            pool.submit(() -> cache.render("report-" + k));
        }
        Thread.sleep(300);
        await(go);
        List<byte[]> queue = new ArrayList<>();
        while (true) {
            queue.add(new byte[64 * 1024]);
        }
    }

    // healthy: a small HTTP service and a client calling it.
    static void healthy(Path go) throws Exception {
        com.sun.net.httpserver.HttpServer server =
            com.sun.net.httpserver.HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.setExecutor(Executors.newFixedThreadPool(4, named("http-")));
        server.createContext("/", ex -> {
            byte[] body = "ok\n".getBytes();
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
        int port = server.getAddress().getPort();
        Thread client = new Thread(() -> {
            while (true) {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes());
                    s.getInputStream().readAllBytes();
                    Thread.sleep(50);
                } catch (Exception e) {
                    return;
                }
            }
        }, "client");
        client.setDaemon(true);
        client.start();
        Thread.sleep(500);
        await(go);
        Thread.sleep(Long.MAX_VALUE);
    }
}
