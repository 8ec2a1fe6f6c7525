package dev.fulcrum.reliability;

import dev.fulcrum.testkit.RawHttp;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Client threads sending GETs to the proxy until stopped, counting answers by status and every failure
 * (a transport error or an incomplete body) with what went wrong.
 */
final class Load implements AutoCloseable {
    final AtomicInteger ok = new AtomicInteger();
    final Map<Integer, AtomicInteger> byStatus = new ConcurrentHashMap<>();
    final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    Load(int port, int threadCount, String path) {
        for (int t = 0; t < threadCount; t++) {
            Thread th = new Thread(() -> {
                while (running.get()) {
                    try {
                        RawHttp.Response r = RawHttp.get(port, path, 120_000);
                        byStatus.computeIfAbsent(r.status(), k -> new AtomicInteger()).incrementAndGet();
                        if (r.status() == 200 && r.complete()) {
                            ok.incrementAndGet();
                        } else {
                            failures.add(r.status() + (r.complete() ? "" : " incomplete") + " " + r.body() + " ["
                                    + r.head().replace("\r\n", "; ") + "]");
                        }
                    } catch (Exception e) {
                        failures.add(e.toString());
                    }
                }
            }, "load-" + t);
            th.setDaemon(true);
            threads.add(th);
            th.start();
        }
    }

    int total() {
        return byStatus.values().stream().mapToInt(AtomicInteger::get).sum() + (int) failures.stream()
                .filter(f -> !Character.isDigit(f.charAt(0))).count();
    }

    /** Stops the threads after their current request and waits for them. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join(120_000);
        }
    }
}
