package com.example.cycles;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * One waiter behind one holder, in a small pool.
 *
 * <p>stuck: "session-worker-1..2" (fixed 2). "session-store" holds the SessionStore's monitor
 * in SessionStore.flush while it reads the reply of a remote store (127.0.0.1, in this JVM,
 * thread "store-acceptor", which accepts and never answers). One task calls
 * SessionStore.get: one session worker is BLOCKED on the store's monitor at every dump; the
 * other worker is idle. One thread waits, but it is half the pool and the same thread behind
 * the same holder for 10 s: the holder, waiting on the remote store, is the cause.
 *
 * <p>healthy: the same pool and store; the store flushes every second holding the monitor
 * for 5 ms (the remote answers at once); a get every 100 ms.
 */
public final class SingleWaiterApp {
	public static void main(String[] args) throws Exception {
		boolean healthy = args.length > 0 && args[0].equals("healthy");
		ServerSocket remote = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		List<Socket> held = new ArrayList<>();
		Util.start("store-acceptor", () -> {
			try {
				while (true) {
					Socket s = remote.accept();
					held.add(s);
					if (healthy) {
						Util.start("store-conn-" + held.size(), () -> {
							try (s) {
								InputStream in = s.getInputStream();
								while (in.read() >= 0) {
									s.getOutputStream().write(1);
								}
							} catch (Exception e) {
								// done
							}
						});
					}
				}
			} catch (Exception e) {
				e.printStackTrace();
			}
		});
		SessionStore store = new SessionStore(remote.getLocalPort());
		ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(2, Util.named("session-worker-"));
		pool.prestartAllCoreThreads();
		if (!healthy) {
			Util.start("session-store", () -> store.flush());
			Util.sleep(300);
			pool.submit(() -> store.get("s-1"));
		} else {
			Util.start("session-store", () -> {
				while (true) {
					store.flush();
					Util.sleep(1000);
				}
			});
			Util.start("session-feeder", () -> {
				while (true) {
					pool.submit(() -> store.get("s-1"));
					Util.sleep(100);
				}
			});
		}
		Util.sleep(300);
		System.out.println("ready");
		Thread.currentThread().join();
	}
}

final class SessionStore {
	private final int port;
	private Socket conn;

	SessionStore(int port) {
		this.port = port;
	}

	synchronized void flush() {
		try {
			if (conn == null) {
				conn = new Socket(InetAddress.getLoopbackAddress(), port);
			}
			conn.getOutputStream().write(1);
			conn.getInputStream().read(); // the stuck remote never answers
		} catch (Exception e) {
			throw new RuntimeException(e);
		}
	}

	synchronized String get(String id) {
		return id;
	}
}
