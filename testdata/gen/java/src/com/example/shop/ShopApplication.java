package com.example.shop;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import jakarta.servlet.http.HttpServlet;
import java.io.File;
import java.nio.file.Files;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.Context;
import org.apache.catalina.core.StandardThreadExecutor;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/** The shop: embedded Tomcat 10.1 with product, my-page, order, ping and health endpoints. */
public final class ShopApplication {
    private ShopApplication() {}

    public static void main(String[] args) throws Exception {
        ShopConfig cfg = ShopConfig.fromSystemProperties();

        Tomcat tomcat = new Tomcat();
        File base = Files.createTempDirectory("shop-tomcat").toFile();
        tomcat.setBaseDir(base.getAbsolutePath());

        // Bound to loopback only. A named executor keeps the usual http-nio-PORT-exec-N
        // thread names (Tomcat would otherwise put the address into them).
        StandardThreadExecutor requestThreads = new StandardThreadExecutor();
        requestThreads.setName("http-nio-" + cfg.port() + "-exec");
        requestThreads.setNamePrefix("http-nio-" + cfg.port() + "-exec-");
        requestThreads.setMaxThreads(cfg.maxThreads());
        requestThreads.setMinSpareThreads(10);
        tomcat.getService().addExecutor(requestThreads);

        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(cfg.port());
        connector.setProperty("address", "127.0.0.1");
        connector.getProtocolHandler().setExecutor(requestThreads);
        connector.setProperty("acceptCount", "1000");
        tomcat.setConnector(connector);

        Context ctx = tomcat.addContext("", base.getAbsolutePath());
        UpstreamClient upstream = new UpstreamClient(cfg.upstreamBase(), cfg.readTimeoutMillis());
        Bulkhead inventoryBulkhead = cfg.bulkheadPermits() > 0
                ? new Bulkhead("inventory", cfg.bulkheadPermits(), cfg.bulkheadWaitMillis())
                : null;
        add(ctx, "/product/*", new ProductServlet(new ProductService(upstream, inventoryBulkhead)));

        ExecutorService myPagePool = null;
        if ("pool".equals(cfg.myPageExecutor())) {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(cfg.myPagePoolSize(), cfg.myPagePoolSize(),
                    0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), new NamedThreadFactory("mypage"));
            pool.prestartAllCoreThreads();
            myPagePool = pool;
        }
        add(ctx, "/mypage/*", new MyPageServlet(new MyPageService(upstream, myPagePool, cfg.myPageTimeoutMillis())));
        add(ctx, "/ping", new PingServlet());

        HikariDataSource dataSource = null;
        if (!cfg.jdbcUrl().isEmpty()) {
            HikariConfig hc = new HikariConfig();
            hc.setPoolName("shop-db");
            hc.setJdbcUrl(cfg.jdbcUrl());
            hc.setUsername(System.getProperty("shop.db.user", "shop"));
            hc.setMaximumPoolSize(cfg.dbPoolSize());
            hc.setMinimumIdle(cfg.dbPoolSize());
            hc.setConnectionTimeout(30_000);
            dataSource = new HikariDataSource(hc);
            add(ctx, "/orders/*", new OrderServlet(new OrderRepository(dataSource, cfg.orderQuerySeconds())));
        }
        add(ctx, "/health", new HealthServlet(dataSource));

        tomcat.start();
        System.out.println("shop listening on 127.0.0.1:" + cfg.port() + " " + cfg);
        tomcat.getServer().await();
    }

    private static void add(Context ctx, String pattern, HttpServlet servlet) {
        String name = servlet.getClass().getSimpleName();
        Tomcat.addServlet(ctx, name, servlet).addMapping(pattern);
    }
}
