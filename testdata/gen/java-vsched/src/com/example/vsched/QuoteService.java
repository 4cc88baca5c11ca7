package com.example.vsched;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A quote service whose requests each run on a virtual thread, arriving at a
 * steady rate from one platform thread ("arrivals"), as a server's acceptor
 * hands them out. What a request does is the mode:
 *
 * <ul>
 *   <li>cpu: prices the quote by simulation, about 200 ms on a core
 *       (Pricing.simulate): no virtual thread ever yields its carrier, so
 *       the scheduler's carriers are all mounted and the requests arriving
 *       at 500 a second queue behind them.
 *   <li>pinned: reads the rate table (RateTable), whose static initializer
 *       loads it for 120 s (a slow remote load on first use; the property
 *       rates.loadMillis changes it). The first
 *       request runs the initializer: Thread.sleep under a class initializer
 *       parks with its carrier (a native frame, the VM's call of
 *       {@code <clinit>}, is on its stack). Every next request waits for
 *       the class's initialization, blocking its carrier too (JDK 24+ still
 *       pins there: JEP 491). Once every carrier is held, new requests
 *       queue and never start.
 *   <li>healthy: waits 20 ms for a downstream reply (a sleep: the virtual
 *       thread unmounts) then prices in a fraction of a millisecond:
 *       about 10 requests in flight, carriers mostly free, nothing queued.
 * </ul>
 *
 * A second argument sets the milliseconds between arrivals (2 unless
 * given). Prints "ready" once the arrivals run, and exits when its stdin
 * closes.
 * Run with -Djdk.virtualThreadScheduler.parallelism=4 (gen.sh does).
 */
public class QuoteService {
    static final AtomicLong served = new AtomicLong();

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "healthy";
        long every = args.length > 1 ? Long.parseLong(args[1]) : 2;
        Runnable request = switch (mode) {
            case "cpu" -> () -> { Pricing.simulate(200); served.incrementAndGet(); };
            case "pinned" -> () -> { RateTable.rate("EURUSD"); served.incrementAndGet(); };
            case "healthy" -> () -> { Downstream.call(20); Pricing.simulate(0); served.incrementAndGet(); };
            default -> throw new IllegalArgumentException("mode: cpu, pinned or healthy");
        };
        Thread arrivals = Thread.ofPlatform().name("arrivals").daemon(true).start(() -> {
            var factory = Thread.ofVirtual().name("request-", 0).factory();
            try {
                while (true) {
                    factory.newThread(request).start();
                    Thread.sleep(every); // 500 requests a second by default
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        System.out.println("ready");
        System.out.flush();
        while (System.in.read() >= 0) {
            // until stdin closes
        }
        arrivals.interrupt();
        System.exit(0);
    }
}

/** CPU-bound pricing: a Monte Carlo loop for ms milliseconds (0: one round). */
class Pricing {
    static double simulate(long ms) {
        long end = System.nanoTime() + ms * 1_000_000L;
        double sum = 0;
        long seed = System.nanoTime();
        do {
            for (int i = 0; i < 10_000; i++) {
                seed = seed * 6364136223846793005L + 1442695040888963407L;
                sum += Math.exp(((seed >>> 11) * 0x1.0p-53) - 0.5);
            }
        } while (System.nanoTime() < end);
        return sum;
    }
}

/** A downstream call: the reply comes after ms milliseconds. */
class Downstream {
    static void call(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

/** The rate table, loaded on first use by its static initializer. */
class RateTable {
    static final java.util.Map<String, Double> RATES = load();

    static java.util.Map<String, Double> load() {
        try {
            Thread.sleep(Long.getLong("rates.loadMillis", 120_000)); // the slow remote load
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return java.util.Map.of("EURUSD", 1.08);
    }

    static double rate(String pair) {
        return RATES.getOrDefault(pair, 1.0);
    }
}
