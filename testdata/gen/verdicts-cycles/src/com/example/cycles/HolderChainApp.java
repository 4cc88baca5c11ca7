package com.example.cycles;

import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * A holder that itself waits for another holder.
 *
 * <p>stuck: "ledger-flusher" holds the Ledger's monitor in Ledger.flush and sleeps in it (a
 * flush to a store that never answers). "book-keeper" holds the OrderBook's monitor in
 * OrderBook.settle and, inside it, waits to enter the Ledger (BLOCKED behind ledger-flusher).
 * "order-worker-1..6" (fixed 6) run tasks that call OrderBook.place: BLOCKED behind
 * book-keeper. "audit-worker-1..3" (fixed 3) run tasks that call Ledger.read: BLOCKED behind
 * ledger-flusher. The root is ledger-flusher; the order workers wait for it through
 * book-keeper.
 *
 * <p>healthy: the same classes and pools; the flusher holds the Ledger for 5 ms every second,
 * the keeper settles (OrderBook, then Ledger) every 500 ms; an order task every 50 ms, an audit
 * task every 200 ms.
 */
public final class HolderChainApp {
	public static void main(String[] args) throws Exception {
		boolean healthy = args.length > 0 && args[0].equals("healthy");
		Ledger ledger = new Ledger();
		OrderBook book = new OrderBook(ledger);
		ThreadPoolExecutor orders = (ThreadPoolExecutor) Executors.newFixedThreadPool(6, Util.named("order-worker-"));
		ThreadPoolExecutor audits = (ThreadPoolExecutor) Executors.newFixedThreadPool(3, Util.named("audit-worker-"));
		orders.prestartAllCoreThreads();
		audits.prestartAllCoreThreads();
		if (!healthy) {
			Util.start("ledger-flusher", () -> ledger.flush(Long.MAX_VALUE));
			Util.sleep(200);
			Util.start("book-keeper", () -> book.settle());
			Util.sleep(200);
			for (int i = 0; i < 6; i++) {
				orders.submit(() -> book.place("o-1"));
			}
			for (int i = 0; i < 3; i++) {
				audits.submit(() -> ledger.read());
			}
		} else {
			Util.start("ledger-flusher", () -> {
				while (true) {
					ledger.flush(5);
					Util.sleep(1000);
				}
			});
			Util.start("book-keeper", () -> {
				while (true) {
					book.settle();
					Util.sleep(500);
				}
			});
			Util.start("task-feeder", () -> {
				for (int i = 0;; i++) {
					orders.submit(() -> book.place("o-1"));
					if (i % 4 == 0) {
						audits.submit(() -> ledger.read());
					}
					Util.sleep(50);
				}
			});
		}
		Util.sleep(300);
		System.out.println("ready");
		Thread.currentThread().join();
	}
}

final class Ledger {
	private long entries;

	synchronized void flush(long ms) {
		Util.sleep(ms); // writes to a store; the stuck one never answers
		entries++;
	}

	synchronized long read() {
		return entries;
	}

	synchronized void post(String order) {
		entries++;
	}
}

final class OrderBook {
	private final Ledger ledger;

	OrderBook(Ledger ledger) {
		this.ledger = ledger;
	}

	synchronized void settle() {
		ledger.post("settlement"); // waits for the Ledger while it holds the book
	}

	synchronized void place(String order) {
		Util.sleep(1);
	}
}
