package com.example.orders;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An orders service in trouble, held still so that its own thread dump can be served the way
 * Spring Boot's Actuator serves /actuator/threaddump. There is no Spring here: the endpoint is
 * ours ({@link ThreadDumpEndpoint}), built to Spring Boot's formats.
 *
 * <ul>
 * <li>a monitor deadlock: ledger-sync locks the Ledger then the AuditLog, audit-flush the
 * AuditLog then the Ledger;</li>
 * <li>five request threads (http-nio-8080-exec-1..5) BLOCKED on the PriceCache monitor, held by
 * price-refresh, which sleeps inside it (a slow reload under the lock);</li>
 * <li>five inventory-worker-N threads parked in ReentrantLock.lock(), held by
 * inventory-rebuild, which sleeps while holding it;</li>
 * <li>order-dispatcher in Object.wait() on its queue.</li>
 * </ul>
 *
 * Usage: java -cp CLASSES:JACKSON_JARS com.example.orders.OrdersApp OUT_DIR
 * It waits until every thread is in its state, takes one ThreadMXBean.dumpAllThreads(true, true)
 * snapshot, writes it in each shape to OUT_DIR and exits.
 */
public final class OrdersApp {
    static final Ledger ledger = new Ledger();
    static final AuditLog audit = new AuditLog();
    static final PriceCache prices = new PriceCache();
    static final ReentrantLock inventory = new ReentrantLock();
    static final Object queue = new Object();

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        List<Thread> threads = new ArrayList<>();
        CountDownLatch both = new CountDownLatch(2);
        threads.add(start("ledger-sync", () -> ledger.sync(audit, both)));
        threads.add(start("audit-flush", () -> audit.flush(ledger, both)));

        CountDownLatch refreshing = new CountDownLatch(1);
        threads.add(start("price-refresh", () -> prices.reload(refreshing)));
        refreshing.await();
        for (int i = 1; i <= 5; i++) {
            threads.add(start("http-nio-8080-exec-" + i, () -> prices.quote("SKU-1")));
        }

        CountDownLatch rebuilding = new CountDownLatch(1);
        threads.add(start("inventory-rebuild", () -> Inventory.rebuild(rebuilding)));
        rebuilding.await();
        for (int i = 1; i <= 5; i++) {
            threads.add(start("inventory-worker-" + i, () -> Inventory.reserve("SKU-1")));
        }
        threads.add(start("order-dispatcher", OrdersApp::dispatch));

        waitForStates(threads);
        ThreadDumpEndpoint endpoint = new ThreadDumpEndpoint();
        ThreadInfo[] snapshot = endpoint.snapshot();
        write(out.resolve("threaddump-boot3.json"), endpoint.json(snapshot, ThreadDumpEndpoint.Shape.BOOT3));
        write(out.resolve("threaddump-boot2.json"), endpoint.json(snapshot, ThreadDumpEndpoint.Shape.BOOT2));
        write(out.resolve("dump-boot1.json"), endpoint.json(snapshot, ThreadDumpEndpoint.Shape.BOOT1));
        write(out.resolve("threaddump.txt"), endpoint.text(snapshot));
        System.out.println("written");
        System.exit(0);
    }

    static void write(Path p, String s) throws Exception {
        Files.writeString(p, s, StandardCharsets.UTF_8);
    }

    static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Polls until every thread is in the state the scenario puts it in. */
    static void waitForStates(List<Thread> threads) throws InterruptedException {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int tries = 0; tries < 200; tries++) {
            boolean ready = true;
            for (Thread t : threads) {
                ThreadInfo ti = mx.getThreadInfo(t.getId());
                Thread.State want = switch (t.getName().replaceAll("-[0-9]+$", "")) {
                    case "ledger-sync", "audit-flush", "http-nio-8080-exec" -> Thread.State.BLOCKED;
                    case "price-refresh", "inventory-rebuild" -> Thread.State.TIMED_WAITING;
                    default -> Thread.State.WAITING;
                };
                if (ti == null || ti.getThreadState() != want) {
                    ready = false;
                }
            }
            if (ready) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("threads did not reach their states");
    }

    static void dispatch() {
        synchronized (queue) {
            try {
                queue.wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static void sleepForever() {
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static final class Ledger {
        void sync(AuditLog a, CountDownLatch both) {
            synchronized (this) {
                both.countDown();
                await(both);
                a.append("ledger synced");
            }
        }

        synchronized void post(String entry) {
        }
    }

    static final class AuditLog {
        void flush(Ledger l, CountDownLatch both) {
            synchronized (this) {
                both.countDown();
                await(both);
                l.post("audit flushed");
            }
        }

        synchronized void append(String entry) {
        }
    }

    static final class PriceCache {
        void reload(CountDownLatch refreshing) {
            synchronized (this) {
                refreshing.countDown();
                sleepForever(); // the slow upstream call made under the lock
            }
        }

        synchronized long quote(String sku) {
            return sku.length();
        }
    }

    static final class Inventory {
        static void rebuild(CountDownLatch rebuilding) {
            inventory.lock();
            try {
                rebuilding.countDown();
                sleepForever();
            } finally {
                inventory.unlock();
            }
        }

        static void reserve(String sku) {
            inventory.lock();
            try {
                sku.length();
            } finally {
                inventory.unlock();
            }
        }
    }

    static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
