package com.example.cycles;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * One monitor that the garbage collector moves between dumps.
 *
 * <p>Before the RateTable is made, 6 batches of 2 MB of arrays are kept; "gc-driver" lets one
 * batch go and calls System.gc() every 2 s (run with -XX:+UseSerialGC: a full collection
 * slides the live objects down over the freed ones), so the RateTable, and its monitor, is at
 * another address at each dump 5 s apart.
 *
 * <p>stuck: "rate-refresher" holds the RateTable's monitor and sleeps in it (a refresh that
 * never ends); "quote-worker-1..6" (fixed 6) are BLOCKED on it. One lock, one holder, the
 * same 6 waiters at every dump, at three addresses.
 *
 * <p>healthy: the same motion; the refresher takes the monitor for 5 ms every second; a
 * quote task (1 ms under the monitor) comes every 20 ms to the 6 workers.
 */
public final class LockMoveApp {
	static List<byte[][]> batches = new ArrayList<>();

	public static void main(String[] args) throws Exception {
		boolean healthy = args.length > 0 && args[0].equals("healthy");
		for (int i = 0; i < 6; i++) {
			byte[][] batch = new byte[32][];
			for (int j = 0; j < batch.length; j++) {
				batch[j] = new byte[64 * 1024];
			}
			batches.add(batch);
		}
		RateTable table = new RateTable();
		System.gc(); // everything kept so far to the old generation, in order
		Util.start("gc-driver", () -> {
			while (true) {
				Util.sleep(2000);
				if (!batches.isEmpty()) {
					batches.remove(0);
				}
				System.gc();
			}
		});
		ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(6, Util.named("quote-worker-"));
		pool.prestartAllCoreThreads();
		if (!healthy) {
			Util.start("rate-refresher", () -> table.refreshForever());
			Util.sleep(300);
			for (int i = 0; i < 6; i++) {
				pool.submit(() -> table.quote("EURUSD"));
			}
		} else {
			Util.start("rate-refresher", () -> {
				while (true) {
					table.refresh(5);
					Util.sleep(1000);
				}
			});
			Util.start("quote-feeder", () -> {
				while (true) {
					pool.submit(() -> table.quote("EURUSD"));
					Util.sleep(20);
				}
			});
		}
		Util.sleep(300);
		System.out.println("ready");
		Thread.currentThread().join();
	}
}

final class RateTable {
	private double rate = 1.08;

	synchronized void refreshForever() {
		while (true) {
			Util.sleep(60_000); // waits on a rate source that never answers
		}
	}

	synchronized void refresh(long ms) {
		Util.sleep(ms);
		rate += 0.0001;
	}

	synchronized double quote(String pair) {
		Util.sleep(1);
		return rate;
	}
}
