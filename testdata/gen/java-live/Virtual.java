// Virtual starts N virtual threads (one per task, as Spring Boot 3.2+ runs requests
// with spring.threads.virtual.enabled) waiting on a latch, and M more parked on a
// ReentrantLock held by a platform thread (a JSON dump names no owner of it); with L locks
// (default 1), L platform holders each hold one and the M parkers are spread over them. Run by
// the capture tests on a real JDK 25 (capture/jvm25_test.go, cmd/dumpdiff/capture_cmd_test.go)
// and by gen.sh beside this file: java Virtual N M [L]; prints "ready" when every task is
// parked, exits when stdin closes.
import java.util.concurrent.*;
import java.util.concurrent.locks.ReentrantLock;
public class Virtual {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]), lockers = Integer.parseInt(args[1]);
        int locks = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        CountDownLatch latch = new CountDownLatch(1);
        ReentrantLock[] lock = new ReentrantLock[locks];
        CountDownLatch held = new CountDownLatch(locks);
        for (int k = 0; k < locks; k++) {
            ReentrantLock l = lock[k] = new ReentrantLock();
            Thread holder = new Thread(() -> {
                l.lock();
                held.countDown();
                try { Thread.sleep(600_000); } catch (InterruptedException e) { } finally { l.unlock(); }
            }, locks == 1 ? "capture-test-lock-holder" : "capture-test-lock-holder-" + k);
            holder.setDaemon(true);
            holder.start();
        }
        held.await();
        ExecutorService tasks = Executors.newVirtualThreadPerTaskExecutor();
        for (int i = 0; i < n; i++) tasks.submit(() -> { latch.await(); return null; });
        for (int i = 0; i < lockers; i++) {
            ReentrantLock l = lock[i % locks];
            tasks.submit(() -> { l.lock(); l.unlock(); return null; });
        }
        Thread.sleep(300); // every task parked
        System.out.println("ready");
        System.out.flush();
        System.in.read();
        System.exit(0);
    }
}
