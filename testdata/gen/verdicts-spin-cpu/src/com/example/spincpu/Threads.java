package com.example.spincpu;

/** What every program here shares: named threads and main's rest. */
final class Threads {
	private Threads() {}

	static Thread start(String name, Runnable r) {
		Thread t = new Thread(r, name);
		t.start();
		return t;
	}

	/** Prints "ready" (the generator waits for it) and parks main for good. */
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
