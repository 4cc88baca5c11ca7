package com.example.report;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Fetches report data from the data upstream. The bug: no read timeout (setSoTimeout is never
 * called), so when the upstream accepts but never answers, fetch waits in its read forever.
 */
final class UpstreamClient {
    private final InetSocketAddress address;

    UpstreamClient(InetSocketAddress address) {
        this.address = address;
    }

    byte[] fetch(String path) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(address, 2_000);
            socket.getOutputStream().write(("GET " + path + "\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] buf = new byte[4096];
            int n = in.read(buf); // no timeout: blocks until the upstream answers
            return n < 0 ? new byte[0] : java.util.Arrays.copyOf(buf, n);
        }
    }
}
