package com.example.borrow;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Pools borrowed from by structure (issue 33): a pool of POOL items lent to holders that call a
 * 127.0.0.1 upstream while they hold one, and more workers than items asking for one.
 *
 * <pre>
 *   BorrowApp upstream DELAY            the rates service on 127.0.0.1: answers after DELAY ms, never if < 0
 *   BorrowApp tomcat-dbcp-stuck PORT    Tomcat's repackaged DBCP2/pool2 (org.apache.tomcat.dbcp), maxTotal 4
 *   BorrowApp dbcp1-stuck PORT          commons-dbcp 1.4 on commons-pool 1.6, maxActive 4
 *   BorrowApp shaded-pool2-stuck PORT   Tomcat's repackaged pool2 lending objects (no JDBC), maxTotal 3
 *   BorrowApp *-healthy PORT            the same pool, requests every 80 ms, the upstream answering in 100 ms
 * </pre>
 *
 * Stuck: the upstream never answers; POOL+6 workers each render one report, the first POOL hold
 * every item and read for ever (no timeout), the other 6 wait in the pool's borrow for ever.
 * Healthy: the upstream answers in 100 ms; a request every 80 ms runs on a pool of POOL+2 workers,
 * which rest in the executor between requests: the pool is busy, now and then a request waits a
 * moment for an item and gets it.
 */
public final class BorrowApp {
    static final int POOL_DB = 4, POOL_OBJ = 3;

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        if (mode.equals("upstream")) {
            // The rates service, a process of its own (its threads are not in the dumps).
            Upstream up = new Upstream(Integer.parseInt(args[1]));
            System.out.println("port " + up.port);
            Thread.sleep(Long.MAX_VALUE);
        }
        int port = Integer.parseInt(args[1]);
        boolean healthy = mode.endsWith("-healthy");
        String kind = mode.substring(0, mode.lastIndexOf('-'));
        int size = kind.equals("shaded-pool2") ? POOL_OBJ : POOL_DB;
        Lender lender = lender(kind, size);
        if (healthy) {
            // Requests arrive every 80 ms, each holding an item for the upstream's 100 ms: about
            // 1.25 items lent on average, a request now and then waiting a moment for one.
            ExecutorService pool = Executors.newFixedThreadPool(size + 2, named("report-worker-"));
            ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor(named("load-"));
            load.scheduleAtFixedRate(() -> pool.submit(() -> {
                new ReportService(lender, port).render();
                return null;
            }), 0, 80, TimeUnit.MILLISECONDS);
        } else {
            int workers = size + 6;
            ExecutorService pool = Executors.newFixedThreadPool(workers, named("report-worker-"));
            for (int i = 0; i < workers; i++) {
                pool.submit(() -> {
                    new ReportService(lender, port).render();
                    return null;
                });
                if (i == size - 1) {
                    Thread.sleep(500); // the holders first: every item lent before the others ask
                }
            }
        }
        Thread.sleep(1000);
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Lends one item for the duration of a call and takes it back. */
    interface Lender {
        Object borrow() throws Exception;

        void giveBack(Object item) throws Exception;
    }

    static Lender lender(String kind, int size) throws Exception {
        switch (kind) {
            case "tomcat-dbcp": {
                DriverManager.registerDriver(new SilentDriver());
                org.apache.tomcat.dbcp.dbcp2.BasicDataSource ds = new org.apache.tomcat.dbcp.dbcp2.BasicDataSource();
                ds.setDriverClassName(SilentDriver.class.getName());
                ds.setUrl("jdbc:silent:reports");
                ds.setMaxTotal(size);
                ds.setMaxIdle(size);
                ds.setMaxWaitMillis(-1); // the default: wait for ever
                return dataSource(ds);
            }
            case "dbcp1": {
                DriverManager.registerDriver(new SilentDriver());
                org.apache.commons.dbcp.BasicDataSource ds = new org.apache.commons.dbcp.BasicDataSource();
                ds.setDriverClassName(SilentDriver.class.getName());
                ds.setUrl("jdbc:silent:reports");
                ds.setMaxActive(size);
                ds.setMaxIdle(size);
                ds.setMaxWait(-1); // the default: wait for ever
                return dataSource(ds);
            }
            case "shaded-pool2": {
                org.apache.tomcat.dbcp.pool2.impl.GenericObjectPoolConfig<StringBuilder> cfg =
                        new org.apache.tomcat.dbcp.pool2.impl.GenericObjectPoolConfig<>();
                cfg.setMaxTotal(size);
                cfg.setMaxWait(java.time.Duration.ofMillis(-1));
                org.apache.tomcat.dbcp.pool2.impl.GenericObjectPool<StringBuilder> p =
                        new org.apache.tomcat.dbcp.pool2.impl.GenericObjectPool<>(
                                new org.apache.tomcat.dbcp.pool2.PooledObjectFactory<StringBuilder>() {
                                    public org.apache.tomcat.dbcp.pool2.PooledObject<StringBuilder> makeObject() {
                                        return new org.apache.tomcat.dbcp.pool2.impl.DefaultPooledObject<>(new StringBuilder(1 << 16));
                                    }

                                    public void activateObject(org.apache.tomcat.dbcp.pool2.PooledObject<StringBuilder> p) {
                                    }

                                    public void passivateObject(org.apache.tomcat.dbcp.pool2.PooledObject<StringBuilder> p) {
                                    }

                                    public void destroyObject(org.apache.tomcat.dbcp.pool2.PooledObject<StringBuilder> p) {
                                    }

                                    public boolean validateObject(org.apache.tomcat.dbcp.pool2.PooledObject<StringBuilder> p) {
                                        return true;
                                    }
                                }, cfg);
                return new Lender() {
                    public Object borrow() throws Exception {
                        return p.borrowObject();
                    }

                    @SuppressWarnings("unchecked")
                    public void giveBack(Object item) {
                        p.returnObject((StringBuilder) item);
                    }
                };
            }
            default:
                throw new IllegalArgumentException("unknown mode " + kind);
        }
    }

