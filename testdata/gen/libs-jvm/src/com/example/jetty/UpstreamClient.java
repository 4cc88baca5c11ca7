package com.example.jetty;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/** Calls the upstream with HttpURLConnection: a connect timeout but no read timeout (the bug). */
final class UpstreamClient {
    private final URL url;

    UpstreamClient(String url) throws IOException {
        this.url = new URL(url);
    }

    String fetch() throws IOException {
        HttpURLConnection c = (HttpURLConnection) url.openConnection();
        c.setConnectTimeout(2000);
        // no setReadTimeout: a silent upstream holds the request thread for ever
        try (InputStream in = c.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
