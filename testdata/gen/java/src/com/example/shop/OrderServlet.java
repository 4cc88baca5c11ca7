package com.example.shop;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;

/** GET /orders/{userId}. */
public final class OrderServlet extends HttpServlet {
    private final transient OrderRepository orders;

    public OrderServlet(OrderRepository orders) {
        this.orders = orders;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String user = req.getPathInfo() == null ? "0" : req.getPathInfo().substring(1);
        resp.setContentType("application/json");
        try {
            resp.getWriter().write(orders.recentOrderSummary(Long.parseLong(user)));
        } catch (SQLException | NumberFormatException e) {
            resp.sendError(503, e.getMessage());
        }
    }
}
