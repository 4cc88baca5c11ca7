package com.example.http4;

import com.example.util.Threads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;

/**
 * Apache HttpClient 4.5 with a PoolingHttpClientConnectionManager of 4 connections per route
 * (20 in all) and the default RequestConfig (no socket timeout, no connection-request
 * timeout). 20 threads "hc4-caller-N" each GET the silent upstream: 4 lease a connection and
 * block in the socket read, the other 16 wait for a connection in the pool.
 *
 * Usage: java com.example.http4.Http4App UPSTREAM-PORT
 */
public final class Http4App {
    public static void main(String[] args) throws Exception {
        PoolingHttpClientConnectionManager cm = new PoolingHttpClientConnectionManager();
        cm.setMaxTotal(20);
        cm.setDefaultMaxPerRoute(4);
        CloseableHttpClient client = HttpClients.custom().setConnectionManager(cm).build();
        String url = "http://127.0.0.1:" + args[0] + "/inventory";
        ExecutorService callers = Executors.newFixedThreadPool(20, Threads.named("hc4-caller-", false));
        for (int i = 0; i < 20; i++) {
            callers.submit(() -> InventoryClient.fetch(client, url));
        }
        Threads.awaitShutdown();
    }
}
