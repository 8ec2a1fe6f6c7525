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
            // and once the move is over they rest with their new owners
            clock.advanceMillis(KeyFlow.MOVE_NANOS / 1_000_000);
            assertThat(flow.dots()).allSatisfy(d -> assertThat(d.motion()).isEqualTo(KeyFlow.Motion.REST));
            // on a ring, removing a backend's points locally predicts the same as the engine's new ring
            if (tableSize == 0) {
                assertThat(moved.predicted()).isCloseTo(RingGeometry.movedFraction(before, before.without("c")),
                        org.assertj.core.data.Offset.offset(1e-9));
            }
        }
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

    private static BigInteger at(double fraction) {
        return new java.math.BigDecimal(fraction).multiply(new java.math.BigDecimal(BigInteger.ONE.shiftLeft(64)))
                .toBigInteger();
    }
}
