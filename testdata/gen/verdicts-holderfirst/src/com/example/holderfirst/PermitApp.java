package com.example.holderfirst;

import java.io.IOException;
import java.util.concurrent.Semaphore;

/**
 * A Semaphore of 3 permits guarding calls to a database, 8 fetcher threads.
 *
 * fetcher-1..8: loop { permits.acquire(); try { fetch() } finally {
 *   permits.release() } ; 10 ms of other work }. fetch sends a query and
 *   reads the reply with no timeout.
 *
 * stuck:   the database never answers: three fetchers hold the permits,
 *          RUNNABLE in the socket read under fetch; five park in
 *          Semaphore.acquire, called from the same call method.
 * healthy: the database answers in 5 ms: the permits rotate.
 *
 * args: mode self-dump-dir db-port (LocalDb, run by gen.sh: never answers
 * when stuck, answers in 5 ms when healthy).
 */
public final class PermitApp {
    static final Semaphore permits = new Semaphore(3);

    static String fetch(LocalDb.Conn c, int k) throws IOException {
        return c.query("select " + k);
    }

    static void call(int port) throws IOException, InterruptedException {
        LocalDb.Conn c = new LocalDb.Conn(port);
        for (int k = 0; ; k++) {
            permits.acquire();
            try {
                fetch(c, k);
            } finally {
                permits.release();
            }
            Thread.sleep(10);
        }
    }

    public static void main(String[] args) throws Exception {
        SelfDumper.start(args.length > 1 ? args[1] : null);
        int port = Integer.parseInt(args[2]);
        for (int i = 1; i <= 8; i++) {
            new Thread(() -> {
                try {
                    call(port);
                } catch (IOException | InterruptedException e) {
                    e.printStackTrace();
                }
            }, "fetcher-" + i).start();
        }
        Thread.sleep(500);
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }
}
