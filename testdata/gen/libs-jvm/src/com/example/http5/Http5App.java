package com.example.http5;

import com.example.util.Threads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;

/**
 * Apache HttpClient 5.2 classic with a PoolingHttpClientConnectionManager of 4 connections
 * per route (20 in all), the given PoolConcurrencyPolicy (STRICT: StrictConnPool, LAX:
 * LaxConnPool) and the default timeouts. 20 threads "hc5-caller-N" each GET the silent
 * upstream: 4 lease a connection and block in the socket read, 16 wait for a connection.
 *
 * Usage: java com.example.http5.Http5App UPSTREAM-PORT STRICT|LAX
 */
public final class Http5App {
    public static void main(String[] args) throws Exception {
        PoolingHttpClientConnectionManager cm = PoolingHttpClientConnectionManagerBuilder.create()
                .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.valueOf(args[1]))
                .setMaxConnPerRoute(4)
                .setMaxConnTotal(20)
                .build();
        CloseableHttpClient client = HttpClients.custom().setConnectionManager(cm).build();
        String url = "http://127.0.0.1:" + args[0] + "/inventory";
        ExecutorService callers = Executors.newFixedThreadPool(20, Threads.named("hc5-caller-", false));
        for (int i = 0; i < 20; i++) {
            callers.submit(() -> InventoryClient.fetch(client, url));
        }
        Threads.awaitShutdown();
    }
}
