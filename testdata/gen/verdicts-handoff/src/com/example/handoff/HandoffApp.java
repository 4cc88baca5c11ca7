package com.example.handoff;

import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.SynchronousQueue;

/**
 * The producer side of hand-offs, each on threads of their own (no pool).
 *
 * stuck:
 * - "publisher-1".."publisher-6" put events into an ArrayBlockingQueue of 4 whose only
 *   consumer, "indexer", took one and is stuck in Indexer.index (a sleep of an hour standing
 *   for a slow call): the queue is full, the six publishers wait in put for it.
 * - "dispatcher-1".."dispatcher-5" hand jobs over a SynchronousQueue that nobody takes from
 *   (its worker thread was never started): they wait in put for a taker.
 * - "export-writer" writes a report into a PipedOutputStream whose reader, "export-reader",
 *   read 100 bytes and then sleeps: the pipe's 1 KiB buffer is full, the writer waits in
 *   PipedInputStream.awaitSpace (Object.wait under the pipe's own monitor).
 * - H2 2.1 (in memory, LOCK_TIMEOUT one hour): "h2-holder" updates row 1 and keeps its
 *   transaction open (sleeps); "h2-writer-1".."3" update the same row and wait for its lock.
 * - Derby 10.14 (embedded, in memory, derby.locks.waitTimeout -1: wait for ever): "derby-holder"
 *   likewise; "derby-writer-1".."3" wait for the row lock.
 *
 * healthy: the same threads and queues with a consumer that keeps up: publishers and
 * dispatchers hand over an item every 200 ms to consumers that take at once; the pipe's reader
 * reads all the writer writes; the H2 and Derby writers run short transactions on rows of
 * their own.
 */
public final class HandoffApp {
	static void sleep(long ms) {
		try {
			Thread.sleep(ms);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	static Thread start(String name, Runnable r) {
		Thread t = new Thread(r, name);
		t.setDaemon(true);
		t.start();
		return t;
	}

	interface Body {
		void run() throws Exception;
	}

	static Runnable body(Body b) {
		return () -> {
			try {
				b.run();
			} catch (Exception e) {
				e.printStackTrace();
			}
		};
	}

	static final class Indexer {
		void index(String event, boolean stuck) {
			sleep(stuck ? 3_600_000 : 1);
		}
	}

	static final class Publisher {
		void publish(BlockingQueue<String> q, String event) throws InterruptedException {
			q.put(event);
		}
	}

	static final class Dispatcher {
		void dispatch(SynchronousQueue<Runnable> q, Runnable job) throws InterruptedException {
			q.put(job);
		}
	}

	static final class ReportExporter {
		void export(PipedOutputStream out, boolean stuck) throws Exception {
			byte[] line = new byte[100];
			while (true) {
				out.write(line);
				if (!stuck) {
					sleep(200);
				}
			}
		}
	}

	static final class Ledger {
		static void update(String url, String table, int row, boolean holdOpen) throws Exception {
			try (Connection c = DriverManager.getConnection(url)) {
				c.setAutoCommit(false);
				try (Statement s = c.createStatement()) {
					s.executeUpdate("UPDATE " + table + " SET BALANCE = BALANCE + 1 WHERE ID = " + row);
				}
				if (holdOpen) {
					sleep(3_600_000); // the transaction stays open, its row locked
				}
				c.commit();
			}
		}
	}

	static void db(String url, String table, String prefix, boolean stuck) throws Exception {
		Connection keep = DriverManager.getConnection(url); // keeps an in-memory database alive
		try (Statement s = keep.createStatement()) {
			s.executeUpdate("CREATE TABLE " + table + " (ID INT PRIMARY KEY, BALANCE INT)");
			for (int i = 1; i <= 4; i++) {
				s.executeUpdate("INSERT INTO " + table + " VALUES (" + i + ", 0)");
			}
		}
		if (stuck) {
			start(prefix + "-holder", body(() -> Ledger.update(url, table, 1, true)));
			sleep(500);
			for (int i = 1; i <= 3; i++) {
				start(prefix + "-writer-" + i, body(() -> Ledger.update(url, table, 1, false)));
			}
		} else {
			for (int i = 1; i <= 3; i++) {
				int row = i + 1;
				start(prefix + "-writer-" + i, body(() -> {
					while (true) {
						Ledger.update(url, table, row, false);
						sleep(200);
					}
				}));
			}
		}
	}

	public static void main(String[] args) throws Exception {
		boolean stuck = args.length > 0 && args[0].equals("stuck");
		BlockingQueue<String> events = new ArrayBlockingQueue<>(4);
		Indexer indexer = new Indexer();
		start("indexer", body(() -> {
			while (true) {
				indexer.index(events.take(), stuck);
			}
		}));
		for (int i = 1; i <= 6; i++) {
			int n = i;
			start("publisher-" + i, body(() -> {
				Publisher p = new Publisher();
				for (int k = 0;; k++) {
					p.publish(events, "event-" + n + "-" + k);
					if (!stuck) {
						sleep(200);
					}
				}
			}));
		}
		SynchronousQueue<Runnable> jobs = new SynchronousQueue<>();
		if (!stuck) {
			start("job-worker", body(() -> {
				while (true) {
					jobs.take().run();
				}
			}));
		}
		for (int i = 1; i <= 5; i++) {
			start("dispatcher-" + i, body(() -> {
				Dispatcher d = new Dispatcher();
				while (true) {
					d.dispatch(jobs, () -> {});
					if (!stuck) {
						sleep(200);
					}
				}
			}));
		}
		PipedInputStream in = new PipedInputStream(1024);
		PipedOutputStream out = new PipedOutputStream(in);
		start("export-reader", body(() -> {
			byte[] buf = new byte[100];
			in.read(buf);
			while (true) {
				if (stuck) {
					sleep(3_600_000);
				}
				in.read(buf);
			}
		}));
		start("export-writer", body(() -> new ReportExporter().export(out, stuck)));
		System.setProperty("derby.locks.waitTimeout", "-1");
		db("jdbc:h2:mem:ledger;LOCK_TIMEOUT=3600000;DB_CLOSE_DELAY=-1", "ACCOUNTS", "h2", stuck);
		db("jdbc:derby:memory:ledger;create=true", "ACCOUNTS", "derby", stuck);
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
