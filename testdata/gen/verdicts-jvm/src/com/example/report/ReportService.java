package com.example.report;

import java.io.IOException;

/** Renders a report from the upstream's data. */
final class ReportService {
    private final UpstreamClient upstream;

    ReportService(UpstreamClient upstream) {
        this.upstream = upstream;
    }

    String render(String reportId) throws IOException {
        byte[] data = upstream.fetch("/reports/" + reportId + "/data");
        return reportId + ":" + data.length;
    }
}
