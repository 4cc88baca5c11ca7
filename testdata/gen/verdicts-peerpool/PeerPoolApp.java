// PeerPoolApp: a fixed pool of 6 report workers ("report-worker-N") that
// each call an HTTP upstream with HttpURLConnection (the JDK's client), on
// 127.0.0.1, in the same JVM (com.sun.net.httpserver).
//
// stuck:   the upstream answers after 10 minutes and 6 reports are
//          submitted at once: all 6 workers wait in the client's socket
//          read for the reply.
// healthy: the upstream answers in 5 ms and a report comes every 200 ms:
//          the workers wait for a task in the executor's queue nearly always.
//
// Prints "ready" once the load is running. Run: java PeerPoolApp.java MODE
import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

public class PeerPoolApp {
    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static class ReportClient {
        final String base;

        ReportClient(String base) {
            this.base = base;
        }

        byte[] fetch(int id) throws Exception {
            HttpURLConnection c = (HttpURLConnection) new URL(base + "/report/" + id).openConnection();
            try (InputStream in = c.getInputStream()) { // no read timeout set
                return in.readAllBytes();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args.length == 0 || args[0].equals("stuck");
        long delay = stuck ? 600_000 : 5;
        HttpServer up = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        up.setExecutor(Executors.newCachedThreadPool(named("upstream-")));
        up.createContext("/report", ex -> {
            sleep(delay);
            byte[] b = "ok".getBytes();
            ex.sendResponseHeaders(200, b.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(b);
            }
        });
        up.start();
        ReportClient client = new ReportClient("http://127.0.0.1:" + up.getAddress().getPort());
        ExecutorService workers = Executors.newFixedThreadPool(6, named("report-worker-"));
        if (stuck) {
            for (int i = 0; i < 6; i++) {
                int id = i;
                workers.submit(() -> client.fetch(id));
            }
            System.out.println("ready");
            Thread.sleep(Long.MAX_VALUE);
        }
        System.out.println("ready");
        for (int i = 0; ; i++) {
            int id = i;
            workers.submit(() -> client.fetch(id));
            Thread.sleep(200);
        }
    }

    static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> new Thread(r, prefix + n.incrementAndGet());
    }
}
