package com.example.pools;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A thread-per-connection server: a fixed pool of 6 "conn-handler-" threads, each accepted
 * connection a task that reads its requests line by line and answers each.
 *
 * <p>healthy: 6 clients ("client-N") keep one connection each and send a request every
 * 100 ms; the handler answers at once and reads the next line: at any dump the 6 handlers
 * are in the socket read of their connection, waiting for the next request, and they ran
 * between the dumps (about 50 requests each in 5 s).
 *
 * <p>stuck: the same server, but each request asks an upstream (a ServerSocket in this JVM
 * that accepts and never answers) over a socket with no read timeout: after the first
 * request the 6 handlers are in UpstreamCall.call's socket read for good and never run.
 */
public final class ConnServerApp {
	public static void main(String[] args) throws Exception {
		boolean stuck = args.length > 0 && args[0].equals("stuck");
		InetAddress lo = InetAddress.getLoopbackAddress();
		ServerSocket upstream = new ServerSocket(0, 50, lo);
		List<Socket> held = new ArrayList<>();
		Thread upAcceptor = new Thread(() -> {
			try {
				while (true) {
					held.add(upstream.accept()); // accepted, never answered
				}
			} catch (Exception e) {
				e.printStackTrace();
			}
		}, "upstream-acceptor");
		upAcceptor.setDaemon(true);
		upAcceptor.start();

		ServerSocket server = new ServerSocket(0, 50, lo);
		ExecutorService handlers = Executors.newFixedThreadPool(6, SmallPoolApp.named("conn-handler-"));
		Thread acceptor = new Thread(() -> {
			try {
				while (true) {
					Socket s = server.accept();
					handlers.execute(() -> serve(s, stuck ? upstream.getLocalPort() : 0));
				}
			} catch (Exception e) {
				e.printStackTrace();
			}
		}, "acceptor");
		acceptor.setDaemon(true);
		acceptor.start();

		for (int i = 1; i <= 6; i++) {
			Thread c = new Thread(() -> client(server.getLocalPort()), "client-" + i);
			c.setDaemon(true);
			c.start();
		}
		System.out.println("ready");
		Thread.sleep(Long.MAX_VALUE);
	}

	static void serve(Socket s, int upstreamPort) {
		try (s) {
			BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
			PrintWriter out = new PrintWriter(s.getOutputStream(), true);
			String line;
			while ((line = in.readLine()) != null) {
				String answer = upstreamPort > 0 ? UpstreamCall.call(upstreamPort, line) : "ok " + line.length();
				out.println(answer);
			}
		} catch (Exception e) {
			e.printStackTrace();
		}
	}

	static void client(int port) {
		try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
			PrintWriter out = new PrintWriter(s.getOutputStream(), true);
			BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
			for (int n = 0; ; n++) {
				out.println("GET /item/" + n);
				in.readLine();
				Thread.sleep(100);
			}
		} catch (Exception e) {
			e.printStackTrace();
		}
	}

	/** An upstream call with no read timeout. */
	static final class UpstreamCall {
		static String call(int port, String req) throws Exception {
			try (Socket u = new Socket(InetAddress.getLoopbackAddress(), port)) {
				OutputStream o = u.getOutputStream();
				o.write((req + "\n").getBytes(StandardCharsets.UTF_8));
				o.flush();
				InputStream i = u.getInputStream();
				byte[] buf = new byte[256];
				int k = i.read(buf); // no timeout: the upstream never answers
				return new String(buf, 0, Math.max(k, 0), StandardCharsets.UTF_8);
			}
		}
	}
}
