package com.example.execleak;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A client that builds a Netty event-loop group per call: main asks a small quote server on
 * 127.0.0.1 (a plain ServerSocket, one thread per connection) for a quote about ten times a
 * second, each call through QuoteClient.fetch, which makes a new NioEventLoopGroup(1), connects,
 * writes a line, waits for the reply and closes the channel. The mode says whether the group is
 * then shut down:
 *
 * <ul>
 *   <li>group-leak: never (each call leaves a group, nioEventLoopGroup-N-1, its one event loop
 *       idle in its selector)
 *   <li>group-shutdown: shutdownGracefully(0, 100 ms) and waited for (healthy)
 * </ul>
 */
public final class NettyLeakApp {
    public static void main(String[] args) throws Exception {
        boolean shutdown = switch (args[0]) {
            case "group-leak" -> false;
            case "group-shutdown" -> true;
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        };
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> QuoteServer.serve(server), "quote-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        System.out.println("ready");
        System.out.flush();
        for (;;) {
            QuoteClient.fetch(server.getLocalPort(), shutdown);
            Thread.sleep(100);
        }
    }

    static final class QuoteClient {
        static String fetch(int port, boolean shutdown) throws Exception {
            EventLoopGroup group = new NioEventLoopGroup(1);
            CompletableFuture<String> reply = new CompletableFuture<>();
            try {
                Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
                        .handler(new ChannelInitializer<SocketChannel>() {
                            @Override
                            protected void initChannel(SocketChannel ch) {
                                ch.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                                        reply.complete(msg.toString(StandardCharsets.UTF_8));
                                    }
                                });
                            }
                        });
                Channel ch = b.connect("127.0.0.1", port).sync().channel();
                ch.writeAndFlush(Unpooled.copiedBuffer("quote ACME\n", StandardCharsets.UTF_8)).sync();
                String s = reply.get(5, TimeUnit.SECONDS);
                ch.close().sync();
                return s;
            } finally {
                if (shutdown) {
                    group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).sync();
                }
            }
        }
    }

    static final class QuoteServer {
        static void serve(ServerSocket server) {
            for (;;) {
                try {
                    Socket s = server.accept();
                    try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                        byte[] buf = new byte[64];
                        int n = in.read(buf);
                        out.write(("42.00 " + n + "\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        in.read(buf); // until the client closes
                    }
                } catch (Exception e) {
                    // the next connection
                }
            }
        }
    }
}
