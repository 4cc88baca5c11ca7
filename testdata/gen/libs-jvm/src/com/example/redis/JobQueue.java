package com.example.redis;

import org.apache.commons.pool2.impl.GenericObjectPool;

/** Uses pooled Redis connections: a blocking job consumer and a cache read. */
final class JobQueue {
    private final GenericObjectPool<RedisConnection> pool;

    JobQueue(GenericObjectPool<RedisConnection> pool) {
        this.pool = pool;
    }

    /** consume blocks in BLPOP on the empty "jobs" list (timeout 0: for ever), holding its connection. */
    void consume() {
        try {
            RedisConnection c = pool.borrowObject();
            try {
                c.command("BLPOP", "jobs", "0");
            } finally {
                pool.returnObject(c);
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** readCache borrows a connection for one GET. */
    void readCache() {
        try {
            RedisConnection c = pool.borrowObject();
            try {
                c.command("GET", "price:42");
            } finally {
                pool.returnObject(c);
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
