package com.example.shop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * "My page": the user's recommendations and coupons, fetched in parallel from the upstream.
 * A widget that is not there within the timeout is left out, so the page still answers.
 */
public final class MyPageService {
    private final UpstreamClient upstream;
    private final Executor executor; // null = CompletableFuture's default async executor
    private final long timeoutMillis;

    public MyPageService(UpstreamClient upstream, Executor executor, long timeoutMillis) {
        this.upstream = upstream;
        this.executor = executor;
        this.timeoutMillis = timeoutMillis;
    }

    public String load(String userId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        CompletableFuture<String> recommendations = async(() -> fetchWidget("/recommendations/" + userId));
        CompletableFuture<String> coupons = async(() -> fetchWidget("/coupons/" + userId));
        return "{\"user\":\"" + userId + "\",\"recommendations\":" + orEmpty(recommendations, deadline)
                + ",\"coupons\":" + orEmpty(coupons, deadline) + "}\n";
    }

    private String fetchWidget(String path) {
        try {
            return upstream.fetch(path).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private CompletableFuture<String> async(java.util.function.Supplier<String> widget) {
        if (executor == null) {
            return CompletableFuture.supplyAsync(widget);
        }
        return CompletableFuture.supplyAsync(widget, executor)
                .orTimeout(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** The widget's JSON, or [] when it failed or is not there by the deadline (System.nanoTime). */
    private String orEmpty(CompletableFuture<String> widget, long deadline) throws InterruptedException {
        try {
            if (executor == null) {
                return widget.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            return widget.get(); // orTimeout completes it exceptionally after timeoutMillis
        } catch (ExecutionException | TimeoutException e) {
            return "[]";
        }
    }
}
