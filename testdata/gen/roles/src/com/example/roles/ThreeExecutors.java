package com.example.roles;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A healthy service with few pools whose names carry an id: three single-thread executors
 * (Executors.defaultThreadFactory: pool-1-thread-1, pool-2-thread-1, pool-3-thread-1), a
 * fixed executor of two (pool-4-thread-1..2), and a Netty server with its boss group of one
 * thread and its worker group of one (nioEventLoopGroup-2-1 and nioEventLoopGroup-3-1), bound to
 * 127.0.0.1. Every thread rests: the executors in getTask, the loops in their selector.
 */
public class ThreeExecutors {
    public static void main(String[] args) throws Exception {
        ExecutorService[] singles = {Executors.newSingleThreadExecutor(), Executors.newSingleThreadExecutor(),
            Executors.newSingleThreadExecutor()};
        ExecutorService fixed = Executors.newFixedThreadPool(2);
        for (ExecutorService e : singles) {
            e.submit(() -> {}).get(); // start its thread
        }
        fixed.submit(() -> {}).get();
        fixed.submit(() -> {}).get();
        NioEventLoopGroup boss = new NioEventLoopGroup(1);
        NioEventLoopGroup workers = new NioEventLoopGroup(1);
        new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {}
            }).bind("127.0.0.1", 0).sync();
        workers.next().submit(() -> {}).sync(); // the worker loop starts its thread
        System.out.println("ready");
        Thread.currentThread().join();
    }
}
