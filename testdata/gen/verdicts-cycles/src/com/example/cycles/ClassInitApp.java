package com.example.cycles;

/**
 * Two static initializers that wait for each other.
 *
 * <p>stuck: "init-tax" touches TaxRules, whose static initializer (after 300 ms) reads
 * CurrencyTable.SIZE; "init-currency" touches CurrencyTable, whose initializer (after 300 ms)
 * reads TaxRules.RATE. Each thread is inside one class's {@code <clinit>} and waits for the
 * other's class: a class-initialization deadlock the JVM does not report (no monitor is
 * printed as held). "price-reader", started 1 s later, reads TaxRules.RATE and waits behind
 * the cycle.
 *
 * <p>healthy: the same shape of classes without the cycle (TaxRulesOk's initializer reads
 * CurrencyTableOk, which reads nothing back), both initialized at start by two threads at
 * once; then "price-worker-1..4" use them in short tasks and sleep between.
 */
public final class ClassInitApp {
	public static void main(String[] args) throws Exception {
		boolean healthy = args.length > 0 && args[0].equals("healthy");
		if (!healthy) {
			Util.start("init-tax", () -> System.out.println("rate " + TaxRules.RATE));
			Util.start("init-currency", () -> System.out.println("size " + CurrencyTable.SIZE));
			Util.sleep(1000);
			Util.start("price-reader", () -> System.out.println("rate " + TaxRules.RATE));
		} else {
			Thread a = Util.start("init-tax", () -> System.out.println("rate " + TaxRulesOk.RATE));
			Thread b = Util.start("init-currency", () -> System.out.println("size " + CurrencyTableOk.SIZE));
			a.join();
			b.join();
			for (int i = 1; i <= 4; i++) {
				Util.start("price-worker-" + i, () -> {
					long sum = 0;
					while (true) {
						sum += TaxRulesOk.RATE + CurrencyTableOk.SIZE;
						Util.sleep(200);
					}
				});
			}
		}
		Util.sleep(200);
		System.out.println("ready");
		Thread.currentThread().join();
	}
}

final class TaxRules {
	static final int RATE;

	static {
		Util.sleep(300);
		RATE = CurrencyTable.SIZE + 7;
	}
}

final class CurrencyTable {
	static final int SIZE;

	static {
		Util.sleep(300);
		SIZE = TaxRules.RATE + 160;
	}
}

final class TaxRulesOk {
	static final int RATE;

	static {
		Util.sleep(300);
		RATE = CurrencyTableOk.SIZE + 7;
	}
}

final class CurrencyTableOk {
	static final int SIZE;

	static {
		Util.sleep(300);
		SIZE = 160;
	}
}
