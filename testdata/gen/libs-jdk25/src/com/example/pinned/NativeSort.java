package com.example.pinned;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.IntBinaryOperator;

/**
 * Sorts ints with the C library's qsort through the Foreign Function API: qsort calls back into
 * Java for every comparison, so the comparator runs with a native frame (qsort's) on the stack.
 */
final class NativeSort {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle QSORT = LINKER.downcallHandle(
            LINKER.defaultLookup().find("qsort").orElseThrow(),
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
    private static final MethodHandle COMPARE;
    private static final ThreadLocal<IntBinaryOperator> COMPARATOR = new ThreadLocal<>();

    static {
        try {
            COMPARE = MethodHandles.lookup().findStatic(NativeSort.class, "compare",
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private NativeSort() {
    }

    static void sort(int[] values, IntBinaryOperator comparator) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocateFrom(JAVA_INT, values);
            MemorySegment stub = LINKER.upcallStub(COMPARE, FunctionDescriptor.of(JAVA_INT,
                    ADDRESS.withTargetLayout(JAVA_INT), ADDRESS.withTargetLayout(JAVA_INT)), arena);
            COMPARATOR.set(comparator);
            try {
                QSORT.invokeExact(array, (long) values.length, JAVA_INT.byteSize(), stub);
            } finally {
                COMPARATOR.remove();
            }
            MemorySegment.copy(array, JAVA_INT, 0, values, 0, values.length);
        }
    }

    private static int compare(MemorySegment a, MemorySegment b) {
        return COMPARATOR.get().applyAsInt(a.get(JAVA_INT, 0), b.get(JAVA_INT, 0));
    }
}
