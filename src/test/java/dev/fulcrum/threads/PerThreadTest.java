package dev.fulcrum.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
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
        CountDownLatch done = new CountDownLatch(1);
        int n = PerThread.SLOTS + 4;
        List<Thread> threads = new ArrayList<>();
        List<AtomicReference<String>> problems = new ArrayList<>();
        CountDownLatch asked = new CountDownLatch(n);
        List<Object> first = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < n; i++) {
            AtomicReference<String> problem = new AtomicReference<>();
            problems.add(problem);
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
                    problem.set(Thread.currentThread().getName() + " got another value");
                }
            }, "asker-" + i);
            threads.add(t);
            t.start();
        }
        asked.await();
        assertEquals(PerThread.SLOTS, perThread.slotted(), "the first live threads in the array");
        done.countDown();
        for (Thread t : threads) {
            t.join();
        }
        for (AtomicReference<String> p : problems) {
            assertEquals(null, p.get());
        }
        assertEquals(n, first.stream().distinct().count(), "one value per thread");
        assertEquals(n, made.get());
    }

    @Test
    void aDeadThreadsPlaceGoesToTheNextThreadThatAsks() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch asked = new CountDownLatch(PerThread.SLOTS);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < PerThread.SLOTS; i++) {
            Thread t = new Thread(() -> {
                perThread.get();
                asked.countDown();
                try {
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            threads.add(t);
            t.start();
        }
        asked.await();
        perThread.get();
        assertEquals(PerThread.SLOTS, perThread.slotted(), "no place left for this thread while they live");
        done.countDown();
        for (Thread t : threads) {
            t.join();
        }
        onAnotherThread(perThread::get);
        assertEquals(1, perThread.slotted(), "the dead threads' places were given up to the next thread");
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
