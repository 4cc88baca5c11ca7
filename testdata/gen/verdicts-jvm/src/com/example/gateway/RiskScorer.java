package com.example.gateway;

/** A steady CPU-bound background job: scores a rolling window, forever (always RUNNABLE). */
final class RiskScorer {
    private volatile double lastScore;

    void scoreForever(long seed) {
        double[] window = new double[256];
        for (int i = 0; i < window.length; i++) {
            window[i] = (seed + i) % 97;
        }
        long round = 0;
        while (true) {
            lastScore = score(window, round++);
        }
    }

    private static double score(double[] window, long round) {
        double s = 0;
        for (int i = 0; i < window.length; i++) {
            window[i] = Math.sqrt(window[i] * 31 + round % 7 + 1);
            s += window[i];
        }
        return s;
    }
}
