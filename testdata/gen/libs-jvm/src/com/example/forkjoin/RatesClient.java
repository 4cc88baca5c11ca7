package com.example.forkjoin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Asks the upstream for a rate over a plain socket, with no read timeout. */
final class RatesClient {
    private final int port;

    RatesClient(int port) {
        this.port = port;
    }

    String rate(String currency) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.getOutputStream().write(("RATE " + currency + "\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            return new String(in.readNBytes(8), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
