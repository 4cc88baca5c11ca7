package com.example.pool;

import org.apache.commons.pool2.impl.GenericObjectPool;

/** Borrows a Session per report. */
final class ReportService {
    private final GenericObjectPool<Session> pool;

    ReportService(GenericObjectPool<Session> pool) {
        this.pool = pool;
    }

    /** renderSlowly borrows a Session and never gives it back (sleeps holding it). */
    void renderSlowly() {
        try {
            Session s = pool.borrowObject();
            try {
                Thread.sleep(Long.MAX_VALUE); // the report that never ends
            } finally {
                pool.returnObject(s);
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** render borrows a Session for a moment. */
    void render() {
        try {
            Session s = pool.borrowObject();
            pool.returnObject(s);
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
