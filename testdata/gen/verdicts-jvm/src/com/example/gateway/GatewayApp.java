package com.example.gateway;

import com.example.util.NamedThreadFactory;
import com.example.util.Threads;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A healthy service with no traffic. Nothing is stuck:
 *  - "app-worker-1".."app-worker-16": a fixed ThreadPoolExecutor, idle in getTask;
 *  - "scheduler-1","scheduler-2": a ScheduledThreadPoolExecutor waiting for its next task
 *    (one every 10 min) on its delay queue;
 *  - "acceptor": the service's ServerSocket (127.0.0.1, any port) in accept;
 *  - "conn-reader-1".."conn-reader-4": kept-alive connections to a quiet backend on
 *    127.0.0.1, each reader in a socket read waiting for the next pushed event;
 *  - "housekeeping-timer": a java.util.Timer waiting for its next task (every 10 min);
 *  - "session-reaper","config-watcher": wake every 30 s, sleeping in between;
 *  - "busy-1","busy-2": a steady CPU-bound job (RiskScorer), RUNNABLE.
 *
 * Usage: java com.example.gateway.GatewayApp BACKEND-PORT   (the backend is on 127.0.0.1)
 */
public final class GatewayApp {
    public static void main(String[] args) throws Exception {
        InetSocketAddress backend = new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0]));

        ThreadPoolExecutor workers = new ThreadPoolExecutor(16, 16, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), new NamedThreadFactory("app-worker"));
        workers.prestartAllCoreThreads();

        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(2, new NamedThreadFactory("scheduler"));
        scheduler.scheduleAtFixedRate(() -> System.out.println("metrics flushed"), 10, 10, TimeUnit.MINUTES);
        scheduler.prestartAllCoreThreads();

        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Threads.start("acceptor", () -> {
            while (true) {
                Socket client = server.accept();
                workers.execute(() -> {
                    try {
                        client.close();
                    } catch (Exception e) {
                        // nothing to do
                    }
                });
            }
        });

        for (int i = 1; i <= 4; i++) {
            BackendConnection conn = new BackendConnection(backend);
            Threads.start("conn-reader-" + i, conn::readLoop);
        }

        Timer timer = new Timer("housekeeping-timer");
        timer.scheduleAtFixedRate(new TimerTask() {
            @Override
            public void run() {
                System.out.println("housekeeping");
            }
        }, 600_000, 600_000);

        Threads.start("session-reaper", GatewayApp::reapSessions);
        Threads.start("config-watcher", GatewayApp::watchConfig);

        for (int i = 1; i <= 2; i++) {
            long seed = i;
            Threads.start("busy-" + i, () -> new RiskScorer().scoreForever(seed));
        }

        Threads.awaitShutdown();
    }

    private static void reapSessions() throws InterruptedException {
        while (true) {
            Thread.sleep(30_000); // then drop expired sessions (there are none)
        }
    }

    private static void watchConfig() throws InterruptedException {
        while (true) {
            Thread.sleep(30_000); // then re-read the config file (unchanged)
        }
    }
}
