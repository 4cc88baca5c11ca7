package com.example.shop;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** GET /health: UP when the database answers, the way a readiness probe checks it. */
public final class HealthServlet extends HttpServlet {
    private final transient DataSource dataSource; // null = no database configured

    public HealthServlet(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("application/json");
        if (dataSource == null) {
            resp.getWriter().write("{\"status\":\"UP\"}\n");
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            if (c.isValid(2)) {
                resp.getWriter().write("{\"status\":\"UP\",\"db\":\"UP\"}\n");
                return;
            }
            resp.sendError(503, "db not valid");
        } catch (SQLException e) {
            resp.sendError(503, "db: " + e.getMessage());
        }
    }
}
