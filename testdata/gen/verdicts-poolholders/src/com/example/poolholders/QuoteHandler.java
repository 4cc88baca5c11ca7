package com.example.poolholders;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An application's own pool of 4 channels (ChannelPool: synchronized,
 * Object.wait while none is free) used by 10 "quote-N" handler threads.
 * QuoteHandler.handle acquires a channel, makes a call on it and waits for
 * the reply with CompletableFuture.get (no timeout), then releases the
 * channel. A "reply-pump" scheduler completes the replies.
 *
 * stuck: 10 quotes at once and a pump that never completes a reply: 4
 * handlers hold the 4 channels, parked in CompletableFuture.get under
 * RpcStub.call; 6 wait in ChannelPool.acquire (Object.wait) under
 * QuoteHandler.handle.
 *
 * healthy: 80 quotes a second, each reply completed 15 ms after its call:
 * about one channel in use, the holders change from moment to moment.
 */
public final class QuoteHandler {
    static final class Channel {
        final int id;

        Channel(int id) {
            this.id = id;
        }
    }

    static final class ChannelPool {
        private final ArrayDeque<Channel> free = new ArrayDeque<>();

        ChannelPool(int n) {
            for (int i = 0; i < n; i++) {
                free.add(new Channel(i));
            }
        }

        synchronized Channel acquire() throws InterruptedException {
            while (free.isEmpty()) {
                wait();
            }
            return free.poll();
        }

        synchronized void release(Channel c) {
            free.add(c);
            notifyAll();
        }
    }

    static final class RpcStub {
        private final ScheduledExecutorService pump;
        private final boolean answers;

        RpcStub(ScheduledExecutorService pump, boolean answers) {
            this.pump = pump;
            this.answers = answers;
        }

        String call(Channel ch, String req) throws Exception {
            CompletableFuture<String> reply = new CompletableFuture<>();
            if (answers) {
                pump.schedule(() -> reply.complete("quote " + req + " on " + ch.id), 15, TimeUnit.MILLISECONDS);
            }
            return reply.get();
        }
    }

    private final ChannelPool channels = new ChannelPool(4);
    private final RpcStub rpc;

    QuoteHandler(RpcStub rpc) {
        this.rpc = rpc;
    }

    String handle(int n) throws Exception {
        Channel ch = channels.acquire();
        try {
            return rpc.call(ch, "q" + n);
        } finally {
            channels.release(ch);
        }
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        ScheduledExecutorService pump = Executors.newSingleThreadScheduledExecutor(new Named("reply-pump-"));
        QuoteHandler h = new QuoteHandler(new RpcStub(pump, !stuck));
        ExecutorService quotes = Executors.newFixedThreadPool(10, new Named("quote-"));
        Runnable one = () -> {
            try {
                h.handle((int) (System.nanoTime() % 1000));
            } catch (Exception e) {
                e.printStackTrace();
            }
        };
        if (stuck) {
            for (int i = 0; i < 10; i++) {
                quotes.execute(one);
            }
            System.out.println("ready");
            Thread.sleep(Long.MAX_VALUE);
        }
        System.out.println("ready");
        while (true) {
            quotes.execute(one);
            Thread.sleep(12);
        }
    }
}
