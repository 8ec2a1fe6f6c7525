package dev.fulcrum.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * Drives a {@link HealthChecker} on a {@link ManualClock}. Each step moves the clock, which runs the rounds and
 * probe deadlines falling due on the caller's thread, then waits (over the real network, with a deadline) until
 * every probe sent has its result in or, for a backend registered with {@link #hung}, has reached its server.
 * A step is the greatest common divisor of the interval and the timeout, so every round and every deadline falls
 * on a step and a probe always reaches its server before its deadline comes.
 *
 * <p>Example: interval 400, timeout 200: steps of 200 ms; {@code runDue()} probes at 0, {@code advance(400)}
 * fails that probe at 200 and probes again at 400.
 */
final class ProbeRounds {
    /** How long a loopback probe may take to arrive or answer on a loaded build machine. */
    private static final Duration NETWORK = Duration.ofSeconds(10);

    private final Engine engine;
    private final ManualClock clock;
    private final HealthChecker checker;
    private final long stepMs;
    private final Map<String, RawBackend> hung = new ConcurrentHashMap<>();

    ProbeRounds(Engine engine, ManualClock clock, HealthChecker checker) {
        this.engine = engine;
        this.clock = clock;
        this.checker = checker;
        this.stepMs = gcd(checker.spec().intervalMs(), checker.spec().timeoutMs());
    }

    /** Probes of backend {@code id} go to {@code server}, which never answers them. */
    ProbeRounds hung(String id, RawBackend server) {
        hung.put(id, server);
        return this;
    }

    /** Backend {@code id} answers again (another backend now has that id). */
    ProbeRounds answering(String id) {
        hung.remove(id);
        return this;
    }

    /** Runs what is due now (a started checker's first round) and waits for its probes. */
    ProbeRounds runDue() {
        clock.runDue();
        settle();
        return this;
    }

    /** Moves the clock by {@code ms}, step by step, waiting for the probes after each step. */
    ProbeRounds advance(long ms) {
        for (long left = ms; left > 0; left -= stepMs) {
            clock.advanceMillis(Math.min(stepMs, left));
            settle();
        }
        return this;
    }

    /**
     * Steps until {@code condition} holds and returns the milliseconds that took on the clock; fails once more
     * than {@code limitMs} have passed without it.
     */
    long until(BooleanSupplier condition, long limitMs) {
        long from = elapsedMs();
        while (!condition.getAsBoolean()) {
            assertThat(elapsedMs() - from).as("ms on the clock without the condition").isLessThan(limitMs);
            advance(stepMs);
        }
        return elapsedMs() - from;
    }

    long elapsedMs() {
        return clock.elapsedNanos() / 1_000_000;
    }

    private void settle() {
        await().atMost(NETWORK).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2)).until(this::settled);
        engine.backends(); // queued behind every result reported to the control thread: they are applied now
    }

    private boolean settled() {
        for (Backend b : engine.allBackends()) {
            RawBackend server = hung.get(b.id());
            int out = checker.probesOut(b);
            boolean in = server == null ? out == 0 : server.accepted.get() >= checker.history(b.id()).size() + out;
            if (!in) {
                return false;
            }
        }
        return true;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
