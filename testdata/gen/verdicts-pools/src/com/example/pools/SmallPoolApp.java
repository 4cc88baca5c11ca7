package com.example.pools;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed pool of 8 order workers (a service's executor, started up front).
 *
 * <p>stuck: every worker is held. Four run OrderService.quote, which calls a slow pricing
 * service (simulated: Thread.sleep of 10 minutes inside the task). Four run
 * OrderService.book, which enters the Ledger's monitor; the ledger-flusher thread holds that
 * monitor while it sleeps (a flush that never ends). No worker is idle; new orders queue.
 *
 * <p>healthy: the same pool, fed 25 orders a second, each a 100 ms quote (a sleep) and a
 * booking under the Ledger's monitor for 1 ms; the flusher takes the monitor for 5 ms every
 * second. About 2-3 workers are busy at a time, the rest idle in the pool's queue.
 */
public final class SmallPoolApp {
	static final Object LEDGER = new Ledger();

	static final class Ledger {
	}

	public static void main(String[] args) throws Exception {
		String mode = args.length > 0 ? args[0] : "stuck";
		ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(8, named("order-worker-"));
		pool.prestartAllCoreThreads();
		switch (mode) {
		case "stuck" -> stuck(pool);
		case "healthy" -> healthy(pool);
		default -> throw new IllegalArgumentException(mode);
		}
		Thread.currentThread().join(); // main waits forever
	}

	static void stuck(ExecutorService pool) throws InterruptedException {
		Thread flusher = new Thread(() -> LedgerFlusher.flushForever(600_000), "ledger-flusher");
		flusher.setDaemon(true);
		flusher.start();
		Thread.sleep(200); // the flusher holds the ledger before anyone books
		for (int i = 0; i < 4; i++) {
			pool.submit(() -> OrderService.quote(600_000));
			pool.submit(() -> OrderService.book(0));
		}
		System.out.println("ready");
	}

	static void healthy(ExecutorService pool) {
		Thread flusher = new Thread(() -> {
			while (true) {
				LedgerFlusher.flushForever(5);
				sleepQuietly(1000);
			}
		}, "ledger-flusher");
		flusher.setDaemon(true);
		flusher.start();
		Thread feeder = new Thread(() -> {
			while (true) {
				pool.submit(() -> {
					OrderService.quote(100);
					OrderService.book(1);
				});
				sleepQuietly(40);
			}
		}, "order-feeder");
		feeder.setDaemon(true);
		feeder.start();
		System.out.println("ready");
	}

	static ThreadFactory named(String prefix) {
		AtomicInteger n = new AtomicInteger();
		return r -> new Thread(r, prefix + n.incrementAndGet());
	}

	static void sleepQuietly(long ms) {
		try {
			Thread.sleep(ms);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}

final class OrderService {
	static void quote(long ms) {
		PricingClient.price(ms);
	}

	static void book(long ms) {
		synchronized (SmallPoolApp.LEDGER) {
			SmallPoolApp.sleepQuietly(ms);
		}
	}
}

final class PricingClient {
	static void price(long ms) {
		SmallPoolApp.sleepQuietly(ms); // the slow pricing call, simulated
	}
}

final class LedgerFlusher {
	static void flushForever(long ms) {
		synchronized (SmallPoolApp.LEDGER) {
			SmallPoolApp.sleepQuietly(ms);
		}
	}
}
