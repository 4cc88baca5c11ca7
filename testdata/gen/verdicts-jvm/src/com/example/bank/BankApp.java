package com.example.bank;

import com.example.util.Threads;
import java.util.concurrent.CountDownLatch;

/**
 * A lock-order deadlock with bystanders. "transfer-1" locks account A then B, "transfer-2"
 * locks B then A: both hold their first account and wait for the other's, forever. Then
 * "audit" waits for account A and "teller-1".."teller-8" wait for account B: they are stuck
 * behind the cycle without being part of it.
 *
 * Usage: java com.example.bank.BankApp [synchronized|reentrantlock]
 *   synchronized (default): the accounts' monitors, so the threads are BLOCKED (on object monitor)
 *   reentrantlock: each account's ReentrantLock, so the threads are WAITING (parking)
 */
public final class BankApp {
    public static void main(String[] args) throws Exception {
        boolean useLocks = args.length > 0 && args[0].equals("reentrantlock");
        Account a = new Account("A", 100_000);
        Account b = new Account("B", 100_000);

        CountDownLatch bothHoldFirst = new CountDownLatch(2);
        TransferService transfers = new TransferService(useLocks, bothHoldFirst);
        Threads.start("transfer-1", () -> transfers.transfer(a, b, 2_500));
        Threads.start("transfer-2", () -> transfers.transfer(b, a, 1_000));
        bothHoldFirst.await(); // transfer-1 holds A and transfer-2 holds B

        AuditService audits = new AuditService(useLocks);
        Threads.start("audit", () -> audits.audit(a));
        TellerService tellers = new TellerService(useLocks);
        for (int i = 1; i <= 8; i++) {
            long cents = 100L * i;
            Threads.start("teller-" + i, () -> tellers.deposit(b, cents));
        }
        Threads.awaitShutdown();
    }
}
