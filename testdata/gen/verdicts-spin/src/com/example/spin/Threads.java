package com.example.spin;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Named threads and the main thread's rest: what every program here shares. */
final class Threads {
	private Threads() {}

	/** A factory naming its threads PREFIX-1, PREFIX-2, ... */
	static ThreadFactory named(String prefix) {
		AtomicInteger n = new AtomicInteger();
		return r -> new Thread(r, prefix + "-" + n.incrementAndGet());
	}

	/** Prints "ready" (the generator waits for it in the log) and parks main for good. */
	static void awaitShutdown() throws InterruptedException {
		System.out.println("ready");
		System.out.flush();
		Object forever = new Object();
		synchronized (forever) {
			while (true) {
				forever.wait();
			}
		}
	}
}
