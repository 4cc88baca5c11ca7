package com.example.pinned;

import java.util.concurrent.CountDownLatch;
import java.util.function.IntBinaryOperator;

/**
 * Virtual threads pinned to their carrier while they block (JDK 24+: a monitor no longer pins;
 * a class initializer and a native frame still do), on a scheduler of exactly 8 carriers
 * (run with -Djdk.virtualThreadScheduler.parallelism=8 -Djdk.virtualThreadScheduler.maxPoolSize=8),
 * which the 8 pinned threads use up:
 *
 * <ul>
 * <li>"config-loader" initializes RemoteConfig, whose static initializer reads from the silent
 *     config service (pinned: the socket read parks on the carrier).
 * <li>"config-reader-1", "config-reader-2" touch RemoteConfig and wait for that initialization.
 * <li>"price-sort-1", "price-sort-2" sort with the C library's qsort (NativeSort, Foreign
 *     Function API); the comparator takes the Rates ReentrantLock that the platform thread
 *     "rates-refresh" holds while it sleeps (pinned: qsort's native frame is on the stack).
 * <li>"audit-sort" sorts with a comparator that sleeps (pinned, timed).
 * <li>"ledger-sort" sorts with a comparator that enters the Ledger monitor, which the platform
 *     thread "ledger-compactor" holds while it sleeps (pinned, blocked on the monitor).
 * <li>"batch-sort" sorts with a comparator that waits in Object.wait for a batch that is never
 *     published (pinned).
 * </ul>
 *
 * Then "checkout-1".."checkout-5" are started: with every carrier pinned they never run. The
 * main thread waits forever. Prints "ready" once everything has been started.
 *
 * Usage: java -Dconfig.port=PORT --enable-native-access=ALL-UNNAMED com.example.pinned.PinnedApp
 */
public final class PinnedApp {
    public static void main(String[] args) throws Exception {
        Rates rates = new Rates();
        Ledger ledger = new Ledger();
        Batch batch = new Batch();
        CountDownLatch held = new CountDownLatch(2);
        Thread.ofPlatform().name("rates-refresh").start(() -> hold(rates::refresh, held));
        Thread.ofPlatform().name("ledger-compactor").start(() -> hold(ledger::compact, held));
        held.await();

        Thread loader = Thread.ofVirtual().name("config-loader").start(() -> System.out.println(RemoteConfig.maxItems()));
        awaitState(loader, Thread.State.WAITING);
        CountDownLatch readersStarted = new CountDownLatch(2);
        for (int i = 1; i <= 2; i++) {
            Thread.ofVirtual().name("config-reader-" + i).start(() -> {
                readersStarted.countDown();
                System.out.println(RemoteConfig.maxItems());
            });
        }
        readersStarted.await();
        // A thread waiting for another thread's class initialization stays RUNNABLE: there is
        // no state to wait for, so give the two readers time to reach the initialization lock.
        Thread.sleep(500);
        for (int i = 1; i <= 2; i++) {
            awaitState(sorter("price-sort-" + i, rates::compare), Thread.State.WAITING);
        }
        awaitState(sorter("audit-sort", Rates::compareThrottled), Thread.State.TIMED_WAITING);
        awaitState(sorter("ledger-sort", ledger::compare), Thread.State.BLOCKED);
        awaitState(sorter("batch-sort", batch::compare), Thread.State.WAITING);

        for (int i = 1; i <= 5; i++) {
            int order = i;
            Thread.ofVirtual().name("checkout-" + i).start(() -> Checkout.process(order));
        }
        System.out.println("ready");
        System.out.flush();
        new CountDownLatch(1).await();
    }

    interface Holder {
        void hold(CountDownLatch held) throws InterruptedException;
    }

    private static void hold(Holder holder, CountDownLatch held) {
        try {
            holder.hold(held);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread sorter(String name, IntBinaryOperator comparator) {
        return Thread.ofVirtual().name(name).start(() -> {
            try {
                NativeSort.sort(new int[] {3, 1, 2}, comparator);
            } catch (Throwable t) {
                t.printStackTrace();
            }
        });
    }

    private static void awaitState(Thread t, Thread.State want) throws InterruptedException {
        for (int i = 0; i < 1000 && t.getState() != want; i++) {
            Thread.sleep(10);
        }
        if (t.getState() != want) {
            throw new IllegalStateException(t.getName() + " is " + t.getState() + ", want " + want);
        }
    }
}
