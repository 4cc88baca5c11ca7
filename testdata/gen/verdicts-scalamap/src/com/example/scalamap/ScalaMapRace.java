package com.example.scalamap;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A Scala mutable HashMap (scala.collection.mutable.HashMap, Scala 2.11, Debian's
 * scala-library) shared by threads that write it at once, called from Java. Its table is a
 * chained HashTable whose resize moves each bin's entries to the new table's heads, as JDK 7's
 * HashMap.transfer did: two threads resizing at once can leave a bin's links a cycle, and every
 * lookup, put or remove that walks that bin then loops for ever (scala/bug#10436,
 * softwaremill/akka-http-session#48).
 *
 * <pre>
 *   ScalaMapRace race    THREADS "session-N" threads share one map; a fresh map after one in
 *                        eight rounds of 20,000 operations, until threads stop advancing: prints
 *                        "looping NAME" and "ready" once one has made no progress for 3 s while
 *                        RUNNABLE
 *   ScalaMapRace healthy the same threads and operations, each on a map of its own: a busy
 *                        service caught in the map's lookups and puts, never looping
 * </pre>
 */
public final class ScalaMapRace {
    static volatile scala.collection.mutable.HashMap<Integer, Integer> shared = new scala.collection.mutable.HashMap<>();

    public static void main(String[] args) throws Exception {
        boolean race = args[0].equals("race");
        int n = Integer.parseInt(args.length > 1 ? args[1] : "4");
        AtomicLongArray progress = new AtomicLongArray(n);
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            int me = i;
            ts[i] = new Thread(() -> track(race, me, progress), "session-" + (i + 1));
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
                if (still[i] == 6) {
                    System.out.println("looping " + ts[i].getName());
                    if (!said) {
                        System.out.println("ready");
                        said = true;
                    }
                }
            }
            if (!race && !said) {
                System.out.println("ready");
                said = true;
            }
        }
    }

    static void track(boolean race, int me, AtomicLongArray progress) {
        scala.collection.mutable.HashMap<Integer, Integer> own = new scala.collection.mutable.HashMap<>();
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        long done = 0;
        while (true) {
            scala.collection.mutable.HashMap<Integer, Integer> m = race ? shared : own;
            try {
                for (int i = 0; i < 20_000; i++) {
                    Integer k = rnd.nextInt(1 << 14);
                    switch (rnd.nextInt(4)) {
                    case 0 -> m.remove(k);
                    case 1 -> m.contains(k);
                    default -> m.put(k, i);
                    }
                    progress.set(me, ++done);
                }
            } catch (RuntimeException e) {
                // a corrupted map that threw
            }
            if (race) {
                if (rnd.nextInt(8) == 0) {
                    shared = new scala.collection.mutable.HashMap<>();
                }
            } else {
                own = new scala.collection.mutable.HashMap<>();
            }
        }
    }
}
