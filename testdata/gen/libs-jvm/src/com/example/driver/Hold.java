package com.example.driver;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A client that opens one connection per PAYLOAD to 127.0.0.1:PORT, one after the other,
 * writes the payload ("\r\n" and "\n" escapes are expanded; "-" writes nothing), never
 * reads, and keeps every connection open until killed. It runs in its own JVM so that its
 * threads are in no dump. Prints "connected N" when all are connected and written.
 *
 * Usage: java com.example.driver.Hold PORT COUNT PAYLOAD | java com.example.driver.Hold PORT -- PAYLOAD...
 */
public final class Hold {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        List<String> payloads = new ArrayList<>();
        if (args[1].equals("--")) {
            for (int i = 2; i < args.length; i++) payloads.add(args[i]);
        } else {
            for (int i = 0; i < Integer.parseInt(args[1]); i++) payloads.add(args[2]);
        }
        List<Socket> open = new ArrayList<>();
        for (String p : payloads) {
            Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
            open.add(s);
            if (!p.equals("-")) {
                OutputStream out = s.getOutputStream();
                out.write(p.replace("\\r", "\r").replace("\\n", "\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            Thread.sleep(20); // accept in order: one connection per event loop, round robin
        }
        System.out.println("connected " + open.size());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
