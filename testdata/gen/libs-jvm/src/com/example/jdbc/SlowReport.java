package com.example.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/** Runs one slow query again and again on its own connection. */
final class SlowReport {
    private SlowReport() {}

    static Void run(String url, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            while (true) {
                try (ResultSet rs = st.executeQuery(sql)) {
                    rs.next();
                }
            }
        }
    }
}
