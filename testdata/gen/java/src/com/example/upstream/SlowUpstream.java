package com.example.upstream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

/**
 * A stand-in for the inventory / recommendation service the shop calls. It answers every
 * GET after the delay of the longest matching path prefix; GET /admin/delay?ms=N[&path=/p]
 * sets the delay for paths under /p (default: every path), which is how the scenario scripts
 * make the upstream "slow down" after warm-up. Runs as its own process so
 * its threads never appear in the shop's thread dumps. Listens on 127.0.0.1 only.
 */
public final class SlowUpstream {
    private SlowUpstream() {}

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args.length > 0 ? args[0] : "18081");
        Map<String, Long> delayMillis = new ConcurrentHashMap<>();
        delayMillis.put("/", Long.parseLong(args.length > 1 ? args[1] : "10"));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 4096);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/admin/delay", ex -> {
            String q = ex.getRequestURI().getQuery();
            long ms = -1;
            String path = "/";
            for (String kv : q == null ? new String[0] : q.split("&")) {
                if (kv.startsWith("ms=")) {
                    ms = Long.parseLong(kv.substring(3));
                } else if (kv.startsWith("path=")) {
                    path = kv.substring(5);
                }
            }
            if (ms >= 0) {
                delayMillis.put(path, ms);
            }
            reply(ex, 200, "delays=" + delayMillis + "\n");
        });
        server.createContext("/", ex -> {
            try {
                Thread.sleep(delayFor(delayMillis, ex.getRequestURI().getPath()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            reply(ex, 200, "{\"path\":\"" + ex.getRequestURI().getPath() + "\",\"items\":[1,2,3]}\n");
        });
        server.start();
        System.out.println("upstream listening on 127.0.0.1:" + port + " delays=" + delayMillis);
    }

    private static long delayFor(Map<String, Long> delays, String path) {
        String best = "/";
        for (String prefix : delays.keySet()) {
            if (path.startsWith(prefix) && prefix.length() > best.length()) {
                best = prefix;
            }
        }
        return delays.get(best);
    }

    private static void reply(HttpExchange ex, int status, String body) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = ex.getResponseBody()) {
            ex.getRequestBody().readAllBytes();
            ex.sendResponseHeaders(status, b.length);
            out.write(b);
        } catch (IOException e) {
            // The caller gave up (read timeout, closed socket): nothing to answer.
        } finally {
            ex.close();
        }
    }
}
