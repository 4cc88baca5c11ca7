// VirtualRamp is a service that runs one virtual thread per task (as Spring Boot 3.2+ runs
// requests with spring.threads.virtual.enabled): 10 tasks wait on a latch, it prints "before";
// then, as a load would, 1,990 more arrive and wait too, and it prints "during". One virtual
// thread per task is the design: 2,000 of them is load, not an explosion of threads. Run by
// gen.sh beside this file; exits when stdin closes.
import java.util.concurrent.*;
public class VirtualRamp {
    public static void main(String[] args) throws Exception {
        CountDownLatch latch = new CountDownLatch(1);
        ExecutorService tasks = Executors.newVirtualThreadPerTaskExecutor();
        for (int i = 0; i < 10; i++) tasks.submit(() -> { latch.await(); return null; });
        Thread.sleep(300);
        System.out.println("before");
        System.out.flush();
        System.in.read(); // the next line: the load arrives
        for (int i = 0; i < 1990; i++) tasks.submit(() -> { latch.await(); return null; });
        Thread.sleep(500);
        System.out.println("during");
        System.out.flush();
        System.in.read();
        System.exit(0);
    }
}
