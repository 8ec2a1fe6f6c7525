package dev.fulcrum.ui.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The strategy in words, as the Strategy tab says which one a pool uses. */
class StrategyWordsTest {
    @Test
    void aStrategyReadsAsItsNameNotAsAMap() {
        assertThat(StrategyForm.describe(Map.of("type", "round-robin"))).isEqualTo("round robin");
        Map<String, Object> ring = new LinkedHashMap<>();
        ring.put("type", "consistent-hash");
        ring.put("key", "path");
        ring.put("virtualNodes", 160);
        ring.put("balanceFactor", 1.25);
        assertThat(StrategyForm.describe(ring)).isEqualTo("consistent hashing on the path, 160 virtual nodes per"
                + " backend, bounded loads at 1.25x the average (balanceFactor=1.25)");
        assertThat(StrategyForm.describe(Map.of("type", "maglev", "key", "header:X-User", "tableSize", 65537)))
                .isEqualTo("Maglev hashing on header X-User, a table of 65537 slots");
        assertThat(StrategyForm.describe(Map.of("type", "power-of-two", "choices", 2)))
                .isEqualTo("power of two choices, the best of 2 drawn");
    }

    @Test
    void everyStrategyHasAName() {
        assertThat(StrategyForm.NAMES.keySet()).containsExactlyInAnyOrderElementsOf(StrategySpec.TYPES);
        for (String type : StrategySpec.TYPES) {
            assertThat(StrategyForm.describe(Map.of("type", type))).doesNotContain("{").doesNotContain("=");
        }
    }
}
