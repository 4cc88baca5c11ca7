package com.example.report;

import com.example.util.NamedThreadFactory;
import com.example.util.Threads;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A service already stuck on a silent upstream.
 *  - "report-1".."report-40": the fixed report pool (40 threads, started up front). 28 reports
 *    submitted by the nightly batch (fire and forget) and 8 submitted by requests are in
 *    UpstreamClient.fetch's socket read, called from ReportService.render, with no read
 *    timeout: 36 threads RUNNABLE in a read that never returns; the other 4 are idle in getTask.
 *  - "req-1".."req-8": the request pool; each request is in ReportController.handle, WAITING
 *    (parking) in Future.get() for its report, i.e. stuck behind the report pool.
 *
 * Usage: java com.example.report.ReportApp UPSTREAM-PORT   (the upstream is on 127.0.0.1)
 */
public final class ReportApp {
    public static void main(String[] args) throws Exception {
        InetSocketAddress upstream = new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0]));
        ReportService reports = new ReportService(new UpstreamClient(upstream));

        ThreadPoolExecutor reportPool = new ThreadPoolExecutor(40, 40, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), new NamedThreadFactory("report"));
        reportPool.prestartAllCoreThreads();

        for (int i = 1; i <= 28; i++) { // the nightly batch: submitted, never waited for
            String id = "nightly-" + i;
            reportPool.submit(() -> reports.render(id));
        }

        ReportController controller = new ReportController(reportPool, reports);
        ExecutorService requests = Executors.newFixedThreadPool(8, new NamedThreadFactory("req"));
        for (int i = 1; i <= 8; i++) {
            String id = "customer-" + i;
            requests.submit(() -> controller.handle(id));
        }

        Threads.awaitShutdown();
    }
}
