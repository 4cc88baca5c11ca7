package com.example.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;

/**
 * Runs one command per line, on the event loop (the bug: each of these blocks the loop and
 * every other channel registered on it):
 *   read  - a blocking socket read of the upstream (java.net.Socket, no read timeout)
 *   get   - CompletableFuture.get() on a future that nobody completes
 *   sleep - Thread.sleep (a retry back-off written on the event loop)
 *   lock  - enters a monitor that the "price-refresher" thread holds while it sleeps
 */
final class CommandHandler extends SimpleChannelInboundHandler<String> {
    private final PriceLookup lookup;

    CommandHandler(PriceLookup lookup) {
        this.lookup = lookup;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, String cmd) throws Exception {
        String reply;
        switch (cmd.trim()) {
            case "read":
                reply = lookup.fetchBlocking();
                break;
            case "get":
                reply = lookup.awaitQuote();
                break;
            case "sleep":
                reply = lookup.backOff();
                break;
            case "lock":
                reply = lookup.cachedPrice();
                break;
            default:
                reply = "unknown";
        }
        ctx.writeAndFlush(ctx.alloc().buffer().writeBytes((reply + "\n").getBytes()));
    }
}
