package com.example.spin;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * ParserApp's pool of workers in a parser loop, waited for with a latch instead of futures:
 * latch-job hands the four documents to parser-1..4 with execute(), each task counting the
 * latch down when its document is parsed, and waits on the latch. The tokenizer never
 * advances, so the latch never opens.
 *
 * Expected: the four parser threads spin in Tokenizer.skipComment (String.indexOf on top),
 * their CPU time growing with the wall clock; latch-job waits for them (latch-wait, culprit
 * LatchJob.run): it waits on a latch the spinning pool would count down.
 */
public final class ParserLatchApp {
	public static void main(String[] args) throws Exception {
		ExecutorService parsers = Executors.newFixedThreadPool(4, Threads.named("parser"));
		Thread job = new Thread(() -> new LatchJob(parsers).run(), "latch-job");
		job.start();
		Threads.awaitShutdown();
	}
}

/** Parses a batch of documents on the pool and waits on a latch for all. */
final class LatchJob {
	private final ExecutorService parsers;

	LatchJob(ExecutorService parsers) {
		this.parsers = parsers;
	}

	void run() {
		CountDownLatch done = new CountDownLatch(4);
		for (int i = 0; i < 4; i++) {
			String doc = "key" + i + " = value; /* the comment of document " + i + " never ends " + "x".repeat(4000);
			parsers.execute(() -> {
				new Tokenizer(doc).count();
				done.countDown();
			});
		}
		try {
			done.await();
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}
