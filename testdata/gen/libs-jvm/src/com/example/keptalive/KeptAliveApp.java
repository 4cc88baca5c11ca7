package com.example.keptalive;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * KeptAliveApp is a command-line job that does its work on an executor and returns from main
 * without shutting it down: Executors.newFixedThreadPool(3) (pool-1-thread-1..3, non-daemon)
 * and a non-daemon java.util.Timer ("cleanup-timer") with a task due in an hour. main returns,
 * DestroyJavaVM waits for the last non-daemon thread, and the JVM never exits.
 *
 * With "serve" it also listens on 127.0.0.1 with an acceptor thread of its own ("acceptor",
 * non-daemon): a server whose main returns is up by design (as Spring Boot's is).
 */
public final class KeptAliveApp {
    public static void main(String[] args) throws Exception {
        ExecutorService work = Executors.newFixedThreadPool(3);
        for (int i = 0; i < 3; i++) {
            work.submit(() -> Math.sqrt(42)); // the job's work, done at once
        }
        Timer timer = new Timer("cleanup-timer");
        timer.schedule(new TimerTask() {
            public void run() {}
        }, 3_600_000);
        if (args.length > 0 && args[0].equals("serve")) {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) server.accept().close();
                } catch (Exception e) {
                }
            }, "acceptor");
            acceptor.start();
        }
        Thread.sleep(200);
        System.out.println("ready");
        // main returns; nothing shuts the executor or the timer down
    }
}
