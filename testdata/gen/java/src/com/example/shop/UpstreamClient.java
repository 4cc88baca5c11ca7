package com.example.shop;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/** Calls the inventory / recommendation service over plain HTTP with HttpURLConnection. */
public final class UpstreamClient {
    private final String baseUrl;
    private final int readTimeoutMillis;

    /** readTimeoutMillis 0 means "no read timeout", which is HttpURLConnection's default. */
    public UpstreamClient(String baseUrl, int readTimeoutMillis) {
        this.baseUrl = baseUrl;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    public String fetch(String path) throws IOException {
        HttpURLConnection conn = (HttpURLConnection) new URL(baseUrl + path).openConnection();
        conn.setConnectTimeout(1000);
        conn.setReadTimeout(readTimeoutMillis);
        conn.setRequestProperty("Accept", "application/json");
        int status = conn.getResponseCode();
        try (InputStream in = status < 400 ? conn.getInputStream() : conn.getErrorStream()) {
            String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (status >= 400) {
                throw new IOException("upstream " + path + ": HTTP " + status);
            }
            return body;
        }
    }
}
