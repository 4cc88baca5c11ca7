package com.example.executors;

/** A scheduled job that runs once an hour. */
final class HousekeepingJob {
    private HousekeepingJob() {}

    static void run() {}
}
