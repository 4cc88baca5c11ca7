package com.example.clients;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Timer;
import java.util.TimerTask;

/**
 * A second program of an application's own client waits (issue 33), with real libraries: a
 * {@code java.util.Timer} job that queries PostgreSQL over JDBC (pgjdbc), and a lookup loop that
 * resolves a name with {@code InetAddress.getByName}, through the C library's resolver, at a DNS
 * server this program runs on 127.0.0.1:53 (the script runs it in a mount namespace whose
 * resolv.conf names only 127.0.0.1, with the resolver's timeout at 30 s and 5 attempts).
 *
 * <p>stuck: the nightly query is {@code SELECT pg_sleep(3600)} (a query that does not come back),
 * the DNS server receives and never answers. healthy: {@code SELECT 1} every second, and the DNS
 * server answers at once. A {@code udp-listener} thread receives datagrams in its own loop in both
 * modes (a rest). Prints "ready" once every thread is started.
 *
 * <p>Arguments: MODE JDBC-URL.
 */
public class NightlyJobsApp {
    public static void main(String[] args) throws Exception {
        boolean healthy = args[0].equals("healthy");
        String url = args[1];
        dnsServer(healthy);
        listener();
        Timer timer = new Timer("nightly-report");
        timer.schedule(new Report(url, healthy ? "SELECT 1" : "SELECT pg_sleep(3600)"), 0, 1000);
        Thread lookups = new Thread(() -> {
            while (true) {
                Resolve.once("db.internal");
                ClientWaitsApp.pause(500);
            }
        }, "service-lookup");
        lookups.start();
        System.out.println("ready");
        lookups.join();
    }

    /** The timer's job: one query a run. */
    static final class Report extends TimerTask {
        final String url;
        final String sql;

        Report(String url, String sql) {
            this.url = url;
            this.sql = sql;
        }

        public void run() {
            try {
                query();
            } catch (Exception e) {
                System.err.println("report: " + e);
            }
        }

        int query() throws Exception {
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                return n;
            }
        }
    }

    static final class Resolve {
        static String once(String name) {
            try {
                return InetAddress.getByName(name).getHostAddress();
            } catch (Exception e) {
                return null;
            }
        }
    }

    /** A DNS server on 127.0.0.1:53 (UDP): answers A queries with 127.0.0.1 when healthy. */
    static void dnsServer(boolean answer) throws Exception {
        DatagramSocket ds = new DatagramSocket(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 53));
        Thread t = new Thread(() -> {
            byte[] buf = new byte[512];
            while (true) {
                try {
                    DatagramPacket p = new DatagramPacket(buf, buf.length);
                    ds.receive(p);
                    if (answer) {
                        byte[] reply = ClientWaitsApp.dnsReply(buf, p.getLength());
                        ds.send(new DatagramPacket(reply, reply.length, p.getSocketAddress()));
                    }
                } catch (Exception e) {
                    return;
                }
            }
        }, "dns-server");
        t.setDaemon(true);
        t.start();
    }

    /** A UDP listener (a syslog-like receiver) in its own loop: a rest. */
    static void listener() throws Exception {
        DatagramSocket ds = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread t = new Thread(() -> {
            byte[] buf = new byte[2048];
            while (true) {
                try {
                    ds.receive(new DatagramPacket(buf, buf.length));
                } catch (Exception e) {
                    return;
                }
            }
        }, "udp-listener");
        t.setDaemon(true);
        t.start();
    }
}
