package com.example.redis;

import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;

/** Makes pooled RedisConnections (as Jedis's JedisFactory does for its JedisPool). */
final class RedisConnectionFactory extends BasePooledObjectFactory<RedisConnection> {
    private final int port;

    RedisConnectionFactory(int port) {
        this.port = port;
    }

    @Override
    public RedisConnection create() throws Exception {
        return new RedisConnection(port);
    }

    @Override
    public PooledObject<RedisConnection> wrap(RedisConnection c) {
        return new DefaultPooledObject<>(c);
    }

    @Override
    public void destroyObject(PooledObject<RedisConnection> p) throws Exception {
        p.getObject().close();
    }
}
