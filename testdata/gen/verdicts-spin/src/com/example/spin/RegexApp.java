package com.example.spin;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A catastrophic regex. The validation service runs every check on one thread
 * (validator-1); the first input is 64 characters that the pattern, which has a
 * backreference (so the JDK cannot memoize it), backtracks over for ever.
 * req-1..req-3 each submitted a check and wait for its Future: the first for the
 * runaway check, the other two for checks queued behind it.
 *
 * Expected: validator-1 spins (RUNNABLE in java.util.regex.Pattern frames, its CPU
 * time growing with the wall clock), and req-1..3 wait on it (future-wait, culprit
 * RequestHandler.handle, whose lambda is the validator's task).
 */
public final class RegexApp {
	public static void main(String[] args) throws Exception {
		ExecutorService validator = Executors.newSingleThreadExecutor(Threads.named("validator"));
		RequestHandler h = new RequestHandler(validator);
		List<Thread> reqs = new ArrayList<>();
		String[] inputs = {"a".repeat(64) + "!", "order-42=ok", "user-7=ok"};
		for (int i = 0; i < inputs.length; i++) {
			String in = inputs[i];
			Thread t = new Thread(() -> h.handle(in), "req-" + (i + 1));
			t.start();
			reqs.add(t);
			Thread.sleep(100); // the runaway input first
		}
		Threads.awaitShutdown();
	}
}
