package com.example.holderfirst;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One monitor whose holder waits on a remote database.
 *
 * audit-flusher: every 200 ms, synchronized on the AuditLog, writes the
 *   pending entries to the database (a query, then a blocking read of the
 *   reply with no timeout).
 * request-1..6: each appends an entry, synchronized on the same AuditLog,
 *   then does 20 ms of other work, in a loop.
 *
 * stuck:   the database never answers: audit-flusher stays RUNNABLE in the
 *          socket read holding the AuditLog, the six requests BLOCKED on it.
 * healthy: the database answers in 5 ms: the AuditLog is held briefly, by
 *          the flusher or a request in turn.
 *
 * args: mode self-dump-dir db-port (LocalDb, run by gen.sh: never answers
 * when stuck, answers in 5 ms when healthy).
 */
public final class OwnerWaitApp {
    static final class AuditLog {
        final List<String> pending = new ArrayList<>();
        final LocalDb.Conn db;

        AuditLog(LocalDb.Conn db) {
            this.db = db;
        }

        synchronized void append(String e) {
            pending.add(e);
        }

        synchronized void flush() throws IOException {
            if (!pending.isEmpty()) {
                db.query("insert " + pending.size());
                pending.clear();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        SelfDumper.start(args.length > 1 ? args[1] : null);
        AuditLog log = new AuditLog(new LocalDb.Conn(Integer.parseInt(args[2])));
        Thread flusher = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(200);
                    log.flush();
                }
            } catch (InterruptedException | IOException e) {
                Thread.currentThread().interrupt();
            }
        }, "audit-flusher");
        flusher.start();
        for (int i = 1; i <= 6; i++) {
            int n = i;
            new Thread(() -> {
                try {
                    for (int k = 0; ; k++) {
                        log.append("request " + n + " entry " + k);
                        Thread.sleep(20);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "request-" + i).start();
        }
        Thread.sleep(500); // stuck: the first flush has started and hangs
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }
}
