package com.example.poolholders;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Thread names and the upstream call the programs share. */
final class Named implements ThreadFactory {
    private final String prefix;
    private final AtomicInteger n = new AtomicInteger();

    Named(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(r, prefix + n.incrementAndGet());
        t.setDaemon(true);
        return t;
    }

    /** One line to host:port and its one-line reply, with no read timeout. */
    static String ask(String addr, String line) throws Exception {
        int colon = addr.lastIndexOf(':');
        try (Socket s = new Socket(addr.substring(0, colon), Integer.parseInt(addr.substring(colon + 1)))) {
            OutputStream out = s.getOutputStream();
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
        }
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
