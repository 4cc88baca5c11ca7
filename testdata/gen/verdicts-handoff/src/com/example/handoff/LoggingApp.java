package com.example.handoff;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.slf4j.LoggerFactory;

/**
 * Logging through logback's AsyncAppender (queue of 32, blocking when full, nothing
 * discarded) into an appender that ships lines to a log collector over TCP on 127.0.0.1.
 *
 * stuck: the collector ("log-collector") accepts the connection and never reads: the socket's
 * buffers fill, the appender's worker ("AsyncAppender-Worker-ASYNC") blocks writing to it, the
 * queue fills, and the eight "request-N" threads block in AsyncAppenderBase.put (an
 * ArrayBlockingQueue.put) inside their log call (RequestHandler.handle): back-pressure from
 * the logging queue, whose consumer is busy in a socket write.
 *
 * healthy: the collector reads everything; the request threads log a line every 100 ms.
 */
public final class LoggingApp {
	static final class RequestHandler {
		private static final org.slf4j.Logger log = LoggerFactory.getLogger(RequestHandler.class);

		void handle(int id, int n) {
			log.info("request {} served item {} in {} ms: {}", id, n, n % 17, "x".repeat(200));
		}
	}

	public static void main(String[] args) throws Exception {
		boolean stuck = args.length > 0 && args[0].equals("stuck");
		ServerSocket collector = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread c = new Thread(() -> {
			try (Socket s = collector.accept(); InputStream in = s.getInputStream()) {
				byte[] buf = new byte[8192];
				while (true) {
					if (stuck) {
						Thread.sleep(3_600_000); // never reads
					}
					if (in.read(buf) < 0) {
						return;
					}
				}
			} catch (Exception e) {
				e.printStackTrace();
			}
		}, "log-collector");
		c.setDaemon(true);
		c.start();
		Socket ship = new Socket(InetAddress.getLoopbackAddress(), collector.getLocalPort());
		ship.setSendBufferSize(8192);

		LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
		ctx.reset();
		PatternLayoutEncoder enc = new PatternLayoutEncoder();
		enc.setContext(ctx);
		enc.setPattern("%d %thread %level %logger %msg%n");
		enc.start();
		OutputStreamAppender<ILoggingEvent> net = new OutputStreamAppender<>();
		net.setContext(ctx);
		net.setName("COLLECTOR");
		net.setEncoder(enc);
		net.setOutputStream(ship.getOutputStream());
		net.start();
		AsyncAppender async = new AsyncAppender();
		async.setContext(ctx);
		async.setName("ASYNC");
		async.setQueueSize(32);
		async.setDiscardingThreshold(0);
		async.setNeverBlock(false);
		async.addAppender(net);
		async.start();
		Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
		root.addAppender(async);

		for (int i = 1; i <= 8; i++) {
			int id = i;
			Thread t = new Thread(() -> {
				RequestHandler h = new RequestHandler();
				for (int n = 0;; n++) {
					h.handle(id, n);
					if (!stuck) {
						try {
							Thread.sleep(100);
						} catch (InterruptedException e) {
							return;
						}
					}
				}
			}, "request-" + i);
			t.setDaemon(true);
			t.start();
		}
		System.out.println("ready");
		System.out.flush();
		Object forever = new Object();
		synchronized (forever) {
			while (true) {
				forever.wait();
			}
		}
	}
}
