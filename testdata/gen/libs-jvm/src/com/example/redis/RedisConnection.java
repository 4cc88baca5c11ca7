package com.example.redis;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A tiny Redis client: one socket, RESP2 requests as arrays of bulk strings, blocking reads
 * with no read timeout. Stands in for Jedis (no Jedis or Lettuce jar in Debian 12).
 */
public final class RedisConnection implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public RedisConnection(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        in = new BufferedInputStream(socket.getInputStream());
        out = new BufferedOutputStream(socket.getOutputStream());
    }

    /** command sends one command and returns its reply (String, Long, List or null). */
    public Object command(String... args) throws IOException {
        out.write(('*' + Integer.toString(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String a : args) {
            byte[] b = a.getBytes(StandardCharsets.UTF_8);
            out.write(('$' + Integer.toString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(b);
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.flush();
        return readReply();
    }

    private Object readReply() throws IOException {
        int type = in.read();
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new IOException("redis: " + line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int n = Integer.parseInt(line);
                if (n < 0) return null;
                byte[] b = in.readNBytes(n + 2);
                return new String(b, 0, n, StandardCharsets.UTF_8);
            }
            case '*': {
                int n = Integer.parseInt(line);
                if (n < 0) return null;
                List<Object> items = new ArrayList<>(n);
                for (int i = 0; i < n; i++) items.add(readReply());
                return items;
            }
            default:
                throw new IOException("redis: unexpected reply type " + type);
        }
    }

    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) throw new IOException("redis: connection closed");
            sb.append((char) c);
        }
        in.read(); // '\n'
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
