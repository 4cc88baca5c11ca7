package com.example.edges;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** Threads that burn CPU in frames that look like rest or that are not java.util's hash maps. */
public class SpinMapsApp {
    /** An open-addressing map with linear probing and no resize: when full, a miss probes for ever. */
    static final class OpenMap {
        final long[] keys;
        final Object[] vals;
        OpenMap(int cap) { keys = new long[cap]; vals = new Object[cap]; }
        void put(long k, Object v) {
            int i = (int) (mix(k) & (keys.length - 1));
            while (keys[i] != 0 && keys[i] != k) { i = (i + 1) & (keys.length - 1); }
            keys[i] = k; vals[i] = v;
        }
        Object get(long k) {
            int i = (int) (mix(k) & (keys.length - 1));
            while (keys[i] != 0) {              // full table: no empty slot ends a miss
                if (keys[i] == k) return vals[i];
                i = (i + 1) & (keys.length - 1);
            }
            return null;
        }
        static long mix(long k) { k ^= k >>> 33; k *= 0xff51afd7ed558ccdL; return k ^ (k >>> 33); }
    }

    /** A chained map whose bucket a racy insert made a cycle: a miss walks it for ever. */
    static final class ChainMap {
        static final class Node { final String key; Object val; Node next; Node(String k, Object v, Node n) { key = k; val = v; next = n; } }
        final Node[] table = new Node[16];
        void put(String k, Object v) { int b = k.hashCode() & 15; table[b] = new Node(k, v, table[b]); }
        Object get(String k) {
            for (Node n = table[k.hashCode() & 15]; n != null; n = n.next) {
                if (n.key.equals(k)) return n.val;
            }
            return null;
        }
    }

    static volatile boolean ready;
    static volatile long sink;

    public static void main(String[] args) throws Exception { run(true); }

    static void run(boolean stuck) throws Exception {
        OpenMap om = new OpenMap(1024);
        for (long k = 1; k <= (stuck ? 1024 : 512); k++) om.put(k, "v" + k);
        ChainMap cm = new ChainMap();
        for (int i = 0; i < 40; i++) cm.put("key-" + i, i);
        if (stuck) { // the race's outcome: a node pointing back at the bucket's head
            ChainMap.Node head = cm.table["key-0".hashCode() & 15];
            ChainMap.Node n = head; while (n.next != null) n = n.next; n.next = head;
        }
        BlockingQueue<Runnable> done = new LinkedBlockingQueue<>(); // work that never comes: a worker's rest
        for (int t = 1; t <= 2; t++) {
            new Thread(() -> { long s = 0; for (int r = 0; ; r++) { Object v = om.get(5000 + (r & 7)); s += v == null ? 1 : 2; sink = s; if (!stuck) { awaitQuietly(done); } } }, "cache-lookup-" + t).start();
        }
        new Thread(() -> { for (;;) { sink += cm.get("missing-" + (sink & 3)) == null ? 1 : 0; if (!stuck) awaitQuietly(done); } }, "session-index").start();
        // A hand-made wait on a flag nobody sets: yields in a loop (the top frame is Thread.yield).
        new Thread(() -> { while (!ready) { if (!stuck) { awaitQuietly(done); } Thread.yield(); } }, "ready-waiter").start();
        // A wait on the flag by Thread.onSpinWait (intrinsic: the top frame is the loop itself).
        new Thread(() -> { while (!ready) { if (!stuck) { awaitQuietly(done); } Thread.onSpinWait(); } }, "spin-waiter").start();
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }

    static void awaitQuietly(BlockingQueue<Runnable> work) {
        try { work.take().run(); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
    }
}
