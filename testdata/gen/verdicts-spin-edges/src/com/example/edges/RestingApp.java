package com.example.edges;

import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The healthy control of the spinning edges: the same shapes at rest.
 * - "acceptor": a selector that blocks (Selector.select()) on a listening channel nobody
 *   connects to: idle, no CPU.
 * - "ingest-poller": a poll loop with selectNow, like SelectNowApp's, but with a real back-off
 *   (Thread.sleep(200)) between polls: its CPU stays near nothing.
 * - "flag-poller": waits for a flag with Thread.sleep(100) between looks.
 * - "worker-1".."worker-4": a fixed pool resting (no task submitted).
 * - "ticker-1": a scheduled executor running a small task every 50 ms (a metrics snapshot of a
 *   few microseconds).
 */
public final class RestingApp {
	static volatile boolean ready;
	static long polls, ticks;

	public static void main(String[] args) throws Exception {
		ServerSocketChannel ch = ServerSocketChannel.open();
		ch.bind(new InetSocketAddress("127.0.0.1", 0));
		ch.configureBlocking(false);
		Selector sel = Selector.open();
		ch.register(sel, SelectionKey.OP_ACCEPT);
		Threads.start("acceptor", () -> {
			try {
				while (true) {
					if (sel.select() > 0) {
						sel.selectedKeys().clear();
					}
				}
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		});
		ServerSocketChannel ch2 = ServerSocketChannel.open();
		ch2.bind(new InetSocketAddress("127.0.0.1", 0));
		ch2.configureBlocking(false);
		Selector sel2 = Selector.open();
		ch2.register(sel2, SelectionKey.OP_ACCEPT);
		Threads.start("ingest-poller", () -> {
			try {
				while (true) {
					if (sel2.selectNow() > 0) {
						sel2.selectedKeys().clear();
					}
					polls++;
					Thread.sleep(200);
				}
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		});
		Threads.start("flag-poller", () -> {
			try {
				while (!ready) {
					Thread.sleep(100);
				}
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		});
		AtomicInteger n = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(4, r -> new Thread(r, "worker-" + n.incrementAndGet()));
		for (int i = 0; i < 4; i++) {
			pool.execute(() -> {}); // start the 4 workers; they rest in getTask
		}
		ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "ticker-1"));
		ticker.scheduleAtFixedRate(() -> ticks += Runtime.getRuntime().freeMemory() & 1, 0, 50, TimeUnit.MILLISECONDS);
		Threads.awaitShutdown();
	}
}
