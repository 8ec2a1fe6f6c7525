package dev.fulcrum.ui.ring;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.time.ManualClock;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ring's keys: they land on their owners, and a ring change moves exactly the keys the engine moves. */
@Timeout(60)
class KeyFlowTest {
    static RequestSample sample(String key, long hash, String backend, boolean spilled) {
        return new RequestSample("0:1", 0, "default", "GET", key, null, "http", "HTTP/1.1", "127.0.0.1", key, hash,
                List.of(), backend, 200, 0, 0, 1, false, false, spilled, false, false, List.of(), List.of());
    }

    @Test
    void aRemovalFromARingAnimatesExactlyTheKeysTheEngineMoved() {
        removalMovesWhatTheEngineMoves(StrategySpec.bare("consistent-hash").with("key", "path").with("virtualNodes", 160), 0, 0.15, 0.35);
    }

    @Test
    void aRemovalFromAMaglevTableAnimatesExactlyTheKeysTheEngineMoved() {
        removalMovesWhatTheEngineMoves(StrategySpec.bare("maglev").with("key", "path").with("tableSize", 65537),
                65537, 0.2, 0.35);
    }

    private static void removalMovesWhatTheEngineMoves(StrategySpec strategy, int tableSize, double low, double high) {
        try (RunningFulcrum fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(strategy, BreakerConfig.DEFAULT,
                List.of(demo("a", 1, 0, 0), demo("b", 1, 0, 0), demo("c", 1, 0, 0), demo("d", 1, 0, 0)))).start();
             EngineClient client = new InProcessEngineClient(fulcrum.app())) {
            // given 300 keys seen by the view, each where the engine's lookup puts it
            ManualClock clock = new ManualClock();
            KeyFlow flow = new KeyFlow(clock);
            RingGeometry before = RingGeometry.of(client.ring("default"), tableSize);
            flow.setGeometry(before);
            Map<String, String> ownerBefore = new HashMap<>();
            Map<String, Long> hash = new HashMap<>();
            for (int i = 0; i < 300; i++) {
                String key = "/k/k" + i;
                EngineClient.Lookup l = client.lookup("default", key);
                ownerBefore.put(key, l.backend());
                hash.put(key, l.hash().longValue());
                flow.offer(sample(key, l.hash().longValue(), l.backend(), false));
                clock.advanceMillis(10);
            }
            clock.advanceMillis(KeyFlow.LAND_NANOS / 1_000_000);
            assertThat(flow.dots()).allSatisfy(d -> {
                assertThat(d.motion()).isEqualTo(KeyFlow.Motion.REST);
                assertThat(d.owner()).as(d.key()).isEqualTo(ownerBefore.get(d.key()));
            });

            // when the engine removes c and the view gets the new ring
            client.remove("c");
            RingGeometry after = RingGeometry.of(client.ring("default"), tableSize);
            Set<String> engineMoved = new TreeSet<>();
            for (String key : ownerBefore.keySet()) {
                if (!client.lookup("default", key).backend().equals(ownerBefore.get(key))) {
                    engineMoved.add(key);
                }
            }
            KeyFlow.Moved moved = flow.change(after, RingGeometry.movedFraction(before, after));

            // then exactly the keys whose lookup changed move, and the view counts them
            assertThat(engineMoved).isNotEmpty();
            assertThat(moved.keys()).isEqualTo(engineMoved);
            assertThat(moved.seen()).isEqualTo(300);
            assertThat(moved.predicted()).isBetween(low, high);
            assertThat(moved.text()).isEqualTo(String.format(java.util.Locale.ROOT,
                    "moved %d of 300 keys seen (what-if predicted %.1f%%)", engineMoved.size(), moved.predicted() * 100));
            List<String> moving = new ArrayList<>();
            for (KeyFlow.Dot d : flow.dots()) {
                if (d.motion() == KeyFlow.Motion.MOVE) {
                    moving.add(d.key());
                    // each from its old owner's point onwards, in its new owner's colour
                    assertThat(d.at()).isGreaterThanOrEqualTo(before.ownerPointAfter(before.keyPosition(hash.get(d.key()))) - 1e-12);
                    assertThat(d.owner()).isEqualTo(client.lookup("default", d.key()).backend());
                }
            }
            assertThat(new TreeSet<>(moving)).isEqualTo(engineMoved);
            // once the move is over they are held at their new owners' points, large, the others at rest
            clock.advanceMillis(KeyFlow.MOVE_NANOS / 1_000_000);
            assertThat(flow.dots()).filteredOn(KeyFlow.Dot::moving).extracting(KeyFlow.Dot::key)
                    .containsExactlyInAnyOrderElementsOf(engineMoved);
            assertThat(flow.dots()).filteredOn(KeyFlow.Dot::moving)
                    .allSatisfy(d -> assertThat(d.motion()).isEqualTo(KeyFlow.Motion.AFTER));
            assertThat(flow.focus()).isSameAs(moved);
            // and after the hold they rest with their new owners
            clock.advanceMillis(KeyFlow.HOLD_NANOS / 1_000_000);
            assertThat(flow.dots()).allSatisfy(d -> assertThat(d.motion()).isEqualTo(KeyFlow.Motion.REST));
            assertThat(flow.focus()).isNull();
            // on a ring, removing a backend's points locally predicts the same as the engine's new ring
            if (tableSize == 0) {
                assertThat(moved.predicted()).isCloseTo(RingGeometry.movedFraction(before, before.without("c")),
                        org.assertj.core.data.Offset.offset(1e-9));
            }
        }
    }

    @Test
    void aWhatIfMovesExactlyTheKeysTheEngineMovesOnceItIsAppliedAndNothingBefore() {
        try (RunningFulcrum fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(StrategySpec.bare("consistent-hash")
                        .with("key", "path").with("virtualNodes", 10), BreakerConfig.DEFAULT,
                List.of(demo("a", 1, 0, 0), demo("b", 1, 0, 0), demo("c", 1, 0, 0), demo("d", 1, 0, 0)))).start();
             EngineClient client = new InProcessEngineClient(fulcrum.app())) {
            // given 200 keys seen by the view, each where the engine's lookup puts it
            ManualClock clock = new ManualClock();
            KeyFlow flow = new KeyFlow(clock);
            RingGeometry now = RingGeometry.of(client.ring("default"));
            flow.setGeometry(now);
            Map<String, String> ownerBefore = new HashMap<>();
            for (int i = 0; i < 200; i++) {
                String key = "/w/" + i;
                EngineClient.Lookup l = client.lookup("default", key);
                ownerBefore.put(key, l.backend());
                flow.offer(sample(key, l.hash().longValue(), l.backend(), false));
            }
            clock.advanceMillis(KeyFlow.LAND_NANOS / 1_000_000);

            // when the view previews the engine's what-if of removing b
            EngineClient.Preview p = client.preview("default", List.of("b"), Map.of(), Map.of());
            RingGeometry after = RingGeometry.of(new EngineClient.Ring(now.type(), p.points(), p.share()));
            KeyFlow.Moved would = flow.preview(after, p.movedFraction(), "Removing b");

            // then the keys it would move are those the engine moves once b is really gone, and nothing moved yet
            client.remove("b");
            Set<String> engineMoved = new TreeSet<>();
            for (String key : ownerBefore.keySet()) {
                if (!client.lookup("default", key).backend().equals(ownerBefore.get(key))) {
                    engineMoved.add(key);
                }
            }
            assertThat(engineMoved).isNotEmpty();
            assertThat(would.keys()).isEqualTo(engineMoved);
            assertThat(would.text()).isEqualTo(String.format(java.util.Locale.ROOT,
                    "Removing b would move %d of 200 keys seen (%.1f%% of the key space)", engineMoved.size(),
                    p.movedFraction() * 100));
            assertThat(flow.focus()).isSameAs(would);
            assertThat(flow.lastMove()).isNull();
            // each travels to the owner the engine gives it after, and stays there while the what-if shows
            clock.advanceMillis((KeyFlow.MOVE_NANOS + KeyFlow.HOLD_NANOS) / 1_000_000 + 1);
            for (KeyFlow.Dot d : flow.dots()) {
                assertThat(d.moving()).as(d.key()).isEqualTo(engineMoved.contains(d.key()));
                assertThat(d.owner()).as(d.key()).isEqualTo(client.lookup("default", d.key()).backend());
                if (d.moving()) {
                    assertThat(d.was()).isEqualTo("b");
                }
            }
            // a key seen again while it is moved stays in the picture
            String busy = engineMoved.iterator().next();
            flow.offer(sample(busy, client.lookup("default", busy).hash().longValue(), "b", false));
            assertThat(flow.dots()).filteredOn(d -> d.key().equals(busy)).allMatch(KeyFlow.Dot::moving);

            // and when the what-if ends every key is back with the owner it had
            flow.endPreview();
            assertThat(flow.focus()).isNull();
            assertThat(flow.dots()).allSatisfy(d -> {
                assertThat(d.moving()).isFalse();
                assertThat(d.owner()).isEqualTo(ownerBefore.get(d.key()));
            });
        }
    }

    @Test
    void anotherDrawingOfTheRingReseatsTheKeysWithoutCountingAMove() {
        EngineClient.Ring three = new EngineClient.Ring("consistent-hash", List.of(
                new EngineClient.Point(at(0.25), "a"), new EngineClient.Point(at(0.5), "b"),
                new EngineClient.Point(at(0.75), "c")), Map.of("a", 0.5, "b", 0.25, "c", 0.25));
        EngineClient.Ring other = new EngineClient.Ring("consistent-hash", List.of(
                new EngineClient.Point(at(0.4), "c"), new EngineClient.Point(at(0.9), "a")), Map.of("a", 0.5, "c", 0.5));
        ManualClock clock = new ManualClock();
        KeyFlow flow = new KeyFlow(clock);
        flow.setGeometry(RingGeometry.of(three));
        flow.offer(sample("/x", at(0.3).longValue(), "b", false));
        clock.advanceMillis(KeyFlow.LAND_NANOS / 1_000_000);

        flow.reseat(RingGeometry.of(other));

        assertThat(flow.dots()).singleElement().satisfies(d -> {
            assertThat(d.owner()).isEqualTo("c");
            assertThat(d.motion()).isEqualTo(KeyFlow.Motion.REST);
        });
        assertThat(flow.focus()).isNull();
        assertThat(flow.lastMove()).isNull();
    }

    @Test
    void aKeyLandsAtItsHashSlidesToItsOwnersPointAndASpilledOneWalksOn() {
        // a ring with points a@0.25, b@0.5, c@0.75 (hashes as fractions of 2^64)
        EngineClient.Ring ring = new EngineClient.Ring("consistent-hash", List.of(
                new EngineClient.Point(at(0.25), "a"), new EngineClient.Point(at(0.5), "b"),
                new EngineClient.Point(at(0.75), "c")), Map.of("a", 0.5, "b", 0.25, "c", 0.25));
        RingGeometry g = RingGeometry.of(ring);
        ManualClock clock = new ManualClock();
        KeyFlow flow = new KeyFlow(clock);
        flow.setGeometry(g);
        // when a key at 0.3 is served by its owner b and another at 0.35 spills past b to c
        flow.offer(sample("/x", at(0.3).longValue(), "b", false));
        flow.offer(sample("/y", at(0.35).longValue(), "c", true));
        // then both appear above the ring at their hash
        assertThat(flow.dots()).extracting(KeyFlow.Dot::drop).containsOnly(1.0);
        assertThat(flow.dots().get(0).at()).isCloseTo(0.3, org.assertj.core.data.Offset.offset(1e-9));
        // and end on the ring: /x slid to b's point, /y walked past it to c's
        clock.advanceMillis(KeyFlow.LAND_NANOS / 1_000_000 - 1);
        assertThat(flow.dots().get(0).at()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(flow.dots().get(1).at()).isCloseTo(0.75, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(flow.dots()).extracting(KeyFlow.Dot::owner).containsExactly("b", "c");
        // a minute later they are forgotten
        clock.advanceMillis(KeyFlow.WINDOW_NANOS / 1_000_000 + 1);
        assertThat(flow.seen()).isZero();
    }

    @Test
    void keysOfferedBeforeTheRingArrivesLandOnItWhenItDoesAndNoneAreHeldWithoutARing() {
        RingGeometry g = RingGeometry.of(new EngineClient.Ring("consistent-hash", List.of(
                new EngineClient.Point(at(0.25), "a"), new EngineClient.Point(at(0.75), "b")),
                Map.of("a", 0.5, "b", 0.5)));
        KeyFlow flow = new KeyFlow(new ManualClock());
        // when keys are offered while the window still fetches the ring (the request source has moved past them)
        flow.offer(sample("/x", at(0.1).longValue(), "a", false));
        flow.offer(sample("/y", at(0.5).longValue(), "b", false));
        assertThat(flow.seen()).isZero();
        // then they land once it comes, on their owners
        flow.setGeometry(g);
        assertThat(flow.seen()).isEqualTo(2);
        assertThat(flow.dots()).extracting(KeyFlow.Dot::owner).containsExactly("a", "b");
        // and keys held for a ring of another pool or strategy are forgotten with it
        KeyFlow other = new KeyFlow(new ManualClock());
        other.offer(sample("/z", at(0.1).longValue(), "a", false));
        other.clear();
        other.setGeometry(g);
        assertThat(other.seen()).isZero();
        // a strategy without a ring holds nothing for one; a ring that comes later starts from the keys after it
        KeyFlow ringless = new KeyFlow(new ManualClock());
        ringless.noRing();
        ringless.offer(sample("/w", at(0.1).longValue(), "a", false));
        ringless.setGeometry(g);
        assertThat(ringless.seen()).isZero();
        ringless.offer(sample("/w", at(0.1).longValue(), "a", false));
        assertThat(ringless.seen()).isEqualTo(1);
    }

    private static BigInteger at(double fraction) {
        return new java.math.BigDecimal(fraction).multiply(new java.math.BigDecimal(BigInteger.ONE.shiftLeft(64)))
                .toBigInteger();
    }
}
