// JavaService is the live JVM the tests of `dumpdiff watch` capture: a
// service whose request pool calls an upstream with no read timeout, healthy
// until the test says otherwise. Java 17, standard library only.
//
// Shape (thread names as jcmd Thread.print shows them):
//
//   req-exec-1..16   the request pool: a ThreadPoolExecutor of 16 threads,
//                    all started at once, over a LinkedBlockingQueue capped
//                    at 1000 jobs (a full queue rejects the job and counts it)
//   job-feed         submits one job every 50 ms (the service's traffic)
//   upstream-accept  the upstream's acceptor, a ServerSocket on 127.0.0.1
//                    port 0 inside this JVM
//   upstream-io-1..4 the upstream's workers: read one request line, think
//                    5 ms, answer one line, close
//   main             reads the commands on stdin
//
// A job (UpstreamClient.fetch) connects to the upstream, writes one request
// line and reads the answer with Socket.getInputStream().read() and no
// timeout: it waits as long as the upstream does not answer.
//
// Control, one command a line on stdin; after each, once it has taken
// effect, "phase NAME" on stdout (no timer ever decides the phase):
//
//   healthy, recover  the upstream answers every connection, and those it
//                     held are answered now; in effect once every job
//                     submitted before the command has finished (or was
//                     rejected): the pool is back at its queue, the backlog
//                     drained. (The two differ only by name.)
//   exhaust           the upstream accepts every new connection and never
//                     answers it; in effect once all 16 req-exec threads are
//                     in the upstream read (SocketDispatcher.read0 under
//                     UpstreamClient.fetch). The pool never recovers in this
//                     phase: new jobs queue behind it.
//   quit              exits 0; so does the end of stdin. After 10 minutes
//                     the JVM exits 3 by itself, whatever it is doing.
//
// "ready" is printed once the pool's 16 threads and the upstream are up, in
// the healthy phase. A command that fails prints "error ..." instead of the
// phase line (an unknown command, or a phase not in effect within 30 s).
//
// Expected verdicts, written from this source and analyze/detect_*.go before
// dumpdiff ran on it (moments 500 ms apart, each taken after "phase NAME"):
//
//   In the healthy phase a moment shows req-exec-* idle in the pool's queue
//   (ThreadPoolExecutor.getTask over LinkedBlockingQueue.take: pool-idle,
//   idle), and a job in flight only for the upstream's 5 ms: at 20 jobs a
//   second about 0.1 req-exec thread in socket-read, almost always 0, at
//   most a few. In the exhaust phase all 16 are in socket-read, the very
//   same threads at every moment, none idle.
//
//   healthy x2
//       no warning or critical finding (no waiting state rises by MinRise 5;
//       idle pool threads are neither stuck nor saturated).
//   healthy x2, exhaust x3 (socket-read 0 0 16 16 16)
//       CRITICAL not-recovered req-exec-* socket-read (0 -> 16, 16 left at
//       the last moment >= NotRecoveredCriticalMin 10 and half the pool;
//       not growing: the count does not rise at every moment), culprit
//       JavaService$UpstreamClient.fetch, 16 same threads since the rise;
//       CRITICAL saturated req-exec-* socket-read (16 of 16 waiting, none
//       idle, limit 16 observed: the pool's size at every moment), caused by
//       the not-recovered finding. Both from the first exhaust moment (the
//       3rd) on: already with moments 1-3.
//   healthy, exhaust x2, recover x2 (socket-read 0 16 16 0 0)
//       INFO recovered req-exec-* socket-read (last count 0, within
//       RecoveredShare of the rise). The saturated detector has no notion of
//       recovery: it looks for any moment with the pool full, so
//       CRITICAL saturated req-exec-* socket-read at moment 2 stays in the
//       report of all five moments (not caused by any open finding). With
//       the first 2 or 3 moments only, as in the sequence above:
//       not-recovered critical and saturated critical.
//
//   The upstream's own threads never make a finding: upstream-io-* has 4
//   threads (below MinRise, StuckMin and SaturatedMin), upstream-accept
//   is one acceptor (accept, idle), job-feed one scheduler thread, main
//   reads stdin (file-read, a rest).

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

public final class JavaService {
    static final int POOL = 16;
    static final int QUEUE_CAP = 1000;
    static final long FEED_EVERY_MS = 50;
    static final long UPSTREAM_THINK_MS = 5;
    static final long EFFECT_WITHIN_MS = 30_000;
    static final long LIFE_MINUTES = 10;

    /** Threads named prefix-1, prefix-2, ...; daemons, so quit never waits for a stuck read. */
    static final class Named implements ThreadFactory {
        private final String prefix;
        private final AtomicInteger n = new AtomicInteger();
        private final List<Thread> made = new ArrayList<>();

        Named(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public synchronized Thread newThread(Runnable r) {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            made.add(t);
            return t;
        }

        synchronized List<Thread> threads() {
            return new ArrayList<>(made);
        }
    }

    /**
     * The upstream: accepts on 127.0.0.1 and, while answering, hands each
     * connection to its workers; otherwise it holds the connection unread.
     */
    static final class Upstream {
        final ServerSocket server;
        final ExecutorService io = Executors.newFixedThreadPool(4, new Named("upstream-io"));
        private final List<Socket> held = new ArrayList<>();
        private boolean answering = true;

        Upstream() throws IOException {
            server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0));
            Thread t = new Thread(this::acceptLoop, "upstream-accept");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void acceptLoop() {
            while (true) {
                Socket s;
                try {
                    s = server.accept();
                } catch (IOException e) {
                    System.err.println("upstream: accept: " + e);
                    return;
                }
                synchronized (this) {
                    if (answering) {
                        io.execute(() -> answer(s));
                    } else {
                        held.add(s);
                    }
                }
            }
        }

