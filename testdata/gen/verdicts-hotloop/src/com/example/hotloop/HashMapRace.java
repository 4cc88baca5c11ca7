package com.example.hotloop;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A plain HashMap shared by threads that put into it at once (issue 33: spinning seen in one
 * dump). Keys collide on purpose (4,096 keys, 64 hash values), so bins turn into red-black
 * trees, and concurrent puts corrupt the tree's parent links: a thread then loops for ever in
 * HashMap$TreeNode code (JDK-8080255, as adoptium/temurin-build#4428 cites it, and the write-ups).
 *
 * <pre>
 *   HashMapRace race     THREADS "indexer-N" threads share one map; a fresh map after one in
 *                        eight rounds of 20,000 operations, until threads stop advancing: prints
 *                        "ready" once at least one has made no progress for 3 s while RUNNABLE
 *   HashMapRace healthy  the same threads and puts, each into a map of its own (no sharing):
 *                        a busy service caught in HashMap.put, never looping
 * </pre>
 */
public final class HashMapRace {
    /** A key whose hash collides with many others, comparable so tree bins order it. */
    static final class Key implements Comparable<Key> {
        final int v;

        Key(int v) {
            this.v = v;
        }

        @Override
        public int hashCode() {
            return v & 0x3f0; // 64 hash values: bins of many keys, treeified
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key && ((Key) o).v == v;
        }

        @Override
        public int compareTo(Key k) {
            return Integer.compare(v, k.v);
        }
    }

    static volatile Map<Key, Integer> shared = new HashMap<>();

    public static void main(String[] args) throws Exception {
        boolean race = args[0].equals("race");
        int n = Integer.parseInt(args.length > 1 ? args[1] : "8");
        AtomicLongArray progress = new AtomicLongArray(n);
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            int me = i;
            ts[i] = new Thread(() -> index(race, me, progress), "indexer-" + (i + 1));
            ts[i].setDaemon(true);
            ts[i].start();
        }
        long[] last = new long[n];
        int[] still = new int[n];
        boolean said = false;
        while (true) {
            Thread.sleep(500);
            for (int i = 0; i < n; i++) {
                long p = progress.get(i);
                still[i] = p == last[i] && ts[i].getState() == Thread.State.RUNNABLE ? still[i] + 1 : 0;
                last[i] = p;
                if (!said && still[i] >= 6) {
                    System.out.println("looping " + ts[i].getName());
                    System.out.println("ready");
                    said = true;
                }
            }
            if (!race && !said) {
                System.out.println("ready");
                said = true;
            }
        }
    }

    static void index(boolean race, int me, AtomicLongArray progress) {
        Map<Key, Integer> own = new HashMap<>();
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        long done = 0;
        while (true) {
            Map<Key, Integer> m = race ? shared : own;
            try {
                for (int i = 0; i < 20_000; i++) {
                    Key k = new Key(rnd.nextInt(1 << 12));
                    if (rnd.nextInt(4) == 0) {
                        m.remove(k);
                    } else {
                        m.put(k, i);
                    }
                    progress.set(me, ++done);
                }
            } catch (RuntimeException e) {
                // ClassCastException, NullPointerException: a corrupted map that threw
            }
            if (race) {
                if (rnd.nextInt(8) == 0) {
                    shared = new HashMap<>(); // now and then a fresh map: a fresh table to grow and treeify
                }
            } else {
                own = new HashMap<>();
            }
        }
    }
}
