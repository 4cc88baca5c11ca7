package com.example.progress;

import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Healthy programs whose threads sit in the same frames at every dump
 * while the work moves on (issue 33, "nothing healthy was flagged"), and
 * their stuck twins. Modes:
 *
 * <ul>
 * <li>throttle: 200 one-shot "job-N" threads behind a Semaphore of 2; each
 * acquires, works 2.5 s (a sleep in its own method), releases and ends:
 * the waiters drain about 4 every 5 s and the permit holders change.
 * <li>throttle-stuck: the same, but the first two holders never release
 * (they wait on a latch nobody counts down): the waiters stay.
 * <li>batch: a fixed pool of 10 working through 300 tasks, each computing
 * a little then sleeping 0-4 s (about 60 s of work, so that dumps slowed by
 * a loaded host still fall inside it): every worker sleeps in a task at
 * each dump, in another task each time.
 * <li>recovered: a fixed pool of 16, 16 tasks each sleeping 10 s from
 * ready: busy at the first two dumps, idle in getTask at the third.
 * <li>livelock: two polite diners passing one spoon to each other forever
 * (each yields the spoon while the other is hungry): both RUNNABLE in the
 * same methods at every dump, burning CPU, nobody eats.
 * <li>livelock-healthy: the same diners, but the politeness gives up after
 * a few passes: they eat, in turn, and a counter grows.
 * <li>livelock-yield: two workers, each holding its own ReentrantLock by
 * tryLock, backing off (unlock, Thread.yield) while the other wants to
 * work: both always want to, so both back off forever.
 * <li>livelock-yield-healthy: the same workers, but a worker wants to work
 * only while it tries, gives way only when it is the other's turn, and
 * waits 20 ms for its next job (a sleep) after one: they take turns, back
 * off now and then, and get through.
 * </ul>
 */
public final class ProgressApp {
	static final AtomicInteger done = new AtomicInteger();
	static volatile long sink;

	public static void main(String[] args) throws Exception {
		String mode = args.length > 0 ? args[0] : "throttle";
		switch (mode) {
		case "throttle" -> throttle(false);
		case "throttle-stuck" -> throttle(true);
		case "batch" -> batch();
		case "recovered" -> recovered();
		case "livelock" -> livelock(false);
		case "livelock-healthy" -> livelock(true);
		case "livelock-yield" -> politeWorkers(false);
		case "livelock-yield-healthy" -> politeWorkers(true);
		default -> throw new IllegalArgumentException(mode);
		}
		System.out.println("ready");
		Thread.sleep(Long.MAX_VALUE);
	}

	// ---- throttle -------------------------------------------------------

	static void throttle(boolean stuck) {
		Semaphore permits = new Semaphore(2, true);
		CountDownLatch never = new CountDownLatch(1);
		AtomicInteger holders = new AtomicInteger();
		for (int i = 0; i < 200; i++) {
			Thread t = new Thread(() -> {
				try {
					permits.acquire();
					try {
						if (stuck && holders.incrementAndGet() <= 2) {
							waitForever(never);
						}
						render(2500);
					} finally {
						permits.release();
					}
					done.incrementAndGet();
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			}, "job-" + i);
			t.setDaemon(true);
			t.start();
		}
	}

	static void waitForever(CountDownLatch never) throws InterruptedException {
		never.await();
	}

	/** A unit of work: a little computing, then a wait of ms milliseconds. */
	static void render(long ms) throws InterruptedException {
		StringBuilder b = new StringBuilder();
		for (int i = 0; i < 2000; i++) {
			b.append(i * 31 % 97);
		}
		sink += b.toString().hashCode();
		Thread.sleep(ms);
	}

	// ---- batch ----------------------------------------------------------

	static void batch() {
		ExecutorService pool = Executors.newFixedThreadPool(10);
		Random rnd = new Random(42);
		for (int i = 0; i < 300; i++) {
			long ms = rnd.nextInt(4001);
			pool.execute(() -> {
				try {
					render(ms);
					done.incrementAndGet();
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			});
		}
		pool.shutdown();
	}

	// ---- recovered ------------------------------------------------------

	static void recovered() {
		ExecutorService pool = Executors.newFixedThreadPool(16);
		for (int i = 0; i < 16; i++) {
			pool.execute(() -> {
				try {
					render(10_000);
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			});
		}
	}

	// ---- livelock -------------------------------------------------------

	static final class Spoon {
		volatile Diner owner;

		synchronized void use() {
			sink++;
		}
	}

	static final class Diner implements Runnable {
		final String name;
		volatile boolean hungry = true;
		Diner partner;
		final Spoon spoon;
		final boolean givesUp;
		long meals;

		Diner(String name, Spoon spoon, boolean givesUp) {
			this.name = name;
			this.spoon = spoon;
			this.givesUp = givesUp;
		}

		@Override
		public void run() {
			while (true) {
				eatWith();
			}
		}

		void eatWith() {
			int passes = 0;
			while (hungry) {
				if (spoon.owner != this) {
					Thread.onSpinWait();
					continue;
				}
				if (partner.hungry && !(givesUp && passes >= 3)) {
					passes++;
					handOver();
					continue;
				}
				spoon.use();
				meals++;
				done.incrementAndGet();
				hungry = false;
				spoon.owner = partner;
			}
			rest();
		}

		void handOver() {
			spoon.owner = partner;
		}

		void rest() {
			hungry = true;
		}
	}

	static void livelock(boolean healthy) {
		Spoon spoon = new Spoon();
		Diner a = new Diner("husband", spoon, healthy);
		Diner b = new Diner("wife", spoon, healthy);
		a.partner = b;
		b.partner = a;
		spoon.owner = a;
		for (Diner d : List.of(a, b)) {
			Thread t = new Thread(d, "diner-" + d.name);
			t.setDaemon(true);
			t.start();
		}
	}

	// ---- livelock-yield -------------------------------------------------

	static final class Polite implements Runnable {
		final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
		volatile boolean wants = true;
		Polite other;
		long work;
		boolean takesTurns;
		Polite[] turn;

		@Override
		public void run() {
			while (true) {
				attempt();
			}
		}

		void attempt() {
			if (!lock.tryLock()) {
				Thread.yield();
				return;
			}
			try {
				// takesTurns: give way only when it is the other's turn
				// (Peterson's tie-break), so one of them always gets through.
				if (other.wants && (!takesTurns || turn[0] != this)) {
					backOff();
					return;
				}
				turn[0] = other;
				work++;
				done.incrementAndGet();
			} finally {
				lock.unlock();
			}
			if (takesTurns) {
				wants = false;
				nextJob();
				wants = true;
			}
		}

		void nextJob() {
			try {
				Thread.sleep(20);
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		}

		void backOff() {
			Thread.yield();
		}
	}

	static void politeWorkers(boolean takesTurns) {
		Polite a = new Polite();
		Polite b = new Polite();
		a.takesTurns = takesTurns;
		b.takesTurns = takesTurns;
		Polite[] turn = {a};
		a.turn = turn;
		b.turn = turn;
		a.other = b;
		b.other = a;
		int i = 0;
		for (Polite p : List.of(a, b)) {
			Thread t = new Thread(p, "polite-" + i++);
			t.setDaemon(true);
			t.start();
		}
	}
}
