package com.example.poolholders;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A HikariCP pool of 5 connections (maximumPoolSize 5, connectionTimeout 10
 * min) over a stand-in DataSource whose connections do nothing (the database
 * is not what this program is about). 15 request threads (a Tomcat-like
 * "http-nio-8080-exec-N" pool) run OrderController.checkout: it takes a
 * connection, then, still holding it, asks the fraud-check service over a
 * socket with no read timeout (FraudClient.score), then closes the
 * connection.
 *
 * stuck: 15 checkouts at once and a fraud service that never replies: 5
 * threads hold the 5 connections in a socket read under FraudClient.score,
 * 10 wait in HikariPool.getConnection under OrderController.checkout.
 *
 * healthy: 100 checkouts a second, the service replying in 20 ms: about 2 of
 * the 5 connections in use, the holders change from moment to moment.
 */
public final class OrderController {
    static final class FraudClient {
        private final String addr;

        FraudClient(String addr) {
            this.addr = addr;
        }

        String score(int order) throws Exception {
            return Named.ask(addr, "score " + order);
        }
    }

    private final DataSource ds;
    private final FraudClient fraud;

    OrderController(DataSource ds, FraudClient fraud) {
        this.ds = ds;
        this.fraud = fraud;
    }

    String checkout(int order) throws Exception {
        try (Connection c = ds.getConnection()) {
            String verdict = fraud.score(order);
            return verdict + " " + c.getAutoCommit();
        }
    }

    /** Connections that answer every call with a default value. */
    static DataSource standIn() {
        return (DataSource) Proxy.newProxyInstance(OrderController.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (p, m, a) -> {
                    switch (m.getName()) {
                    case "getConnection":
                        return connection();
                    case "getLoginTimeout":
                        return 0;
                    case "getLogWriter":
                        return new PrintWriter(System.err);
                    case "getParentLogger":
                        return Logger.getGlobal();
                    case "isWrapperFor":
                        return false;
                    default:
                        return null;
                    }
                });
    }

    static Connection connection() {
        return (Connection) Proxy.newProxyInstance(OrderController.class.getClassLoader(), new Class<?>[] {Connection.class},
                (p, m, a) -> {
                    switch (m.getName()) {
                    case "isValid":
                    case "getAutoCommit":
                        return true;
                    case "getTransactionIsolation":
                        return Connection.TRANSACTION_READ_COMMITTED;
                    case "hashCode":
                        return System.identityHashCode(p);
                    case "equals":
                        return p == a[0];
                    case "toString":
                        return "standin@" + Integer.toHexString(System.identityHashCode(p));
                    default:
                        Class<?> r = m.getReturnType();
                        if (r == boolean.class) {
                            return false;
                        }
                        if (r == int.class) {
                            return 0;
                        }
                        if (r == long.class) {
                            return 0L;
                        }
                        return null;
                    }
                });
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        HikariConfig cfg = new HikariConfig();
        cfg.setDataSource(standIn());
        cfg.setMaximumPoolSize(5);
        cfg.setMinimumIdle(5);
        cfg.setConnectionTimeout(600_000);
        cfg.setPoolName("orders");
        HikariDataSource ds = new HikariDataSource(cfg);
        OrderController ctl = new OrderController(ds, new FraudClient(args[1]));
        ExecutorService exec = Executors.newFixedThreadPool(15, new Named("http-nio-8080-exec-"));
        Runnable one = () -> {
            try {
                ctl.checkout((int) (System.nanoTime() % 1000));
            } catch (Exception e) {
                e.printStackTrace();
            }
        };
        if (stuck) {
            for (int i = 0; i < 15; i++) {
                exec.execute(one);
            }
            System.out.println("ready");
            Thread.sleep(Long.MAX_VALUE);
        }
        System.out.println("ready");
        while (true) {
            exec.execute(one);
            Thread.sleep(10);
        }
    }
}
