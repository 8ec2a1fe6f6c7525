package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Pool;
import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import dev.fulcrum.rules.Limits;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrategiesTest {

    @Test
    void everyContractNameBuildsAStrategyOfThatType() {
        for (String type : StrategySpec.TYPES) {
            assertThat(create(type, equal(3)).type()).isEqualTo(type);
        }
    }

    @Test
    void anEmptyPoolReturnsNoneForEveryStrategy() {
        for (String type : StrategySpec.TYPES) {
            assertThat(create(type, Candidates.EMPTY).pick(ip("1.2.3.4"), Eligibility.ADMITTING)).as(type).isNull();
        }
    }

    /** Backends at weight 0 never become candidates (Pool filters them), so the strategy sees none. */
    @Test
    void allWeightsZeroMeansNoCandidatesAndNone() {
        Engine engine = Engine.manual(EngineSettings.DEFAULT, CLOCK, RandomSource.seeded(1));
        for (String type : StrategySpec.TYPES) {
            Pool pool = engine.addPool("zero-" + type, StrategySpec.of(type));
            engine.addBackend(pool.name(), new BackendSpec("z-" + type, "http://127.0.0.1:1", 0, null, false), false);
            assertThat(pool.snapshot().primaryCandidates().isEmpty()).isTrue();
            assertThat(pool.pick(ip("1.2.3.4"))).as(type).isNull();
        }
    }

    @Test
    void oneBackendTakesEveryRequestForEveryStrategy() {
        for (String type : StrategySpec.TYPES) {
            Strategy s = create(type, of("solo", 2));
            for (int i = 0; i < 20; i++) {
                assertThat(s.pick(ip("10.0.0." + i), Eligibility.ADMITTING).id()).as(type).isEqualTo("solo");
            }
        }
    }

    @Test
    void everyStrategyHonoursEligibility() {
        Candidates c = of("a", 3, "b", 1, "c", 2);
        for (String type : StrategySpec.TYPES) {
            Strategy s = create(type, c);
            for (int i = 0; i < 200; i++) {
                RequestContext r = ip("10.0.1." + i);
                assertThat(s.pick(r, except(c.get(0), c.get(2))).id()).as(type).isEqualTo("b");
                assertThat(s.pick(r, b -> false)).as(type).isNull();
            }
        }
    }

    @Test
    void aDuplicateIdAmongTheCandidatesIsRejected() {
        List<Backend> twice = new ArrayList<>(List.of(backend("a"), backend("a")));
        Candidates dup = new Candidates(twice, new int[] {100, 100});
        for (String type : StrategySpec.TYPES) {
            assertThatThrownBy(() -> create(type, dup)).as(type).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("candidates: duplicate backend id (got: a)");
        }
    }

    @Test
    void anUnknownTypeIsA400NamingTheField() {
        assertThatThrownBy(() -> create("fastest", equal(2))).isInstanceOf(EngineException.class)
                .hasMessageStartingWith("strategy.type: unknown strategy, one of round-robin, random")
                .hasMessageEndingWith("(got: fastest)")
                .extracting(e -> ((EngineException) e).status()).isEqualTo(400);
    }

    @Test
    void validationNamesEachBadFieldAndValue() {
        StrategySpec hash = StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "body").with("virtualNodes", 0).with("balanceFactor", 0.5);
        assertThat(Strategies.validate(hash)).containsExactlyInAnyOrder(
                "key: must be one of ip, path, header:NAME, cookie:NAME, query:NAME (got: body)",
                "virtualNodes: must be between 1 and 10000 (got: 0)",
                "balanceFactor: must be greater than 1 (e.g. 1.25), or null for off (got: 0.5)");
        assertThat(Strategies.validate(StrategySpec.bare(StrategySpec.POWER_OF_TWO).with("choices", 1))).containsExactly("choices: must be between 2 and 100 (got: 1)");
        assertThat(Strategies.validate(StrategySpec.bare(StrategySpec.MAGLEV).with("tableSize", 100))).containsExactly("tableSize: must be prime (e.g. 65537) (got: 100)");
        assertThat(Strategies.validate(StrategySpec.bare(StrategySpec.FASTEST_RESPONSE).with("decayMs", 0L))).containsExactly("decayMs: must be greater than 0 (got: 0)");
        assertThat(Strategies.validate(StrategySpec.bare(StrategySpec.ADAPTIVE).with("weights", Map.of("cpu", -1.0, "disk", 1.0)).with("staleAfterMs", 0L))).containsExactlyInAnyOrder(
                "staleAfterMs: must be greater than 0 (got: 0)",
                "weights.cpu: must be a number >= 0 (got: -1)",
                "weights.disk: unknown metric, one of cpu, latency, inflight (got: disk)");
        for (String type : StrategySpec.TYPES) {
            assertThat(Strategies.validate(StrategySpec.of(type))).as(type).isEmpty();
        }
        assertThat(Strategies.validate(StrategySpec.bare(StrategySpec.ADAPTIVE).with("weights", Map.of("cpu", 0.0)))).containsExactly(
                "weights: at least one weight must be greater than 0 (got: {cpu=0.0})");
    }

    @Test
    void adaptiveWeightsGivenAsWholeNumbersThroughTheEnginesApiAreNumbersAllTheSame() {
        // a config file binds 1 as 1.0; the engine's own API may be handed an Integer
        StrategySpec whole = StrategySpec.bare(StrategySpec.ADAPTIVE).with("weights", Map.of("cpu", 1, "latency", 0));
        assertThat(Strategies.validate(whole)).isEmpty();
        assertThat(whole.withDefaults().numberMap("weights")).isEqualTo(Map.of("cpu", 1.0, "latency", 0.0));
        assertThat(Strategies.create(whole, equal(2), null, env(1)).type()).isEqualTo(StrategySpec.ADAPTIVE);
        assertThat(Strategies.validate(StrategySpec.bare(StrategySpec.ADAPTIVE).with("weights", Map.of("cpu", -1))))
                .contains("weights.cpu: must be a number >= 0 (got: -1)");
    }

    @Test
    void aFieldItsTypeDoesNotUseIsAProblemAsAnUnknownFieldIs() {
        StrategySpec extra = StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("choices", 3).with("tableSize", 65537);
        assertThat(Strategies.validate(extra)).containsExactly(
                "choices: not used by strategy consistent-hash, which takes key, virtualNodes, balanceFactor (got: 3)",
                "tableSize: not used by strategy consistent-hash, which takes key, virtualNodes, balanceFactor "
                        + "(got: 65537)");
    }

    @Test
    void primesAreRecognised() {
        assertThat(Limits.isPrime(65537)).isTrue();
        assertThat(Limits.isPrime(2)).isTrue();
        assertThat(Limits.isPrime(65535)).isFalse();
        assertThat(Limits.isPrime(1)).isFalse();
        assertThat(Limits.isPrime(9_999_991)).isTrue();
    }

    @Test
    void onlyHashingStrategiesExposeAKeySpace() {
        for (String type : StrategySpec.TYPES) {
            boolean hashing = type.equals(StrategySpec.CONSISTENT_HASH) || type.equals(StrategySpec.MAGLEV);
            assertThat(create(type, equal(3)).keySpace() != null).as(type).isEqualTo(hashing);
        }
    }
}
