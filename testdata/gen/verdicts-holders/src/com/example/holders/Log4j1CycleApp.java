package com.example.holders;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.AsyncAppender;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;

/**
 * log4j 1.2's AsyncAppender deadlocked through its own dispatcher (issue 33; the stall of
 * reload4j issue #75, reproduced here): the root logger's AsyncAppender (blocking, a buffer of 8)
 * sends to an appender that, in "stuck", fails every write and logs the failure through log4j
 * itself. The dispatcher's error log needs the root logger's monitor (Category.callAppenders);
 * a request thread holds it while it waits in AsyncAppender.append for room in the buffer, which
 * only the dispatcher empties. In "healthy" the appender's writes succeed (2 ms each) and it
 * logs nothing.
 */
public final class Log4j1CycleApp {
    static final Logger LOG = Logger.getLogger("com.example.holders.Orders");

    public static void main(String[] args) throws Exception {
        boolean stuck = args.length > 0 && args[0].equals("stuck");
        AsyncAppender async = new AsyncAppender();
        async.setBufferSize(8);
        async.setBlocking(true);
        async.setName("ASYNC");
        async.addAppender(new AuditAppender(stuck));
        Logger.getRootLogger().addAppender(async);
        Logger.getRootLogger().setLevel(Level.INFO);

        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(12, r -> new Thread(r, "request-worker-" + n.incrementAndGet()));
        Thread acceptor = new Thread(() -> {
            for (long id = 0; ; id++) {
                long order = id;
                pool.execute(() -> place(order));
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "request-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        Thread.sleep(1500);
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }

    static void place(long id) {
        try {
            Thread.sleep(10); // the order's work
        } catch (InterruptedException e) {
            return;
        }
        LOG.info("placed order " + id);
    }

    /** Ships events to an audit store; in "stuck" every write fails and is logged. */
    static final class AuditAppender extends AppenderSkeleton {
        static final Logger SELF = Logger.getLogger("com.example.holders.AuditAppender");
        final boolean failing;

        AuditAppender(boolean failing) {
            this.failing = failing;
            setName("audit");
        }

        @Override
        protected void append(LoggingEvent event) {
            try {
                Thread.sleep(2); // the write
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failing) {
                SELF.error("audit write failed for: " + event.getRenderedMessage());
            }
        }

        @Override
        public void close() {
        }

        @Override
        public boolean requiresLayout() {
            return false;
        }
    }
}
