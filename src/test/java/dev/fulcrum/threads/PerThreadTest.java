package dev.fulcrum.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PerThreadTest {
    private final AtomicInteger made = new AtomicInteger();
    private final PerThread<Object> perThread = PerThread.withInitial(() -> {
        made.incrementAndGet();
        return new Object();
    });

    @Test
    void aThreadGetsItsOwnValueOnceAndKeepsIt() throws Exception {
        Object mine = perThread.get();
        assertSame(mine, perThread.get());
        Object theirs = onAnotherThread(perThread::get);
        assertNotSame(mine, theirs);
        assertSame(mine, perThread.get());
        assertEquals(2, made.get());
    }

    @Test
    void threadsPastTheSlotsKeepTheirOwnValuesToo() throws Exception {
        int n = PerThread.SLOTS + 4;
        Askers askers = new Askers(n);
        assertEquals(PerThread.SLOTS, perThread.slotted(), "the first live threads in the array");
        askers.release();
        assertEquals(List.of(), askers.problems);
        assertEquals(n, askers.first.stream().distinct().count(), "one value per thread");
        assertEquals(n, made.get());
    }

    @Test
    void aDeadThreadsPlaceGoesToTheNextThreadThatAsks() throws Exception {
        Askers askers = new Askers(PerThread.SLOTS);
        perThread.get();
        assertEquals(PerThread.SLOTS, perThread.slotted(), "no place left for this thread while they live");
        askers.release();
        onAnotherThread(perThread::get);
        assertEquals(1, perThread.slotted(), "the dead threads' places were given up to the next thread");
    }

    /** Threads that each ask once, wait to be released, then ask again and note a value that changed. */
    private final class Askers {
        final List<Object> first = Collections.synchronizedList(new ArrayList<>());
        final List<String> problems = Collections.synchronizedList(new ArrayList<>());
        private final CountDownLatch done = new CountDownLatch(1);
        private final List<Thread> threads = new ArrayList<>();

        /** Starts {@code n} and returns once each has asked. */
        Askers(int n) throws InterruptedException {
            CountDownLatch asked = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                Thread t = new Thread(() -> {
                    Object v = perThread.get();
                    first.add(v);
                    asked.countDown();
                    try {
                        done.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    if (perThread.get() != v) {
                        problems.add(Thread.currentThread().getName() + " got another value");
                    }
                }, "asker-" + i);
                threads.add(t);
                t.start();
            }
            asked.await();
        }

        /** Lets them ask again and end; returns once all have ended. */
        void release() throws InterruptedException {
            done.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    @Test
    void theArraysFieldHas128BytesOfItsObjectOnEachSide() throws Exception {
        java.lang.reflect.Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
        long slots = unsafe.objectFieldOffset(PerThreadSlots.class.getDeclaredField("slots"));
        long end = 0;
        for (Class<?> c = PerThread.class; c != Object.class; c = c.getSuperclass()) {
            for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                    long size = f.getType() == long.class ? 8 : 4;
                    end = Math.max(end, unsafe.objectFieldOffset(f) + size);
                }
            }
        }
        assertTrue(slots >= 128, "bytes of the object before slots: " + slots);
        assertTrue(end - (slots + 4) >= 128, "bytes of the object after slots: " + (end - slots - 4));
    }

    private static Object onAnotherThread(java.util.function.Supplier<Object> work) throws InterruptedException {
        AtomicReference<Object> out = new AtomicReference<>();
        Thread runner = new Thread(() -> out.set(work.get()));
        runner.start();
        runner.join();
        return out.get();
    }
}
