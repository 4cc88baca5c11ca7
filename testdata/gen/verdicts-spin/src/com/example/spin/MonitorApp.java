package com.example.spin;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A busy retry loop holding a monitor. registry-sync enters the synchronized
 * Registry.reconnect and retries a connection that never comes back, without a
 * back-off, inside the monitor. worker-1..6, a fixed pool, each call the
 * synchronized Registry.lookup and block on the Registry's monitor.
 *
 * Expected: registry-sync spins (RUNNABLE in Registry.reconnect/tryConnect, holding the
 * Registry), the six workers are BLOCKED on it: contention whose owner is the spinning
 * thread, one story.
 */
public final class MonitorApp {
	public static void main(String[] args) throws Exception {
		Registry reg = new Registry();
		Thread sync = new Thread(reg::reconnect, "registry-sync");
		sync.start();
		Thread.sleep(200);
		ExecutorService workers = Executors.newFixedThreadPool(6, Threads.named("worker"));
		for (int i = 0; i < 6; i++) {
			int id = i;
			workers.submit(() -> reg.lookup("svc-" + id));
		}
		Threads.awaitShutdown();
	}
}
