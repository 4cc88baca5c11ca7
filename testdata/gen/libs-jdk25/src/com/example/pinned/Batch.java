package com.example.pinned;

/** A batch of weights that arrives later: compare waits (Object.wait) until it is published. */
final class Batch {
    private boolean published;

    synchronized void publish() {
        published = true;
        notifyAll();
    }

    synchronized int compare(int a, int b) {
        while (!published) {
            try {
                wait(); // nobody publishes
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 0;
            }
        }
        return Integer.compare(a, b);
    }
}
