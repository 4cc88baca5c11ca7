package com.example.holders;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * ReentrantReadWriteLock stalls (issue 33). In "stuck":
 * <ul>
 * <li>the catalog: "catalog-refresher" takes the read lock and reads a reply from a store on
 * 127.0.0.1 that accepts and never answers; "catalog-writer" asks for the write lock and queues;
 * eight "query-worker-N" (a fixed pool of 8) ask for the read lock and queue behind the writer
 * (a non-fair lock lets no new reader past a queued writer).</li>
 * <li>the settings: "settings-writer" takes the write lock and waits for a Future whose task,
 * on "settings-loader-1", asks for the read lock: a cycle through the future.</li>
 * </ul>
 * In "healthy" the same threads take the same locks for a few milliseconds at a time.
 */
public final class RwLockApp {
    static final ReentrantReadWriteLock CATALOG = new ReentrantReadWriteLock();
    static final ReentrantReadWriteLock SETTINGS = new ReentrantReadWriteLock();

    public static void main(String[] args) throws Exception {
        boolean stuck = args.length > 0 && args[0].equals("stuck");
        ServerSocket store = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> accept(store, stuck), "store-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        ExecutorService loader = Executors.newFixedThreadPool(2, named("settings-loader-"));
        ExecutorService queries = Executors.newFixedThreadPool(8, named("query-worker-"));

        start("catalog-refresher", () -> {
            for (;;) {
                Catalog.refresh(store.getLocalPort(), stuck);
                pause(200);
            }
        });
        pause(300);
        start("catalog-writer", () -> {
            for (;;) {
                Catalog.publish();
                pause(150);
            }
        });
        pause(300);
        // A query every 5 ms, each 3 ms under the read lock: one or two of the 8 busy.
        start("query-acceptor", () -> {
            for (;;) {
                queries.execute(Catalog::query);
                pause(5);
            }
        });
        start("settings-writer", () -> {
            for (;;) {
                Settings.reload(loader, stuck);
                pause(300);
            }
        });
        Thread.sleep(1500);
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }

    static final class Catalog {
        static void refresh(int port, boolean stuck) {
            CATALOG.readLock().lock();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                s.getOutputStream().write("GET catalog\n".getBytes());
                InputStream in = s.getInputStream();
                in.read(); // stuck: the store never answers, the read lock stays held
            } catch (Exception e) {
                throw new RuntimeException(e);
            } finally {
                CATALOG.readLock().unlock();
            }
        }

        static void publish() {
            CATALOG.writeLock().lock();
            try {
                pause(2);
            } finally {
                CATALOG.writeLock().unlock();
            }
        }

        static void query() {
            CATALOG.readLock().lock();
            try {
                pause(3);
            } finally {
                CATALOG.readLock().unlock();
            }
        }
    }

    static final class Settings {
        static void reload(ExecutorService loader, boolean stuck) {
            SETTINGS.writeLock().lock();
            try {
                if (stuck) {
                    // The task reads the settings under the read lock this thread holds for
                    // writing: the future never completes.
                    Future<String> f = loader.submit(Settings::read);
                    f.get();
                } else {
                    pause(2);
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            } finally {
                SETTINGS.writeLock().unlock();
            }
            if (!stuck) {
                try {
                    loader.submit(Settings::read).get();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }
        }

        static String read() {
            SETTINGS.readLock().lock();
            try {
                pause(1);
                return "settings";
            } finally {
                SETTINGS.readLock().unlock();
            }
        }
    }

    static void accept(ServerSocket ss, boolean stuck) {
        try {
            for (;;) {
                Socket c = ss.accept();
                Thread t = new Thread(() -> answer(c, stuck), "store-conn");
                t.setDaemon(true);
                t.start();
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    static void answer(Socket c, boolean stuck) {
        try (c) {
            c.getInputStream().read();
            if (stuck) {
                Thread.sleep(Long.MAX_VALUE); // accepted, never answers
            }
            pause(5);
            c.getOutputStream().write('1');
        } catch (Exception e) {
            // the client went away
        }
    }

    static java.util.concurrent.ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    static void start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
