package com.example.pools;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Waits no signature names, inside the tasks of fixed pools.
 *
 * <p>stuck:
 * <ul>
 * <li>upload-worker-1..8 (fixed 8): each task writes a response and closes it; close blocks in
 * the library's own callback (BlockingCallback.block: a ReentrantLock Condition.await) until
 * the peer acknowledges, which never happens (like Jetty's SharedBlockingCallback under
 * HttpOutput.close).
 * <li>event-producer-1..6 (fixed 6): each task publishes into a full ArrayBlockingQueue(10)
 * with put; the queue's one consumer (event-consumer) is stuck in a sleep inside its handler,
 * so the producers wait for it: back-pressure.
 * <li>batch-worker-1..4 (fixed 4): each task awaits a CyclicBarrier of 5 parties; the fifth
 * party never comes.
 * </ul>
 *
 * <p>healthy: the same pools; the acknowledgement comes 5 ms after close, the consumer drains
 * faster than the producers publish (queue never full for long), and the barrier gets its 4
 * parties, one batch every 200 ms from a feeder.
 */
public final class TaskWaitApp {
	public static void main(String[] args) throws Exception {
		boolean healthy = args.length > 0 && args[0].equals("healthy");
		ThreadPoolExecutor uploads = (ThreadPoolExecutor) Executors.newFixedThreadPool(8, SmallPoolApp.named("upload-worker-"));
		ThreadPoolExecutor producers = (ThreadPoolExecutor) Executors.newFixedThreadPool(6, SmallPoolApp.named("event-producer-"));
		ThreadPoolExecutor batches = (ThreadPoolExecutor) Executors.newFixedThreadPool(4, SmallPoolApp.named("batch-worker-"));
		uploads.prestartAllCoreThreads();
		producers.prestartAllCoreThreads();
		batches.prestartAllCoreThreads();
		BlockingQueue<String> events = new ArrayBlockingQueue<>(10);
		Thread consumer = new Thread(() -> {
			while (true) {
				try {
					EventHandler.handle(events.take(), healthy ? 1 : 600_000);
				} catch (InterruptedException e) {
					return;
				}
			}
		}, "event-consumer");
		consumer.setDaemon(true);
		consumer.start();
		if (!healthy) {
			for (int i = 0; i < 8; i++) {
				uploads.submit(() -> new ResponseWriter(-1).close());
			}
			for (int i = 0; i < 20; i++) { // 10 fill the queue, 1 is in the consumer's hands, 6 wait
				producers.submit(() -> EventPublisher.publish(events, "order"));
			}
			CyclicBarrier barrier = new CyclicBarrier(5);
			for (int i = 0; i < 4; i++) {
				batches.submit(() -> BatchJob.run(barrier));
			}
		} else {
			Thread feeder = new Thread(() -> {
				CyclicBarrier barrier = new CyclicBarrier(4);
				while (true) {
					uploads.submit(() -> new ResponseWriter(5).close());
					producers.submit(() -> EventPublisher.publish(events, "order"));
					for (int i = 0; i < 4; i++) {
						batches.submit(() -> BatchJob.run(barrier));
					}
					SmallPoolApp.sleepQuietly(200);
				}
			}, "task-feeder");
			feeder.setDaemon(true);
			feeder.start();
		}
		System.out.println("ready");
		Thread.currentThread().join();
	}
}

final class ResponseWriter {
	private final BlockingCallback callback = new BlockingCallback();
	private final long ackAfterMs;

	ResponseWriter(long ackAfterMs) {
		this.ackAfterMs = ackAfterMs;
	}

	void close() {
		if (ackAfterMs >= 0) {
			Thread acker = new Thread(() -> {
				SmallPoolApp.sleepQuietly(ackAfterMs);
				callback.succeeded();
			}, "ack");
			acker.setDaemon(true);
			acker.start();
		}
		callback.block();
	}
}

/** A library's own blocking callback: waits on a Condition until succeeded() is called. */
final class BlockingCallback {
	private final ReentrantLock lock = new ReentrantLock();
	private final Condition done = lock.newCondition();
	private boolean completed;

	void block() {
		lock.lock();
		try {
			while (!completed) {
				done.awaitUninterruptibly();
			}
		} finally {
			lock.unlock();
		}
	}

	void succeeded() {
		lock.lock();
		try {
			completed = true;
			done.signalAll();
		} finally {
			lock.unlock();
		}
	}
}

final class EventPublisher {
	static void publish(BlockingQueue<String> q, String e) {
		try {
			q.put(e);
		} catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}
}

final class EventHandler {
	static void handle(String e, long ms) {
		SmallPoolApp.sleepQuietly(ms);
	}
}

final class BatchJob {
	static void run(CyclicBarrier b) {
		try {
			b.await();
		} catch (Exception e) {
			// broken
		}
	}
}
