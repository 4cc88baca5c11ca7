// Virtual starts N virtual threads (one per task, as Spring Boot 3.2+ runs requests
// with spring.threads.virtual.enabled) waiting on a latch, and M more parked on a
// ReentrantLock held by a platform thread (a JSON dump names no owner of it). Run by the
// capture tests on a real JDK 25 (capture/jvm25_test.go, cmd/dumpdiff/capture_cmd_test.go):
// java Virtual N M; prints "ready" when every task is parked, exits when stdin closes.
import java.util.concurrent.*;
import java.util.concurrent.locks.ReentrantLock;
public class Virtual {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]), lockers = Integer.parseInt(args[1]);
        CountDownLatch latch = new CountDownLatch(1);
        ReentrantLock lock = new ReentrantLock();
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            lock.lock();
            held.countDown();
            try { Thread.sleep(600_000); } catch (InterruptedException e) { } finally { lock.unlock(); }
        }, "capture-test-lock-holder");
        holder.setDaemon(true);
        holder.start();
        held.await();
        ExecutorService tasks = Executors.newVirtualThreadPerTaskExecutor();
        for (int i = 0; i < n; i++) tasks.submit(() -> { latch.await(); return null; });
        for (int i = 0; i < lockers; i++) tasks.submit(() -> { lock.lock(); lock.unlock(); return null; });
        Thread.sleep(300); // every task parked
        System.out.println("ready");
        System.out.flush();
        System.in.read();
        System.exit(0);
    }
}
