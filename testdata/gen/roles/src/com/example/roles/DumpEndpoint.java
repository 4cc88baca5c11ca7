package com.example.roles;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import javax.management.ObjectName;

/**
 * A service that serves its own thread dump, as Spring Boot's /actuator/threaddump does:
 * GET /threaddump runs ThreadMXBean.dumpAllThreads on an HTTP worker and writes each
 * ThreadInfo. Its four workers (dump-http-1..4, a fixed pool) rest between requests; the one
 * serving the request is in ThreadImpl.dumpThreads0 when the snapshot is taken. Nothing else
 * runs: a healthy process whose dump shows its own writer. GET /threadprint asks the JVM's
 * DiagnosticCommand MBean for Thread.print (what jcmd prints, as a JMX console asks it): a
 * jstack-format dump whose writer is the worker in DiagnosticCommandImpl.
 */
public class DumpEndpoint {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        int[] n = {0};
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "dump-http-" + (++n[0]));
            return t;
        }));
        server.createContext("/threaddump", ex -> {
            StringBuilder b = new StringBuilder();
            for (ThreadInfo ti : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
                b.append(ti.toString());
            }
            byte[] body = b.toString().getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(body);
            }
        });
        server.createContext("/threadprint", ex -> {
            byte[] body;
            try {
                Object text = ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "threadPrint",
                    new Object[] {new String[] {"-l"}}, new String[] {String[].class.getName()});
                body = ((String) text).getBytes(StandardCharsets.UTF_8);
            } catch (Exception e) {
                body = e.toString().getBytes(StandardCharsets.UTF_8);
            }
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
        System.out.println("ready");
        Thread.currentThread().join();
    }
}
