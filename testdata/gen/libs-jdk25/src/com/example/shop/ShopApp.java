package com.example.shop;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A shop whose requests all wait, run either on virtual threads or on platform threads so the
 * same waits can be compared in both. Three holders take their lock and sleep for an hour:
 * "inventory-rebuild" (always a platform thread) holds the Inventory's ReentrantLock,
 * "catalog-reindex" holds the Catalog's monitor and "price-import" holds the PriceBook's write
 * lock (these two are virtual threads in virtual mode). Then, each group from its own executor:
 * READERS requests in a socket read of the silent upstream, LOCKERS parked on the Inventory
 * lock, BLOCKED entering the Catalog monitor, RWREADERS parked on the PriceBook read lock, and
 * SLEEPERS threads "report-N" sleeping. The main thread then waits forever. Prints "ready"
 * once everything has been started.
 *
 * In virtual mode each group is an Executors.newVirtualThreadPerTaskExecutor() (unnamed
 * virtual threads); in platform mode an Executors.newFixedThreadPool of named platform
 * threads (request-N, reserve-N, catalog-N, price-N).
 *
 * Usage: java com.example.shop.ShopApp virtual|platform UPSTREAM-PORT READERS LOCKERS BLOCKED RWREADERS SLEEPERS
 */
public final class ShopApp {
    private final boolean virtual;

    private ShopApp(boolean virtual) {
        this.virtual = virtual;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7 || !(args[0].equals("virtual") || args[0].equals("platform"))) {
            System.err.println("usage: ShopApp virtual|platform UPSTREAM-PORT READERS LOCKERS BLOCKED RWREADERS SLEEPERS");
            System.exit(2);
        }
        ShopApp app = new ShopApp(args[0].equals("virtual"));
        int port = Integer.parseInt(args[1]);
        int readers = Integer.parseInt(args[2]);
        int lockers = Integer.parseInt(args[3]);
        int blocked = Integer.parseInt(args[4]);
        int rwReaders = Integer.parseInt(args[5]);
        int sleepers = Integer.parseInt(args[6]);

        Inventory inventory = new Inventory();
        Catalog catalog = new Catalog();
        PriceBook prices = new PriceBook();
        CountDownLatch held = new CountDownLatch(3);
        Thread.ofPlatform().name("inventory-rebuild").start(() -> sleepHolding(inventory::rebuild, held));
        app.thread("catalog-reindex").start(() -> sleepHolding(catalog::reindex, held));
        app.thread("price-import").start(() -> sleepHolding(prices::importAll, held));
        held.await();

        UpstreamClient client = new UpstreamClient(port);
        app.submit("request-", readers, id -> () -> client.fetch(id));
        app.submit("reserve-", lockers, id -> () -> {
            inventory.reserve(id);
            return 0;
        });
        app.submit("catalog-", blocked, id -> () -> catalog.describe(id));
        app.submit("price-", rwReaders, id -> () -> prices.price(id));
        for (int i = 1; i <= sleepers; i++) {
            app.thread("report-" + i).start(() -> {
                try {
                    Reporter.waitForNextRun();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        System.out.println("ready");
        System.out.flush();
        new CountDownLatch(1).await();
    }

    interface Holder {
        void hold(CountDownLatch held) throws InterruptedException;
    }

    interface Task {
        Callable<Integer> of(int id);
    }

    private static void sleepHolding(Holder holder, CountDownLatch held) {
        try {
            holder.hold(held);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Thread.Builder thread(String name) {
        return virtual ? Thread.ofVirtual().name(name) : Thread.ofPlatform().name(name);
    }

    /** Submits n tasks to a new executor (never shut down: its tasks never end). */
    private void submit(String prefix, int n, Task task) {
        ExecutorService executor = virtual
                ? Executors.newVirtualThreadPerTaskExecutor()
                : Executors.newFixedThreadPool(n, Thread.ofPlatform().name(prefix, 1).factory());
        for (int i = 0; i < n; i++) {
            executor.submit(task.of(i));
        }
    }
}
