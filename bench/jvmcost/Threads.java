import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

// The JVM target of bench/capture-cost.sh: THREADS threads parked in
// ordinary waits (sleep, Object.wait, LockSupport.park) and a live heap of
// HEAP_MB megabytes of small objects, which "Thread.print -l" walks inside
// its safepoint to find ownable synchronizers. Prints "ready" and waits for
// stdin to close.
//
//	java -Xmx3g -Xlog:safepoint:file=sp.log Threads 1000 1750
public class Threads {
    static final List<byte[]> HEAP = new ArrayList<>();
    static final Object MONITOR = new Object();

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int heapMB = Integer.parseInt(args[1]);
        // 48-byte arrays (64 bytes with their header): many objects, as a
        // real heap has, so that a walk of it costs what a real one does.
        long objects = (long) heapMB * 1024 * 1024 / 64;
        for (long i = 0; i < objects; i++) {
            HEAP.add(new byte[48]);
        }
        for (int i = 0; i < threads; i++) {
            final int kind = i % 3;
            Thread t = new Thread(() -> {
                try {
                    switch (kind) {
                        case 0: Thread.sleep(Long.MAX_VALUE); break;
                        case 1: synchronized (MONITOR) { MONITOR.wait(); } break;
                        default: while (true) LockSupport.park();
                    }
                } catch (InterruptedException e) {
                }
            }, "bench-worker-" + i);
            t.setDaemon(true);
            t.start();
        }
        Thread.sleep(500);
        System.gc();
        System.out.println("ready " + HEAP.size());
        System.out.flush();
        System.in.read();
    }
}
