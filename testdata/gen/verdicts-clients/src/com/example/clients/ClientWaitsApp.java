package com.example.clients;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Hashtable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.naming.Context;
import javax.naming.directory.InitialDirContext;

/**
 * An application's own client calls, none of them under a server's request (issue 33):
 *
 * <ul>
 *   <li>{@code inventory-sync}: a scheduled job (every second) sends "PULL" to an upstream on
 *       127.0.0.1 over a kept connection and reads the reply line, no read timeout;
 *   <li>{@code event-consumer}: a consumer loop that, for each event, calls a backend over HTTP
 *       (HttpURLConnection to 127.0.0.1, no read timeout);
 *   <li>{@code dns-refresh}: a loop that looks "db.internal" up every 2 s through JNDI's DNS
 *       provider pointed at a DNS server on 127.0.0.1 (UDP), with a one-hour timeout;
 *   <li>{@code main}: the same lookup once, after starting the rest;
 *   <li>{@code push-reader}: a client's reader of a server's pushes, in its own loop (a rest in
 *       both modes: the push server sends a line every 30 s).
 * </ul>
 *
 * <p>stuck: the upstream, the HTTP backend and the DNS server receive and never answer. healthy:
 * they answer at once. Prints "ready" once every thread is started.
 */
public class ClientWaitsApp {
    static volatile boolean answer;

