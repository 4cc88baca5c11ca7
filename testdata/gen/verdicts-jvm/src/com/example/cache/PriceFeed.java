package com.example.cache;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/** Reads a price snapshot from the feed server: no read timeout, so a silent feed blocks it. */
final class PriceFeed {
    private final InetSocketAddress address;

    PriceFeed(InetSocketAddress address) {
        this.address = address;
    }

    byte[] fetchSnapshot() throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(address, 2_000);
            InputStream in = socket.getInputStream();
            byte[] buf = new byte[4096];
            int n = in.read(buf); // the feed never answers: blocks here
            return n < 0 ? new byte[0] : java.util.Arrays.copyOf(buf, n);
        }
    }
}
