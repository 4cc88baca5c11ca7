package com.example.edges;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;

/**
 * A hot loop whose work is deep in a library: "config-reloader" re-reads its configuration
 * until it validates, which it never does (the required element is missing), with no back-off.
 * Each round parses an XML document with the JDK's parser (Xerces, 15-30 frames deep) and
 * serialises it again with the JDK's XSLT (Xalan), so the thread's top frames are somewhere
 * deep in com.sun.org.apache.* at each moment, while its own frames stay
 * ConfigReloader.reloadUntilValid → ConfigReloader.load at the same lines.
 */
public final class DeepSpinApp {
	static final byte[] CONFIG = config();

	static byte[] config() {
		StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<config>\n");
		for (int i = 0; i < 400; i++) {
			b.append("  <route id=\"r").append(i).append("\" path=\"/api/v1/items/").append(i)
					.append("\"><backend weight=\"").append(i % 7).append("\">http://127.0.0.1:").append(9000 + i)
					.append("</backend><!-- route ").append(i).append(" --></route>\n");
		}
		return b.append("</config>\n").toString().getBytes(StandardCharsets.UTF_8);
	}

	static final class ConfigReloader {
		long rounds;

		Document load() throws Exception {
			Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(CONFIG));
			java.io.StringWriter w = new java.io.StringWriter();
			TransformerFactory.newInstance().newTransformer().transform(new DOMSource(d), new StreamResult(w));
			return d;
		}

		boolean valid(Document d) {
			return d.getElementsByTagName("listener").getLength() > 0; // never there
		}

		void reloadUntilValid() throws Exception {
			while (!valid(load())) {
				rounds++;
			}
		}
	}

	public static void main(String[] args) throws Exception {
		Threads.start("config-reloader", () -> {
			try {
				new ConfigReloader().reloadUntilValid();
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		});
		Threads.awaitShutdown();
	}
}
