package com.example.sources;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * An embedded Apache Tomcat whose servlet starts a thread per request to deliver a webhook
 * (issue 33: a second, independent source for the thread-per-task crowd rule). "stuck": the
 * webhook receiver accepts and never answers, every delivery thread stays in its read;
 * "healthy": the receiver answers after 20 ms and each delivery thread ends.
 *
 * Usage: TomcatSpawnApp stuck|healthy
 */
public final class TomcatSpawnApp {
    static volatile int receiverPort;
    static final List<Socket> held = new CopyOnWriteArrayList<>();

    /** Sends one delivery to the receiver and reads its reply. */
    static void deliver(int id) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), receiverPort)) {
            OutputStream out = s.getOutputStream();
            out.write(("DELIVER " + id + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            while (in.read() >= 0) {
            }
        } catch (Exception e) {
            System.err.println("deliver " + id + ": " + e);
        }
    }

    public static final class HookServlet extends HttpServlet {
        private final AtomicInteger ids = new AtomicInteger();

        @Override
        protected void doPost(HttpServletRequest req, HttpServletResponse resp) {
            int id = ids.incrementAndGet();
            new Thread(() -> deliver(id)).start();
            resp.setStatus(202);
        }
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        ServerSocket receiver = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        receiverPort = receiver.getLocalPort();
        ScheduledExecutorService replies = Executors.newSingleThreadScheduledExecutor();
        Thread accept = new Thread(() -> {
            while (true) {
                try {
                    Socket s = receiver.accept();
                    if (stuck) {
                        held.add(s);
                    } else {
                        replies.schedule(() -> {
                            try (s) {
                                s.getOutputStream().write("OK\n".getBytes(StandardCharsets.US_ASCII));
                            } catch (Exception e) {
                                System.err.println("reply: " + e);
                            }
                        }, 20, TimeUnit.MILLISECONDS);
                    }
                } catch (Exception e) {
                    System.err.println("accept: " + e);
                    return;
                }
            }
        }, "webhook-receiver");
        accept.setDaemon(true);
        accept.start();

        Tomcat tomcat = new Tomcat();
        File base = Files.createTempDirectory("tomcat-spawn").toFile();
        tomcat.setBaseDir(base.getAbsolutePath());
        Connector connector = tomcat.getConnector();
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        Context ctx = tomcat.addContext("", base.getAbsolutePath());
        Tomcat.addServlet(ctx, "hook", new HookServlet());
        ctx.addServletMappingDecoded("/hook", "hook");
        tomcat.start();
        URL url = new URL("http://127.0.0.1:" + connector.getLocalPort() + "/hook");

        ExecutorService clients = Executors.newFixedThreadPool(8);
        AtomicInteger sent = new AtomicInteger();
        int total = 700;
        for (int c = 0; c < 8; c++) {
            clients.submit(() -> {
                while (stuck ? sent.incrementAndGet() <= total : true) {
                    try {
                        HttpURLConnection conn = (HttpURLConnection) url.openConnection();
                        conn.setRequestMethod("POST");
                        conn.setDoOutput(true);
                        conn.getOutputStream().write('x');
                        conn.getInputStream().readAllBytes();
                        conn.disconnect();
                        if (!stuck) {
                            Thread.sleep(5);
                        }
                    } catch (Exception e) {
                        System.err.println("post: " + e);
                    }
                }
                return null;
            });
        }
        if (stuck) {
            clients.shutdown();
            clients.awaitTermination(60, TimeUnit.SECONDS);
            while (held.size() < total) {
                Thread.sleep(50);
            }
        } else {
            Thread.sleep(1000);
        }
        System.out.println("ready");
        tomcat.getServer().await();
    }
}
