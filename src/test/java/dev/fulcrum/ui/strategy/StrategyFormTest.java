package dev.fulcrum.ui.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrategyFormTest {
    @Test
    void everyStrategyHasOneSentenceExplainingIt() {
        assertThat(StrategyForm.EXPLANATIONS).containsOnlyKeys(StrategySpec.TYPES.toArray(String[]::new));
        assertThat(StrategyForm.EXPLANATIONS.values()).allSatisfy(s -> assertThat(s).endsWith("."));
    }

    @Test
    void onlyTheOptionsOfTheChosenTypeAreSentAndBlankMeansDefault() {
        Map<String, String> form = Map.of("key", "path", "virtualNodes", "200", "balanceFactor", " ",
                "choices", "3", "tableSize", "65537");
        assertThat(StrategyForm.toMap("consistent-hash", form))
                .containsExactly(Map.entry("type", "consistent-hash"), Map.entry("key", "path"),
                        Map.entry("virtualNodes", 200L))
                .doesNotContainKeys("choices", "tableSize", "balanceFactor");
        assertThat(StrategyForm.toMap("round-robin", form)).containsOnlyKeys("type");
        assertThat(StrategyForm.toMap("consistent-hash", Map.of("balanceFactor", "1.25")))
                .containsEntry("balanceFactor", 1.25);
    }

    @Test
    void aNumberThatDoesNotParseIsSentAsTextSoTheEngineNamesIt() {
        assertThat(StrategyForm.toMap("maglev", Map.of("tableSize", "big"))).containsEntry("tableSize", "big");
    }

    @Test
    void adaptivesWeightsAreAFieldOfTheFormReadAsNamesAndNumbers() {
        assertThat(StrategyForm.options("adaptive")).containsExactly("weights", "staleAfterMs");
        assertThat(StrategyForm.toMap("adaptive", Map.of("weights", "cpu 0.7, latency=0.3")))
                .containsEntry("weights", Map.of("cpu", 0.7, "latency", 0.3));
        assertThat(StrategyForm.toMap("adaptive", Map.of("weights", "mostly cpu"))).containsEntry("weights",
                "mostly cpu");
        assertThat(StrategyForm.text(Map.of("cpu", 0.5))).isEqualTo("cpu 0.5");
    }
}
