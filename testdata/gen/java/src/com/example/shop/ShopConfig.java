package com.example.shop;

/**
 * Settings read from -Dshop.* system properties, so one build serves every scenario.
 *
 * @param port                 HTTP port of the shop (request threads are http-nio-PORT-exec-N)
 * @param maxThreads           Tomcat request threads
 * @param upstreamBase         base URL of the inventory/recommendation service
 * @param readTimeoutMillis    socket read timeout towards the upstream; 0 = none (the JDK default)
 * @param bulkheadPermits      concurrent upstream calls allowed; 0 = no bulkhead
 * @param bulkheadWaitMillis   how long a request waits for a permit before failing fast
 * @param myPageExecutor       "common" (CompletableFuture default) or "pool" (dedicated mypage-N)
 * @param myPagePoolSize       size of the dedicated mypage pool
 * @param myPageTimeoutMillis  how long a request waits for a widget before answering without it
 * @param jdbcUrl              PostgreSQL URL; empty = no database
 * @param dbPoolSize           HikariCP maximumPoolSize
 * @param orderQuerySeconds    how long the "recent orders" report query runs in the database
 */
public record ShopConfig(
        int port,
        int maxThreads,
        String upstreamBase,
        int readTimeoutMillis,
        int bulkheadPermits,
        long bulkheadWaitMillis,
        String myPageExecutor,
        int myPagePoolSize,
        long myPageTimeoutMillis,
        String jdbcUrl,
        int dbPoolSize,
        int orderQuerySeconds) {

    static ShopConfig fromSystemProperties() {
        return new ShopConfig(
                Integer.getInteger("shop.port", 18080),
                Integer.getInteger("shop.maxThreads", 200),
                System.getProperty("shop.upstream", "http://127.0.0.1:18081"),
                Integer.getInteger("shop.upstream.readTimeoutMillis", 0),
                Integer.getInteger("shop.bulkhead.permits", 0),
                Long.getLong("shop.bulkhead.waitMillis", 100L),
                System.getProperty("shop.mypage.executor", "common"),
                Integer.getInteger("shop.mypage.poolSize", 80),
                Long.getLong("shop.mypage.timeoutMillis", 2000L),
                System.getProperty("shop.db.url", ""),
                Integer.getInteger("shop.db.poolSize", 10),
                Integer.getInteger("shop.db.orderQuerySeconds", 5));
    }
}
