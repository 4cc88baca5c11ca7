package com.example.pinned;

/** Work that would take microseconds, once a carrier thread is free to run it. */
final class Checkout {
    private Checkout() {
    }

    static void process(int order) {
        System.out.println("checkout " + order + " done");
    }
}
