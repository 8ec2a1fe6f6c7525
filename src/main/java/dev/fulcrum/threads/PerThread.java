package dev.fulcrum.threads;

import java.util.ArrayList;
import java.util.List;
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
 * has died gives up its place when the next new thread asks.
 *
 * <p>A value is only ever handed to the thread it was made for, so it needs no synchronization of its own.
 *
 * @param <T> the value's type
 */
public final class PerThread<T> {
    static final int SLOTS = 16;

    private final Supplier<? extends T> initial;
    private final ThreadLocal<T> others = new ThreadLocal<>();
    private volatile Entry<T>[] entries = newEntries(0);

    private PerThread(Supplier<? extends T> initial) {
        this.initial = initial;
    }

    /** Values made by {@code initial}, on the thread that first asks, once per thread. */
    public static <T> PerThread<T> withInitial(Supplier<? extends T> initial) {
        return new PerThread<>(initial);
    }

    /** The calling thread's value. */
    public T get() {
        Thread me = Thread.currentThread();
        for (Entry<T> e : entries) {
            if (e.thread == me) {
                return e.value;
            }
        }
        T other = others.get();
        return other != null ? other : first(me);
    }

    private T first(Thread me) {
        T value = initial.get();
        synchronized (this) {
            List<Entry<T>> live = new ArrayList<>(SLOTS);
            for (Entry<T> e : entries) {
                if (e.thread.isAlive()) {
                    live.add(e);
                }
            }
            if (live.size() < SLOTS) {
                live.add(new Entry<>(me, value));
                entries = live.toArray(newEntries(live.size()));
                return value;
            }
        }
        others.set(value);
        return value;
    }

    /** How many threads find their value in the array (the rest through the ThreadLocal). */
    int slotted() {
        return entries.length;
    }

    @SuppressWarnings("unchecked")
    private static <T> Entry<T>[] newEntries(int n) {
        return (Entry<T>[]) new Entry<?>[n];
    }

    private static final class Entry<T> {
        final Thread thread;
        final T value;

        Entry(Thread thread, T value) {
            this.thread = thread;
            this.value = value;
        }
    }
}
