package dev.fulcrum.admin;

import static dev.fulcrum.admin.ExportFixturesForTest.richConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategyDescriptor;
import dev.fulcrum.engine.strategy.StrategyOption;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.ui.strategy.StrategyForm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every registered strategy is described whole, so that adding one is its class, its registration line, its
 * REFERENCE row and its tests: a sentence and a title for the window, a form field for each setting, a rule in each
 * export, and its row in docs/REFERENCE.md. A strategy registered without one of them fails here.
 */
class StrategyDescriptorsTest {

    static java.util.stream.Stream<String> strategies() {
        return Strategies.ALL.stream().map(StrategyDescriptor::name);
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void hasATitleAndOneSentenceForTheWindow(String name) {
        StrategyDescriptor d = Strategies.descriptor(name);
        assertThat(d.title()).as(name).isNotBlank().doesNotContain("-");
        assertThat(d.sentence()).as(name).isNotBlank().endsWith(".");
        assertThat(StrategyForm.NAMES).containsEntry(name, d.title());
        assertThat(StrategyForm.EXPLANATIONS).containsEntry(name, d.sentence());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void eachSettingHasAFormFieldAndReadsInWords(String name) {
        StrategyDescriptor d = Strategies.descriptor(name);
        StrategySpec defaults = StrategySpec.of(name);
        for (StrategyOption o : d.options()) {
            assertThat(o.label()).as(name + "." + o.name()).isNotBlank();
            assertThat(o.hint()).as(name + "." + o.name()).isNotBlank();
            assertThat(Strategies.allOptions()).as("a form field for " + o.name())
                    .anyMatch(f -> f.name().equals(o.name()) && f.kind() == o.kind());
            if (o.kind() != StrategyOption.Kind.HASH_KEY) {
                assertThat(o.phrase()).as(name + "." + o.name()).contains("%");
            }
            assertThat(o.defaultValue() == null || o.violations(o.defaultValue()).isEmpty())
                    .as("the default of " + name + "." + o.name() + " is valid").isTrue();
        }
        assertThat(StrategyForm.options(name)).containsExactlyElementsOf(
                d.options().stream().map(StrategyOption::name).toList());
        Map<String, Object> asConfigured = new java.util.LinkedHashMap<>(defaults.options());
        asConfigured.put("type", name);
        assertThat(StrategyForm.describe(asConfigured)).as(name).startsWith(d.title()).doesNotContain("%")
                .doesNotContain("{");
    }

    @ParameterizedTest
    @ValueSource(strings = {"nginx", "haproxy", "envoy"})
    void everyExportHasARuleForEveryStrategy(String format) {
        for (StrategyDescriptor d : Strategies.ALL) {
            FulcrumConfig config = richConfig(StrategySpec.of(d.name()));
            try (Engine engine = ExportFixturesForTest.engine(config)) {
                String text = ConfigExport.export(config, engine, format, null);
                assertThat(text).as(format + " export of " + d.name())
                        .doesNotContain("no equivalent: strategy " + d.name() + ";");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void hasItsRowInTheReference(String name) throws Exception {
        String reference = Files.readString(Path.of("docs/REFERENCE.md"));
        String row = reference.lines().filter(l -> l.startsWith("| `" + name + "` |")).findFirst().orElse(null);
        assertThat(row).as("docs/REFERENCE.md §2.2 row for " + name).isNotNull();
        for (StrategyOption o : Strategies.descriptor(name).options()) {
            Object d = o.defaultValue();
            String shown = d == null ? "null" : d instanceof String s ? "\"" + s + "\""
                    : d instanceof Map<?, ?> ? Json.write(d) : d.toString();
            assertThat(row).as("the row of " + name + " gives " + o.name() + " and its default")
                    .contains("`" + o.name() + "` (" + shown);
        }
    }
}
