package com.example.hotloop;

import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Other collections than HashMap written by threads at once (issue 33: spinning seen in one
 * dump, beyond HashMap's loops). As HashMapRace: THREADS "writer-N" threads put into and remove
 * from one shared collection, until a thread stops advancing while RUNNABLE (printed "looping
 * NAME", then "ready"); "healthy" gives each thread a collection of its own (a busy service in
 * the same frames, never looping).
 *
 * <pre>
 *   CollectionRace treemap race|healthy THREADS   java.util.TreeMap: a race corrupts the
 *                        red-black tree's links; a writer then loops in fixAfterInsertion,
 *                        fixAfterDeletion, put's or getEntry's walk down a cycle
 *   CollectionRace hashset race|healthy THREADS   java.util.HashSet (a HashMap inside): the
 *                        HashMap loops under HashSet.add / remove
 *   CollectionRace weakhashmap race|healthy THREADS   java.util.WeakHashMap (its bins are lists)
 *   CollectionRace identity race|healthy THREADS      java.util.IdentityHashMap (an open table)
 *   CollectionRace nbhm shared THREADS   JCTools' NonBlockingHashMap (/usr/share/java/jctools-core.jar,
 *                        loaded by reflection), which is made for threads at once: the healthy
 *                        control of help_copy, its resizes forced by a fresh map now and then;
 *                        "ready" after 5 s
 * </pre>
 */
public final class CollectionRace {
    interface Coll {
        void add(int k);

        void remove(int k);
    }

    static final class Tree implements Coll {
        final Map<Integer, Integer> m = new TreeMap<>();

        public void add(int k) {
            m.put(k, k);
        }

        public void remove(int k) {
            m.remove(k);
        }
    }

    /** Keys whose hashes collide, as HashMapRace's, so the set's bins turn into trees. */
    static final class Key implements Comparable<Key> {
        final int v;

        Key(int v) {
            this.v = v;
        }

        @Override
        public int hashCode() {
            return v & 0x3f0;
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

    static final class HSet implements Coll {
        final Set<Key> s = new HashSet<>();

        public void add(int k) {
            s.add(new Key(k));
        }

        public void remove(int k) {
            s.remove(new Key(k));
        }
    }

    /** A Map as a Coll, Integer keys (boxed anew above 127: IdentityHashMap sees new keys). */
    static final class MapColl implements Coll {
        final Map<Object, Object> m;

        MapColl(Map<Object, Object> m) {
            this.m = m;
        }

        public void add(int k) {
            m.put(Integer.valueOf(k), Boolean.TRUE);
        }

        public void remove(int k) {
            m.remove(Integer.valueOf(k));
        }
    }

    static volatile Coll shared;
    static String kind;

    @SuppressWarnings("unchecked")
    static Coll fresh() {
        switch (kind) {
            case "treemap":
                return new Tree();
            case "hashset":
                return new HSet();
            case "weakhashmap":
                return new MapColl(new WeakHashMap<>());
            case "identity":
                return new MapColl(new IdentityHashMap<>());
            case "nbhm":
                try {
                    return new MapColl((Map<Object, Object>) Class.forName("org.jctools.maps.NonBlockingHashMap")
                            .getDeclaredConstructor().newInstance());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            default:
                throw new IllegalArgumentException(kind);
        }
    }

    public static void main(String[] args) throws Exception {
        kind = args[0];
        boolean race = !args[1].equals("healthy"); // "race", or "shared" for a concurrent map
        int n = Integer.parseInt(args.length > 2 ? args[2] : "4");
        shared = fresh();
        AtomicLongArray progress = new AtomicLongArray(n);
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            int me = i;
            ts[i] = new Thread(() -> write(race, me, progress), "writer-" + (i + 1));
            ts[i].setDaemon(true);
            ts[i].start();
        }
        long[] last = new long[n];
        int[] still = new int[n];
        boolean said = false;
        long start = System.nanoTime();
        while (true) {
            Thread.sleep(500);
            if (!said && args[1].equals("shared") && System.nanoTime() - start > 5_000_000_000L) {
                System.out.println("ready");
                said = true;
            }
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

    static void write(boolean race, int me, AtomicLongArray progress) {
        Coll own = fresh();
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        long done = 0;
        while (true) {
            Coll c = race ? shared : own;
            try {
                for (int i = 0; i < 20_000; i++) {
                    int k = rnd.nextInt(1 << 12);
                    if (rnd.nextInt(4) == 0) {
                        c.remove(k);
                    } else {
                        c.add(k);
                    }
                    progress.set(me, ++done);
                }
            } catch (RuntimeException e) {
                // a corrupted collection that threw
            }
            if (race) {
                if (rnd.nextInt(8) == 0) {
                    shared = fresh();
                }
            } else {
                own = fresh();
            }
        }
    }
}
