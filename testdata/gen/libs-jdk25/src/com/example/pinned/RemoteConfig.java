package com.example.pinned;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Settings fetched from the config service while the class initializes: the first thread to
 * touch the class reads from the socket inside {@code <clinit>}, and every other thread waits
 * for that initialization to finish. The port comes from the system property config.port.
 */
final class RemoteConfig {
    static final int MAX_ITEMS = fetch(Integer.getInteger("config.port"));

    private RemoteConfig() {
    }

    static int maxItems() {
        return MAX_ITEMS;
    }

    private static int fetch(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            socket.getOutputStream().write("GET /config/max-items\n".getBytes());
            InputStream in = socket.getInputStream();
            return in.read(); // the config service never answers
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
