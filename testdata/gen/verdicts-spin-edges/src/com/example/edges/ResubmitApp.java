package com.example.edges;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pool that re-submits its own tasks: "retry-1" and "retry-2" (a fixed pool of 2) run
 * RetryTask, which tries a delivery (pure CPU: it checks a signature over a payload that never
 * matches) and, failing, submits itself again at once, with no back-off. Between two tries a
 * worker takes the next task from its queue, so it is busy in RetryTask.run at nearly every
 * instant with its CPU time growing with the wall clock, though no single call ever runs long.
 */
public final class ResubmitApp {
	static final AtomicInteger tries = new AtomicInteger();

	static final class RetryTask implements Runnable {
		final ExecutorService pool;
		final byte[] payload = new byte[64 * 1024];

		RetryTask(ExecutorService pool) {
			this.pool = pool;
		}

		boolean deliver() {
			long h = 1125899906842597L;
			for (int round = 0; round < 8; round++) {
				for (byte b : payload) {
					h = 31 * h + b + round;
				}
			}
			return h == 42; // the receiver's signature never matches
		}

		@Override
		public void run() {
			if (!deliver()) {
				tries.incrementAndGet();
				pool.execute(this); // try again, at once
			}
		}
	}

	public static void main(String[] args) throws Exception {
		AtomicInteger n = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, "retry-" + n.incrementAndGet()));
		pool.execute(new RetryTask(pool));
		pool.execute(new RetryTask(pool));
		Threads.awaitShutdown();
	}
}
