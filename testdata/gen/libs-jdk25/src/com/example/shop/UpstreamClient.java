package com.example.shop;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/** Asks the inventory upstream for a product; no read timeout, so a silent upstream blocks it. */
final class UpstreamClient {
    private final int port;

    UpstreamClient(int port) {
        this.port = port;
    }

    int fetch(int productId) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            socket.getOutputStream().write(("GET /product/" + productId + "\n").getBytes());
            InputStream in = socket.getInputStream();
            return in.read(); // the upstream never answers
        }
    }
}
