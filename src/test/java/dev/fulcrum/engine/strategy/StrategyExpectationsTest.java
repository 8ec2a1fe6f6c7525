package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.TestBackends;
import dev.fulcrum.engine.hash.HashRing;
import dev.fulcrum.engine.hash.MaglevTable;
import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.KeySpacePreview;
import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.Outcome;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.hash.KeySpace;
import dev.fulcrum.net.IpText;
import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The strategies against what nginx, HAProxy and Envoy users expect and docs/REFERENCE.md §2.2. */
class StrategyExpectationsTest {

    static Engine engine(StrategySpec spec, long slowStartMs, Object... idWeight) {
        Engine e = Engine.manual(new EngineSettings(slowStartMs, EngineSettings.OutlierSpec.DISABLED,
                BreakerSpec.DISABLED, 2, 3), new ManualClock(), RandomSource.seeded(7));
        e.addPool("default", spec);
        for (int i = 0; i < idWeight.length; i += 2) {
            e.addBackend("default", new BackendSpec((String) idWeight[i], "http://127.0.0.1:" + (9000 + i),
                    (Integer) idWeight[i + 1], null, false), false);
        }
        return e;
    }

    static StrategySpec ch(Double balanceFactor) {
        return StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "ip").with("balanceFactor", balanceFactor);
    }

    static String randIp(java.util.Random r) {
        return "10." + r.nextInt(256) + "." + r.nextInt(256) + "." + r.nextInt(256);
    }

    // ------------------------------------------------------------ smooth WRR

    @Test
    void swrrExactNginxSequence() {
        Strategy s = create(StrategySpec.SMOOTH_WRR, of("a", 5, "b", 1, "c", 1));
        assertThat(String.join("", sequence(s, 21))).isEqualTo("aabacaa".repeat(3));
    }

    @Test
    void swrrKeepsStateOnRebuild() {
        Candidates c = of("a", 5, "b", 1, "c", 1);
        Strategy s = create(StrategySpec.SMOOTH_WRR, c);
        List<String> seq = new ArrayList<>(sequence(s, 3));
        Strategy s2 = Strategies.create(StrategySpec.of(StrategySpec.SMOOTH_WRR), c, s, env(1));
        seq.addAll(sequence(s2, 4));
        assertThat(String.join("", seq)).isEqualTo("aabacaa");
    }

    // ------------------------------------------------------------ least-requests and weights

    /**
     * nginx least_conn breaks ties among the least loaded by weighted round robin; Envoy's least_request with
     * unequal weights picks by weight / (active + 1); so weights 3:1 on an idle pool (every request done before the
     * next arrives) give about 75:25. docs/REFERENCE.md §2.2: "fewest in-flight requests per unit of weight".
     */
    @Test
    void leastRequestsIdlePoolHonoursWeights() {
        Strategy s = create(StrategySpec.LEAST_REQUESTS, of("a", 3, "b", 1));
        Map<String, Integer> m = counts(s, 10_000);
        assertThat(m.get("a")).as("a's share of 10000 idle picks, weights a=3 b=1").isBetween(7_000, 8_000);
    }

    @Test
    void leastRequestsLoadedPoolHonoursWeights() {
        // every request is held: steady state should be 3:1 in flight
        Candidates c = of("a", 3, "b", 1);
        Strategy s = create(StrategySpec.LEAST_REQUESTS, c);
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i < 400; i++) {
            Backend b = s.pick(ANY, Eligibility.ADMITTING);
            hold(b, 1);
            m.merge(b.id(), 1, Integer::sum);
        }
        assertThat(m.get("a")).isBetween(295, 305);
    }

    @Test
    void powerOfTwoIdleHonoursWeights() {
        Strategy s = create(StrategySpec.POWER_OF_TWO, of("a", 3, "b", 1, "c", 1, "d", 1, "e", 2));
        Map<String, Integer> m = counts(s, 80_000);
        assertThat(m.get("a")).isBetween(28_000, 32_000);
        assertThat(m.get("b")).isBetween(9_000, 11_000);
    }

    // ------------------------------------------------------------ round robin with an ineligible member

    /** One member at its cap: nginx, HAProxy and grpc-java share the requests evenly over the others. */
    @Test
    void roundRobinSkipDoesNotDoubleTheNextOnesShare() {
        Backend a = backend("a", 1);
        Backend b = backend("b");
        Backend c = backend("c");
        Strategy s = Strategies.create(StrategySpec.of(StrategySpec.ROUND_ROBIN), over(List.of(a, b, c), 1, 1, 1),
                null, env(1));
        hold(a, 1); // a at its maxInFlight of 1
        Map<String, Integer> m = counts(s, 3_000, () -> ANY, Eligibility.ADMITTING);
        assertThat(m.get("b")).as("b of 3000 picks with a at cap (c got " + m.get("c") + ")").isBetween(1_400, 1_600);
    }

    // ------------------------------------------------------------ bounded loads

    /**
     * HAProxy's chash_server_is_eligible (lb_chash.c) gives each server slots in proportion to its weight; Envoy's
     * bounded loads also weight the bound. With a=9 b=1 and factor 1.25, a owns 90% of the ring and its weighted
     * bound (1.25 x 0.9 = 112%) never binds: a keeps about 90% of held requests.
     */
    @Test
    void boundedLoadsCapIsProportionalToWeight() {
        Engine e = engine(ch(1.25), 0, "a", 9, "b", 1);
        Pool p = e.pool("default");
        java.util.Random r = new java.util.Random(3);
        Map<String, Integer> m = new HashMap<>();
        List<Lease> held = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            Lease l = p.pick(ip(randIp(r)));
            held.add(l);
            m.merge(l.backend().id(), 1, Integer::sum);
        }
        held.forEach(l -> l.release(Outcome.SUCCESS));
        assertThat(m.get("a")).as("a's held requests of 1000 (ring share 0.9)").isGreaterThan(850);
    }

    @Test
    void boundedLoadsNeverExceedsCapEqualWeights() {
        Engine e = engine(ch(1.25), 0, "a", 1, "b", 1, "c", 1, "d", 1);
        Pool p = e.pool("default");
        List<Lease> held = new ArrayList<>();
        // all keys hash to one backend: worst case for the bound
        for (int i = 0; i < 400; i++) {
            Lease l = p.pick(ip("10.0.0.1"));
            int m = p.inFlight(); // after this pick
            int cap = (int) Math.ceil(1.25 * m / 4);
            assertThat(l.backend().inFlight()).as("in flight on " + l.backend().id() + " at m=" + m).isLessThanOrEqualTo(cap);
            held.add(l);
        }
        held.forEach(l -> l.release(Outcome.SUCCESS));
        assertThat(p.inFlight()).isZero();
    }

    // ------------------------------------------------------------ ring movement

    @Test
    void ringMovesOnlyRemovedBackendsKeys() {
        Candidates c = equal(10);
        Strategy s = create(StrategySpec.of(StrategySpec.CONSISTENT_HASH), c, 1);
        Candidates c2 = without(c, "b003");
        Strategy s2 = Strategies.create(StrategySpec.of(StrategySpec.CONSISTENT_HASH), c2, s, env(1));
        Map<String, String> before = owners(s.keySpace(), 50_000);
        Map<String, String> after = owners(s2.keySpace(), 50_000);
        int moved = 0;
        int wrong = 0;
        for (String k : before.keySet()) {
            if (!before.get(k).equals(after.get(k))) {
                moved++;
                if (!before.get(k).equals("b003")) {
                    wrong++;
                }
            }
        }
        assertThat(wrong).isZero();
        assertThat(moved).isBetween(3_500, 6_500);
    }

    @Test
    void ringLookupMatchesPickAcrossRandomKeys() {
        Candidates c = of("a", 1, "b", 2, "c", 3);
        HashRing ring = HashRing.build(c, 50, null);
        // brute-force owner by linear scan over points
        List<KeySpace.Point> pts = ring.points();
        java.util.Random r = new java.util.Random(5);
        for (int i = 0; i < 20_000; i++) {
            long h = r.nextLong();
            String expect = pts.get(0).backend();
            for (KeySpace.Point p : pts) {
                if (Long.compareUnsigned(p.hash(), h) >= 0) {
                    expect = p.backend();
                    break;
                }
            }
            assertThat(pts.get(ring.pointAt(h)).backend()).isEqualTo(expect);
        }
    }

    // ------------------------------------------------------------ maglev

    @Test
    void maglevDisruptionOnRemovalNearOneOverN() {
        Candidates c = equal(10);
        MaglevTable t = MaglevTable.build(c, 65537, null);
        Candidates c2 = without(c, "b004");
        MaglevTable t2 = MaglevTable.build(c2, 65537, null);
        int[] counts = t.slotCounts();
        int moved = 0;
        int movedOthers = 0;
        for (int s = 0; s < 65537; s++) {
            String a = c.get(t.ownerOf(s)).id();
            String b = c2.get(t2.ownerOf(s)).id();
            if (!a.equals(b)) {
                moved++;
                if (!a.equals("b004")) {
                    movedOthers++;
                }
            }
        }
        assertThat((double) movedOthers / 65537).isLessThan(0.03);
    }

    @Test
    void maglevWeightedShares() {
        MaglevTable t = MaglevTable.build(of("a", 1, "b", 2, "c", 3), 65537, null);
        Map<String, Double> s = t.share();
        assertThat(s.get("a")).isCloseTo(1 / 6.0, org.assertj.core.data.Offset.offset(0.005));
        assertThat(s.get("c")).isCloseTo(3 / 6.0, org.assertj.core.data.Offset.offset(0.005));
    }

    /** Slow start on Maglev: how many keys of backends other than the ramping one move during a ramp. */
    @Test
    void maglevSlowStartRampChurnsKeysBetweenOtherBackends() {
        Engine e = engine(StrategySpec.bare(StrategySpec.MAGLEV).with("key", "path").with("tableSize", 65537),
                10_000, "a", 10, "b", 10, "c", 10, "d", 10);
        ManualClock clock = (ManualClock) e.ticker();
        Pool p = e.pool("default");
        e.addBackend("default", new BackendSpec("new", "http://127.0.0.1:9100", 10, null, false), true);
        Map<String, String> start = owners(p.snapshot().primary().keySpace(), 20_000);
        int churnOthers = 0;
        Map<String, String> prev = start;
        for (int step = 0; step < 100; step++) {
            clock.advanceMillis(100);
            e.tick();
            Map<String, String> now = owners(p.snapshot().primary().keySpace(), 20_000);
            for (String k : now.keySet()) {
                String a = prev.get(k);
                String b = now.get(k);
                if (!a.equals(b) && !a.equals("new") && !b.equals("new")) {
                    churnOthers++;
                }
            }
            prev = now;
        }
        assertThat(churnOthers).isLessThan(2_000);
    }

    // ------------------------------------------------------------ lookup vs proxy for IPv6

    /**
     * The proxy hashed InetAddress.getHostAddress() (ClientWatch.clientIp): "2001:db8:0:0:0:0:0:1" for a client
     * at 2001:db8::1, while /api/ring/lookup?key=2001:db8::1 hashed the string as typed. Both now read IpText.
     */
    @Test
    void ipv6LookupAndProxyAgree() throws Exception {
        Engine e = engine(ch(null), 0, "a", 1, "b", 1, "c", 1, "d", 1, "e", 1);
        Pool p = e.pool("default");
        int disagree = 0;
        String example = null;
        for (int i = 1; i <= 200; i++) {
            String typed = "2001:db8::" + Integer.toHexString(i);
            String proxySees = IpText.of(InetAddress.getByName(typed));
            String lookup = p.snapshot().primary().keySpace().owner(IpText.canonical(typed));
            Lease l = p.pick(ip(proxySees));
            if (!l.backend().id().equals(lookup)) {
                disagree++;
                if (example == null) {
                    example = typed + " lookup=" + lookup + " proxy(" + proxySees + ")=" + l.backend().id();
                }
            }
            l.release(Outcome.SUCCESS);
        }
        assertThat(disagree).as(example).isZero();
    }

    // ------------------------------------------------------------ concurrency

    @Test
    void concurrentPicksWhileControlRebuildsNeverLeakOrPickUnavailable() throws Exception {
        for (String type : List.of(StrategySpec.SMOOTH_WRR, StrategySpec.ROUND_ROBIN, StrategySpec.CONSISTENT_HASH,
                StrategySpec.MAGLEV, StrategySpec.LEAST_REQUESTS, StrategySpec.POWER_OF_TWO, StrategySpec.WEIGHTED_RANDOM,
                StrategySpec.FASTEST_RESPONSE, StrategySpec.ADAPTIVE, StrategySpec.IP_HASH)) {
            Engine e = Engine.manual(new EngineSettings(1_000, EngineSettings.OutlierSpec.DISABLED,
                    BreakerSpec.DISABLED, 2, 3), new ManualClock(), RandomSource.threadLocal());
            StrategySpec spec = type.equals(StrategySpec.MAGLEV)
                    ? StrategySpec.bare(type).with("tableSize", 1009) : StrategySpec.of(type);
            e.addPool("default", spec);
            for (String id : List.of("a", "b", "c", "d")) {
                e.addBackend("default", new BackendSpec(id, "http://127.0.0.1:9000", 5, 3, false), false);
            }
            Pool p = e.pool("default");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger nulls = new AtomicInteger();
            AtomicInteger overCap = new AtomicInteger();
            int threads = 4;
            CountDownLatch done = new CountDownLatch(threads);
            for (int t = 0; t < threads; t++) {
                int seed = t;
                new Thread(() -> {
                    java.util.Random r = new java.util.Random(seed);
                    try {
                        while (!stop.get()) {
                            Lease l = p.pick(ip(randIp(r)));
                            if (l == null) {
                                nulls.incrementAndGet();
                                continue;
                            }
                            if (l.backend().inFlight() > 3) {
                                overCap.incrementAndGet();
                            }
                            l.release(r.nextInt(10) == 0 ? Outcome.CLIENT_ABORT : Outcome.SUCCESS);
                        }
                    } finally {
                        done.countDown();
                    }
                }).start();
            }
            ManualClock clock = (ManualClock) e.ticker();
            for (int i = 0; i < 300; i++) {
                e.setWeight("b", 1 + i % 7);
                e.setWeight("c", i % 2 == 0 ? 0 : 4);
                e.drain("d");
                e.enable("d");
                clock.advanceMillis(10);
                e.tick();
            }
            stop.set(true);
            done.await();
            e.tick();
            for (Backend b : e.allBackends()) {
                assertThat(b.inFlight()).as(type + " " + b.id()).isZero();
            }
            assertThat(p.inFlight()).as(type).isZero();
            assertThat(overCap.get()).as(type + " over cap").isZero();
            e.close();
        }
    }

    @Test
    void emptyPoolAndAllWeightZero() {
        for (String type : StrategySpec.TYPES) {
            Engine e = engine(StrategySpec.of(type), 0, "a", 0, "b", 0);
            assertThat(e.pool("default").pick(ANY)).as(type).isNull();
            e.close();
        }
    }

    // ------------------------------------------------------------ batch 2

    @Test
    void leastRequestsSlowStartHasNoEffectAtLowConcurrency() {
        Engine e = engine(StrategySpec.of(StrategySpec.LEAST_REQUESTS), 10_000, "old", 10);
        e.addBackend("default", new BackendSpec("new", "http://127.0.0.1:9001", 10, null, false), true);
        Pool p = e.pool("default");
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            Lease l = p.pick(ANY);
            m.merge(l.backend().id(), 1, Integer::sum);
            l.release(Outcome.SUCCESS);
        }
        assertThat(m.get("new")).as("new's picks of 10000 at 10% of old's weight (~9%)").isLessThan(2_000);
    }

    @Test
    void swrrUnderConcurrentRebuildsKeepsRatio() throws Exception {
        Engine e = engine(StrategySpec.of(StrategySpec.SMOOTH_WRR), 0, "a", 5, "b", 1, "c", 1);
        Pool p = e.pool("default");
        Map<String, AtomicInteger> m = new java.util.concurrent.ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        int threads = 3;
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            new Thread(() -> {
                try {
                    for (int i = 0; i < 70_000; i++) {
                        Lease l = p.pick(ANY);
                        m.computeIfAbsent(l.backend().id(), k -> new AtomicInteger()).incrementAndGet();
                        l.release(Outcome.SUCCESS);
                    }
                } finally {
                    done.countDown();
                }
            }).start();
        }
        int rebuilds = 0;
        while (done.getCount() > 0) {
            e.setWeight("a", 5); // same weight: a rebuild only
            rebuilds++;
        }
        done.await();
        int total = m.values().stream().mapToInt(AtomicInteger::get).sum();
        assertThat(m.get("a").get()).isBetween((int) (total * 5 / 7.0 * 0.98), (int) (total * 5 / 7.0 * 1.02));
    }

    @Test
    void ringAddMovesKeysOnlyToNewAndPreviewMatches() {
        Engine e = engine(ch(null), 0, "a", 1, "b", 1, "c", 1, "d", 1);
        Pool p = e.pool("default");
        KeySpace ks = p.snapshot().primary().keySpace();
        double predicted = KeySpacePreview.preview(p, List.of(), Map.of("e", 1), Map.of()).movedFraction();
        Map<String, String> before = owners(ks, 50_000);
        e.addBackend("default", new BackendSpec("e", "http://127.0.0.1:9009", 1, null, false), false);
        Map<String, String> after = owners(p.snapshot().primary().keySpace(), 50_000);
        int moved = 0;
        int notToNew = 0;
        for (String k : before.keySet()) {
            if (!before.get(k).equals(after.get(k))) {
                moved++;
                if (!after.get(k).equals("e")) {
                    notToNew++;
                }
            }
        }
        assertThat(notToNew).isZero();
        assertThat(moved / 50_000.0).isCloseTo(predicted, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void maglevPreviewMatchesActualAndLookupMatchesPick() {
        Engine e = engine(StrategySpec.bare(StrategySpec.MAGLEV).with("key", "path").with("tableSize", 65537), 0,
                "a", 1, "b", 2, "c", 1, "d", 3);
        Pool p = e.pool("default");
        KeySpace ks = p.snapshot().primary().keySpace();
        for (int i = 0; i < 2_000; i++) {
            Lease l = p.pick(SimpleRequest.get("1.2.3.4", "/k" + i));
            assertThat(l.backend().id()).isEqualTo(ks.owner("/k" + i));
            l.release(Outcome.SUCCESS);
        }
        double predicted = KeySpacePreview.preview(p, List.of("b"), Map.of(), Map.of()).movedFraction();
        Map<String, String> before = owners(ks, 50_000);
        e.remove("b");
        e.tick();
        Map<String, String> after = owners(p.snapshot().primary().keySpace(), 50_000);
        long moved = before.keySet().stream().filter(k -> !before.get(k).equals(after.get(k))).count();
        assertThat(moved / 50_000.0).isCloseTo(predicted, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void maglevSmallTableManyBackends() {
        Candidates c = equal(6);
        Strategy s = Strategies.create(StrategySpec.bare(StrategySpec.MAGLEV).with("key", "path").with("tableSize", 3),
                c, null, env(1));
        // three backends own every slot; make them ineligible, three eligible remain
        java.util.Set<String> owning = new java.util.HashSet<>();
        s.keySpace().share().forEach((id, f) -> { if (f > 0) owning.add(id); });
        Eligibility e = b -> !owning.contains(b.id());
        Backend got = s.pick(SimpleRequest.get("1.1.1.1", "/x"), e);
        assertThat(got).as("pick with " + owning + " ineligible, 3 others eligible").isNotNull();
    }

    @Test
    void ringOthersKeysStayPutDuringSlowStart() {
        Engine e = engine(ch(null), 10_000, "a", 10, "b", 10, "c", 10);
        ManualClock clock = (ManualClock) e.ticker();
        Pool p = e.pool("default");
        e.addBackend("default", new BackendSpec("new", "http://127.0.0.1:9100", 10, null, false), true);
        Map<String, String> prev = owners(p.snapshot().primary().keySpace(), 20_000);
        int bad = 0;
        for (int step = 0; step < 110; step++) {
            clock.advanceMillis(100);
            e.tick();
            Map<String, String> now = owners(p.snapshot().primary().keySpace(), 20_000);
            for (String k : now.keySet()) {
                if (!prev.get(k).equals(now.get(k)) && !prev.get(k).equals("new") && !now.get(k).equals("new")) {
                    bad++;
                }
            }
            prev = now;
        }
        Map<String, Double> share = p.snapshot().primary().keySpace().share();
        assertThat(bad).isZero();
        assertThat(share.get("new")).isCloseTo(0.25, org.assertj.core.data.Offset.offset(0.05));
    }

    @Test
    void unavailableBackendsNeverPickedAndBackupsServeOnlyWhenPrimariesCannot() {
        for (String type : StrategySpec.TYPES) {
            Engine e = Engine.manual(new EngineSettings(0, EngineSettings.OutlierSpec.DISABLED, BreakerSpec.DISABLED, 1, 1),
                    new ManualClock(), RandomSource.seeded(3));
            e.addPool("default", StrategySpec.of(type));
            e.addBackend("default", new BackendSpec("a", "http://127.0.0.1:9000", 1, null, false), false);
            e.addBackend("default", new BackendSpec("b", "http://127.0.0.1:9001", 1, null, false), false);
            e.addBackend("default", new BackendSpec("c", "http://127.0.0.1:9002", 1, null, false), false);
            e.addBackend("default", new BackendSpec("z", "http://127.0.0.1:9003", 1, null, true), false);
            Pool p = e.pool("default");
            e.drain("a");
            e.reportProbe("b", false);
            java.util.Random r = new java.util.Random(1);
            for (int i = 0; i < 500; i++) {
                Lease l = p.pick(ip(randIp(r)));
                assertThat(l.backend().id()).as(type).isEqualTo("c");
                l.release(Outcome.SUCCESS);
            }
            e.setWeight("c", 0);
            for (int i = 0; i < 100; i++) {
                Lease l = p.pick(ip(randIp(r)));
                assertThat(l.backend().id()).as(type).isEqualTo("z");
                l.release(Outcome.SUCCESS);
            }
            e.close();
        }
    }

    @Test
    void ipHashIpv6SpreadsAndIneligibleSpreads() {
        Candidates c = equal(5);
        Strategy s = create(StrategySpec.IP_HASH, c);
        java.util.Random r = new java.util.Random(9);
        Map<String, Integer> m = counts(s, 50_000, () -> ip(String.format("2001:db8:%x:%x:%x:%x:%x:%x", r.nextInt(65536),
                r.nextInt(65536), r.nextInt(65536), r.nextInt(65536), r.nextInt(65536), r.nextInt(65536))), Eligibility.ADMITTING);
        m.values().forEach(v -> assertThat(v).isBetween(9_300, 10_700));
        Map<String, Integer> m2 = counts(s, 40_000, () -> ip(randIp(r)), except(c.get(0)));
        m2.values().forEach(v -> assertThat(v).isBetween(9_300, 10_700));
    }

    @Test
    void consistentHashIneligibleOwnerSpreadsOverNeighbours() {
        Candidates c = equal(5);
        Strategy s = create(StrategySpec.of(StrategySpec.CONSISTENT_HASH), c, 1);
        java.util.Random r = new java.util.Random(9);
        Map<String, Integer> base = counts(s, 50_000, () -> ip(randIp(r)), Eligibility.ADMITTING);
        Map<String, Integer> m = counts(s, 50_000, () -> ip(randIp(r)), except(c.get(0)));
        assertThat(m).doesNotContainKey("b000");
        m.values().forEach(v -> assertThat(v).isBetween(10_000, 15_500));
    }

    @Test
    void weightedRandomWithIneligibleKeepsRelativeWeights() {
        Candidates c = of("a", 5, "b", 3, "c", 1);
        Strategy s = create(StrategySpec.WEIGHTED_RANDOM, c);
        Map<String, Integer> m = counts(s, 40_000, () -> ANY, except(c.get(0)));
        assertThat(m.get("b")).isBetween(29_000, 31_000);
    }

    @Test
    void fastestResponseColdBackendsAndInflightPenalty() {
        ManualClock clock = new ManualClock();
        Backend a = TestBackends.backend("p", new BackendSpec("a", "http://127.0.0.1:1", 1, null, false), BreakerSpec.DISABLED, clock, 10_000);
        Backend b = TestBackends.backend("p", new BackendSpec("b", "http://127.0.0.1:1", 1, null, false), BreakerSpec.DISABLED, clock, 10_000);
        Backend cold = TestBackends.backend("p", new BackendSpec("c", "http://127.0.0.1:1", 1, null, false), BreakerSpec.DISABLED, clock, 10_000);
        a.ewma().observe(10_000_000);
        b.ewma().observe(30_000_000);
        Strategy s = Strategies.create(StrategySpec.of(StrategySpec.FASTEST_RESPONSE), over(List.of(a, b, cold), 1, 1, 1),
                null, StrategyEnv.of(clock, RandomSource.seeded(1)));
        assertThat(s.pick(ANY, Eligibility.ADMITTING).id()).isEqualTo("a"); // 10 < 20 (cold avg) < 30
        hold(a, 2); // a costs 30
        assertThat(s.pick(ANY, Eligibility.ADMITTING).id()).isEqualTo("c"); // 20
        // a peak: 300 ms replaces at once
        a.ewma().observe(300_000_000);
        assertThat(a.ewma().get()).isEqualTo(300_000_000.0);
        clock.advanceMillis(10_000);
        a.ewma().observe(20_000_000);
        assertThat(a.ewma().get() / 1e6).isCloseTo(300 * Math.exp(-1) + 20 * (1 - Math.exp(-1)), org.assertj.core.data.Offset.offset(0.01));
    }
}
