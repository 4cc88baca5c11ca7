package com.example.upstream;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * An upstream that accepts every connection on 127.0.0.1 and never writes a byte: a client
 * reading from it waits in its socket read until the connection is closed. It runs in its own
 * JVM so that its threads are in none of the dumps. Prints "listening PORT" once bound.
 *
 * Usage: java com.example.upstream.SilentUpstream
 */
public final class SilentUpstream {
    public static void main(String[] args) throws Exception {
        List<Socket> open = new ArrayList<>();
        try (ServerSocket server = new ServerSocket(0, 512, InetAddress.getLoopbackAddress())) {
            System.out.println("listening " + server.getLocalPort());
            System.out.flush();
            while (true) {
                open.add(server.accept()); // kept open, never read or written
            }
        }
    }
}
