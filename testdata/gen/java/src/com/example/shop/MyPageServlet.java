package com.example.shop;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** GET /mypage/{userId}. */
public final class MyPageServlet extends HttpServlet {
    private final transient MyPageService myPage;

    public MyPageServlet(MyPageService myPage) {
        this.myPage = myPage;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String user = req.getPathInfo() == null ? "0" : req.getPathInfo().substring(1);
        resp.setContentType("application/json");
        try {
            resp.getWriter().write(myPage.load(user));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            resp.sendError(503);
        }
    }
}
