package com.example.onedump;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * Small programs for what one dump and few threads can say (issue 33). Each prints "ready"
 * once its threads are where the mode puts them.
 *
 * <pre>
 * read-alone         main reads a quote from a peer (127.0.0.1) that accepted and never writes:
 *                    a plain Socket, no read timeout (QuoteClient.fetch); nothing else runs
 * read-pool-stuck    a fixed pool of 8 "ingest-worker"s: 2 tasks read a peer that never writes
 *                    (IngestClient.pull, no timeout), 6 workers idle; a peer thread of its own
 *                    that accepted and waits
 * read-pool-healthy  the same pool: 2 tasks read a peer that answers a line every 100 ms, for ever
 * pool-c3p0 | pool-dbcp2 | pool-tomcat
 *                    a DB pool of 2 connections (c3p0, DBCP2, Tomcat JDBC; FakeDriver): 2
 *                    "report-holder"s each hold one and sleep; then 1 "report-worker" asks for
 *                    a third and waits for ever (no checkout timeout)
 * pool-healthy-c3p0 | pool-healthy-dbcp2 | pool-healthy-tomcat
 *                    the same pool of 2; 3 "report-worker"s each borrow for 2 ms and pause 20 ms
 * </pre>
 */
public final class OneDumpApp {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        switch (mode) {
            case "read-alone" -> readAlone();
            case "read-pool-stuck" -> readPool(false);
            case "read-pool-healthy" -> readPool(true);
            default -> {
                if (mode.startsWith("pool-healthy-")) poolHealthy(dataSource(mode.substring("pool-healthy-".length())));
                else if (mode.startsWith("pool-")) poolStuck(dataSource(mode.substring("pool-".length())));
                else throw new IllegalArgumentException(mode);
            }
        }
    }

    // --- class 1: a read with no timeout.

    static void readAlone() throws Exception {
        ServerSocket peer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), peer.getLocalPort());
        Socket accepted = peer.accept(); // kept open, never written to
        System.out.println("ready");
        System.out.flush();
        System.out.println(QuoteClient.fetch(client) + accepted);
    }

    static final class QuoteClient {
        static String fetch(Socket s) throws Exception {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            return in.readLine();
        }
    }

    static void readPool(boolean answers) throws Exception {
        ServerSocket peer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread server = new Thread(() -> {
            try {
                while (true) {
                    Socket s = peer.accept();
                    if (answers) {
                        Thread w = new Thread(() -> answer(s), "peer-writer");
                        w.setDaemon(true);
                        w.start();
                    }
                }
            } catch (Exception e) {
                e.printStackTrace();
            }
        }, "peer-acceptor");
        server.setDaemon(true);
        server.start();
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8, r -> new Thread(r, "ingest-worker-" + n.incrementAndGet()));
        for (int i = 0; i < 8; i++) pool.submit(() -> { }); // start all 8 workers
        for (int i = 0; i < 2; i++) {
            pool.submit(() -> {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), peer.getLocalPort())) {
                    IngestClient.pull(s);
                } catch (Exception e) {
                    e.printStackTrace();
                }
                return null;
            });
        }
        Thread.sleep(500);
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    static void answer(Socket s) {
        try {
            OutputStream out = s.getOutputStream();
            while (true) {
                Thread.sleep(100);
                out.write("row\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (Exception e) {
            e.printStackTrace();
        }
    }

    static final class IngestClient {
        static void pull(Socket s) throws Exception {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            long rows = 0;
            while (in.readLine() != null) rows++;
            System.out.println("rows " + rows);
        }
    }

    // --- class 2: a pool wait with one waiter.

    static DataSource dataSource(String kind) throws Exception {
        Class.forName("com.example.onedump.FakeDriver");
        String url = "jdbc:onedump:reports";
        switch (kind) {
            case "c3p0" -> {
                com.mchange.v2.c3p0.ComboPooledDataSource ds = new com.mchange.v2.c3p0.ComboPooledDataSource();
                ds.setDriverClass("com.example.onedump.FakeDriver");
                ds.setJdbcUrl(url);
                ds.setMinPoolSize(2);
                ds.setInitialPoolSize(2);
                ds.setMaxPoolSize(2);
                ds.setCheckoutTimeout(0); // wait for ever (the default)
                return ds;
            }
            case "dbcp2" -> {
                org.apache.commons.dbcp2.BasicDataSource ds = new org.apache.commons.dbcp2.BasicDataSource();
                ds.setDriverClassName("com.example.onedump.FakeDriver");
                ds.setUrl(url);
                ds.setMaxTotal(2);
                ds.setMaxWaitMillis(-1); // wait for ever (the default)
                return ds;
            }
            case "tomcat" -> {
                org.apache.tomcat.jdbc.pool.DataSource ds = new org.apache.tomcat.jdbc.pool.DataSource();
                ds.setDriverClassName("com.example.onedump.FakeDriver");
                ds.setUrl(url);
                ds.setInitialSize(2);
                ds.setMaxActive(2);
                ds.setMaxIdle(2);
                ds.setMinIdle(2);
                ds.setMaxWait(Integer.MAX_VALUE); // as good as for ever (Tomcat JDBC has no "never")
                return ds;
            }
            default -> throw new IllegalArgumentException(kind);
        }
    }

    static void poolStuck(DataSource ds) throws Exception {
        for (int i = 1; i <= 2; i++) {
            Thread h = new Thread(() -> ReportService.renderSlowly(ds), "report-holder-" + i);
            h.start();
        }
        Thread.sleep(1000);
        Thread w = new Thread(() -> ReportService.render(ds), "report-worker-1");
        w.start();
        Thread.sleep(1000);
        System.out.println("ready");
        System.out.flush();
        w.join();
    }

    static void poolHealthy(DataSource ds) throws Exception {
        for (int i = 1; i <= 3; i++) {
            Thread w = new Thread(() -> {
                while (true) {
                    ReportService.renderQuick(ds);
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "report-worker-" + i);
            w.start();
        }
        Thread.sleep(1000);
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    static final class ReportService {
        /** Holds a connection for ever (a report that never ends). */
        static void renderSlowly(DataSource ds) {
            try (Connection c = ds.getConnection()) {
                Thread.sleep(Long.MAX_VALUE);
            } catch (Exception e) {
                e.printStackTrace();
            }
        }

        /** Asks for a connection: the pool has none to lend. */
        static void render(DataSource ds) {
            try (Connection c = ds.getConnection()) {
                System.out.println("got " + c);
            } catch (Exception e) {
                e.printStackTrace();
            }
        }

        static void renderQuick(DataSource ds) {
            try (Connection c = ds.getConnection()) {
                Thread.sleep(2);
            } catch (Exception e) {
                e.printStackTrace();
            }
        }
    }
}
