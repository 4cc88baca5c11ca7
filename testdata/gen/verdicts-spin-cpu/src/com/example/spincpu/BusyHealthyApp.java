package com.example.spincpu;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The healthy twin of the CPU-evidence fixtures, on the same short schedule:
 * - "worker-1".."worker-3": a fixed pool busy with short jobs back to back, each job in another
 *   stage at random (hashing, sorting, counting words in a map), a few milliseconds each: on CPU
 *   all along, in different frames from one moment to the next.
 * - "feed-reader": RUNNABLE in a socket read on 127.0.0.1 whose peer never writes: its cpu= is
 *   flat.
 * - "flag-poller": waits for a flag with Thread.sleep(50) between looks: a real back-off.
 * - "peer-server": accepts one connection and then waits on it without writing.
 */
public final class BusyHealthyApp {
	static volatile boolean ready;
	static volatile long sink;

	static long hashStage(int seed) throws Exception {
		MessageDigest md = MessageDigest.getInstance("SHA-256");
		byte[] b = ("job-" + seed).getBytes(StandardCharsets.UTF_8);
		for (int i = 0; i < 2000; i++) {
			b = md.digest(b);
		}
		return b[0];
	}

	static long sortStage(int seed) {
		List<Integer> xs = new ArrayList<>();
		java.util.Random r = new java.util.Random(seed);
		for (int i = 0; i < 20000; i++) {
			xs.add(r.nextInt());
		}
		xs.sort(null);
		return xs.get(0);
	}

	static long countStage(int seed) {
		Map<String, Integer> m = new HashMap<>();
		for (int i = 0; i < 20000; i++) {
			m.merge("w" + ((i * 31 + seed) % 997), 1, Integer::sum);
		}
		return m.size();
	}

	static void job(int k) {
		try {
			switch (k % 3) {
			case 0 -> sink += hashStage(k);
			case 1 -> sink += sortStage(k);
			default -> sink += countStage(k);
			}
		} catch (Exception e) {
			throw new RuntimeException(e);
		}
	}

	public static void main(String[] args) throws Exception {
		ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
		Threads.start("peer-server", () -> {
			try (Socket s = ss.accept()) {
				while (true) {
					Thread.sleep(60_000); // holds the connection open, never writes
				}
			} catch (Exception e) {
				Thread.currentThread().interrupt();
			}
		});
		Socket c = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort());
		Threads.start("feed-reader", () -> {
			try (InputStream in = c.getInputStream()) {
				while (in.read() >= 0) {
				}
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		});
		Threads.start("flag-poller", () -> {
			try {
				while (!ready) {
					Thread.sleep(50);
				}
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		});
		AtomicInteger n = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(3, r -> new Thread(r, "worker-" + n.incrementAndGet()));
		java.util.Random pick = new java.util.Random();
		for (int w = 0; w < 3; w++) {
			pool.execute(() -> {
				while (true) {
					job(pick.nextInt(3000));
				}
			});
		}
		Threads.awaitShutdown();
	}
}
