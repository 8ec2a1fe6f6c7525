package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A short soak (issue 7): under continuous load, backends join, leave, change weight and flap (their port
 * goes away and comes back), one change every few hundred answers. One anchor backend is never touched and at
 * most two others are down at once, so with {@code maxRetries} 2 every GET has a live backend within its
 * three attempts: every error counts. Ends with no in-flight count left and the heap measured after GC.
 *
 * <p>{@code -Dsoak.seconds=N} (default 20) sets the length; {@code bench/soak.sh} runs it for ten minutes. Tagged
 * {@code long}: {@code mvn verify} leaves it out, {@code mvn verify -Plong} runs it.
 */
@Tag("reliability")
@Tag("long")
class SoakTest {
    @Test
    void backendsJoiningLeavingAndReweightingUnderLoadCostNoRequest() throws Exception {
        soak(false, Long.getLong("soak.seconds", 20));
    }

    @Test
    void backendsFlappingUnderLoadCostNoRequest() throws Exception {
        soak(true, Long.getLong("soak.seconds", 20));
    }

    private void soak(boolean flap, long seconds) throws Exception {
        long seed = Long.getLong("soak.seed", System.nanoTime());
        Random random = new Random(seed);
        RecordingBackend anchor = new RecordingBackend("anchor");
        Map<String, RecordingBackend> live = new ConcurrentHashMap<>();
        List<RecordingBackend> everyBackend = new ArrayList<>(List.of(anchor));
        Map<String, Integer> actions = new TreeMap<>();
        int nextId = 0;
        long heapBefore;
        RunningFulcrum harness = RunningFulcrum.bareProxy(TestSettings.underLoad(2, 3000, 2000, 10_000))
                .backend("anchor", anchor.url()).start();
        try {
            for (int i = 0; i < 4; i++) {
                RecordingBackend b = new RecordingBackend("s" + nextId++);
                everyBackend.add(b);
                live.put(b.name, b);
                harness.engine().addBackend(Engine.DEFAULT_POOL, new BackendSpec(b.name, b.url(), 1, null, false), false);
            }
            heapBefore = heapAfterGc();
            Load load = new Load(harness.port(), 4, "/soak");
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            List<String> removing = new ArrayList<>();
            try {
                while (System.nanoTime() < end) {
                    // the next change once the load has had 100 to 400 more answers
                    int answered = load.total() + 100 + random.nextInt(300);
                    await().atMost(Duration.ofSeconds(60)).until(() -> load.total() >= answered);
                    // the recording backends' request logs are this test's, not the proxy's: keep them empty
                    everyBackend.forEach(b -> b.seen.clear());
                    // a removed backend's server stops only once the engine has let it go (drain, then remove)
                    removing.removeIf(id -> {
                        if (harness.backend(id) == null) {
                            live.remove(id).close();
                            return true;
                        }
                        return false;
                    });
                    List<RecordingBackend> candidates = live.values().stream()
                            .filter(b -> !removing.contains(b.name)).sorted((x, y) -> x.name.compareTo(y.name)).toList();
                    long down = live.values().stream().filter(b -> !b.isUp()).count();
                    int roll = random.nextInt(100);
                    String action;
                    if (roll < 15 || candidates.size() < 2) {
                        RecordingBackend b = new RecordingBackend("s" + nextId++);
                        everyBackend.add(b);
                        live.put(b.name, b);
                        harness.engine().addBackend(Engine.DEFAULT_POOL, new BackendSpec(b.name, b.url(),
                                1 + random.nextInt(5), null, false), random.nextBoolean());
                        action = "join";
                    } else if (roll < 30 && candidates.size() > 3) {
                        RecordingBackend b = candidates.get(random.nextInt(candidates.size()));
                        b.up();
                        harness.engine().remove(b.name);
                        removing.add(b.name);
                        action = "leave";
                    } else if (roll < 60) {
                        RecordingBackend b = candidates.get(random.nextInt(candidates.size()));
                        harness.engine().setWeight(b.name, random.nextInt(6));
                        action = "reweight";
                    } else if (roll < 70) {
                        RecordingBackend b = candidates.get(random.nextInt(candidates.size()));
                        b.delayMs = random.nextInt(3) * 20L;
                        action = "latency";
                    } else if (!flap) {
                        action = "none";
                    } else {
                        RecordingBackend b = candidates.get(random.nextInt(candidates.size()));
                        if (b.isUp() && down < 2) {
                            b.down();
                            action = "flap down";
                        } else {
                            b.up();
                            action = "flap up";
                        }
                    }
                    actions.merge(action, 1, Integer::sum);
                }
            } finally {
                load.close();
            }
            live.values().forEach(RecordingBackend::up);
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> harness.inFlight() == 0);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // fall through: the assertion below names the backend and what the load saw
            }
            List<String> leaked = harness.engine().backends().stream().filter(v -> v.activeRequests() != 0)
                    .map(v -> v.id() + " " + v.state() + " breaker " + v.breaker() + " inFlight " + v.activeRequests()
                            + " failures " + v.failures() + " total " + v.totalRequests()).toList();
            assertThat(leaked).as("leaked in-flight counts (seed %d, actions %s, load failures %s)", seed, actions,
                    load.failures).isEmpty();
            everyBackend.forEach(b -> b.seen.clear());
            long heapAfter = heapAfterGc();
            int total = load.total();
            Figures.record(flap ? "soak with flapping" : "soak", seconds + " s (seed " + seed + "), " + total + " GETs, " + load.ok.get() + " ok, "
                    + load.failures.size() + " failed " + load.failures.stream().limit(5).toList() + "; actions "
                    + actions + "; in flight at the end 0; heap after GC " + heapBefore / 1_048_576 + " MiB before, "
                    + heapAfter / 1_048_576 + " MiB after");
            assertThat(load.failures).as("seed %d", seed).isEmpty();
            assertThat(load.ok.get()).isGreaterThan(100);
            if (flap) {
                assertThat(actions.getOrDefault("flap down", 0)).isPositive();
            }
            // a leak of even a few KiB per request would show over tens of thousands of requests
            assertThat(heapAfter - heapBefore).as("heap growth after GC").isLessThan(64L * 1_048_576);
        } finally {
            harness.close();
            everyBackend.forEach(RecordingBackend::close);
        }
    }

    /** The least heap in use over three collections, each one seen to have run (it cleared a weak reference). */
    private static long heapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            WeakReference<Object> sentinel = new WeakReference<>(new Object());
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                System.gc();
                return sentinel.get() == null;
            });
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
