package com.example.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A kept-alive connection to a backend that pushes events when it has some: its reader thread
 * sits in a socket read while the backend is quiet. That is healthy idling, not a hang.
 */
final class BackendConnection {
    private final InetSocketAddress address;
    private long eventBytes;

    BackendConnection(InetSocketAddress address) {
        this.address = address;
    }

    void readLoop() throws IOException {
        try (Socket socket = new Socket()) {
            socket.setKeepAlive(true);
            socket.connect(address, 2_000);
            InputStream in = socket.getInputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) >= 0) { // waits for the next pushed event
                eventBytes += n;
            }
        }
    }
}
