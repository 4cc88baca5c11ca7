package com.example.classinit;

/** Set by TaxRules's static initializer when it starts (a separate class, so reading it does not wait). */
final class InitProgress {
    static volatile boolean started;

    private InitProgress() {}
}
