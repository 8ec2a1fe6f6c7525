package dev.fulcrum.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Real threads of this JVM, reniced by the real {@code renice}, their nice values read back from {@code /proc}. */
class ProxyFirstTest {
    @BeforeEach
    void onLinux() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "threads are reniced on Linux only");
    }

    @Test
    void aLoweredThreadRunsAtNiceTenAndOnlyTheParentStartsThreadsAtTheUsualPriority() throws Exception {
        int usual = ProxyFirst.nice(task("main").orElseGet(() -> Path.of("/proc/thread-self")));
        assumeTrue(usual < ProxyFirst.NICE, "this JVM already runs at nice " + usual);
        CountDownLatch lowered = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<int[]> children = new AtomicReference<>();
        Thread drawing = new Thread(() -> {
            try {
                lowered.await();
                // the children wait, so that their ids are still listed when they are read
                CountDownLatch read = new CountDownLatch(1);
                Thread direct = waiting("pf-direct", read);
                direct.start();
                Thread parented = waiting("pf-parented", read);
                ProxyFirst.start(parented);
                children.set(new int[] {niceOf("pf-direct"), niceOf("pf-parented")});
                read.countDown();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                done.countDown();
            }
        }, "pf-drawing");
        drawing.start();
        List<String> ids = ProxyFirst.lower(List.of("pf-drawing"));
        assertEquals(1, ids.size(), "the one thread of that name");
        assertEquals(ProxyFirst.NICE, ProxyFirst.nice(Path.of("/proc/self/task", ids.get(0))));
        assertEquals(usual, ProxyFirst.nice(Path.of("/proc/thread-self")), "the caller keeps its priority");
        lowered.countDown();
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertNotNull(children.get(), "the drawing thread read its children");
        assertEquals(ProxyFirst.NICE, children.get()[0], "a thread started by a lowered thread inherits its nice");
        assertEquals(usual, children.get()[1], "one the parent started runs at the usual priority");
    }

    @Test
    void nothingIsLoweredWhenTheWindowAsksWithTheSwitchOff() throws Exception {
        assertEquals("false", System.getProperty(ProxyFirst.PROPERTY), "the test JVMs run with it off");
        CountDownLatch stop = new CountDownLatch(1);
        Thread renderer = waiting("QuantumRenderer-test", stop);
        renderer.start();
        try {
            Path task = await("QuantumRenderer");
            int before = ProxyFirst.nice(task);
            ProxyFirst.forThisProcess();
            Thread.sleep(200); // time for the thread forThisProcess would start, had it started one
            assertEquals(before, ProxyFirst.nice(task));
        } finally {
            stop.countDown();
        }
    }

    @Test
    void aNameNoThreadHasLowersNothing() {
        assertEquals(List.of(), ProxyFirst.lower(List.of("pf-nobody-here")));
    }

    private static Thread waiting(String name, CountDownLatch until) {
        Thread t = new Thread(() -> {
            try {
                until.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
        t.setDaemon(true);
        return t;
    }

    private static int niceOf(String name) throws Exception {
        return ProxyFirst.nice(await(name));
    }

    /** The task of the thread whose name starts with {@code name}, once the thread runs. */
    private static Path await(String name) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            var t = task(name);
            if (t.isPresent()) {
                return t.get();
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no thread named " + name);
    }

    private static java.util.Optional<Path> task(String name) throws IOException {
        try (Stream<Path> all = Files.list(Path.of("/proc/self/task"))) {
            return all.filter(t -> {
                String n = ProxyFirst.threadName(t);
                return n != null && n.startsWith(name);
            }).findFirst();
        }
    }
}
