package com.example.holders;

import java.io.InputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A library's own read-write lock, built on LockSupport as IntelliJ's ReadMostlyRWLock is (issue
 * 33: a lock told by its structure, not by the JDK's lock classes). In "stuck": "index-reader"
 * takes the read lock and reads a reply from a store on 127.0.0.1 that accepts and never
 * answers; "ui-writer" asks for the write lock (Editor.type → ReadMostlyLock.writeLock) and parks
 * until the readers leave: never. In "healthy" the same threads take the same lock for a
 * millisecond at a time and rest in Thread.sleep between.
 *
 * With a second argument, once the state is in place it also writes what IntelliJ's own
 * ThreadDumper writes of every thread (com.intellij.diagnostic.ThreadDumper.dumpCallStack: the
 * header with prio=0 tid=0x0 nid=0x0, the state, " on LOCK owned by "NAME" Id=N", the frames),
 * from ThreadMXBean, to that file.
 */
public final class LibLockApp {
    /** Readers count in; a writer parks (on the lock object) until they are out. */
    static final class ReadMostlyLock {
        final AtomicInteger readers = new AtomicInteger();
        volatile Thread writer;
        final ConcurrentLinkedQueue<Thread> parkedReaders = new ConcurrentLinkedQueue<>();

        void readLock() {
            for (;;) {
                if (writer == null) {
                    readers.incrementAndGet();
                    if (writer == null) return;
                    readUnlock();
                }
                parkedReaders.add(Thread.currentThread());
                LockSupport.park(this);
            }
        }

        void readUnlock() {
            if (readers.decrementAndGet() == 0 && writer != null) LockSupport.unpark(writer);
        }

        void writeLock() {
            writer = Thread.currentThread();
            while (readers.get() > 0) LockSupport.park(this);
        }

        void writeUnlock() {
            writer = null;
            Thread t;
            while ((t = parkedReaders.poll()) != null) LockSupport.unpark(t);
        }
    }

    static final ReadMostlyLock LOCK = new ReadMostlyLock();
    static volatile Thread uiWriter;

    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        ServerSocket store = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        start("store-acceptor", () -> accept(store, stuck));
        start("index-reader", () -> {
            for (;;) {
                Index.update(store.getLocalPort(), stuck);
                pause(10);
            }
        });
        while (LOCK.readers.get() == 0 && stuck) Thread.onSpinWait(); // the reader holds it
        uiWriter = start("ui-writer", () -> {
            for (;;) {
                Editor.type();
                pause(10);
            }
        });
        if (stuck) {
            // ready once the writer is parked in writeLock (its state, not time)
            while (!(uiWriter.getState() == Thread.State.WAITING && inWriteLock(uiWriter))) Thread.onSpinWait();
        }
        if (args.length > 1) writeFreezeDump(Path.of(args[1]));
        System.out.println("ready");
        Thread.currentThread().join();
    }

    static boolean inWriteLock(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) if (e.getMethodName().equals("writeLock")) return true;
        return false;
    }

    static final class Editor {
        static void type() {
            LOCK.writeLock();
            try {
                pause(1);
            } finally {
                LOCK.writeUnlock();
            }
        }
    }

    static final class Index {
        static void update(int port, boolean stuck) {
            LOCK.readLock();
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                InputStream in = s.getInputStream();
                if (stuck) in.read(); // the store never answers
                else pause(1);
            } catch (Exception e) {
                throw new RuntimeException(e);
            } finally {
                LOCK.readUnlock();
            }
        }
    }

    static void accept(ServerSocket store, boolean stuck) {
        try {
            for (;;) {
                Socket s = store.accept();
                if (!stuck) s.close();
                // stuck: kept open, never written to
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** IntelliJ's ThreadDumper.dumpCallStack, written from its format. */
    static void writeFreezeDump(Path out) throws Exception {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
            for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
                StringBuilder sb = new StringBuilder("\"").append(info.getThreadName()).append("\"");
                sb.append(" prio=0 tid=0x0 nid=0x0 ").append(readable(info.getThreadState())).append("\n");
                sb.append("     java.lang.Thread.State: ").append(info.getThreadState()).append("\n");
                if (info.getLockName() != null) sb.append(" on ").append(info.getLockName());
                if (info.getLockOwnerName() != null) {
                    sb.append(" owned by \"").append(info.getLockOwnerName()).append("\" Id=").append(info.getLockOwnerId());
                }
                if (info.isSuspended()) sb.append(" (suspended)");
                if (info.isInNative()) sb.append(" (in native)");
                w.write(sb + "\n");
                for (StackTraceElement e : info.getStackTrace()) w.write("\tat " + e + "\n");
                w.write("\n");
            }
        }
    }

    static String readable(Thread.State s) {
        switch (s) {
            case BLOCKED: return "blocked";
            case TIMED_WAITING: case WAITING: return "waiting on condition";
            case RUNNABLE: return "runnable";
            case NEW: return "new";
            default: return "terminated";
        }
    }

    static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
