import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Prints some of this JVM's threads into FILE, each as Apache Karaf's `threads ID` console
 * command prints one thread (the openHAB console's `threads 553`): written here from that
 * format (Karaf's shell/commands ThreadsAction, Apache-2.0, and the output pasted in
 * openhab/openhab-addons#16305 and shown in openHAB's docs), not from its code.
 *
 * future: a scheduled pool of 3 "handler-N" threads, each running a periodic task that waits
 *         untimed on a CompletableFuture nothing completes (Presence.getValue), printed with an
 *         "openhab> threads ID" prompt before each.
 * idle:   an event dispatcher waiting in LinkedBlockingQueue.poll with a timeout in its loop and
 *         a scheduled pool's idle worker: a healthy console, nothing stuck.
 *
 * Usage: java KarafThreadApp future|idle FILE
 */
public final class KarafThreadApp {
    static final CompletableFuture<Boolean> never = new CompletableFuture<>();

    static final class Presence {
        static boolean getValue() throws Exception {
            return never.get();
        }
    }

    public static void main(String[] args) throws Exception {
        final String prefix = args[0].equals("future") ? "handler-" : "";
        if (!prefix.isEmpty()) {
            java.util.concurrent.atomic.AtomicInteger seq = new java.util.concurrent.atomic.AtomicInteger();
            ScheduledExecutorService pool = Executors.newScheduledThreadPool(3, r -> {
                Thread t = new Thread(r, prefix + seq.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
            for (int i = 0; i < 3; i++) {
                pool.scheduleWithFixedDelay(() -> {
                    try {
                        Presence.getValue();
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }, 0, 1, TimeUnit.SECONDS);
            }
            Thread.sleep(500);
        } else {
            LinkedBlockingQueue<Runnable> q = new LinkedBlockingQueue<>();
            Thread events = new Thread(() -> {
                while (true) {
                    try {
                        Runnable r = q.poll(5, TimeUnit.SECONDS);
                        if (r != null) r.run();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "OSGiEventManager");
            events.setDaemon(true);
            events.start();
            ScheduledExecutorService pool = Executors.newScheduledThreadPool(1, r -> {
                Thread t = new Thread(r, "scheduler-1");
                t.setDaemon(true);
                return t;
            });
            pool.scheduleAtFixedRate(() -> q.add(() -> { }), 0, 30, TimeUnit.SECONDS);
            Thread.sleep(500);
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (PrintStream out = new PrintStream(Files.newOutputStream(Path.of(args[1])))) {
            for (ThreadInfo ti : mx.dumpAllThreads(false, false)) {
                String name = ti.getThreadName();
                boolean pick = prefix.isEmpty() ? name.equals("OSGiEventManager") || name.equals("scheduler-1") : name.startsWith(prefix);
                if (!pick) continue;
                out.println("openhab> threads " + ti.getThreadId());
                print(out, ti);
                out.println();
            }
        }
    }

    /** One thread as Karaf's `threads ID` prints it. */
    static void print(PrintStream out, ThreadInfo ti) {
        out.println("Thread " + ti.getThreadId() + " " + ti.getThreadName() + " " + ti.getThreadState());
        out.println("Stacktrace:");
        for (StackTraceElement st : ti.getStackTrace()) {
            out.println(st.getClassName() + "." + st.getMethodName() + " line: " + st.getLineNumber());
        }
    }
}
