package com.example.poolholders;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

/**
 * A commons-pool2 GenericObjectPool of 3 export sessions (maxTotal 3, block
 * forever) shared by 10 export workers. Each export borrows a session, asks
 * the upstream for the report over a socket with no read timeout, and
 * returns the session.
 *
 * stuck: 10 exports at once and an upstream that never replies: 3 workers
 * hold the 3 sessions in a socket read under Session.fetch, 7 wait in
 * borrowObject under ReportService.export.
 *
 * healthy: 60 exports a second, the upstream replying in 20 ms: the 3
 * sessions turn over (about 1.2 in use on average), a wait is rare and brief.
 */
public final class ReportService {
    static final class Session {
        private final String addr;

        Session(String addr) {
            this.addr = addr;
        }

        String fetch(int id) throws Exception {
            return Named.ask(addr, "report " + id);
        }
    }

    private final GenericObjectPool<Session> sessions;

    ReportService(String addr) {
        GenericObjectPoolConfig<Session> cfg = new GenericObjectPoolConfig<>();
        cfg.setMaxTotal(3);
        cfg.setBlockWhenExhausted(true);
        cfg.setMaxWaitMillis(-1);
        sessions = new GenericObjectPool<>(new BasePooledObjectFactory<Session>() {
            @Override
            public Session create() {
                return new Session(addr);
            }

            @Override
            public PooledObject<Session> wrap(Session s) {
                return new DefaultPooledObject<>(s);
            }
        }, cfg);
    }

    String export(int id) throws Exception {
        Session s = sessions.borrowObject();
        try {
            return s.fetch(id);
        } finally {
            sessions.returnObject(s);
        }
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        ReportService svc = new ReportService(args[1]);
        ExecutorService workers = Executors.newFixedThreadPool(10, new Named("export-worker-"));
        Runnable one = () -> {
            try {
                svc.export((int) (System.nanoTime() % 1000));
            } catch (Exception e) {
                e.printStackTrace();
            }
        };
        if (stuck) {
            for (int i = 0; i < 10; i++) {
                workers.execute(one);
            }
            System.out.println("ready");
            Thread.sleep(Long.MAX_VALUE);
        }
        System.out.println("ready");
        while (true) {
            workers.execute(one);
            Thread.sleep(16);
        }
    }
}