        /** Stops answering: every new connection is held, unread and unanswered. */
        synchronized void blackhole() {
            answering = false;
        }

        /** Answers again, the held connections first. */
        synchronized void answer() {
            answering = true;
            for (Socket s : held) {
                io.execute(() -> answer(s));
            }
            held.clear();
        }

        private static void answer(Socket s) {
            try (s) {
                InputStream in = s.getInputStream();
                StringBuilder req = new StringBuilder();
                for (int b; (b = in.read()) != -1 && b != '\n'; ) {
                    req.append((char) b);
                }
                Thread.sleep(UPSTREAM_THINK_MS);
                OutputStream out = s.getOutputStream();
                out.write(("ok " + req + "\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                System.err.println("upstream: " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The service's client of the upstream: no connect or read timeout, as shipped. */
    static final class UpstreamClient {
        private final InetAddress addr;
        private final int port;

        UpstreamClient(InetAddress addr, int port) {
            this.addr = addr;
            this.port = port;
        }

        String fetch(String item) throws IOException {
            try (Socket s = new Socket(addr, port)) {
                OutputStream out = s.getOutputStream();
                out.write(("GET " + item + "\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = s.getInputStream();
                StringBuilder reply = new StringBuilder();
                for (int b; (b = in.read()) != -1 && b != '\n'; ) { // blocks while the upstream is silent
                    reply.append((char) b);
                }
                return reply.toString();
            }
        }
    }

    private final Named reqThreads = new Named("req-exec");
    private final ThreadPoolExecutor pool = new ThreadPoolExecutor(
            POOL, POOL, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(QUEUE_CAP), reqThreads);
    private final ScheduledExecutorService feed = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "job-feed");
        t.setDaemon(true);
        return t;
    });
    private final Upstream upstream;
    private final UpstreamClient client;
    private final AtomicLong lastJob = new AtomicLong();
    /** Jobs submitted and not yet finished or rejected, by id. */
    private final ConcurrentSkipListSet<Long> pending = new ConcurrentSkipListSet<>();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();

    JavaService() throws IOException {
        upstream = new Upstream();
        client = new UpstreamClient(upstream.server.getInetAddress(), upstream.port());
        pool.prestartAllCoreThreads();
    }

    private void submit() {
        long id = lastJob.incrementAndGet();
        pending.add(id);
        try {
            pool.execute(() -> handle(id));
        } catch (RejectedExecutionException e) {
            pending.remove(id);
            rejected.incrementAndGet();
        }
    }

    private void handle(long id) {
        try {
            client.fetch("item-" + id);
        } catch (IOException e) {
            failed.incrementAndGet();
        } finally {
            pending.remove(id);
        }
    }

    /** Every req-exec thread is in the upstream read. */
    private boolean allInUpstreamRead() {
        List<Thread> ts = reqThreads.threads();
        if (ts.size() < POOL) {
            return false;
        }
        for (Thread t : ts) {
            StackTraceElement[] st = t.getStackTrace();
            if (st.length == 0 || !st[0].getMethodName().equals("read0") || !inFetch(st)) {
                return false;
            }
        }
        return true;
    }

    private static boolean inFetch(StackTraceElement[] st) {
        for (StackTraceElement e : st) {
            if (e.getClassName().endsWith("UpstreamClient") && e.getMethodName().equals("fetch")) {
                return true;
            }
        }
        return false;
    }

    /** Every job submitted up to last has finished or was rejected. */
    private boolean doneUpTo(long last) {
        Long first = pending.isEmpty() ? null : pending.first();
        return first == null || first > last;
    }

    private interface Effect {
        boolean taken();
    }

    private static boolean await(Effect e) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EFFECT_WITHIN_MS);
        while (!e.taken()) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    /** Switches to a phase and waits until it is in effect; the line to print. */
    private String phase(String name) throws InterruptedException {
        Effect effect;
        switch (name) {
            case "healthy":
            case "recover": {
                upstream.answer();
                long last = lastJob.get();
                effect = () -> doneUpTo(last);
                break;
            }
            case "exhaust":
                upstream.blackhole();
                effect = this::allInUpstreamRead;
                break;
            default:
                return "error unknown command " + name;
        }
        if (!await(effect)) {
            return "error " + name + " not in effect within " + EFFECT_WITHIN_MS + " ms (pending "
                    + pending.size() + ", queued " + pool.getQueue().size() + ")";
        }
        return "phase " + name;
    }

    public static void main(String[] args) throws Exception {
        JavaService svc = new JavaService();
        svc.feed.schedule(() -> {
            System.err.println("JavaService: " + LIFE_MINUTES + " minutes are up, exiting");
            System.exit(3);
        }, LIFE_MINUTES, TimeUnit.MINUTES);
        svc.feed.scheduleAtFixedRate(svc::submit, 0, FEED_EVERY_MS, TimeUnit.MILLISECONDS);
        System.out.println("ready");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line; (line = in.readLine()) != null; ) {
            String cmd = line.trim();
            if (cmd.isEmpty()) {
                continue;
            }
            if (cmd.equals("quit")) {
                break;
            }
            System.out.println(svc.phase(cmd));
            System.out.flush();
        }
        System.err.println("JavaService: " + svc.lastJob.get() + " jobs, " + svc.failed.get() + " failed, "
                + svc.rejected.get() + " rejected");
        System.exit(0);
    }
}
