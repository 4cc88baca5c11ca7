package com.example.handoff;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.builder.api.AppenderComponentBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;

/**
 * LoggingApp's stall with Log4j 2's AsyncAppender (blocking, a queue of 32) in front of a
 * Socket appender shipping lines over TCP to a collector on 127.0.0.1.
 *
 * stuck: the collector ("log-collector") accepts and never reads: the appender's thread
 * ("AsyncAppender-ASYNC") blocks in a socket write, its queue fills, and the eight
 * "request-N" threads block inside their log call (OrderService.place) putting into it.
 *
 * healthy: the collector reads everything; the request threads log a line every 100 ms.
 */
public final class Log4jApp {
	static final class OrderService {
		private static final Logger log = LogManager.getLogger(OrderService.class);

		void place(int id, int n) {
			log.info("order {} line {} placed: {}", id, n, "y".repeat(200));
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

		ConfigurationBuilder<BuiltConfiguration> b = ConfigurationBuilderFactory.newConfigurationBuilder();
		AppenderComponentBuilder net = b.newAppender("NET", "Socket").addAttribute("host", "127.0.0.1")
				.addAttribute("port", collector.getLocalPort()).addAttribute("protocol", "TCP")
				.add(b.newLayout("PatternLayout").addAttribute("pattern", "%d %t %p %c %m%n"));
		b.add(net);
		b.add(b.newAppender("ASYNC", "Async").addAttribute("blocking", true).addAttribute("bufferSize", 32)
				.addComponent(b.newAppenderRef("NET")));
		b.add(b.newRootLogger(org.apache.logging.log4j.Level.INFO).add(b.newAppenderRef("ASYNC")));
		Configurator.initialize(b.build());

		for (int i = 1; i <= 8; i++) {
			int id = i;
			Thread t = new Thread(() -> {
				OrderService s = new OrderService();
				for (int n = 0;; n++) {
					s.place(id, n);
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
