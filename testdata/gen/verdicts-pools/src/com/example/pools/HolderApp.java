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
 * One monitor, one holder, the waiters behind it.
 *
 * <p>stuck: request-worker-1..40 (fixed 40). 33 tasks call AccountCache.lookup, which is
 * synchronized on the cache; the thread "cache-loader" holds the cache's monitor while it
 * reloads it from the database (a socket read on 127.0.0.1 with no timeout, to a "database"
 * in this JVM, thread "db-acceptor", that accepts and never answers). The 33 are BLOCKED on
 * the cache's monitor, whose printed owner is cache-loader; the other 7 workers are idle.
 *
 * <p>healthy: the same pool and cache; the loader reloads every second, holding the monitor
 * for 5 ms (the database answers at once); 20 lookups a second, each holding it for 1 ms.
 */
public final class HolderApp {
	public static void main(String[] args) throws Exception {
		boolean healthy = args.length > 0 && args[0].equals("healthy");
		ServerSocket db = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		List<Socket> held = new ArrayList<>();
		Thread acceptor = new Thread(() -> {
			try {
				while (true) {
					Socket s = db.accept();
					held.add(s);
					if (healthy) {
						Thread h = new Thread(() -> Database.answer(s), "db-conn-" + held.size());
						h.setDaemon(true);
						h.start();
					}
				}
			} catch (Exception e) {
				e.printStackTrace();
			}
		}, "db-acceptor");
		acceptor.setDaemon(true);
		acceptor.start();
		int port = db.getLocalPort();
		ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(40, SmallPoolApp.named("request-worker-"));
		pool.prestartAllCoreThreads();
		AccountCache cache = new AccountCache(port);
		Thread loader = new Thread(() -> {
			while (true) {
				cache.reload();
				SmallPoolApp.sleepQuietly(1000);
			}
		}, "cache-loader");
		loader.setDaemon(true);
		if (!healthy) {
			loader.start();
			SmallPoolApp.sleepQuietly(300); // the loader holds the cache before the lookups come
			for (int i = 0; i < 33; i++) {
				pool.submit(() -> cache.lookup("acct-1"));
			}
		} else {
			loader.start();
			Thread feeder = new Thread(() -> {
				while (true) {
					pool.submit(() -> cache.lookup("acct-1"));
					SmallPoolApp.sleepQuietly(50);
				}
			}, "request-feeder");
			feeder.setDaemon(true);
			feeder.start();
		}
		System.out.println("ready");
		Thread.currentThread().join();
	}
}

final class AccountCache {
	private final int dbPort;
	private final Socket conn;

	AccountCache(int dbPort) throws Exception {
		this.dbPort = dbPort;
		this.conn = new Socket(InetAddress.getLoopbackAddress(), dbPort);
	}

	synchronized String lookup(String id) {
		SmallPoolApp.sleepQuietly(1);
		return id;
	}

	synchronized void reload() {
		try {
			OutputStream out = conn.getOutputStream();
			out.write('Q');
			out.flush();
			InputStream in = conn.getInputStream();
			in.read(); // no timeout: the database's reply
		} catch (Exception e) {
			e.printStackTrace();
		}
	}
}

final class Database {
	static void answer(Socket s) {
		try (s) {
			InputStream in = s.getInputStream();
			while (in.read() >= 0) {
				SmallPoolApp.sleepQuietly(5);
				s.getOutputStream().write('R');
				s.getOutputStream().flush();
			}
		} catch (Exception e) {
			// closed
		}
	}
}
