import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints this JVM's threads into FILE, in the text
 * Apache Karaf's `threads` console command prints (the openHAB console's): written here
 * from that format (Karaf's shell/commands ThreadsAction, Apache-2.0), not from its code.
 * What it prints about: 5 "rule-N" threads BLOCKED on one monitor that "rule-holder" holds
 * while it sleeps inside it; "lock-a" and "lock-b" deadlocked on two monitors.
 *
 * Usage: java KarafThreadsApp FILE
 */
public final class KarafThreadsApp {
    static final Object rules = new Object();
    static final Object a = new Object(), b = new Object();

    public static void main(String[] args) throws Exception {
        Thread holder = new Thread(() -> {
            synchronized (rules) {
                try {
                    Thread.sleep(600_000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "rule-holder");
        holder.setDaemon(true);
        holder.start();
        Thread.sleep(200);
        for (int i = 1; i <= 5; i++) {
            Thread t = new Thread(() -> {
                synchronized (rules) {
                    System.out.println("never");
                }
            }, "rule-" + i);
            t.setDaemon(true);
            t.start();
        }
        Thread la = new Thread(() -> lockBoth(a, b), "lock-a");
        Thread lb = new Thread(() -> lockBoth(b, a), "lock-b");
        la.setDaemon(true);
        lb.setDaemon(true);
        la.start();
        lb.start();
        Thread.sleep(1000);
        try (PrintStream out = new PrintStream(Files.newOutputStream(Path.of(args[0])))) {
            out.println("openhab> threads");
            print(out);
        }
    }

    static void lockBoth(Object first, Object second) {
        synchronized (first) {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            synchronized (second) {
                System.out.println("never");
            }
        }
    }

    /** Every thread as Karaf's default `threads` prints it (no --locks, no --monitors). */
    static void print(PrintStream out) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (ThreadInfo ti : mx.dumpAllThreads(true, true)) {
            StringBuilder h = new StringBuilder();
            h.append('"').append(ti.getThreadName()).append("\" Id=").append(ti.getThreadId())
                    .append(" in ").append(ti.getThreadState());
            if (ti.getLockName() != null) h.append(" on lock=").append(ti.getLockName());
            if (ti.isSuspended()) h.append(" (suspended)");
            if (ti.isInNative()) h.append(" (running in native)");
            out.println(h);
            if (ti.getLockOwnerName() != null) {
                out.println("     owned by " + ti.getLockOwnerName() + " Id=" + ti.getLockOwnerId());
            }
            StackTraceElement[] st = ti.getStackTrace();
            for (int i = 0; i < st.length; i++) {
                out.println("    at " + st[i]);
                for (MonitorInfo mi : ti.getLockedMonitors()) {
                    if (mi.getLockedStackDepth() == i) out.println("      - locked " + mi);
                }
            }
            out.println();
        }
    }
}
