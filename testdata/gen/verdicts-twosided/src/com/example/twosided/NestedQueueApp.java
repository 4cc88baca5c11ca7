package com.example.twosided;

import java.util.LinkedList;

/**
 * The nested wait of a tutorial's producer/consumer (after eugenp/tutorials#14031, where a reader
 * found that the example's producer holds the queue's monitor while it waits on a separate "full"
 * signal object, so the consumers, which must enter the queue to take and to signal, never can;
 * fixed in eugenp/tutorials#14318 by waiting outside the queue's monitor). Our own code after that
 * write-up.
 *
 * <p>stuck: producer-1 and producer-2 each enter the queue and, when it is full, wait on its
 * notFull signal while still holding the queue; consumer-1 and consumer-2 must enter the queue to
 * take. main joins them all.
 *
 * <p>healthy: the producers wait on the signal after leaving the queue's monitor.
 */
public final class NestedQueueApp {
    public static void main(String[] args) throws Exception {
        boolean stuck = args.length > 0 && args[0].equals("stuck");
        WorkQueue queue = new WorkQueue(4);
        Thread[] ts = new Thread[4];
        for (int i = 0; i < 2; i++) {
            ts[i] = new Thread(() -> new Producer(queue, stuck).run(), "producer-" + (i + 1));
            ts[i + 2] = new Thread(() -> new Consumer(queue).run(), "consumer-" + (i + 1));
        }
        ts[0].start();
        ts[1].start();
        Thread.sleep(300); // the queue fills before the consumers start
        ts[2].start();
        ts[3].start();
        Thread.sleep(2000);
        System.out.println("ready");
        for (Thread t : ts) {
            t.join();
        }
    }
}

final class WorkQueue {
    final LinkedList<Integer> items = new LinkedList<>();
    final Object notFull = new Object();
    final Object notEmpty = new Object();
    final int capacity;

    WorkQueue(int capacity) {
        this.capacity = capacity;
    }

    boolean full() {
        return items.size() >= capacity;
    }

    void awaitNotFull() throws InterruptedException {
        synchronized (notFull) {
            notFull.wait();
        }
    }

    void awaitNotEmpty(long ms) throws InterruptedException {
        synchronized (notEmpty) {
            notEmpty.wait(ms);
        }
    }

    void signalNotFull() {
        synchronized (notFull) {
            notFull.notifyAll();
        }
    }

    void signalNotEmpty() {
        synchronized (notEmpty) {
            notEmpty.notifyAll();
        }
    }
}

final class Producer {
    private final WorkQueue queue;
    private final boolean stuck;

    Producer(WorkQueue queue, boolean stuck) {
        this.queue = queue;
        this.stuck = stuck;
    }

    void run() {
        try {
            for (int i = 0; ; i++) {
                if (stuck) {
                    synchronized (queue) {
                        while (queue.full()) {
                            queue.awaitNotFull(); // holds the queue while it waits
                        }
                        queue.items.add(i);
                    }
                } else {
                    while (true) {
                        synchronized (queue) {
                            if (!queue.full()) {
                                queue.items.add(i);
                                break;
                            }
                        }
                        synchronized (queue.notFull) {
                            queue.notFull.wait(50);
                        }
                    }
                    Thread.sleep(10);
                }
                queue.signalNotEmpty();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

final class Consumer {
    private final WorkQueue queue;

    Consumer(WorkQueue queue) {
        this.queue = queue;
    }

    void run() {
        try {
            while (true) {
                Integer item;
                synchronized (queue) {
                    item = queue.items.poll();
                }
                if (item == null) {
                    queue.awaitNotEmpty(50);
                    continue;
                }
                queue.signalNotFull();
                Thread.sleep(15);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
