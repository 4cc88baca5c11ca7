package com.example.cycles;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * A pool whose tasks wait for work queued to the same pool.
 *
 * <p>stuck: "audit-worker-1", the one thread of a single-thread executor, runs a task that
 * submits its second half to the same executor and waits in Future.get: the second half is
 * queued behind the task that waits for it. "report-worker-1..4", a fixed pool of 4, runs 4
 * tasks that each supplyAsync a part to the same pool and join it: the 4 parts are queued
 * behind the 4 tasks that wait for them. No other thread runs a task.
 *
 * <p>healthy: the same two pools; each task hands its part to a second pool ("render-worker-1..4",
 * fixed 4) and waits for it (Future.get, CompletableFuture.join). A part takes 300 ms; a
 * report task comes every second, an audit task every 3 s: the workers wait for parts that run,
 * and rest between tasks.
 */
public final class PoolSelfWaitApp {
	public static void main(String[] args) throws Exception {
		boolean healthy = args.length > 0 && args[0].equals("healthy");
		ExecutorService audit = Executors.newSingleThreadExecutor(Util.named("audit-worker-"));
		ThreadPoolExecutor reports = (ThreadPoolExecutor) Executors.newFixedThreadPool(4, Util.named("report-worker-"));
		reports.prestartAllCoreThreads();
		if (!healthy) {
			audit.submit(() -> AuditJob.run(audit));
			for (int i = 0; i < 4; i++) {
				reports.submit(() -> ReportJob.run(reports));
			}
		} else {
			ThreadPoolExecutor render = (ThreadPoolExecutor) Executors.newFixedThreadPool(4, Util.named("render-worker-"));
			render.prestartAllCoreThreads();
			Util.start("job-feeder", () -> {
				for (int i = 0;; i++) {
					if (i % 3 == 0) {
						audit.submit(() -> AuditJob.run(render)); // every 3 s: the audit worker rests between
					}
					reports.submit(() -> ReportJob.run(render));
					Util.sleep(1000);
				}
			});
		}
		Util.sleep(300);
		System.out.println("ready");
		Thread.currentThread().join();
	}
}

final class AuditJob {
	static final long PART_MS = 300;

	static void run(ExecutorService partsPool) {
		try {
			Future<String> half = partsPool.submit(() -> {
				Util.sleep(PART_MS);
				return "second half";
			});
			half.get();
		} catch (Exception e) {
			throw new RuntimeException(e);
		}
	}
}

final class ReportJob {
	static final long PART_MS = 300;

	static void run(ExecutorService partsPool) {
		CompletableFuture<Integer> part = CompletableFuture.supplyAsync(() -> {
			Util.sleep(PART_MS);
			return 42;
		}, partsPool);
		part.join();
	}
}
