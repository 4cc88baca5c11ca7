// A hand-written thread-per-connection server (an accept loop, a thread per
// connection reading its client's next command line in its own loop) with three
// idle clients connected: healthy, every connection thread at rest in its read.
import java.io.*;
import java.net.*;
public class Tpc {
    public static void main(String[] a) throws Exception {
        ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            int n = 0;
            while (true) {
                try {
                    Socket s = ss.accept();
                    new Thread(() -> serve(s), "conn-handler-" + (++n)).start();
                } catch (IOException e) { return; }
            }
        }, "acceptor");
        acceptor.start();
        for (int i = 0; i < 3; i++) {
            Socket c = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort()); // idle keep-alive clients
        }
        System.out.println("ready");
        Thread.sleep(600000);
    }
    static void serve(Socket s) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream()))) {
            String line;
            while ((line = in.readLine()) != null) { /* handle a command */ }
        } catch (IOException e) { }
    }
}
