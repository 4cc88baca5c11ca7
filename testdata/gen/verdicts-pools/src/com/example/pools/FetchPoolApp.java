package com.example.pools;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * An executor of 4 fetch workers calling an upstream over a socket with no read timeout.
 *
 * <p>stuck: the upstream (a ServerSocket on 127.0.0.1 in this JVM, thread "upstream-acceptor")
 * accepts and never answers: the 4 workers are in UpstreamFetcher.fetch's socket read
 * forever; 20 more fetches queue behind them.
 *
 * <p>healthy: the upstream answers every request after 50 ms (its handler threads,
 * "upstream-conn-N", wait for the next request in a socket read); 10 fetches a second come
 * in: about one worker is busy at a time.
 */
public final class FetchPoolApp {
	public static void main(String[] args) throws Exception {
		boolean answer = args.length > 0 && args[0].equals("healthy");
		ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		List<Socket> held = new ArrayList<>();
		Thread acceptor = new Thread(() -> {
			try {
				while (true) {
					Socket s = server.accept();
					if (answer) {
						Thread h = new Thread(() -> Upstream.serve(s), "upstream-conn-" + held.size());
						h.setDaemon(true);
						h.start();
					}
					held.add(s);
				}
			} catch (Exception e) {
				e.printStackTrace();
			}
		}, "upstream-acceptor");
		acceptor.setDaemon(true);
		acceptor.start();
		ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(4, SmallPoolApp.named("fetch-worker-"));
		pool.prestartAllCoreThreads();
		int port = server.getLocalPort();
		if (answer) {
			Thread feeder = new Thread(() -> {
				while (true) {
					pool.submit(() -> UpstreamFetcher.fetch(port));
					SmallPoolApp.sleepQuietly(100);
				}
			}, "fetch-feeder");
			feeder.setDaemon(true);
			feeder.start();
		} else {
			for (int i = 0; i < 24; i++) {
				pool.submit(() -> UpstreamFetcher.fetch(port));
			}
		}
		System.out.println("ready");
		Thread.currentThread().join();
	}
}

final class UpstreamFetcher {
	static int fetch(int port) {
		try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
			OutputStream out = s.getOutputStream();
			out.write('?');
			out.flush();
			InputStream in = s.getInputStream();
			return in.read(); // no timeout
		} catch (Exception e) {
			return -1;
		}
	}
}

final class Upstream {
	static void serve(Socket s) {
		try (s) {
			InputStream in = s.getInputStream();
			while (in.read() >= 0) {
				SmallPoolApp.sleepQuietly(50);
				s.getOutputStream().write('!');
				s.getOutputStream().flush();
			}
		} catch (Exception e) {
			// the client closed
		}
	}
}
