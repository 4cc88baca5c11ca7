package com.example.jetty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

/** /ping answers "ok"; /quote answers with what the upstream returns. */
final class QuoteHandler extends AbstractHandler {
    private final UpstreamClient upstream;

    QuoteHandler(UpstreamClient upstream) {
        this.upstream = upstream;
    }

    @Override
    public void handle(String target, Request base, HttpServletRequest req, HttpServletResponse resp)
            throws IOException {
        String body = target.equals("/quote") ? upstream.fetch() : "ok";
        resp.setContentType("text/plain");
        resp.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
        base.setHandled(true);
    }
}
