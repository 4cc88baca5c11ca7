package com.example.pool;

/** A plain pooled object. */
final class Session {
    private final int id;

    Session(int id) {
        this.id = id;
    }

    int id() {
        return id;
    }
}
