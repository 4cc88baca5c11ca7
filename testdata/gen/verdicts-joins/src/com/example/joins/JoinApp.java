package com.example.joins;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * main waits for a thread it started (issue 33, "two-sided waits tied"):
 *
 * <ul>
 *   <li>clinit: main starts a platform thread whose lambda touches {@code Config}; Config's static
 *       initializer opens a socket to a 127.0.0.1 server this program runs, which accepts and never
 *       answers, and reads its greeting with no timeout. main joins the thread: nothing goes on.
 *   <li>vclinit: the same from a virtual thread (JDK 21+), which the class initializer pins to its
 *       carrier.
 *   <li>healthy: main joins a platform thread of its lambda, a batch job of 600 batches, each a
 *       little work and a 100 ms pause (about a minute), then ends.
 * </ul>
 */
public final class JoinApp {
    static int port;
    static volatile long sink;

    static final class Config {
        static final int greeting;

        static {
            try {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
                InputStream in = s.getInputStream();
                greeting = in.read(); // the server never writes
            } catch (Exception e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** Thread.ofVirtual().unstarted(r), by reflection: the same source compiles on Java 17. */
    static Thread virtualThread(Runnable r) throws Exception {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        return (Thread) Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class).invoke(builder, r);
    }

    public static void main(String[] args) throws Exception {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        port = server.getLocalPort();
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    server.accept(); // held open, never written to
                }
            } catch (Exception e) {
                // closed
            }
        }, "silent-server");
        acceptor.setDaemon(true);
        acceptor.start();
        Thread t;
        switch (args[0]) {
            case "clinit" -> t = new Thread(() -> sink = Config.greeting, "loader");
            case "vclinit" -> t = virtualThread(() -> sink = Config.greeting);
            case "healthy" -> t = new Thread(() -> {
                // a batch job: 600 batches, each a little work and a pause
                long x = 0;
                try {
                    for (int b = 0; b < 600; b++) {
                        for (int i = 0; i < 100_000; i++) {
                            x += Long.numberOfTrailingZeros(x + i);
                        }
                        Thread.sleep(100);
                    }
                } catch (InterruptedException e) {
                    return;
                }
                sink = x;
            }, "batcher");
            default -> throw new IllegalArgumentException(args[0]);
        }
        t.start();
        System.out.println("ready");
        t.join();
        System.out.println("joined " + sink);
    }
}
