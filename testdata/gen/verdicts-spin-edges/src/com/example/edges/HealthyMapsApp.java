package com.example.edges;

/** SpinMapsApp's healthy twin: the same maps, not full and not cyclic; every thread rests on a latch after its first lookup. */
public class HealthyMapsApp {
    public static void main(String[] args) throws Exception { SpinMapsApp.run(false); }
}
