// Two threads that take two monitors in opposite orders (a Java-level
// deadlock) and one that waits on a monitor; prints "ready" once both
// workers are BLOCKED and the waiter WAITING, then sleeps until killed.
public class Deadlock {
    static final Object a = new Object(), b = new Object();

    public static void main(String[] args) throws Exception {
        Thread t1 = new Thread(() -> { synchronized (a) { pause(); synchronized (b) {} } }, "worker-1");
        Thread t2 = new Thread(() -> { synchronized (b) { pause(); synchronized (a) {} } }, "worker-2");
        Object w = new Object();
        Thread t3 = new Thread(() -> {
            synchronized (w) {
                try { w.wait(); } catch (InterruptedException e) { }
            }
        }, "waiter");
        t1.start(); t2.start(); t3.start();
        while (t1.getState() != Thread.State.BLOCKED || t2.getState() != Thread.State.BLOCKED
                || t3.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        System.out.println("ready");
        Thread.sleep(600000);
    }

    static void pause() {
        try { Thread.sleep(300); } catch (InterruptedException e) { }
    }
}
