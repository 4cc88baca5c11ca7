package com.example.cycles;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * Threads behind a class loader's lock.
 *
 * <p>RemoteLoader is not parallel capable: the JVM and ClassLoader.loadClass lock the loader
 * itself while a class of it loads. Its findClass fetches the class's bytes from a
 * "repository" over a socket (in this JVM, thread "repo-acceptor", on 127.0.0.1).
 *
 * <p>stuck: the repository accepts and never answers. "plugin-loader" calls
 * loader.loadClass("plugin.Report"): it holds the loader's lock in loadClass while it reads
 * the reply forever. "plugin-worker-1..4" (fixed 4) run 4 tasks that call
 * Class.forName("plugin.Audit", true, loader): BLOCKED in Class.forName0 behind the loader's
 * lock, which plugin-loader holds (the JVM takes the lock in native code: no "waiting to
 * lock" line is printed).
 *
 * <p>healthy: the repository answers at once (the bytes of plugin/*.class, given as args[1]);
 * "plugin-worker-1..3" each load Report and Audit through a new RemoteLoader every 300 ms.
 */
public final class ClassLoaderApp {
	public static void main(String[] args) throws Exception {
		boolean healthy = args.length > 0 && args[0].equals("healthy");
		Path plugins = Path.of(args.length > 1 ? args[1] : "plugins");
		ServerSocket repo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		List<Socket> held = new ArrayList<>();
		Util.start("repo-acceptor", () -> {
			try {
				while (true) {
					Socket s = repo.accept();
					held.add(s);
					if (healthy) {
						Util.start("repo-conn-" + held.size(), () -> serve(s, plugins));
					}
				}
			} catch (IOException e) {
				e.printStackTrace();
			}
		});
		int port = repo.getLocalPort();
		if (!healthy) {
			RemoteLoader loader = new RemoteLoader(port);
			Util.start("plugin-loader", () -> {
				try {
					loader.loadClass("plugin.Report");
				} catch (ClassNotFoundException e) {
					e.printStackTrace();
				}
			});
			Util.sleep(300); // the loader's lock is held before the workers come
			ThreadPoolExecutor workers = (ThreadPoolExecutor) Executors.newFixedThreadPool(4, Util.named("plugin-worker-"));
			for (int i = 1; i <= 4; i++) {
				workers.submit(() -> {
					try {
						Class.forName("plugin.Audit", true, loader);
					} catch (ClassNotFoundException e) {
						e.printStackTrace();
					}
				});
			}
		} else {
			for (int i = 1; i <= 3; i++) {
				Util.start("plugin-worker-" + i, () -> {
					while (true) {
						try {
							RemoteLoader loader = new RemoteLoader(port);
							Class.forName("plugin.Report", true, loader);
							Class.forName("plugin.Audit", true, loader);
						} catch (ClassNotFoundException e) {
							e.printStackTrace();
						}
						Util.sleep(300);
					}
				});
			}
		}
		Util.sleep(300);
		System.out.println("ready");
		Thread.currentThread().join();
	}

	/** Answers each request (a class name) with the class file's length and bytes. */
	private static void serve(Socket s, Path plugins) {
		try (s) {
			DataInputStream in = new DataInputStream(s.getInputStream());
			DataOutputStream out = new DataOutputStream(s.getOutputStream());
			while (true) {
				String name = in.readUTF();
				byte[] b = Files.readAllBytes(plugins.resolve(name.replace('.', '/') + ".class"));
				out.writeInt(b.length);
				out.write(b);
				out.flush();
			}
		} catch (IOException e) {
			// the client is done
		}
	}
}

/** A class loader that is not parallel capable and reads its classes from a remote repository. */
final class RemoteLoader extends ClassLoader {
	private final int port;

	RemoteLoader(int port) {
		super(RemoteLoader.class.getClassLoader());
		this.port = port;
	}

	@Override
	protected Class<?> findClass(String name) throws ClassNotFoundException {
		if (!name.startsWith("plugin.")) {
			throw new ClassNotFoundException(name);
		}
		byte[] b = fetch(name);
		return defineClass(name, b, 0, b.length);
	}

	private byte[] fetch(String name) throws ClassNotFoundException {
		try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
			DataOutputStream out = new DataOutputStream(s.getOutputStream());
			out.writeUTF(name);
			out.flush();
			DataInputStream in = new DataInputStream(s.getInputStream());
			int n = in.readInt(); // the stuck repository never answers: read forever
			ByteArrayOutputStream buf = new ByteArrayOutputStream(n);
			byte[] b = new byte[n];
			in.readFully(b);
			buf.write(b);
			return buf.toByteArray();
		} catch (IOException e) {
			throw new ClassNotFoundException(name, e);
		}
	}
}
