package com.example.edges;

/**
 * Busy waits whose top frame looks like a rest. Three threads wait for a flag that nobody
 * ever sets, each in a loop with no real back-off:
 * - "flag-poller" with Thread.sleep(0) (returns at once: a sleep of no time),
 * - "yield-poller" with Thread.yield() (gives the core away only if someone else wants it),
 * - "spin-poller" with Thread.onSpinWait() (a pause instruction; no frame of its own).
 * Each burns a core for ever; a healthy sleeper would sleep for some real time.
 */
public final class SleepZeroApp {
	static volatile boolean ready; // never set

	static void awaitFlagSleeping() throws InterruptedException {
		while (!ready) {
			Thread.sleep(0);
		}
	}

	static void awaitFlagYielding() {
		while (!ready) {
			Thread.yield();
		}
	}

	static void awaitFlagSpinning() {
		while (!ready) {
			Thread.onSpinWait();
		}
	}

	public static void main(String[] args) throws Exception {
		Threads.start("flag-poller", () -> {
			try {
				awaitFlagSleeping();
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		});
		Threads.start("yield-poller", SleepZeroApp::awaitFlagYielding);
		Threads.start("spin-poller", SleepZeroApp::awaitFlagSpinning);
		Threads.awaitShutdown();
	}
}
