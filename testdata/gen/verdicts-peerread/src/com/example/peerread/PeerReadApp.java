package com.example.peerread;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.sun.net.httpserver.HttpServer;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;

/**
 * Issue 33: a wait for a peer with no timeout, seen in few threads. Small pools of the application's
 * own client threads call peers on 127.0.0.1:
 *
 * <ul>
 *   <li>{@code quote-fetcher-0..2}: three plain threads, each {@code QuoteClient.fetch}: connect,
 *       write a request line, {@code BufferedReader.readLine()} with no SO_TIMEOUT;
 *   <li>{@code rate-sync-0..1}: two threads calling a peer over HTTP with Apache HttpClient 4 (its
 *       default configuration: no socket timeout), {@code RateSync.pull};
 *   <li>beside them, healthy parts that must add nothing: {@code push-reader} (one thread reading a
 *       server's pushes in its own loop: its read is its rest), {@code status-poller-0..1} (each
 *       reads a silent peer with SO_TIMEOUT 1 s, and asks again when it times out: a long poll
 *       with a timeout), an idle JDK HttpServer (its dispatcher in its selector), and the peers'
 *       acceptors.
 * </ul>
 *
 * <p>The peers run in a process of their own ({@code peers-stuck}, {@code peers-healthy}: their
 * ports on one line), the clients in another ({@code stuck PORTS...}, {@code healthy PORTS...}).
 *
 * <p>stuck: the quote and rate peers accept, read the request and never answer. healthy: they
 * answer at once, and the fetchers and syncers ask again every 300 ms. Prints "ready" once every
 * thread is started.
 */
public class PeerReadApp {
    static volatile boolean answer;

    public static void main(String[] args) throws Exception {
        answer = args.length > 0 && args[0].endsWith("healthy");
        if (args.length > 0 && args[0].startsWith("peers-")) {
            // The peers, in a process of their own (as a client's upstreams
            // are): their ports on one line, then they serve.
            int quotes = lineServer("quote-upstream", answer);
            int rates = httpServer(answer);
            int silent = lineServer("status-upstream", false);
            int push = pushServer();
            System.out.println("ports " + quotes + " " + rates + " " + silent + " " + push);
            Thread.sleep(Long.MAX_VALUE);
        }
        int quotes = Integer.parseInt(args[1]), rates = Integer.parseInt(args[2]);
        int silent = Integer.parseInt(args[3]), push = Integer.parseInt(args[4]);
        HttpServer idle = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        idle.createContext("/", x -> {
            x.sendResponseHeaders(204, -1);
            x.close();
        });
        idle.start();
        for (int i = 0; i < 3; i++) {
            String sym = "SYM" + i;
            start("quote-fetcher-" + i, () -> {
                do {
                    QuoteClient.fetch(quotes, sym);
                    pause(300);
                } while (true);
            });
        }
        CloseableHttpClient http = HttpClients.createDefault();
        for (int i = 0; i < 2; i++) {
            start("rate-sync-" + i, () -> {
                do {
                    RateSync.pull(http, rates);
                    pause(300);
                } while (true);
            });
        }
        for (int i = 0; i < 2; i++) {
            start("status-poller-" + i, () -> StatusPoller.poll(silent));
        }
        start("push-reader", () -> PushReader.run(push));
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }

    static void start(String name, Runnable r) {
        Thread t = new Thread(() -> {
            try {
                r.run();
            } catch (RuntimeException e) {
                e.printStackTrace();
            }
        }, name);
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

    /** The application's quote client: one request, one reply line, no read timeout. */
    static final class QuoteClient {
        static String fetch(int port, String sym) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                PrintWriter out = new PrintWriter(s.getOutputStream(), true);
                out.println("QUOTE " + sym);
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                return in.readLine();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }
    }

    /** Rates over HTTP with HttpClient 4's defaults: no socket timeout. */
    static final class RateSync {
        static String pull(CloseableHttpClient http, int port) {
            try (CloseableHttpResponse r = http.execute(new HttpGet("http://127.0.0.1:" + port + "/rates"))) {
                return EntityUtils.toString(r.getEntity());
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }
    }

    /** A long poll with a timeout: a silent peer, asked again each second. */
    static final class StatusPoller {
        static void poll(int port) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(1000);
                PrintWriter out = new PrintWriter(s.getOutputStream(), true);
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                while (true) {
                    out.println("STATUS");
                    try {
                        in.readLine();
                    } catch (SocketTimeoutException e) {
                        // no news: ask again
                    }
                }
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }
    }

    /** A client's reader of a server's pushes, in its own loop. */
    static final class PushReader {
        static void run(int port) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.isEmpty()) {
                        continue;
                    }
                }
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }
    }

    /** A line server: each connection's request lines answered at once, or read and never answered. */
    static int lineServer(String name, boolean answers) throws IOException {
        ServerSocket ss = new ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"));
        List<Socket> held = new ArrayList<>();
        start(name, () -> {
            while (true) {
                try {
                    Socket c = ss.accept();
                    if (!answers) {
                        held.add(c); // accepted, never answered
                        continue;
                    }
                    start(name + "-conn", () -> serveLines(c));
                } catch (IOException e) {
                    return;
                }
            }
        });
        return ss.getLocalPort();
    }

    static void serveLines(Socket c) {
        try (c) {
            BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
            PrintWriter out = new PrintWriter(c.getOutputStream(), true);
            for (String line; (line = in.readLine()) != null; ) {
                out.println("OK " + line);
            }
        } catch (IOException e) {
            // the client went
        }
    }

    /** The rates peer: a JDK HttpServer that answers at once, or a line server that never answers. */
    static int httpServer(boolean answers) throws IOException {
        if (!answers) {
            return lineServer("rates-upstream", false);
        }
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/rates", x -> {
            byte[] b = "EUR 1.08\n".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            try (OutputStream o = x.getResponseBody()) {
                o.write(b);
            }
        });
        s.start();
        return s.getAddress().getPort();
    }

    /** A push server: a line every 30 s to each client. */
    static int pushServer() throws IOException {
        ServerSocket ss = new ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"));
        start("push-server", () -> {
            try {
                Socket c = ss.accept();
                PrintWriter out = new PrintWriter(c.getOutputStream(), true);
                while (true) {
                    pause(30000);
                    out.println("tick");
                }
            } catch (IOException e) {
                // gone
            }
        });
        return ss.getLocalPort();
    }
}
