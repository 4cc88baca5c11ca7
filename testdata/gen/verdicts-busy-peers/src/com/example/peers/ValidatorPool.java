package com.example.peers;

import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * A pool of four "validator-N" threads, each checking its own stream of
 * form fields against one pattern, as fast as it can, for ever: the busy
 * work of a service whose validators run the same application loop. With
 * "runaway", validator-1's stream holds one field that the pattern
 * backtracks over exponentially (a run of word characters followed by a
 * character the pattern cannot end with): that one matches call never
 * returns, while the three others keep checking fields through the same
 * regex code. With "healthy", every field is a short one.
 */
public class ValidatorPool {
    // Nested quantifiers: (\w+\s?)* over "aaaa…a!" tries every split of
    // the run before failing.
    static final Pattern FIELD = Pattern.compile("^(\\w+\\s?)*$");
    static final AtomicLong checked = new AtomicLong();

    static boolean check(String field) {
        return FIELD.matcher(field).matches();
    }

    static void validate(String[] fields) {
        long ok = 0;
        while (true) {
            for (String f : fields) {
                if (check(f)) {
                    ok++;
                }
                checked.incrementAndGet();
            }
            if (ok < 0) {
                System.out.println(ok);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        boolean runaway = args.length > 0 && args[0].equals("runaway");
        String[] benign = {"hello world", "order 42 shipped", "name surname", "a b c d e f", "x1 y2 z3"};
        for (int i = 1; i <= 4; i++) {
            String[] fields = benign;
            if (runaway && i == 1) {
                fields = new String[] {"hello world", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"};
            }
            String[] mine = fields;
            Thread t = new Thread(() -> validate(mine), "validator-" + i);
            t.start();
        }
        Thread.sleep(500);
        System.out.println("ready");
        Thread.currentThread().join(); // main waits, as a service's main does
    }
}
