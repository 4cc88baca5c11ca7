package com.example.pool;

import com.example.util.Threads;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

/**
 * A commons-pool2 GenericObjectPool of plain objects (Session), maxTotal 3, blocking when
 * exhausted with no max wait (the defaults). "report-holder-1..3" borrow one each and sleep
 * holding it; then "report-worker-1..10" wait in borrowObject.
 *
 * Usage: java com.example.pool.PoolApp
 */
public final class PoolApp {
    public static void main(String[] args) throws Exception {
        GenericObjectPoolConfig<Session> cfg = new GenericObjectPoolConfig<>();
        cfg.setMaxTotal(3);
        GenericObjectPool<Session> pool = new GenericObjectPool<>(new SessionFactory(), cfg);
        ReportService service = new ReportService(pool);
        for (int i = 1; i <= 3; i++) {
            Threads.start("report-holder-" + i, service::renderSlowly);
        }
        while (pool.getNumActive() < 3) {
            Thread.sleep(10);
        }
        for (int i = 1; i <= 10; i++) {
            Threads.start("report-worker-" + i, service::render);
        }
        Threads.awaitShutdown();
    }
}
