package com.example.netty;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;

/** The blocking calls CommandHandler makes on the event loop. */
final class PriceLookup {
    private final int upstreamPort;
    private final CompletableFuture<String> neverCompleted = new CompletableFuture<>();
    private final PriceCache cache = new PriceCache();

    PriceLookup(int upstreamPort) {
        this.upstreamPort = upstreamPort;
    }

    String fetchBlocking() throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
            s.getOutputStream().write("GET /price\n".getBytes());
            InputStream in = s.getInputStream();
            return Integer.toString(in.read()); // no SO_TIMEOUT: blocks for ever
        }
    }

    String awaitQuote() throws Exception {
        return neverCompleted.get();
    }

    String backOff() throws InterruptedException {
        Thread.sleep(3_600_000);
        return "retry";
    }

    String cachedPrice() throws InterruptedException {
        cache.startRefresher();
        return cache.get("sku-1");
    }
}
