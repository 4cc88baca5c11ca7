package com.example.spin;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.util.Iterator;

/**
 * Healthy control: a busy event loop. io-loop serves a line protocol on 127.0.0.1 with a
 * java.nio Selector and digests every request before answering; client-1..4 send requests
 * back to back over kept-alive connections. The loop is busy, but it goes back to its
 * selector between requests.
 *
 * Expected: no hang: io-loop is often in its selector and its CPU time grows by less than
 * the wall time; the clients wait for replies as clients do.
 */
public final class EventLoopApp {
	public static void main(String[] args) throws Exception {
		Selector sel = Selector.open();
		ServerSocketChannel srv = ServerSocketChannel.open();
		srv.bind(new InetSocketAddress("127.0.0.1", 0));
		srv.configureBlocking(false);
		srv.register(sel, SelectionKey.OP_ACCEPT);
		int port = ((InetSocketAddress) srv.getLocalAddress()).getPort();
		new Thread(() -> new EventLoop(sel).run(), "io-loop").start();
		for (int i = 1; i <= 4; i++) {
			new Thread(() -> Client.run(port), "client-" + i).start();
		}
		Threads.awaitShutdown();
	}
}

/** The loop: accept, read a request, digest it, answer. */
final class EventLoop {
	private final Selector sel;
	private final ByteBuffer buf = ByteBuffer.allocate(4096);

	EventLoop(Selector sel) {
		this.sel = sel;
	}

	void run() {
		try {
			MessageDigest md = MessageDigest.getInstance("SHA-256");
			while (true) {
				sel.select();
				for (Iterator<SelectionKey> it = sel.selectedKeys().iterator(); it.hasNext(); ) {
					SelectionKey k = it.next();
					it.remove();
					if (k.isAcceptable()) {
						SocketChannel c = ((ServerSocketChannel) k.channel()).accept();
						c.configureBlocking(false);
						c.register(sel, SelectionKey.OP_READ);
					} else if (k.isReadable()) {
						handle((SocketChannel) k.channel(), md);
					}
				}
			}
		} catch (Exception e) {
			throw new RuntimeException(e);
		}
	}

	private void handle(SocketChannel c, MessageDigest md) throws Exception {
		buf.clear();
		if (c.read(buf) < 0) {
			c.close();
			return;
		}
		buf.flip();
		byte[] req = new byte[buf.remaining()];
		buf.get(req);
		byte[] d = req;
		for (int i = 0; i < 1000; i++) { // the request's work: some CPU, not all of it
			d = md.digest(d);
		}
		c.write(ByteBuffer.wrap(new byte[] {d[0], '\n'}));
	}
}

/** A client sending requests back to back, pausing a little between them. */
final class Client {
	private Client() {}

	static void run(int port) {
		try (SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
			ByteBuffer in = ByteBuffer.allocate(16);
			while (true) {
				c.write(ByteBuffer.wrap("digest this request\n".getBytes()));
				in.clear();
				c.read(in);
				Thread.sleep(1);
			}
		} catch (Exception e) {
			throw new RuntimeException(e);
		}
	}
}
