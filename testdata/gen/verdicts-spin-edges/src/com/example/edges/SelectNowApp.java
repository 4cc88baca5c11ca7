package com.example.edges;

import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;

/**
 * A selector that returns at once: "ingest-poller" polls its listening channel with
 * Selector.selectNow() in a loop with no wait (a "non-blocking" poll loop), and nobody ever
 * connects, so every selectNow returns 0 and the loop turns for ever on a core. Its top frame
 * is the selector's (EPoll.wait, SelectorImpl), as an idle event loop's is; its CPU is not.
 */
public final class SelectNowApp {
	static long polls;

	static void pollLoop(Selector sel) throws Exception {
		while (true) {
			if (sel.selectNow() > 0) {
				sel.selectedKeys().clear();
			}
			polls++;
		}
	}

	public static void main(String[] args) throws Exception {
		ServerSocketChannel ch = ServerSocketChannel.open();
		ch.bind(new InetSocketAddress("127.0.0.1", 0));
		ch.configureBlocking(false);
		Selector sel = Selector.open();
		ch.register(sel, SelectionKey.OP_ACCEPT);
		Threads.start("ingest-poller", () -> {
			try {
				pollLoop(sel);
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		});
		Threads.awaitShutdown();
	}
}
