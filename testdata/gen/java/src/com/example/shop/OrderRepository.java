package com.example.shop;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Reads a user's order summary from PostgreSQL. */
public final class OrderRepository {
    private final DataSource dataSource;
    private final int querySeconds;

    /** querySeconds: how long the summary query takes in the database (pg_sleep stands in for a bad plan). */
    public OrderRepository(DataSource dataSource, int querySeconds) {
        this.dataSource = dataSource;
        this.querySeconds = querySeconds;
    }

    public String recentOrderSummary(long userId) throws SQLException {
        String sql = "SELECT count(o.id), coalesce(sum(o.total), 0) "
                + "FROM orders o, pg_sleep(?) WHERE o.user_id = ?";
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, querySeconds);
            ps.setLong(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return "{\"user\":" + userId + ",\"orders\":" + rs.getLong(1)
                        + ",\"total\":" + rs.getBigDecimal(2) + "}\n";
            }
        }
    }
}
