package com.example.bank;

/** Reads an account's balance under its lock (it waits for the account, holds nothing). */
final class AuditService {
    private final boolean useLocks;

    AuditService(boolean useLocks) {
        this.useLocks = useLocks;
    }

    long audit(Account account) {
        return useLocks ? auditWithLock(account) : auditSynchronized(account);
    }

    private long auditSynchronized(Account account) {
        synchronized (account) {
            return account.balance();
        }
    }

    private long auditWithLock(Account account) {
        account.lock.lock();
        try {
            return account.balance();
        } finally {
            account.lock.unlock();
        }
    }
}
