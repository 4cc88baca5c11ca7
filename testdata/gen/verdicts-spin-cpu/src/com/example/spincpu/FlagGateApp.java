package com.example.spincpu;

/**
 * Busy-waits on a volatile flag nothing sets: "index-waiter-1" and "index-waiter-2" each run
 * Gate.awaitOpen (while (!open) {}) under a lambda under Thread.run, for ever, on a core each
 * (what the shared cores give them). Their frames are the same at every moment; their cpu=
 * grows with the wall clock. Nothing waits for them.
 */
public final class FlagGateApp {
	static final class Gate {
		volatile boolean open;

		void awaitOpen() {
			while (!open) {
				// busy-wait: no sleep, no park, no onSpinWait
			}
		}
	}

	public static void main(String[] args) throws Exception {
		Gate gate = new Gate();
		for (int i = 1; i <= 2; i++) {
			Threads.start("index-waiter-" + i, () -> gate.awaitOpen());
		}
		Threads.awaitShutdown();
	}
}
