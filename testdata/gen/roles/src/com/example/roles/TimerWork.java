package com.example.roles;

import java.util.Timer;
import java.util.TimerTask;

/**
 * java.util.Timer threads at work and at rest. Timer-0's task wants the Ledger monitor, which
 * ledger-holder keeps while it sleeps (a slow reload under the lock): Timer-0 is BLOCKED in
 * its task. Timer-1's task sleeps inside run() (a back-off). report-timer has nothing due for an
 * hour: it rests in TimerThread.mainLoop, the control.
 */
public class TimerWork {
    static final Object LEDGER = new Object();

    public static void main(String[] args) throws Exception {
        Thread holder = new Thread(() -> {
            synchronized (LEDGER) {
                sleepForever();
            }
        }, "ledger-holder");
        holder.start();
        while (!Thread.holdsLock(LEDGER) && holder.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(10);
        }
        new Timer().schedule(new TimerTask() { // Timer-0
            @Override
            public void run() {
                synchronized (LEDGER) {
                    System.out.println("reconciled");
                }
            }
        }, 0);
        new Timer().schedule(new TimerTask() { // Timer-1
            @Override
            public void run() {
                sleepForever();
            }
        }, 0);
        new Timer("report-timer").schedule(new TimerTask() {
            @Override
            public void run() {}
        }, 3_600_000);
        System.out.println("ready");
        Thread.currentThread().join();
    }

    static void sleepForever() {
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
