package com.example.roles;

/**
 * A finalize() that blocks: NativeHandle.finalize() takes the Registry monitor to deregister,
 * and registry-compactor holds that monitor while it sleeps. The JVM's one Finalizer thread is
 * BLOCKED in application code; every finalizable object queues behind it (memory grows).
 * With "idle", no handle is made: the Finalizer rests in its queue (the control).
 */
public class FinalizerBlocked {
    static final Object REGISTRY = new Object();

    static class NativeHandle {
        final byte[] buf = new byte[1024];

        @Override
        @SuppressWarnings("deprecation")
        protected void finalize() {
            synchronized (REGISTRY) {
                System.out.println("deregistered");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        boolean idle = args.length > 0 && args[0].equals("idle");
        Thread compactor = new Thread(() -> {
            synchronized (REGISTRY) {
                TimerWork.sleepForever();
            }
        }, "registry-compactor");
        compactor.setDaemon(true);
        compactor.start();
        while (compactor.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(10);
        }
        if (!idle) {
            for (int i = 0; i < 1000; i++) {
                new NativeHandle();
            }
            System.gc();
        }
        System.out.println("ready");
        Thread.currentThread().join();
    }
}
