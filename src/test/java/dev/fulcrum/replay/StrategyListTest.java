package dev.fulcrum.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.engine.sim.LockStep;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code --strategies} (docs/REFERENCE.md §6): names, settings, formulas with commas, and every problem named. */
@DisplayName("--strategies: the list of strategies to compare")
class StrategyListTest {
    @Test
    void namesAndSettingsAreReadByEachSettingsKind() {
        List<StrategySpec> specs = StrategyList.parse(
                "round-robin, consistent-hash:key=header:X-User:virtualNodes=200,power-of-two:choices=3,"
                        + "consistent-hash:balanceFactor=1.25");
        assertThat(specs).extracting(StrategySpec::type)
                .containsExactly("round-robin", "consistent-hash", "power-of-two", "consistent-hash");
        assertThat(specs.get(1).key()).isEqualTo("header:X-User");
        assertThat(specs.get(1).option("virtualNodes")).isEqualTo(200);
        assertThat(specs.get(2).option("choices")).isEqualTo(3);
        assertThat(specs.get(3).option("balanceFactor")).isEqualTo(1.25);
        assertThat(specs.get(3).key()).isEqualTo("ip");
        // the same type twice: told apart by their settings
        assertThat(LockStep.labels(specs)).containsExactly("round-robin",
                "consistent-hash(key=header:X-User virtualNodes=200)", "power-of-two",
                "consistent-hash(key=ip balanceFactor=1.25 virtualNodes=160)");
    }

    @Test
    void commasInsideParenthesesOrQuotesDoNotEndAStrategy() {
        assertThat(StrategyList.split("round-robin,score:max(latency, 10) * (inflight + 1),least-requests"))
                .containsExactly("round-robin", "score:max(latency, 10) * (inflight + 1)", "least-requests");
        assertThat(StrategyList.split("score:label(\"zone\") == \"a,b\" ? 1 : 2,random"))
                .containsExactly("score:label(\"zone\") == \"a,b\" ? 1 : 2", "random");
        assertThat(StrategyList.split("a,,b")).containsExactly("a", "", "b");
    }

    @Test
    void aScoreFormulaRunsToTheNextCommaOutsideParenthesesOrComesFromAFile(@org.junit.jupiter.api.io.TempDir
                                                                            java.nio.file.Path dir) throws Exception {
        List<StrategySpec> specs = StrategyList.parse(
                "round-robin,score:1 - 0.7*norm(latency, 0, 500) - 0.3*norm(inflight, 0, 50),least-requests");
        assertThat(specs).extracting(StrategySpec::type).containsExactly("round-robin", "score", "least-requests");
        assertThat(specs.get(1).option("score")).isEqualTo("1 - 0.7*norm(latency, 0, 500) - 0.3*norm(inflight, 0, 50)");
        java.nio.file.Path file = dir.resolve("formula.txt");
        java.nio.file.Files.writeString(file, "1 - norm(inflight, 0, 50)\n");
        assertThat(StrategyList.parse("score:@" + file).get(0).option("score")).isEqualTo("1 - norm(inflight, 0, 50)");
        assertThatThrownBy(() -> StrategyList.parse("score:1 - norm(inflight, 0, 50):"))
                .hasMessageStartingWith("--strategies: score: score: ");
        assertThatThrownBy(() -> StrategyList.parse("score:@" + dir.resolve("missing.txt")))
                .hasMessageStartingWith("--strategies: score: cannot read the formula's file ");
    }

    @Test
    void everyProblemIsNamedWithTheStrategyAndTheSetting() {
        assertThatThrownBy(() -> StrategyList.parse("round-robin,fastest-reponse"))
                .hasMessageStartingWith("--strategies: unknown strategy fastest-reponse, one of round-robin, random,");
        assertThatThrownBy(() -> StrategyList.parse("consistent-hash:virtualNodes=0,round-robin:virtualNodes=5,"
                + "power-of-two:choices=two,maglev:key"))
                .hasMessage(String.join("\n",
                        "--strategies: consistent-hash: virtualNodes: must be between 1 and 10000 (got: 0)",
                        "--strategies: round-robin: virtualNodes: not used by strategy round-robin (it takes no"
                                + " settings) (got: 5)",
                        "--strategies: power-of-two: choices: must be an integer (got: two)",
                        "--strategies: maglev: a setting is name=value (got: key)"));
        assertThatThrownBy(() -> StrategyList.parse("consistent-hash:key=path:key=ip"))
                .hasMessage("--strategies: consistent-hash: key: given twice (got: ip)");
        assertThatThrownBy(() -> StrategyList.parse("round-robin,,random"))
                .hasMessageStartingWith("--strategies: an empty name between two commas");
        assertThatThrownBy(() -> StrategyList.parse(" "))
                .hasMessageStartingWith("--strategies: at least one strategy required");
    }
}
