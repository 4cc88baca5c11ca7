package com.example.spin;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Validates a request's field on the validation executor and waits for the answer. */
final class RequestHandler {
	private final ExecutorService validator;

	RequestHandler(ExecutorService validator) {
		this.validator = validator;
	}

	void handle(String field) {
		try {
			Future<Boolean> ok = validator.submit(() -> Validator.check(field));
			System.out.println(field + " valid: " + ok.get()); // no timeout
		} catch (Exception e) {
			throw new RuntimeException(e);
		}
	}
}
