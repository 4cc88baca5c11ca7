package com.example.bank;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A bank account. With monitors (the default) code locks the Account object itself
 * (synchronized); with locks it takes {@link #lock}.
 */
final class Account {
    final String id;
    final ReentrantLock lock = new ReentrantLock();
    private long balanceCents;

    Account(String id, long balanceCents) {
        this.id = id;
        this.balanceCents = balanceCents;
    }

    long balance() {
        return balanceCents;
    }

    void debit(long cents) {
        balanceCents -= cents;
    }

    void credit(long cents) {
        balanceCents += cents;
    }

    @Override
    public String toString() {
        return "Account[" + id + "]";
    }
}
