package com.example.orders;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadInfo;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;

/**
 * Our thread dump endpoint, built to the formats of Spring Boot's Actuator
 * (org.springframework.boot.actuate.management.ThreadDumpEndpoint): it is not Spring's code.
 *
 * <p>JSON: the ThreadInfo[] of ThreadMXBean.dumpAllThreads(true, true) serialized by Jackson as
 * a bean, wrapped as {"threads": [...]} (Boot 2.x and later: the endpoint returns a descriptor
 * whose only property is getThreads()), or as a bare array (Boot 1.x's /dump endpoint returned
 * List&lt;ThreadInfo&gt;). Boot 3.x serializes endpoint responses with its own ObjectMapper
 * (JacksonEndpointAutoConfiguration: properties sorted alphabetically, nulls left out); Boot
 * 1.x and 2.x with the application's (Jackson's defaults: declaration order, nulls written).
 *
 * <p>Text (Boot 2.2 and later, Accept: text/plain): the layout of Spring's
 * PlainTextThreadDumpFormatter, written here from its description: a date line, a "Full thread
 * dump" line, a blank line; per thread a {@code "name" - Thread t@ID} header, the state line,
 * its frames (StackTraceElement.toString), the lock it waits for after the first frame, the
 * monitors locked at each depth after their frame, a blank line, its locked ownable
 * synchronizers, a blank line.
 */
final class ThreadDumpEndpoint {
    enum Shape { BOOT1, BOOT2, BOOT3 }

    ThreadInfo[] snapshot() {
        return ManagementFactory.getThreadMXBean().dumpAllThreads(true, true);
    }

    /** The Boot 2.x+ response body: one property, "threads". */
    public static final class ThreadDumpDescriptor {
        private final List<ThreadInfo> threads;

        ThreadDumpDescriptor(ThreadInfo[] threads) {
            this.threads = Arrays.asList(threads);
        }

        public List<ThreadInfo> getThreads() {
            return threads;
        }
    }

    String json(ThreadInfo[] threads, Shape shape) throws Exception {
        ObjectMapper mapper;
        if (shape == Shape.BOOT3) {
            mapper = JsonMapper.builder()
                    .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS, SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                    .disable(MapperFeature.DEFAULT_VIEW_INCLUSION)
                    .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .serializationInclusion(JsonInclude.Include.NON_NULL)
                    .build();
        } else {
            mapper = JsonMapper.builder()
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                    .disable(MapperFeature.DEFAULT_VIEW_INCLUSION)
                    .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .build();
        }
        Object body = shape == Shape.BOOT1 ? Arrays.asList(threads) : new ThreadDumpDescriptor(threads);
        return mapper.writeValueAsString(body);
    }

    String text(ThreadInfo[] threads) {
        StringBuilder b = new StringBuilder();
        RuntimeMXBean rt = ManagementFactory.getRuntimeMXBean();
        line(b, DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").format(LocalDateTime.now()));
        line(b, "Full thread dump " + rt.getVmName() + " (" + rt.getVmVersion() + " " + System.getProperty("java.vm.info") + "):");
        line(b, "");
        for (ThreadInfo t : threads) {
            line(b, "\"" + t.getThreadName() + "\" - Thread t@" + t.getThreadId());
            line(b, "   " + Thread.State.class.getCanonicalName() + ": " + t.getThreadState());
            StackTraceElement[] stack = t.getStackTrace();
            MonitorInfo[] monitors = t.getLockedMonitors();
            for (int depth = 0; depth < stack.length; depth++) {
                StackTraceElement e = stack[depth];
                line(b, "\tat " + e);
                LockInfo waitsFor = t.getLockInfo();
                if (depth == 0 && waitsFor != null) {
                    boolean inWait = e.getClassName().equals(Object.class.getName()) && e.getMethodName().equals("wait");
                    if (inWait) {
                        line(b, "\t- waiting on " + lock(waitsFor));
                    } else if (t.getLockOwnerName() != null) {
                        line(b, "\t- waiting to lock " + lock(waitsFor) + " owned by \"" + t.getLockOwnerName() + "\" t@" + t.getLockOwnerId());
                    } else {
                        line(b, "\t- parking to wait for " + lock(waitsFor));
                    }
                }
                for (MonitorInfo m : monitors) {
                    if (m.getLockedStackDepth() == depth) {
                        line(b, "\t- locked " + lock(m));
                    }
                }
            }
            line(b, "");
            line(b, "   Locked ownable synchronizers:");
            LockInfo[] syncs = t.getLockedSynchronizers();
            if (syncs == null || syncs.length == 0) {
                line(b, "\t- None");
            } else {
                for (LockInfo s : syncs) {
                    line(b, "\t- Locked " + lock(s));
                }
            }
            line(b, "");
        }
        return b.toString();
    }

    private static String lock(LockInfo l) {
        return "<" + Integer.toHexString(l.getIdentityHashCode()) + "> (a " + l.getClassName() + ")";
    }

    private static void line(StringBuilder b, String s) {
        b.append(s).append(System.lineSeparator());
    }
}
