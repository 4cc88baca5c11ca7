package com.example.spincpu;

import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;

/**
 * Loops whose top frame looks like rest, each waiting for a condition nothing makes true, none
 * with a real back-off, so each burns CPU for ever:
 * - "spin-hint": while (!ready) Thread.onSpinWait();   (intrinsic: the loop's own frame on top)
 * - "yield-waiter": while (!ready) Thread.yield();      (top: Thread.yield, native)
 * - "nap-waiter": while (!ready) Thread.sleep(0);       (top: Thread.sleep, RUNNABLE)
 * - "feed-poller": while (sel.selectNow() == 0) {}    on a listening channel nobody connects to
 *   (top: the selector's EPoll.wait)
 */
public final class RestLookApp {
	static volatile boolean ready;

	static void hint() {
		while (!ready) {
			Thread.onSpinWait();
		}
	}

	static void yieldUntilReady() {
		while (!ready) {
			Thread.yield();
		}
	}

	static void napUntilReady() throws InterruptedException {
		while (!ready) {
			Thread.sleep(0);
		}
	}

	static void pollFeed(Selector sel) throws Exception {
		while (!ready) {
			if (sel.selectNow() > 0) {
				sel.selectedKeys().clear();
			}
		}
	}

	public static void main(String[] args) throws Exception {
		ServerSocketChannel ch = ServerSocketChannel.open();
		ch.bind(new InetSocketAddress("127.0.0.1", 0));
		ch.configureBlocking(false);
		Selector sel = Selector.open();
		ch.register(sel, SelectionKey.OP_ACCEPT);
		Threads.start("spin-hint", RestLookApp::hint);
		Threads.start("yield-waiter", RestLookApp::yieldUntilReady);
		Threads.start("nap-waiter", () -> {
			try {
				napUntilReady();
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		});
		Threads.start("feed-poller", () -> {
			try {
				pollFeed(sel);
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		});
		Threads.awaitShutdown();
	}
}
