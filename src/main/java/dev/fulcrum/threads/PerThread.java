package dev.fulcrum.threads;

import java.util.function.Supplier;

/**
 * One value per thread, made on the thread's first {@link #get}, found by the first few live threads that ask
 * without a {@link ThreadLocal}.
 *
 * <p>Undertow's I/O threads read several per-thread values on every request. Through ThreadLocals each read hashes
 * into the thread's own map, and anything else on that thread that adds entries to the map (the JDK's cache of
 * temporary direct buffers after one write from a heap buffer, a library's date formatter) can push them out of
 * their home slots, so that every read after probes, for the rest of the thread's life. Here each of the first
 * {@value #SLOTS} live threads to ask is kept beside its value in an array that a read scans by identity: a handful
 * of comparisons that nothing else on the thread can slow. Further threads fall back to a ThreadLocal; a thread that
 * has died gives up its place when the next new thread asks. The array, and the field that holds it, are read by
 * every I/O thread on every request, so both are kept off cache lines that other objects share
 * ({@link PerThreadSlots}).
 *
 * <p>A value is only ever handed to the thread it was made for, so it needs no synchronization of its own.
 *
 * @param <T> the value's type
 */
public final class PerThread<T> extends PerThreadSlots {
    static final int SLOTS = 16;
    /** Unused references before and after the live part of {@link #slots}: 128 bytes or more (see PerThreadSlots). */
    private static final int PAD = 32;

    private final Supplier<? extends T> initial;
    private final ThreadLocal<T> others = new ThreadLocal<>();
    @SuppressWarnings("unused") // keeps other objects off slots' cache lines (see PerThreadSlots)
    private long p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15;

    private PerThread(Supplier<? extends T> initial) {
        this.initial = initial;
        slots = new Object[2 * (PAD + SLOTS)];
    }

    /** Values made by {@code initial}, on the thread that first asks, once per thread. */
    public static <T> PerThread<T> withInitial(Supplier<? extends T> initial) {
        return new PerThread<>(initial);
    }

    /** The calling thread's value. */
    @SuppressWarnings("unchecked")
    public T get() {
        Thread me = Thread.currentThread();
        Object[] s = slots;
        for (int i = PAD; i < PAD + SLOTS; i++) {
            Object t = s[i];
            if (t == me) {
                return (T) s[i + SLOTS];
            }
            if (t == null) {
                break;
            }
        }
        T other = others.get();
        return other != null ? other : first(me);
    }

    private T first(Thread me) {
        T value = initial.get();
        synchronized (this) {
            Object[] old = slots;
            Object[] now = new Object[old.length];
            int n = 0;
            for (int i = PAD; i < PAD + SLOTS && old[i] != null; i++) {
                if (((Thread) old[i]).isAlive()) {
                    now[PAD + n] = old[i];
                    now[PAD + SLOTS + n] = old[i + SLOTS];
                    n++;
                }
            }
            if (n < SLOTS) {
                now[PAD + n] = me;
                now[PAD + SLOTS + n] = value;
                slots = now;
                return value;
            }
        }
        others.set(value);
        return value;
    }

    /** How many threads find their value in the array (the rest through the ThreadLocal). */
    int slotted() {
        Object[] s = slots;
        int n = 0;
        while (n < SLOTS && s[PAD + n] != null) {
            n++;
        }
        return n;
    }
}