    public static void main(String[] args) throws Exception {
        answer = args.length > 0 && args[0].equals("healthy");
        int upstream = lineServer("upstream");
        int backend = httpServer();
        int dns = dnsServer();
        int push = pushServer();

        ScheduledExecutorService sync = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "inventory-sync"));
        InventorySync job = new InventorySync(upstream);
        sync.scheduleWithFixedDelay(job::run, 0, 1, TimeUnit.SECONDS);

        Thread consumer = new Thread(new EventConsumer(backend), "event-consumer");
        consumer.start();
        Thread refresh = new Thread(() -> {
            while (true) {
                Lookup.address(dns, "db.internal");
                pause(2000);
            }
        }, "dns-refresh");
        refresh.start();
        Thread reader = new Thread(new PushReader(push), "push-reader");
        reader.setDaemon(true);
        reader.start();
        System.out.println("ready");
        while (true) {
            Lookup.address(dns, "cache.internal");
            pause(2000);
        }
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A job the scheduler runs: one request line, one reply line. */
    static final class InventorySync {
        final int port;
        Socket conn;
        BufferedReader in;
        OutputStream out;

        InventorySync(int port) {
            this.port = port;
        }

        void run() {
            try {
                String reply = pull();
                if (reply == null) {
                    conn = null;
                }
            } catch (Exception e) {
                conn = null;
            }
        }

        String pull() throws Exception {
            if (conn == null) {
                conn = new Socket("127.0.0.1", port);
                in = new BufferedReader(new InputStreamReader(conn.getInputStream(), StandardCharsets.UTF_8));
                out = conn.getOutputStream();
            }
            out.write("PULL\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            return in.readLine();
        }
    }

    /** A consumer loop: takes the next event (here: made up) and calls the backend for it. */
    static final class EventConsumer implements Runnable {
        final int port;

        EventConsumer(int port) {
            this.port = port;
        }

        public void run() {
            for (int i = 0; ; i++) {
                try {
                    enrich(i);
                } catch (Exception e) {
                    pause(100);
                }
                pause(200);
            }
        }

        int enrich(int event) throws Exception {
            HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/enrich?id=" + event).openConnection();
            try (InputStream body = c.getInputStream()) {
                return body.readAllBytes().length;
            }
        }
    }

    /** A name looked up through JNDI's DNS provider, at a server on 127.0.0.1. */
    static final class Lookup {
        static String address(int port, String name) {
            Hashtable<String, String> env = new Hashtable<>();
            env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.dns.DnsContextFactory");
            env.put(Context.PROVIDER_URL, "dns://127.0.0.1:" + port);
            env.put("com.sun.jndi.dns.timeout.initial", "3600000");
            env.put("com.sun.jndi.dns.timeout.retries", "1");
            try {
                InitialDirContext ctx = new InitialDirContext(env);
                try {
                    return String.valueOf(ctx.getAttributes(name, new String[] {"A"}).get("A"));
                } finally {
                    ctx.close();
                }
            } catch (Exception e) {
                return null;
            }
        }
    }

    /** Reads a server's pushes in its own loop. */
    static final class PushReader implements Runnable {
        final int port;

        PushReader(int port) {
            this.port = port;
        }

        public void run() {
            try (Socket s = new Socket("127.0.0.1", port)) {
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.isEmpty()) {
                        continue;
                    }
                }
            } catch (Exception e) {
                // the server went away
            }
        }
    }

    /** A line server: answers each line with "OK" when answering, else reads and never writes. */
    static int lineServer(String name) throws Exception {
        ServerSocket ss = new ServerSocket();
        ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    Socket s = ss.accept();
                    Thread c = new Thread(() -> serveLines(s), name + "-conn");
                    c.setDaemon(true);
                    c.start();
                } catch (Exception e) {
                    return;
                }
            }
        }, name + "-acceptor");
        t.setDaemon(true);
        t.start();
        return ss.getLocalPort();
    }

    static void serveLines(Socket s) {
        try {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            OutputStream out = s.getOutputStream();
            while (in.readLine() != null) {
                if (answer) {
                    out.write("OK\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
        } catch (Exception e) {
            // closed
        }
    }

    /** An HTTP backend: answers each request when answering, else reads it and never writes. */
    static int httpServer() throws Exception {
        ServerSocket ss = new ServerSocket();
        ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    Socket s = ss.accept();
                    Thread c = new Thread(() -> serveHttp(s), "backend-conn");
                    c.setDaemon(true);
                    c.start();
                } catch (Exception e) {
                    return;
                }
            }
        }, "backend-acceptor");
        t.setDaemon(true);
        t.start();
        return ss.getLocalPort();
    }

    static void serveHttp(Socket s) {
        try (s) {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null && !line.isEmpty()) {
                // the request's head
            }
            if (!answer) {
                in.readLine(); // the client sends nothing more: waits for ever
                return;
            }
            OutputStream out = s.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (Exception e) {
            // closed
        }
    }

    /** A DNS server on UDP: answers every A query with 127.0.0.1 when answering, else never. */
    static int dnsServer() throws Exception {
        DatagramSocket ds = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread t = new Thread(() -> {
            byte[] buf = new byte[512];
            while (true) {
                try {
                    DatagramPacket p = new DatagramPacket(buf, buf.length);
                    ds.receive(p);
                    if (answer) {
                        byte[] reply = dnsReply(buf, p.getLength());
                        ds.send(new DatagramPacket(reply, reply.length, p.getSocketAddress()));
                    }
                } catch (Exception e) {
                    return;
                }
            }
        }, "dns-server");
        t.setDaemon(true);
        t.start();
        return ds.getLocalPort();
    }

    /** The query with the answer bit set and one A record 127.0.0.1 pointing at its name. */
    static byte[] dnsReply(byte[] q, int n) {
        byte[] r = new byte[n + 16];
        System.arraycopy(q, 0, r, 0, n);
        r[2] = (byte) 0x81; // QR, RD
        r[3] = (byte) 0x80; // RA, no error
        r[6] = 0;
        r[7] = 1; // ANCOUNT
        r[8] = 0;
        r[9] = 0;
        r[10] = 0;
        r[11] = 0;
        byte[] a = {(byte) 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1};
        System.arraycopy(a, 0, r, n, a.length);
        return r;
    }

    /** Pushes a line every 30 s to each client. */
    static int pushServer() throws Exception {
        ServerSocket ss = new ServerSocket();
        ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    Socket s = ss.accept();
                    Thread c = new Thread(() -> {
                        try (s) {
                            OutputStream out = s.getOutputStream();
                            while (true) {
                                pause(30000);
                                out.write("tick\n".getBytes(StandardCharsets.UTF_8));
                                out.flush();
                            }
                        } catch (Exception e) {
                            // closed
                        }
                    }, "push-conn");
                    c.setDaemon(true);
                    c.start();
                } catch (Exception e) {
                    return;
                }
            }
        }, "push-acceptor");
        t.setDaemon(true);
        t.start();
        return ss.getLocalPort();
    }
}
