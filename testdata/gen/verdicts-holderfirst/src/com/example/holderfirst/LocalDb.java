package com.example.holderfirst;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A database stand-in on 127.0.0.1, run as a process of its own (as a
 * database is: none of its threads is in the dumped program's dumps):
 * `java com.example.holderfirst.LocalDb REPLY_MS` prints "port N", then
 * answers each query line after REPLY_MS, or, when REPLY_MS < 0, accepts
 * and never reads nor answers (a database that hangs). Conn is the
 * client side, in the dumped program.
 */
public final class LocalDb {
    public static void main(String[] args) throws IOException {
        int replyMs = Integer.parseInt(args[0]);
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        System.out.println("port " + server.getLocalPort());
        System.out.flush();
        List<Socket> hung = new ArrayList<>();
        while (true) {
            Socket s = server.accept();
            if (replyMs < 0) {
                hung.add(s); // kept open, never read, never answered
                continue;
            }
            Thread session = new Thread(() -> serve(s, replyMs));
            session.setDaemon(true);
            session.start();
        }
    }

    private static void serve(Socket s, int replyMs) {
        try (s; BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8))) {
            OutputStream out = s.getOutputStream();
            while (in.readLine() != null) {
                Thread.sleep(replyMs);
                out.write("ok\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the client went away
        }
    }

    /** A client connection to the port: query sends a line and reads the reply line. */
    static final class Conn {
        final Socket s;
        final BufferedReader in;

        Conn(int port) throws IOException {
            s = new Socket(InetAddress.getLoopbackAddress(), port);
            in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        }

        String query(String q) throws IOException {
            s.getOutputStream().write((q + "\n").getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            return in.readLine();
        }
    }
}
