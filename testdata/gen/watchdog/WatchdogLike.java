// WatchdogLike: a game server's tick loop whose "plugin" never returns,
// watched by a thread that logs ThreadMXBean's ThreadInfo in the layout of
// Spigot's and Paper's WatchdogThread (parse/watchdog.go says the
// format). Written here from the format, not copied: the real program
// behind the real dumps of testdata/watchdog (a JVM's own ThreadInfo).
//
// Usage: java WatchdogLike.java healthy|stuck
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;

public class WatchdogLike {
    static volatile long lastTick = System.nanoTime();
    static final Object regionLock = new Object();
    static volatile long sink;

    // The plugin's handler: a region index rebuilt by a loop that never
    // ends (its bound is never reached), holding its lock.
    static void onChunkLoad(int chunk) {
        synchronized (regionLock) {
            long i = 0;
            while (chunk >= 0) {
                sink += overlaps(i++, chunk);
            }
        }
    }

    static long overlaps(long a, long b) { return (a * 31 + b) & 7; }

    static void tick(int n, boolean stuck) {
        if (stuck && n == 20) {
            onChunkLoad(n);
        }
    }

    static String prefix() {
        return "[" + LocalTime.now().format(DateTimeFormatter.ofPattern("HH:mm:ss")) + " ERROR]: ";
    }

    static void log(String s) { System.out.println(prefix() + s); }

    static void dumpThread(ThreadInfo t) {
        log("------------------------------");
        log("Current Thread: " + t.getThreadName());
        log("\tPID: " + t.getThreadId() + " | Suspended: " + t.isSuspended() + " | Native: " + t.isInNative()
                + " | State: " + t.getThreadState());
        if (t.getLockedMonitors().length != 0) {
            log("\tThread is waiting on monitor(s):");
            for (MonitorInfo m : t.getLockedMonitors()) {
                log("\t\tLocked on:" + m.getLockedStackFrame());
            }
        }
        log("\tStack:");
        for (StackTraceElement e : t.getStackTrace()) {
            log("\t\t" + e);
        }
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args.length > 0 && args[0].equals("stuck");
        Thread.currentThread().setName("Server thread");
        Thread server = Thread.currentThread();
        ExecutorService workers = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r);
            t.setName("Worker-Main-" + t.getId());
            t.setDaemon(true);
            return t;
        });
        workers.submit(() -> {});
        workers.submit(() -> {});
        Thread watchdog = new Thread(() -> {
            try {
                if (!stuck) {
                    // A healthy server: no warning is due; its whole dump
                    // is logged in the same layout once, as a control.
                    Thread.sleep(1500);
                    log("Entire Thread Dump:");
                    for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
                        dumpThread(t);
                    }
                    log("------------------------------");
                    System.exit(0);
                }
                int reports = 0;
                while (true) {
                    Thread.sleep(200);
                    long secs = (System.nanoTime() - lastTick) / 1_000_000_000L;
                    if (secs < 1) {
                        continue;
                    }
                    if (++reports <= 3) {
                        log("--- DO NOT REPORT THIS - THIS IS NOT A BUG OR A CRASH ---");
                        log("The server has not responded for " + secs + " seconds! Creating thread dump");
                        log("------------------------------");
                        log("Server thread dump (Look for plugins here before reporting!):");
                        dumpThread(ManagementFactory.getThreadMXBean().getThreadInfo(new long[] {server.getId()}, true, true)[0]);
                        log("------------------------------");
                        Thread.sleep(800);
                        continue;
                    }
                    log("------------------------------");
                    log("The server has stopped responding! This is (probably) not a bug.");
                    log("------------------------------");
                    log("Server thread dump (Look for plugins here before reporting!):");
                    dumpThread(ManagementFactory.getThreadMXBean().getThreadInfo(new long[] {server.getId()}, true, true)[0]);
                    log("------------------------------");
                    log("Entire Thread Dump:");
                    for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
                        dumpThread(t);
                    }
                    log("------------------------------");
                    System.exit(0);
                }
            } catch (InterruptedException e) {
                return;
            }
        }, "Server Watchdog Thread");
        watchdog.setDaemon(true);
        watchdog.start();
        for (int n = 0; ; n++) {
            tick(n, stuck);
            lastTick = System.nanoTime();
            Thread.sleep(50); // 20 ticks a second
        }
    }
}
