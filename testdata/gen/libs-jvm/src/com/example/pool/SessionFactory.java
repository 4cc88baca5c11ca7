package com.example.pool;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;

final class SessionFactory extends BasePooledObjectFactory<Session> {
    private final AtomicInteger next = new AtomicInteger();

    @Override
    public Session create() {
        return new Session(next.incrementAndGet());
    }

    @Override
    public PooledObject<Session> wrap(Session s) {
        return new DefaultPooledObject<>(s);
    }
}
