package com.example.sources;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;

/**
 * main binds a Netty server and waits on the bind's promise (issue 33: a second, independent
 * source for the no-peer rule). "stuck": a start-up task on the group's only event loop first
 * waits for a latch main counts down after the bind: the bind, queued behind it on the same
 * loop, never runs and main waits for ever. "healthy": the task does not wait; main serves an
 * echo and waits in closeFuture().sync().
 *
 * Usage: NettyBindApp stuck|healthy
 */
public final class NettyBindApp {
    static void warmUp(CountDownLatch bound) {
        try {
            bound.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        EventLoopGroup group = new NioEventLoopGroup(1);
        CountDownLatch bound = new CountDownLatch(1);
        if (stuck) {
            group.next().execute(() -> warmUp(bound));
        }
        ServerBootstrap b = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ctx.writeAndFlush(msg);
                            }
                        });
                    }
                });
        System.out.println("ready");
        Channel ch = b.bind("127.0.0.1", 0).sync().channel();
        bound.countDown();
        int port = ((InetSocketAddress) ch.localAddress()).getPort();
        Thread client = new Thread(() -> {
            try (Socket s = new Socket("127.0.0.1", port)) {
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                while (true) {
                    out.write('x');
                    out.flush();
                    in.read();
                    Thread.sleep(50);
                }
            } catch (Exception e) {
                System.err.println("client: " + e);
            }
        }, "echo-client");
        client.setDaemon(true);
        client.start();
        ch.closeFuture().sync();
    }
}
