package com.example.roles;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An executor leak: every "request" (20 a second) makes its own
 * Executors.newSingleThreadExecutor(), runs one task on it and never shuts it down. Each
 * executor's one thread then rests in getTask forever: pool-1-thread-1, pool-2-thread-1, ...,
 * pool-N-thread-1, one more every 50 ms, without end.
 */
public class ExecutorLeak {
    public static void main(String[] args) throws Exception {
        System.out.println("ready");
        for (int i = 0; ; i++) {
            ExecutorService perRequest = Executors.newSingleThreadExecutor();
            perRequest.submit(() -> {}); // never shut down
            Thread.sleep(50);
        }
    }
}
