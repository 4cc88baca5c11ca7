package com.example.pools;

import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A holder that never lets go, on CPU, of a ReentrantLock its pool waits for.
 *
 * <p>stuck: "index-rebuilder" takes the index's ReentrantLock and recomputes a checksum in a
 * loop that never ends (a retry whose condition never holds); index-reader-1..6 (fixed 6) each
 * run IndexReader.read, which lock()s the same lock: WAITING (parking) on the
 * ReentrantLock$NonfairSync the rebuilder owns (printed under its "Locked ownable
 * synchronizers" with jstack -l).
 *
 * <p>healthy: the rebuilder takes the lock once a second for one checksum pass (a few ms) and
 * sleeps between; the readers read 20 times a second, each under the lock for a moment.
 */
public final class SpinHolderApp {
	static final ReentrantLock INDEX = new ReentrantLock();
	static volatile long sink;

	public static void main(String[] args) throws Exception {
		boolean healthy = args.length > 0 && args[0].equals("healthy");
		ThreadPoolExecutor readers = (ThreadPoolExecutor) Executors.newFixedThreadPool(6, SmallPoolApp.named("index-reader-"));
		readers.prestartAllCoreThreads();
		Thread rebuilder = new Thread(() -> {
			while (true) {
				IndexRebuilder.rebuild(healthy ? 200_000 : Long.MAX_VALUE);
				SmallPoolApp.sleepQuietly(1000);
			}
		}, "index-rebuilder");
		rebuilder.setDaemon(true);
		rebuilder.start();
		SmallPoolApp.sleepQuietly(200);
		if (!healthy) {
			for (int i = 0; i < 6; i++) {
				readers.submit(IndexReader::read);
			}
		} else {
			Thread feeder = new Thread(() -> {
				while (true) {
					readers.submit(IndexReader::read);
					SmallPoolApp.sleepQuietly(50);
				}
			}, "read-feeder");
			feeder.setDaemon(true);
			feeder.start();
		}
		System.out.println("ready");
		Thread.currentThread().join();
	}
}

final class IndexRebuilder {
	static void rebuild(long passes) {
		SpinHolderApp.INDEX.lock();
		try {
			long h = 17;
			for (long i = 0; i < passes; i++) {
				h = Checksum.mix(h, i);
			}
			SpinHolderApp.sink = h;
		} finally {
			SpinHolderApp.INDEX.unlock();
		}
	}
}

final class Checksum {
	static long mix(long h, long i) {
		return h * 31 + (i ^ (h >>> 7));
	}
}

final class IndexReader {
	static void read() {
		SpinHolderApp.INDEX.lock();
		try {
			SpinHolderApp.sink++;
		} finally {
			SpinHolderApp.INDEX.unlock();
		}
	}
}
