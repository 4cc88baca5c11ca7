package com.example.holders;

import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.log4j.AsyncAppender;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.WriterAppender;

/**
 * log4j 1.2's AsyncAppender with a full buffer (issue 33, "the holder that waits is the root
 * cause"). An AsyncAppender (blocking, a buffer of 16) in front of a WriterAppender that ships
 * lines over TCP to a collector on 127.0.0.1. In "stuck" the collector accepts and never
 * reads: the dispatcher thread blocks in the socket write, the buffer fills, and the first
 * request thread to log after that waits in AsyncAppender.append (buffer.wait()) while it holds
 * the logger's monitor (Category.callAppenders synchronizes on the logger); every other
 * request thread is BLOCKED entering Category.callAppenders. In "healthy" the collector reads
 * everything and the same 36 threads log and work.
 */
public final class Log4j1App {
    static final Logger LOG = Logger.getLogger("com.example.holders.OrderService");

    public static void main(String[] args) throws Exception {
        boolean stuck = args.length > 0 && args[0].equals("stuck");
        ServerSocket collector = new ServerSocket();
        collector.setReceiveBufferSize(4096);
        collector.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(() -> collect(collector, !stuck), "log-collector");
        acceptor.setDaemon(true);
        acceptor.start();

        Socket s = new Socket();
        s.setSendBufferSize(4096);
        s.connect(collector.getLocalSocketAddress());
        WriterAppender wire = new WriterAppender(new PatternLayout("%d %t %p %c - %m%n"),
                new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8));
        wire.setImmediateFlush(true);
        wire.setName("wire");
        AsyncAppender async = new AsyncAppender();
        async.setBufferSize(16);
        async.setBlocking(true);
        async.setName("ASYNC");
        async.addAppender(wire);
        LOG.addAppender(async);
        LOG.setAdditivity(false);

        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(36,
                r -> new Thread(r, "request-worker-" + n.incrementAndGet()));
        // Requests arrive every 2 ms (500 a second); a worker takes 20 ms and a log line each:
        // about 10 of the 36 are busy while the log keeps up.
        Thread acceptor2 = new Thread(() -> {
            String pad = "x".repeat(400);
            for (long id = 0; ; id++) {
                long order = id;
                pool.execute(() -> OrderService.place(order, pad));
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "request-acceptor");
        acceptor2.setDaemon(true);
        acceptor2.start();
        Thread.sleep(1500);
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }

    static void collect(ServerSocket ss, boolean read) {
        try {
            Socket c = ss.accept();
            if (!read) {
                Thread.sleep(Long.MAX_VALUE); // accepted, never read: the sender's write blocks
            }
            InputStream in = c.getInputStream();
            byte[] buf = new byte[8192];
            while (in.read(buf) >= 0) {
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    static final class OrderService {
        static void place(long id, String pad) {
            try {
                Thread.sleep(20); // the order's work
            } catch (InterruptedException e) {
                return;
            }
            LOG.info("placed order " + id + " " + pad);
        }
    }
}
