package com.example.classinit;

/** A request that needs TaxRules. */
final class Checkout {
    private Checkout() {}

    static void total() {
        double rate = TaxRules.rateFor("eu");
        System.out.println("rate " + rate);
    }
}
