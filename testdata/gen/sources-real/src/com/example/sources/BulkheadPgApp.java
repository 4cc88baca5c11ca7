package com.example.sources;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.Semaphore;

/**
 * A Semaphore bulkhead of 3 permits in front of a real PostgreSQL, reached through HikariCP and
 * PgJDBC (issue 33: a second, independent source for the permit-holders rule). Eight reporters
 * take a permit, run a report query, give the permit back. "stuck": the query is
 * pg_sleep(600), the three holders wait on the database and five reporters wait for a permit;
 * "healthy": pg_sleep(0.02), permits turn over.
 *
 * Usage: BulkheadPgApp stuck|healthy JDBC-URL USER
 */
public final class BulkheadPgApp {
    private final Semaphore bulkhead = new Semaphore(3);
    private final HikariDataSource pool;
    private final String query;

    BulkheadPgApp(HikariDataSource pool, String query) {
        this.pool = pool;
        this.query = query;
    }

    void report() throws Exception {
        bulkhead.acquire();
        try {
            runReport();
        } finally {
            bulkhead.release();
        }
    }

    void runReport() throws Exception {
        try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
            st.execute(query);
        }
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(args[1]);
        cfg.setUsername(args[2]);
        cfg.setMaximumPoolSize(10);
        cfg.setMinimumIdle(10);
        cfg.setPoolName("reports");
        HikariDataSource pool = new HikariDataSource(cfg);
        BulkheadPgApp app = new BulkheadPgApp(pool, stuck ? "SELECT pg_sleep(600)" : "SELECT pg_sleep(0.02)");
        Thread[] reporters = new Thread[8];
        for (int i = 0; i < reporters.length; i++) {
            reporters[i] = new Thread(() -> {
                try {
                    while (true) {
                        app.report();
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                }
            }, "report-" + (i + 1));
            reporters[i].start();
        }
        Thread.sleep(500);
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }
}
