package dev.fulcrum.ui.workshop.why;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.DecisionTrace;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.time.ManualClock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The "Why this backend" summary the window writes from a trace's fields: in English it says what the engine's own
 * summary says, and in Chinese and Polish it says it in those languages.
 */
class WhySummaryTest {
    private static final SimpleRequest REQUEST = new SimpleRequest("10.0.0.9", "GET", "/k/k42", Map.of(), Map.of(),
            Map.of());

    private static Engine engine(StrategySpec spec, String... ids) {
        Engine e = Engine.manual(EngineSettings.DEFAULT, new ManualClock(), RandomSource.seeded(3));
        e.addPool(Engine.DEFAULT_POOL, spec);
        int port = 9001;
        for (String id : ids) {
            e.addBackend(Engine.DEFAULT_POOL, new BackendSpec(id, "http://127.0.0.1:" + port++, 1, null, false), false);
        }
        return e;
    }

    private static DecisionTrace explain(Engine e, String sticky) {
        Pool pool = e.pool(Engine.DEFAULT_POOL);
        return DecisionTrace.explain(pool, REQUEST, RandomSource.seeded(1), sticky);
    }

    @Test
    void inEnglishItSaysWhatTheEnginesSummarySays() {
        Engine drained = engine(StrategySpec.of(StrategySpec.ROUND_ROBIN), "a", "b", "c");
        drained.drain("c");
        List<DecisionTrace> traces = List.of(
                explain(engine(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "path"), "a", "b", "c"), null),
                explain(engine(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "path")
                        .with("balanceFactor", 1.25), "a", "b", "c"), null),
                explain(engine(StrategySpec.bare(StrategySpec.MAGLEV).with("key", "path"), "a", "b"), null),
                explain(engine(StrategySpec.of(StrategySpec.POWER_OF_TWO), "a", "b", "c"), null),
                explain(drained, null),
                explain(drained, "c"));
        Texts.use(Locale.ENGLISH);
        assertThat(traces).allSatisfy(t -> assertThat(WhyController.summary(t)).isEqualTo(t.summary()));
    }

    @Test
    void inChineseAndPolishItIsWrittenInThatLanguage() {
        Engine drained = engine(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "path"), "a", "b", "c");
        drained.drain("c");
        DecisionTrace t = explain(drained, null);
        try {
            Texts.use(Locale.SIMPLIFIED_CHINESE);
            assertThat(WhyController.summary(t)).startsWith("consistent-hash：键 “/k/k42” 的哈希为 0x")
                    .contains("被过滤：c（已排空）").contains("2 个候选").endsWith("。");
            Texts.use(Locale.forLanguageTag("pl"));
            assertThat(WhyController.summary(t)).startsWith("consistent-hash: klucz „/k/k42” daje hasz 0x")
                    .contains("odfiltrowane: c (OPRÓŻNIONY)").contains("kandydaci: 2");
        } finally {
            Texts.use(Locale.ENGLISH);
        }
    }

    @Test
    void aStickyCookieThatCanTakeTheRequestIsWhereItGoes() {
        DecisionTrace t = explain(engine(StrategySpec.of(StrategySpec.ROUND_ROBIN), "a", "b"), "b");
        Texts.use(Locale.ENGLISH);
        assertThat(WhyController.summary(t)).isEqualTo(
                "The sticky cookie names b, which can take the request: it goes there, the strategy is not asked.");
    }
}
