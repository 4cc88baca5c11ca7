package com.example.spin;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A pool of workers in a parser loop. parser-1..4 (a fixed pool) each parse a document
 * with an unterminated comment; the tokenizer's comment skip looks for the closing
 * marker with String.indexOf and, not finding it, retries from the same position for
 * ever. import-job submitted the four documents with invokeAll and waits for them.
 *
 * Expected: the four parser threads spin in Tokenizer.skipComment and the JDK's
 * String.indexOf (library frames on top), their CPU time growing with the wall clock;
 * import-job waits for their results (future-wait, culprit ImportJob.run).
 */
public final class ParserApp {
	public static void main(String[] args) throws Exception {
		ExecutorService parsers = Executors.newFixedThreadPool(4, Threads.named("parser"));
		Thread job = new Thread(() -> new ImportJob(parsers).run(), "import-job");
		job.start();
		Threads.awaitShutdown();
	}
}

/** Imports a batch of documents: parses them on the pool and waits for all. */
final class ImportJob {
	private final ExecutorService parsers;

	ImportJob(ExecutorService parsers) {
		this.parsers = parsers;
	}

	void run() {
		List<Callable<Integer>> tasks = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			String doc = "key" + i + " = value; /* the comment of document " + i + " never ends " + "x".repeat(4000);
			tasks.add(() -> new Tokenizer(doc).count());
		}
		try {
			System.out.println(parsers.invokeAll(tasks).size());
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}

/** Counts the tokens of a document, skipping comments. */
final class Tokenizer {
	private final String text;
	private int pos;

	Tokenizer(String text) {
		this.text = text;
	}

	int count() {
		int tokens = 0;
		while (pos < text.length()) {
			if (text.startsWith("/*", pos)) {
				skipComment();
				continue;
			}
			if (!Character.isWhitespace(text.charAt(pos))) {
				tokens++;
			}
			pos++;
		}
		return tokens;
	}

	private void skipComment() {
		int end = text.indexOf("*/", pos + 2);
		if (end >= 0) {
			pos = end + 2;
		}
		// The bug: without a closing marker pos does not move, and count() comes back here.
	}
}
