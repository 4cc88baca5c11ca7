package com.example.shop;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** Limits concurrent calls to one dependency; callers that cannot get a permit fail fast. */
public final class Bulkhead {
    /** Thrown when no permit was free within the wait. */
    public static final class FullException extends Exception {
        FullException(String name) {
            super("bulkhead " + name + " full");
        }
    }

    /** A call that may throw a checked exception. */
    public interface Call<T, E extends Exception> {
        T run() throws E;
    }

    private final String name;
    private final Semaphore permits;
    private final long waitMillis;

    public Bulkhead(String name, int permits, long waitMillis) {
        this.name = name;
        this.permits = new Semaphore(permits);
        this.waitMillis = waitMillis;
    }

    public <T, E extends Exception> T call(Call<T, E> call) throws E, FullException {
        boolean acquired;
        try {
            acquired = permits.tryAcquire(waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FullException(name);
        }
        if (!acquired) {
            throw new FullException(name);
        }
        try {
            return call.run();
        } finally {
            permits.release();
        }
    }
}
