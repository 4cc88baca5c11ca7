package com.example.spin;

import java.security.MessageDigest;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Healthy control: CPU-busy batch work that finishes. nightly-1, a scheduled executor's
 * thread started with the JVM, waits JOB_DELAY_S seconds, then digests data for
 * JOB_SECONDS seconds and goes back to waiting; export-1, a thread started for one
 * export 2 s after the batch began, digests for EXPORT_SECONDS seconds and ends.
 *
 * Expected: no hang. At the first dump nightly-1 computes, but it has been alive (idle)
 * for longer than it has computed; by the second dump the job has finished and it waits
 * again. export-1 is new and computes its whole short life, under any floor a hang needs.
 */
public final class BatchApp {
	static final int JOB_DELAY_S = Integer.getInteger("batch.delay", 20);
	static final int JOB_SECONDS = Integer.getInteger("batch.seconds", 15);
	static final int EXPORT_SECONDS = Integer.getInteger("export.seconds", 10);

	public static void main(String[] args) throws Exception {
		ScheduledExecutorService nightly = Executors.newSingleThreadScheduledExecutor(Threads.named("nightly"));
		nightly.schedule(() -> Digests.digestFor(JOB_SECONDS), JOB_DELAY_S, TimeUnit.SECONDS);
		// The export's thread is started for it, 2 s after the batch began, and ends with it.
		ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(Threads.named("export-timer"));
		timer.schedule(() -> new Thread(() -> Digests.digestFor(EXPORT_SECONDS), "export-1").start(),
				JOB_DELAY_S + 2, TimeUnit.SECONDS);
		Threads.awaitShutdown();
	}
}

/** Digests generated data for a while: pure CPU that ends. */
final class Digests {
	private Digests() {}

	static long digestFor(int seconds) {
		long end = System.nanoTime() + seconds * 1_000_000_000L;
		byte[] block = new byte[64 * 1024];
		long n = 0;
		try {
			MessageDigest md = MessageDigest.getInstance("SHA-256");
			while (System.nanoTime() < end) {
				block[(int) (n % block.length)]++;
				md.update(block);
				n++;
			}
			md.digest();
		} catch (Exception e) {
			throw new RuntimeException(e);
		}
		System.out.println("digested " + n + " blocks");
		return n;
	}
}
