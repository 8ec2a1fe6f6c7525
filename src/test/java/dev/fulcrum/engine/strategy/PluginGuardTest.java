package dev.fulcrum.engine.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.spi.Candidate;
import dev.fulcrum.spi.Option;
import dev.fulcrum.spi.Picker;
import dev.fulcrum.spi.PluginStrategy;
import dev.fulcrum.spi.Settings;
import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * A plugin strategy inside its pool's guard ({@link PluginGuard}), and a plugin's description checked
 * ({@link PluginDescriptor}) and registered ({@link Strategies#register}). Time is a {@link ManualClock} the plugin's
 * picks move, so "slow" is exact: no test here waits for anything.
 */
class PluginGuardTest {
    private final ManualClock clock = new ManualClock(1_000_000_000L, 1_000L);
    private final StrategyEnv env = StrategyEnv.of(clock, RandomSource.seeded(7));
    private final Candidates abc = StrategyFixtures.of("a", 1, "b", 1, "c", 1);
    private final List<String> reports = new ArrayList<>();

    /** A plugin strategy whose picker is {@code pick} (candidates, pick number) → candidate. */
    private static PluginStrategy plugin(String name, BiFunction<List<Candidate>, Integer, Candidate> pick) {
        return new PluginStrategy() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String title() {
                return "test " + name;
            }

            @Override
            public String sentence() {
                return "For a test.";
            }

            @Override
            public Picker create(Settings settings, List<Candidate> candidates, Picker previous) {
                AtomicInteger n = new AtomicInteger();
                return (request, eligible) -> pick.apply(candidates, n.getAndIncrement());
            }
        };
    }

    private PluginGuard guard(PluginStrategy p, long budgetMs) {
        PluginDescriptor d = PluginDescriptor.of(p, "/plugins/test.jar");
        Strategy plugin = d.create(StrategySpec.bare(p.name()), abc, null, env);
        Strategy fallback = Strategies.create(StrategySpec.of(StrategySpec.ROUND_ROBIN), abc, null, env);
        return new PluginGuard(p.name(), plugin, fallback, budgetMs, clock, reports::add, null);
    }

    /** The guard of the pool's next snapshot, as the pool builds it after {@code before}. */
    private PluginGuard rebuilt(PluginGuard before, PluginStrategy p, long budgetMs) {
        PluginDescriptor d = PluginDescriptor.of(p, "/plugins/test.jar");
        Strategy plugin = d.create(StrategySpec.bare(p.name()), abc, null, env);
        Strategy fallback = Strategies.create(StrategySpec.of(StrategySpec.ROUND_ROBIN), abc, null, env);
        return new PluginGuard(p.name(), plugin, fallback, budgetMs, clock, reports::add, before);
    }

    /** What the guard says of a request's decision, and that request. */
    private static final class Recorded implements DecisionLog {
        final List<String> fallbacks = new ArrayList<>();

        RequestContext request() {
            return new LoggedRequest(SimpleRequest.get("127.0.0.1", "/"), this);
        }

        @Override
        public void score(Backend backend, double score, String fallback) {
        }

        @Override
        public void draw(double value) {
        }

        @Override
        public void fallback(String reason) {
            fallbacks.add(reason);
        }
    }

    @Test
    void aPickThatThrowsIsAnsweredByTheFallbackAndReportedOnce() {
        PluginGuard g = guard(plugin("boom", (cs, n) -> {
            throw new IllegalStateException("no cost");
        }), 5);
        Recorded r = new Recorded();
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            picked.add(g.pick(r.request(), Eligibility.ADMITTING).id());
        }
        assertThat(picked).as("round robin, from the first pick").containsExactly("a", "b", "c", "a");
        assertThat(reports).containsExactly("its pick threw IllegalStateException: no cost");
        assertThat(g.tripped()).isTrue();
        assertThat(r.fallbacks).hasSize(4).allMatch(s -> s.equals("plugin failed: its pick threw"
                + " IllegalStateException: no cost"));
    }

    @Test
    void anAssertionErrorIsContainedToo() {
        PluginGuard g = guard(plugin("asserts", (cs, n) -> {
            throw new AssertionError("unreachable");
        }), 5);
        assertThat(g.pick(new Recorded().request(), Eligibility.ADMITTING).id()).isEqualTo("a");
        assertThat(reports).containsExactly("its pick threw AssertionError: unreachable");
    }

    @Test
    void aPickerThatReturnsACandidateItWasNotGivenHasFailed() {
        // a view of b made apart from the picker's own: the same backend, but not a candidate it was given
        PluginGuard g = guard(plugin("forger", (cs, n) -> new PluginDescriptor.PluginCandidate(abc.get(1), 100)),
                5);
        assertThat(g.pick(new Recorded().request(), Eligibility.ADMITTING).id()).as("the fallback's").isEqualTo("a");
        assertThat(reports).singleElement().asString()
                .startsWith("its pick threw IllegalStateException: returned a candidate it was not given");
    }

    @Test
    void picksSlowerThanTheBudgetOnAverageOverASecondTripItAtTheSecondsEnd() {
        // each pick takes 6 ms of the clock against a budget of 5
        PluginGuard g = guard(plugin("slow", (cs, n) -> {
            clock.advanceMillis(6);
            return cs.get(2);
        }), 5);
        int picks = 0;
        while (reports.isEmpty()) {
            assertThat(g.pick(new Recorded().request(), Eligibility.ADMITTING).id()).as("the plugin's own, until it trips")
                    .isEqualTo("c");
            picks++;
        }
        assertThat(picks).as("the pick that ends the first second (1000 / 6)").isEqualTo(167);
        assertThat(reports).as("the first pick is not timed")
                .containsExactly("its picks took 6.0 ms on average over 166 picks (pluginBudgetMs 5)");
        assertThat(g.pick(new Recorded().request(), Eligibility.ADMITTING).id()).as("then the fallback's").isEqualTo("a");
    }

    @Test
    void theSecondCarriesOnAcrossRebuildsSoAPoolRebuiltOftenIsStillJudged() {
        PluginStrategy slow = plugin("slow", (cs, n) -> {
            clock.advanceMillis(6);
            return cs.get(0);
        });
        PluginGuard g = guard(slow, 5);
        int picks = 0;
        while (reports.isEmpty()) {
            g.pick(new Recorded().request(), Eligibility.ADMITTING);
            picks++;
            if (picks % 50 == 0) {
                g = rebuilt(g, slow, 5); // every 300 ms, as slow start's steps would
            }
        }
        assertThat(picks).isEqualTo(167);
    }

    @Test
    void oneColdPickInAQuietSecondDoesNotDecideButASlowPluginAtOneRequestASecondIsReplaced() {
        // a first pick of 30 ms, then a quiet second, then fast picks: the window waits for 10 picks, 3 ms on average
        PluginGuard cold = guard(plugin("cold", (cs, n) -> {
            clock.advanceMillis(n == 0 ? 30 : 0);
            return cs.get(0);
        }), 5);
        cold.pick(new Recorded().request(), Eligibility.ADMITTING);
        clock.advanceMillis(1000);
        for (int i = 0; i < 20; i++) {
            cold.pick(new Recorded().request(), Eligibility.ADMITTING);
        }
        assertThat(reports).isEmpty();

        // 50 ms at every pick, one request a second: replaced at the tenth timed pick
        PluginGuard slow = guard(plugin("slow-and-quiet", (cs, n) -> {
            clock.advanceMillis(50);
            return cs.get(0);
        }), 5);
        int picks = 0;
        while (reports.isEmpty()) {
            slow.pick(new Recorded().request(), Eligibility.ADMITTING);
            picks++;
            clock.advanceMillis(950);
        }
        assertThat(picks).as("the first, untimed, and ten").isEqualTo(PluginGuard.MIN_PICKS + 1);
        assertThat(reports).containsExactly("its picks took 50.0 ms on average over 10 picks (pluginBudgetMs 5)");
    }

    @Test
    void oneSlowPickAmongFastOnesStaysWithinTheBudgetOnAverage() {
        // a first pick, then 400 ms once, then picks of 1 ms: 400 + 600 picks over a second average 1.66 ms
        PluginGuard g = guard(plugin("spiky", (cs, n) -> {
            clock.advanceMillis(n == 1 ? 400 : 1);
            return cs.get(0);
        }), 5);
        for (int i = 0; i < 2000; i++) {
            assertThat(g.pick(new Recorded().request(), Eligibility.ADMITTING).id()).isEqualTo("a");
        }
        assertThat(reports).isEmpty();
        assertThat(g.tripped()).isFalse();
    }

    @Test
    void aFactoryThatThrowsLeavesTheFallbackPickingFromTheStart() {
        PluginStrategy broken = new PluginStrategy() {
            @Override
            public String name() {
                return "broken-factory";
            }

            @Override
            public String title() {
                return "broken";
            }

            @Override
            public String sentence() {
                return "Cannot be built.";
            }

            @Override
            public Picker create(Settings settings, List<Candidate> candidates, Picker previous) {
                throw new UnsupportedOperationException("not today");
            }
        };
        Strategies.register(List.of(PluginDescriptor.of(broken, "/plugins/broken.jar")));
        try {
            PluginGuard g = PluginGuard.create(StrategySpec.bare("broken-factory"), abc, null, env,
                    StrategySpec.of(StrategySpec.ROUND_ROBIN), 5, reports::add);
            assertThat(g.tripped()).isTrue();
            assertThat(reports).containsExactly("its factory threw UnsupportedOperationException: not today");
            assertThat(g.pick(new Recorded().request(), Eligibility.ADMITTING).id()).isEqualTo("a");
            assertThat(g.explain(new Recorded().request(), RandomSource.seeded(1)).picked()).isNotNull();
        } finally {
            Strategies.forget(List.of("broken-factory"));
        }
    }

    @Test
    void aPluginsOptionsAreCheckedAgainstItsBoundsInTheBuiltInsWords() {
        PluginStrategy withOptions = new PluginStrategy() {
            @Override
            public String name() {
                return "spread";
            }

            @Override
            public String title() {
                return "spread";
            }

            @Override
            public String sentence() {
                return "Spreads.";
            }

            @Override
            public List<Option> options() {
                return List.of(Option.integer("width", 2, 1, 10, "Width", "how many", "%s wide"),
                        Option.hashKey(),
                        Option.numbers("mix", Map.of("x", 0.5), 0, 1, "Mix", "shares", "mix %s"));
            }

            @Override
            public Picker create(Settings settings, List<Candidate> candidates, Picker previous) {
                return (request, eligible) -> candidates.get(settings.integer("width") % candidates.size());
            }
        };
        PluginDescriptor d = PluginDescriptor.of(withOptions, "/p.jar");
        assertThat(d.options()).extracting(StrategyOption::kind).containsExactly(StrategyOption.Kind.INTEGER,
                StrategyOption.Kind.HASH_KEY, StrategyOption.Kind.NUMBER_MAP);
        assertThat(d.option("width").violations(11)).extracting(v -> v.describe())
                .containsExactly("width: must be between 1 and 10 (got: 11)");
        assertThat(d.option("key").violations("nose")).extracting(v -> v.describe())
                .containsExactly("key: must be one of ip, path, header:NAME, cookie:NAME, query:NAME (got: nose)");
        assertThat(d.option("mix").violations(Map.of("x", 2.0))).extracting(v -> v.describe())
                .containsExactly("mix.x: must be between 0 and 1 (got: 2)");
        Strategy s = d.create(StrategySpec.bare("spread").with("width", 4).with("key", "ip"), abc, null, env);
        assertThat(s.pick(new Recorded().request(), Eligibility.ADMITTING).id()).as("4 mod 3").isEqualTo("b");
    }

    @Test
    void aDescriptionThatBreaksTheRulesIsRefusedNamingWhatIsWrong() {
        assertThatThrownBy(() -> PluginDescriptor.of(plugin("Cost First", (cs, n) -> null), "/x.jar"))
                .hasMessage("strategy name must be 1-64 characters of a-z, 0-9 and -, starting with a letter"
                        + " (got: Cost First)");
        PluginStrategy badDefault = new PluginStrategy() {
            @Override
            public String name() {
                return "bad-default";
            }

            @Override
            public String title() {
                return "bad";
            }

            @Override
            public String sentence() {
                return "Bad.";
            }

            @Override
            public List<Option> options() {
                return List.of(Option.integer("n", 0, 1, 5, "N", "n", "%s"));
            }

            @Override
            public Picker create(Settings settings, List<Candidate> candidates, Picker previous) {
                return (request, eligible) -> null;
            }
        };
        assertThatThrownBy(() -> PluginDescriptor.of(badDefault, "/x.jar"))
                .hasMessage("strategy bad-default: option n: its default n: must be between 1 and 5 (got: 0)");
    }

    @Test
    void aBuiltInsNameOrOneNameTwiceIsRefusedNamingTheJars() {
        PluginDescriptor clash = PluginDescriptor.of(plugin("round-robin", (cs, n) -> null), "/a/x.jar");
        assertThatThrownBy(() -> Strategies.register(List.of(clash)))
                .hasMessage("plugins: /a/x.jar provides round-robin, which is a built-in strategy");
        PluginDescriptor one = PluginDescriptor.of(plugin("twice", (cs, n) -> null), "/a/x.jar");
        PluginDescriptor two = PluginDescriptor.of(plugin("twice", (cs, n) -> null), "/b/y.jar");
        assertThatThrownBy(() -> Strategies.register(List.of(one, two)))
                .hasMessage("plugins: two strategies are called twice (in /a/x.jar and /b/y.jar)");
        assertThat(Strategies.descriptor("twice")).as("all or none").isNull();
        try {
            Strategies.register(List.of(one));
            Strategies.register(List.of(PluginDescriptor.of(plugin("twice", (cs, n) -> null), "/a/x.jar")));
            assertThat(Strategies.descriptor("twice")).as("the same jar again is no clash").isSameAs(one);
            assertThatThrownBy(() -> Strategies.register(List.of(two)))
                    .hasMessage("plugins: two strategies are called twice (in /a/x.jar and /b/y.jar)");
            assertThat(StrategySpec.TYPES).endsWith("twice");
            assertThat(Strategies.fallbackProblem(StrategySpec.bare("twice")))
                    .startsWith("must be a built-in strategy, not a plugin's, one of round-robin,");
        } finally {
            Strategies.forget(List.of("twice"));
        }
        assertThat(StrategySpec.TYPES).doesNotContain("twice");
    }
}
