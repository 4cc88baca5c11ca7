package com.example.netty;

import com.example.util.Threads;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.string.StringDecoder;

/**
 * A Netty 4.1 line server on NIO: a boss NioEventLoopGroup of 1 and a worker group of 5
 * (default thread names nioEventLoopGroup-N-M). Each line is a command for CommandHandler,
 * which runs on the connection's worker event loop. Prints "listening PORT".
 *
 * Usage: java com.example.netty.NettyApp UPSTREAM-PORT
 */
public final class NettyApp {
    public static void main(String[] args) throws Exception {
        int upstream = Integer.parseInt(args[0]);
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup workers = new NioEventLoopGroup(5);
        Channel ch = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel c) {
                        c.pipeline().addLast(new LineBasedFrameDecoder(1024), new StringDecoder(),
                                new CommandHandler(new PriceLookup(upstream)));
                    }
                })
                .bind("127.0.0.1", 0)
                .sync()
                .channel();
        System.out.println("listening " + ((java.net.InetSocketAddress) ch.localAddress()).getPort());
        System.out.flush();
        Threads.awaitShutdown();
    }
}
