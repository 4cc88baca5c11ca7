package com.example.spin;

import java.util.regex.Pattern;

/** A field rule with a backreference: exponential backtracking on a long run of word characters. */
final class Validator {
	private static final Pattern RULE = Pattern.compile("^(\\w|\\w?)+\\1=");

	private Validator() {}

	static boolean check(String field) {
		return RULE.matcher(field).find();
	}
}
