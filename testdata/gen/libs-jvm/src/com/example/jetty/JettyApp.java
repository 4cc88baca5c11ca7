package com.example.jetty;

import com.example.util.Threads;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * An embedded Jetty 9.4 server with the default QueuedThreadPool (threads "qtp<hash>-N"),
 * one ServerConnector on 127.0.0.1 (any free port) and one handler: /ping answers at once,
 * /quote calls the upstream with no read timeout. Prints "listening PORT".
 *
 * Usage: java com.example.jetty.JettyApp UPSTREAM-PORT
 */
public final class JettyApp {
    public static void main(String[] args) throws Exception {
        QueuedThreadPool pool = new QueuedThreadPool(); // Jetty's defaults: max 200, min 8, idle 60 s
        Server server = new Server(pool);
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new QuoteHandler(new UpstreamClient("http://127.0.0.1:" + args[0] + "/quote")));
        server.start();
        System.out.println("listening " + connector.getLocalPort());
        System.out.flush();
        Threads.awaitShutdown();
    }
}
