package dev.fulcrum.ui.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The score strategy's settings as the form sends them: a formula as typed, a word, a number or a word. */
class StrategyFormScoreTest {
    @Test
    void theFormulaAndTheWordsGoAsTextAndMissingAsANumberWhenItIsOne() {
        Map<String, Object> m = StrategyForm.toMap("score", Map.of("score", " 1 - cpu ", "pick", "best",
                "missing", "0.25", "coldStartShare", "0.5", "virtualNodes", "200"));
        assertThat(m).containsExactly(Map.entry("type", "score"), Map.entry("score", "1 - cpu"),
                Map.entry("pick", "best"), Map.entry("missing", 0.25), Map.entry("coldStartShare", 0.5));
        assertThat(StrategyForm.toMap("score", Map.of("missing", "exclude"))).containsEntry("missing", "exclude");
        assertThat(StrategyForm.toMap("score", Map.of("missing", "zero"))).containsEntry("missing", "zero");
    }

    @Test
    void theStrategyReadsInWords() {
        assertThat(StrategyForm.describe(Map.of("type", "score", "score", "1 - cpu", "pick", "best")))
                .startsWith("score formula").contains("scored 1 - cpu").contains("picked by best");
    }
}
