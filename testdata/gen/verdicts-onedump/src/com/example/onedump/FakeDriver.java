package com.example.onedump;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * A JDBC driver for "jdbc:onedump:" whose connections do nothing: each method returns its
 * type's zero (isValid and getAutoCommit true). The pools under test lend these; no database
 * is needed to exhaust a pool.
 */
public final class FakeDriver implements Driver {
    static {
        try {
            java.sql.DriverManager.registerDriver(new FakeDriver());
        } catch (java.sql.SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public Connection connect(String url, Properties info) {
        if (!acceptsURL(url)) return null;
        return (Connection) Proxy.newProxyInstance(FakeDriver.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, m, args) -> {
                    Class<?> r = m.getReturnType();
                    if (r == boolean.class) return m.getName().equals("isValid") || m.getName().equals("getAutoCommit");
                    if (r == int.class) return 0;
                    if (r == long.class) return 0L;
                    if (m.getName().equals("toString")) return "fake connection";
                    if (m.getName().equals("hashCode")) return System.identityHashCode(proxy);
                    if (m.getName().equals("equals")) return proxy == args[0];
                    return null;
                });
    }

    @Override public boolean acceptsURL(String url) { return url.startsWith("jdbc:onedump:"); }
    @Override public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) { return new DriverPropertyInfo[0]; }
    @Override public int getMajorVersion() { return 1; }
    @Override public int getMinorVersion() { return 0; }
    @Override public boolean jdbcCompliant() { return false; }
    @Override public Logger getParentLogger() { return Logger.getGlobal(); }
}
