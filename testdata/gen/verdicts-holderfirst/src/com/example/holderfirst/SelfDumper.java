package com.example.holderfirst;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The program's own thread dumps, taken in process through ThreadMXBean as a
 * service's dump endpoint takes them: N.json in Spring Boot Actuator's shape
 * (ThreadInfo's getters as properties, as Jackson writes them; Boot 2.x key
 * order) and N.threadinfo.txt, every thread's ThreadInfo.toString() one after
 * another (what a handler that prints ThreadInfo serves; the JDK cuts each
 * stack at 8 frames with "..."). Three dumps, 3 s after start then 5 s apart,
 * the schedule of jstack3.sh.
 */
final class SelfDumper {
    private SelfDumper() {}

    static void start(String dir) {
        if (dir == null) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(3000);
                for (int i = 1; i <= 3; i++) {
                    ThreadInfo[] all = ManagementFactory.getThreadMXBean().dumpAllThreads(true, true);
                    Files.createDirectories(Path.of(dir));
                    writeJSON(Path.of(dir, i + ".json"), all);
                    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Path.of(dir, i + ".threadinfo.txt")))) {
                        for (ThreadInfo ti : all) {
                            w.print(ti.toString());
                        }
                    }
                    if (i < 3) {
                        Thread.sleep(5000);
                    }
                }
            } catch (InterruptedException | IOException e) {
                e.printStackTrace();
            }
        }, "self-dumper");
        t.setDaemon(true);
        t.start();
    }

    private static String q(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    private static String lock(LockInfo l) {
        if (l == null) {
            return "null";
        }
        return "{\"className\":" + q(l.getClassName()) + ",\"identityHashCode\":" + l.getIdentityHashCode() + "}";
    }

    private static String frame(StackTraceElement e) {
        return "{\"classLoaderName\":" + q(e.getClassLoaderName()) + ",\"moduleName\":" + q(e.getModuleName())
                + ",\"moduleVersion\":" + q(e.getModuleVersion()) + ",\"methodName\":" + q(e.getMethodName())
                + ",\"fileName\":" + q(e.getFileName()) + ",\"lineNumber\":" + e.getLineNumber()
                + ",\"nativeMethod\":" + e.isNativeMethod() + ",\"className\":" + q(e.getClassName()) + "}";
    }

    private static void writeJSON(Path p, ThreadInfo[] all) throws IOException {
        StringBuilder b = new StringBuilder("{\"threads\":[");
        for (int i = 0; i < all.length; i++) {
            ThreadInfo t = all[i];
            if (i > 0) {
                b.append(',');
            }
            b.append("{\"threadName\":").append(q(t.getThreadName()))
                    .append(",\"threadId\":").append(t.getThreadId())
                    .append(",\"blockedTime\":").append(t.getBlockedTime())
                    .append(",\"blockedCount\":").append(t.getBlockedCount())
                    .append(",\"waitedTime\":").append(t.getWaitedTime())
                    .append(",\"waitedCount\":").append(t.getWaitedCount())
                    .append(",\"lockName\":").append(q(t.getLockName()))
                    .append(",\"lockOwnerId\":").append(t.getLockOwnerId())
                    .append(",\"lockOwnerName\":").append(q(t.getLockOwnerName()))
                    .append(",\"daemon\":").append(t.isDaemon())
                    .append(",\"inNative\":").append(t.isInNative())
                    .append(",\"suspended\":").append(t.isSuspended())
                    .append(",\"threadState\":").append(q(t.getThreadState().name()))
                    .append(",\"priority\":").append(t.getPriority())
                    .append(",\"stackTrace\":[");
            StackTraceElement[] st = t.getStackTrace();
            for (int j = 0; j < st.length; j++) {
                b.append(j > 0 ? "," : "").append(frame(st[j]));
            }
            b.append("],\"lockedMonitors\":[");
            MonitorInfo[] ms = t.getLockedMonitors();
            for (int j = 0; j < ms.length; j++) {
                MonitorInfo m = ms[j];
                b.append(j > 0 ? "," : "").append("{\"className\":").append(q(m.getClassName()))
                        .append(",\"identityHashCode\":").append(m.getIdentityHashCode())
                        .append(",\"lockedStackDepth\":").append(m.getLockedStackDepth())
                        .append(",\"lockedStackFrame\":").append(m.getLockedStackFrame() == null ? "null" : frame(m.getLockedStackFrame()))
                        .append('}');
            }
            b.append("],\"lockedSynchronizers\":[");
            LockInfo[] ss = t.getLockedSynchronizers();
            for (int j = 0; j < ss.length; j++) {
                b.append(j > 0 ? "," : "").append(lock(ss[j]));
            }
            b.append("],\"lockInfo\":").append(lock(t.getLockInfo())).append('}');
        }
        b.append("]}\n");
        Files.writeString(p, b);
    }
}
