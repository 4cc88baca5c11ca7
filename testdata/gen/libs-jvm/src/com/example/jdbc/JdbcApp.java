package com.example.jdbc;

import com.example.util.Threads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Five threads "pg-query-N" each run SELECT pg_sleep(60) in a loop on their own connection
 * of the PostgreSQL JDBC driver, and five "maria-query-N" SELECT SLEEP(60) with the MariaDB
 * driver: all ten wait in the drivers' socket reads for the result.
 *
 * Usage: java com.example.jdbc.JdbcApp PG-URL MARIADB-URL
 */
public final class JdbcApp {
    public static void main(String[] args) throws Exception {
        ExecutorService pg = Executors.newFixedThreadPool(5, Threads.named("pg-query-", false));
        ExecutorService maria = Executors.newFixedThreadPool(5, Threads.named("maria-query-", false));
        for (int i = 0; i < 5; i++) {
            pg.submit(() -> SlowReport.run(args[0], "SELECT pg_sleep(60)"));
            maria.submit(() -> SlowReport.run(args[1], "SELECT SLEEP(60)"));
        }
        Threads.awaitShutdown();
    }
}
