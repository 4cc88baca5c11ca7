package com.example.crowd;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One process, one shape of threads (issue 33: problems one dump proves by their structure).
 *
 * <ul>
 *   <li>spawn: an order service handles 700 requests, each on a thread of its own
 *       ({@code new Thread(...).start()} per request); each request calls a local upstream that
 *       accepts and never answers, so all 700 wait in a socket read under
 *       {@code OrderService.callInventory}: a thread-per-task explosion.
 *   <li>supply: {@code CompletableFuture.supplyAsync(task)} without an executor, 600 times, on
 *       a machine of 2 CPUs (the common pool's parallelism is 1, so the JDK runs each task on a
 *       new thread: {@code CompletableFuture$ThreadPerTaskExecutor}); each task sleeps in
 *       {@code PriceService.quote}: a thread-per-task explosion.
 *   <li>server: a classic blocking echo server, an accept loop that starts a thread per
 *       connection, with 300 clients connected and idle: 300 threads read their client's next
 *       line in {@code EchoServer.serve}: healthy (a connection's thread rests in its read
 *       loop).
 *   <li>pooled: the spawn load on a fixed pool of 16: 16 threads in the same read, 684 tasks
 *       queued: saturation, not an explosion (a control for the explosion rule).
 * </ul>
 *
 * Prints "ready" once its threads are in place.
 */
public final class CrowdApp {
    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "spawn";
        switch (mode) {
            case "spawn" -> OrderService.spawn(700);
            case "supply" -> PriceService.supply(600);
            case "server" -> EchoServer.run(300);
            case "pooled" -> OrderService.pooled(700, 16);
            default -> throw new IllegalArgumentException(mode);
        }
    }

    /** A local upstream that accepts connections and never answers. */
    static final class SilentUpstream {
        static int start() throws IOException {
            ServerSocket ss = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
            Thread t = new Thread(() -> {
                List<Socket> held = new ArrayList<>();
                try {
                    while (true) {
                        held.add(ss.accept());
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, "upstream-acceptor");
            t.setDaemon(true);
            t.start();
            return ss.getLocalPort();
        }
    }

    static final class OrderService {
        static int port;

        static void spawn(int n) throws Exception {
            port = SilentUpstream.start();
            for (int i = 0; i < n; i++) {
                final int id = i;
                new Thread(() -> handle(id)).start();
            }
            Thread.sleep(2000);
            System.out.println("ready");
            Thread.sleep(Long.MAX_VALUE);
        }

        static void pooled(int n, int size) throws Exception {
            port = SilentUpstream.start();
            ExecutorService pool = Executors.newFixedThreadPool(size);
            for (int i = 0; i < n; i++) {
                final int id = i;
                pool.execute(() -> handle(id));
            }
            Thread.sleep(2000);
            System.out.println("ready");
            Thread.sleep(Long.MAX_VALUE);
        }

        static void handle(int id) {
            try {
                callInventory(id);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }

        static int callInventory(int id) throws IOException {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                OutputStream out = s.getOutputStream();
                out.write(("RESERVE " + id + "\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = s.getInputStream();
                return in.read();
            }
        }
    }

    static final class PriceService {
        static void supply(int n) throws Exception {
            List<CompletableFuture<Integer>> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                final int id = i;
                all.add(CompletableFuture.supplyAsync(() -> quote(id)));
            }
            Thread.sleep(2000);
            System.out.println("ready");
            Thread.sleep(Long.MAX_VALUE);
        }

        static int quote(int id) {
            try {
                Thread.sleep(3_600_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return id;
        }
    }

    static final class EchoServer {
        static void run(int clients) throws Exception {
            ServerSocket ss = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
            int port = ss.getLocalPort();
            // The clients: sockets held open and idle, no thread of their own.
            Thread dialer = new Thread(() -> {
                List<Socket> held = new ArrayList<>();
                try {
                    for (int i = 0; i < clients; i++) {
                        Socket c = new Socket(InetAddress.getLoopbackAddress(), port);
                        c.getOutputStream().write("hello\n".getBytes(StandardCharsets.US_ASCII));
                        held.add(c);
                    }
                    Thread.sleep(2000);
                    System.out.println("ready");
                    Thread.sleep(Long.MAX_VALUE);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, "clients");
            dialer.setDaemon(true);
            dialer.start();
            while (true) {
                Socket s = ss.accept();
                new Thread(() -> serve(s)).start();
            }
        }

        static void serve(Socket s) {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                 PrintWriter out = new PrintWriter(s.getOutputStream(), true)) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.println(line);
                }
            } catch (IOException e) {
                // the client went away
            }
        }
    }
}
