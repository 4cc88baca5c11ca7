package com.example.holders;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * A holder on the main thread blocking an event loop (issue 33). The main thread starts a
 * Netty server (boss group of 1, worker group of 2) inside {@code synchronized (REGISTRY)}: its
 * startup registers plugins. Each accepted connection's channelActive registers the channel in
 * the same registry ({@code synchronized (REGISTRY)}) on its worker event loop. Clients connect
 * from "load-client" once a second. In "stuck" main, still holding the registry, reads the
 * plugin list from a config server on 127.0.0.1 that accepts and never answers: the worker
 * event loops that accept a connection block on the registry. In "healthy" the config server
 * answers, main leaves the registry and waits for the server channel to close.
 */
public final class MainHolderApp {
    static final Registry REGISTRY = new Registry();

    public static void main(String[] args) throws Exception {
        boolean stuck = args.length > 0 && args[0].equals("stuck");
        ServerSocket config = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread cfg = new Thread(() -> serveConfig(config, stuck), "config-server");
        cfg.setDaemon(true);
        cfg.start();

        NioEventLoopGroup boss = new NioEventLoopGroup(1);
        NioEventLoopGroup workers = new NioEventLoopGroup(2);
        Channel server;
        synchronized (REGISTRY) {
            server = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new Tracker());
                        }
                    }).bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            Thread client = new Thread(() -> clients(port), "load-client");
            client.setDaemon(true);
            client.start();
            Thread.sleep(1500);
            System.out.println("ready");
            REGISTRY.loadPlugins(config.getLocalPort());
        }
        server.closeFuture().sync();
    }

    static final class Registry {
        final List<Object> channels = new ArrayList<>();
        final List<String> plugins = new ArrayList<>();

        void loadPlugins(int port) throws Exception {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                s.getOutputStream().write("plugins\n".getBytes());
                InputStream in = s.getInputStream();
                int b;
                while ((b = in.read()) >= 0 && b != '\n') {
                    plugins.add(String.valueOf((char) b));
                }
            }
        }

        void register(Channel ch) {
            synchronized (this) {
                channels.add(ch.id());
            }
        }
    }

    static final class Tracker extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            REGISTRY.register(ctx.channel());
            ctx.fireChannelActive();
        }
    }

    static void clients(int port) {
        List<Socket> open = new ArrayList<>();
        for (;;) {
            try {
                Socket s = new Socket();
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                open.add(s);
                if (open.size() > 20) {
                    open.remove(0).close();
                }
                Thread.sleep(1000);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }
    }

    static void serveConfig(ServerSocket ss, boolean stuck) {
        try {
            for (;;) {
                Socket c = ss.accept();
                c.getInputStream().read();
                if (stuck) {
                    Thread.sleep(Long.MAX_VALUE); // accepted, never answers
                }
                c.getOutputStream().write("abc\n".getBytes());
                c.close();
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
