package com.example.redis;

import com.example.util.Threads;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

/**
 * A pool of 3 RedisConnections (commons-pool2 GenericObjectPool, blocking when exhausted,
 * no max wait). "job-consumer-1..3" each borrow one and block in BLPOP jobs 0 on an empty
 * list; then "cache-reader-1..10" wait in borrowObject for a connection to GET a key.
 *
 * Usage: java com.example.redis.RedisApp REDIS-PORT
 */
public final class RedisApp {
    public static void main(String[] args) throws Exception {
        GenericObjectPoolConfig<RedisConnection> cfg = new GenericObjectPoolConfig<>();
        cfg.setMaxTotal(3);
        cfg.setMaxIdle(3);
        GenericObjectPool<RedisConnection> pool =
                new GenericObjectPool<>(new RedisConnectionFactory(Integer.parseInt(args[0])), cfg);
        JobQueue queue = new JobQueue(pool);
        for (int i = 1; i <= 3; i++) {
            Threads.start("job-consumer-" + i, queue::consume);
        }
        while (pool.getNumActive() < 3) {
            Thread.sleep(10);
        }
        for (int i = 1; i <= 10; i++) {
            Threads.start("cache-reader-" + i, queue::readCache);
        }
        Threads.awaitShutdown();
    }
}
