import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

// PlatformLock: main holds a ReentrantLock and 8 platform threads park on
// it, while a thread waits in ServerSocket.accept (which holds the
// socket's own ReentrantLock, another lock of the same class). Prints
// "ready" once every waiter is parked; ends on stdin EOF or after 5 min.
public class PlatformLock {
    public static void main(String[] args) throws Exception {
        ServerSocket ss = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread acceptor = new Thread(() -> {
            try {
                ss.accept();
            } catch (Exception e) {
            }
        }, "acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        ReentrantLock lock = new ReentrantLock();
        lock.lock();
        for (int i = 0; i < 8; i++) {
            Thread t = new Thread(lock::lock, "waiter-" + i);
            t.setDaemon(true);
            t.start();
        }
        while (lock.getQueueLength() < 8 || acceptor.getState() != Thread.State.RUNNABLE) {
            Thread.sleep(10);
        }
        Thread.sleep(100); // the acceptor into accept
        System.out.println("ready");
        Thread exit = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                }
            } catch (Exception e) {
            }
            System.exit(0);
        });
        exit.setDaemon(true);
        exit.start();
        Thread.sleep(300_000);
    }
}
