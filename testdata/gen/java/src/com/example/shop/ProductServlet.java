package com.example.shop;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.SocketTimeoutException;

/** GET /product/{id}. */
public final class ProductServlet extends HttpServlet {
    private final transient ProductService products;

    public ProductServlet(ProductService products) {
        this.products = products;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String id = req.getPathInfo() == null ? "0" : req.getPathInfo().substring(1);
        resp.setContentType("application/json");
        try {
            resp.getWriter().write(products.productDetail(id));
        } catch (Bulkhead.FullException e) {
            resp.sendError(503, "inventory busy, try again");
        } catch (SocketTimeoutException e) {
            resp.sendError(504, "inventory timed out");
        }
    }
}
