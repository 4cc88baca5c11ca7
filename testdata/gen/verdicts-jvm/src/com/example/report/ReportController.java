package com.example.report;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Serves a request: renders its report on the report pool and waits for it (no timeout). */
final class ReportController {
    private final ExecutorService reportPool;
    private final ReportService reports;

    ReportController(ExecutorService reportPool, ReportService reports) {
        this.reportPool = reportPool;
        this.reports = reports;
    }

    String handle(String reportId) throws Exception {
        Future<String> report = reportPool.submit(() -> reports.render(reportId));
        return report.get(); // waits as long as the report thread does
    }
}
