package com.example.classinit;

import com.example.util.Threads;

/**
 * "config-loader" touches TaxRules first: its static initializer sleeps (a slow remote
 * config load written in a static block). Once the initializer is running, "checkout-1..5"
 * call TaxRules.rateFor and wait for the class initialization to finish.
 *
 * Usage: java com.example.classinit.ClassInitApp
 */
public final class ClassInitApp {
    public static void main(String[] args) throws Exception {
        Threads.start("config-loader", () -> TaxRules.rateFor("boot"));
        while (!InitProgress.started) {
            Thread.sleep(10);
        }
        for (int i = 1; i <= 5; i++) {
            Threads.start("checkout-" + i, Checkout::total);
        }
        Threads.awaitShutdown();
    }
}