    static Lender dataSource(DataSource ds) {
        return new Lender() {
            public Object borrow() throws Exception {
                return ds.getConnection();
            }

            public void giveBack(Object item) throws Exception {
                ((Connection) item).close();
            }
        };
    }

    /** The application: a report rendered with a pooled item in hand while the upstream answers. */
    static final class ReportService {
        final Lender lender;
        final int port;

        ReportService(Lender lender, int port) {
            this.lender = lender;
            this.port = port;
        }

        void render() throws Exception {
            Object item = lender.borrow();
            try {
                fetchRates();
            } finally {
                lender.giveBack(item);
            }
        }

        /** A call to the rates service with no read timeout. */
        void fetchRates() throws Exception {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                OutputStream out = s.getOutputStream();
                out.write("rates\n".getBytes());
                out.flush();
                InputStream in = s.getInputStream();
                while (in.read() != '\n') {
                    // the answer's line
                }
            }
        }
    }

    /** The rates service: answers after delay ms, or never (delay < 0). */
    static final class Upstream {
        final int port;

        Upstream(int delay) throws Exception {
            ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            port = ss.getLocalPort();
            Thread t = new Thread(() -> {
                while (true) {
                    try {
                        Socket s = ss.accept();
                        Thread h = new Thread(() -> serve(s, delay), "rates-conn");
                        h.setDaemon(true);
                        h.start();
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "rates-acceptor");
            t.setDaemon(true);
            t.start();
        }

        static void serve(Socket s, int delay) {
            try (s) {
                InputStream in = s.getInputStream();
                while (in.read() != '\n') {
                    // the request's line
                }
                if (delay < 0) {
                    Thread.sleep(Long.MAX_VALUE); // silent: never answers
                }
                Thread.sleep(delay);
                s.getOutputStream().write("1.0\n".getBytes());
            } catch (Exception e) {
                // the client went away
            }
        }
    }

    static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> new Thread(r, prefix + n.incrementAndGet());
    }

    /** A JDBC driver of our own whose connections do nothing: no database needed. */
    public static final class SilentDriver implements Driver {
        public Connection connect(String url, Properties info) {
            if (!acceptsURL(url)) {
                return null;
            }
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                    (proxy, m, a) -> {
                        Class<?> r = m.getReturnType();
                        switch (m.getName()) {
                            case "isValid":
                            case "getAutoCommit":
                                return true;
                            case "isClosed":
                            case "isReadOnly":
                                return false;
                            case "hashCode":
                                return System.identityHashCode(proxy);
                            case "equals":
                                return proxy == a[0];
                            case "toString":
                                return "SilentConnection";
                        }
                        if (r == boolean.class) return false;
                        if (r == int.class) return 0;
                        if (r == long.class) return 0L;
                        return null;
                    });
        }

        public boolean acceptsURL(String url) {
            return url != null && url.startsWith("jdbc:silent:");
        }

        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
            return new DriverPropertyInfo[0];
        }

        public int getMajorVersion() {
            return 1;
        }

        public int getMinorVersion() {
            return 0;
        }

        public boolean jdbcCompliant() {
            return false;
        }

        public Logger getParentLogger() {
            return Logger.getGlobal();
        }
    }
}
