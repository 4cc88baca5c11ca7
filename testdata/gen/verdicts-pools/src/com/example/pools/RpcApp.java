package com.example.pools;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * A client library that waits for its server's reply in a Selector, inside the caller's
 * request task (not in a selector loop of its own).
 *
 * <p>stuck: rpc-worker-1..4 (fixed 4) each run QuoteService.quote → RpcClient.call, which
 * writes a request on a non-blocking SocketChannel and waits for the reply in
 * Selector.select() with no timeout; the server ("rpc-server-acceptor", in this JVM) accepts
 * and never answers. The 4 workers sit in the select (RUNNABLE in EPoll.wait) for good; 12
 * more quotes queue.
 *
 * <p>healthy: the server answers each request after 20 ms (a thread per connection,
 * "rpc-server-conn-N"); 10 quotes a second: a worker is rarely caught in the select.
 */
public final class RpcApp {
	public static void main(String[] args) throws Exception {
		boolean healthy = args.length > 0 && args[0].equals("healthy");
		ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		List<Socket> held = new ArrayList<>();
		Thread acceptor = new Thread(() -> {
			try {
				while (true) {
					Socket s = server.accept();
					held.add(s);
					if (healthy) {
						Thread h = new Thread(() -> RpcServer.answer(s), "rpc-server-conn-" + held.size());
						h.setDaemon(true);
						h.start();
					}
				}
			} catch (Exception e) {
				e.printStackTrace();
			}
		}, "rpc-server-acceptor");
		acceptor.setDaemon(true);
		acceptor.start();
		int port = server.getLocalPort();
		ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(4, SmallPoolApp.named("rpc-worker-"));
		pool.prestartAllCoreThreads();
		if (healthy) {
			Thread feeder = new Thread(() -> {
				while (true) {
					pool.submit(() -> QuoteService.quote(port));
					SmallPoolApp.sleepQuietly(100);
				}
			}, "quote-feeder");
			feeder.setDaemon(true);
			feeder.start();
		} else {
			for (int i = 0; i < 16; i++) {
				pool.submit(() -> QuoteService.quote(port));
			}
		}
		System.out.println("ready");
		Thread.currentThread().join();
	}
}

final class QuoteService {
	static int quote(int port) {
		return RpcClient.call(port);
	}
}

final class RpcClient {
	static int call(int port) {
		try (SocketChannel ch = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
				Selector sel = Selector.open()) {
			ch.write(ByteBuffer.wrap(new byte[] {'?'}));
			ch.configureBlocking(false);
			ch.register(sel, SelectionKey.OP_READ);
			ByteBuffer reply = ByteBuffer.allocate(1);
			while (reply.position() == 0) {
				sel.select(); // no timeout: the reply
				sel.selectedKeys().clear();
				if (ch.read(reply) < 0) {
					return -1;
				}
			}
			return reply.get(0);
		} catch (Exception e) {
			return -1;
		}
	}
}

final class RpcServer {
	static void answer(Socket s) {
		try (s) {
			InputStream in = s.getInputStream();
			while (in.read() >= 0) {
				SmallPoolApp.sleepQuietly(20);
				s.getOutputStream().write('!');
				s.getOutputStream().flush();
			}
		} catch (Exception e) {
			// closed
		}
	}
}
