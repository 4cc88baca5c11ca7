package com.example.spin;

import java.util.HashMap;
import java.util.Map;

/** A service registry whose reconnect retries under its own monitor. */
final class Registry {
	private final Map<String, String> endpoints = new HashMap<>();
	private volatile boolean connected;
	private long attempts;

	synchronized void reconnect() {
		while (!tryConnect()) {
			attempts++; // no back-off, and the monitor is held all along
		}
	}

	private boolean tryConnect() {
		// The peer never comes back: the check is pure CPU and always false.
		long h = attempts;
		for (int i = 0; i < 64; i++) {
			h = h * 31 + i;
		}
		return connected && h != 0;
	}

	synchronized String lookup(String name) {
		return endpoints.get(name);
	}
}
