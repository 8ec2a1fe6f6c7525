package dev.fulcrum.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.demo.TrafficAnswer;
import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.i18n.Texts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each expectation's figure and line, on figures given by hand. */
class ExpectationTest {
    /** Figures a test sets; what it leaves alone is empty. */
    static final class Given implements Figures {
        List<TrafficAnswer> answers = new ArrayList<>();
        TrafficSnapshot traffic;
        Map<String, Long> received = Map.of();
        List<EngineEvent> events = List.of();
        List<String> picks = List.of();
        Map<String, String> before = Map.of();
        Map<String, String> now = Map.of();
        EngineState state = new EngineState("http://x", Map.of(), Map.of(), List.of(), List.of());

        void answers(String backend, int n) {
            for (int i = 0; i < n; i++) {
                answers.add(new TrafficAnswer(0, backend, 200, 1000));
            }
        }

        @Override
        public String pool() {
            return "default";
        }

        @Override
        public List<TrafficAnswer> answers() {
            return answers;
        }

        @Override
        public TrafficSnapshot traffic() {
            return traffic;
        }

        @Override
        public long receivedSinceTrafficStart(String method) {
            return received.getOrDefault(method, 0L);
        }

        @Override
        public EngineState state() {
            return state;
        }

        @Override
        public List<EngineEvent> breakerEvents(String backend) {
            return events.stream().filter(e -> e.backend().equals(backend)).toList();
        }

        @Override
        public List<String> picks(int n, String path, Map<String, String> headers) {
            return picks.subList(0, Math.min(n, picks.size()));
        }

        @Override
        public Map<String, String> keysBefore(int keys) {
            return before;
        }

        @Override
        public Map<String, String> keysNow(int keys) {
            return now;
        }

        @Override
        public EngineClient.Ring ring() {
            return null;
        }

        @Override
        public EngineClient.Preview lastPreview() {
            return null;
        }

        @Override
        public Map<String, Map<String, Object>> demoState() {
            return Map.of();
        }

        Map<String, Long> mirrored = Map.of();
        Map<String, EngineState.MirrorCounts> mirrorCounts = Map.of();
        Map<Integer, Long> shed = Map.of();

        long sent;

        @Override
        public long sentSinceStepStart() {
            return sent;
        }

        @Override
        public List<TrafficAnswer> runAnswers() {
            return answers;
        }

        @Override
        public List<EngineEvent> events(String type) {
            return events.stream().filter(e -> e.type().equals(type)).toList();
        }

        @Override
        public long mirroredSinceStepStart(String pool) {
            return mirrored.getOrDefault(pool, 0L);
        }

        @Override
        public EngineState.MirrorCounts mirrorCountsSinceStepStart(String pool) {
            return mirrorCounts.getOrDefault(pool, new EngineState.MirrorCounts(0, 0, 0, 0, 0));
        }

        @Override
        public long shedSinceStepStart(Integer route) {
            return route == null ? shed.values().stream().mapToLong(Long::longValue).sum()
                    : shed.getOrDefault(route, 0L);
        }
    }

    static TrafficSnapshot traffic(long gets, long posts, Map<Integer, Long> byStatus) {
        return new TrafficSnapshot(TrafficSnapshot.State.DONE, 0, 0, gets + posts, gets + posts, 0, 0, 0, 0, 0,
                byStatus, 0, 0, TrafficSnapshot.Latency.NONE, Map.of(), gets, posts);
    }

    @Test
    void aShareIsOfThisStepsAnswersAndSaysSoAsTheIssueWritesIt() {
        Given f = new Given();
        f.answers("demo-a", 444);
        f.answers("demo-b", 444);
        f.answers("demo-c", 112);
        assertThat(new Expectation.Share("demo-c", Bound.between(0.09, 0.13)).check(f)).isEqualTo(new Check(true,
                "share of demo-c 0.112 in [0.09, 0.13] (112 of 1000 answers)"));
        assertThat(new Expectation.Share("demo-a", Bound.between(0.09, 0.13)).check(f).line(3)).isEqualTo(
                "step 3: FAILED: share of demo-a 0.444 not in [0.09, 0.13] (444 of 1000 answers)");
        assertThat(new Expectation.MaxShare(Bound.atLeast(0.5)).check(f).ok()).isFalse();
        assertThat(new Expectation.BackendsUsed(Bound.atMost(3)).check(f).text()).isEqualTo("backends answering 3 at most 3");
    }

    @Test
    void aCheckLineIsInTheWindowsLanguageAndItsCountsAsWritten() {
        Given f = new Given();
        f.answers("demo-a", 1888);
        f.answers("demo-c", 112);
        f.events = List.of(new EngineEvent("breaker", "default", "demo-b", "CLOSED", "OPEN", 0));
        Expectation share = new Expectation.Share("demo-c", Bound.between(0.09, 0.13));
        Expectation breaker = new Expectation.BreakerWent("demo-b", List.of("OPEN", "HALF_OPEN"));
        try {
            Texts.use(Locale.SIMPLIFIED_CHINESE);
            assertThat(share.check(f).text()).isEqualTo("demo-c 的占比 0.056，不在 [0.09, 0.13] 内（2000 个响应中的 112 个）");
            assertThat(breaker.check(f).text()).isEqualTo("demo-b 的熔断器：断开，预期 断开 → 半开");
            Texts.use(Locale.forLanguageTag("pl"));
            assertThat(share.check(f).text()).isEqualTo("udział demo-c 0.056 poza [0.09, 0.13] (112 z 2000 odpowiedzi)");
            assertThat(breaker.check(f).text()).isEqualTo("wyłącznik demo-b: OTWARTY, oczekiwano OTWARTY → PÓŁOTWARTY");
        } finally {
            Texts.use(Locale.ENGLISH);
        }
        assertThat(share.check(f).line(2)).as("the command line's")
                .isEqualTo("step 2: FAILED: share of demo-c 0.056 not in [0.09, 0.13] (112 of 2000 answers)");
    }

    @Test
    void noAnswersIsAFailureNotAZeroShare() {
        assertThat(new Expectation.Share("demo-c", Bound.below(0.5)).check(new Given()).ok()).isFalse();
    }

    @Test
    void aPercentileIsTheNearestRankOfThisStepsAnswers() {
        Given f = new Given();
        for (int i = 1; i <= 100; i++) {
            f.answers.add(new TrafficAnswer(0, "demo-a", 200, i * 1000L));
        }
        assertThat(new Expectation.Latency("p99", Bound.above(98)).check(f)).isEqualTo(new Check(true,
                "p99 99 ms above 98 ms (100 answers)"));
        assertThat(new Expectation.Latency("p50", Bound.below(50)).check(f).text()).isEqualTo(
                "p50 50 ms not below 50 ms (100 answers)");
    }

    @Test
    void aRequestSentTwiceIsWhatTheBackendsReceivedBeyondWhatWasSent() {
        Given f = new Given();
        f.traffic = traffic(192, 108, Map.of(200, 289L, 502, 11L));
        f.received = Map.of("GET", 208L, "POST", 108L);
        assertThat(new Expectation.Resent("GET", Bound.atLeast(3)).check(f).text()).isEqualTo(
                "GET sent again 16 at least 3 (192 sent, 208 received by the backends)");
        assertThat(new Expectation.SentOnce("POST").check(f)).isEqualTo(new Check(true,
                "no POST sent twice (108 sent, 108 received by the backends)"));
        f.received = Map.of("POST", 110L);
        assertThat(new Expectation.SentOnce("POST").check(f)).isEqualTo(new Check(false,
                "2 POST requests sent twice (108 sent, 110 received by the backends)"));
        assertThat(new Expectation.Status(502, Bound.atLeast(1)).check(f).text()).isEqualTo(
                "answers with status 502 in this traffic run: 11 at least 1");
    }

    @Test
    void aBreakerMustGoThroughTheStatesInOrder() {
        Given f = new Given();
        f.events = List.of(new EngineEvent("breaker", "default", "demo-b", "CLOSED", "OPEN", 0),
                new EngineEvent("breaker", "default", "demo-b", "OPEN", "HALF_OPEN", 0),
                new EngineEvent("breaker", "default", "demo-b", "HALF_OPEN", "OPEN", 0));
        assertThat(new Expectation.BreakerWent("demo-b", List.of("HALF_OPEN", "OPEN")).check(f).ok()).isTrue();
        assertThat(new Expectation.BreakerWent("demo-b", List.of("HALF_OPEN", "CLOSED")).check(f)).isEqualTo(
                new Check(false, "breaker of demo-b: OPEN → HALF_OPEN → OPEN, expected HALF_OPEN → CLOSED"));
    }

    @Test
    void anExactSequenceAndItsLongestRun() {
        Given f = new Given();
        f.picks = List.of("a", "a", "b", "a", "c", "a", "a");
        assertThat(new Expectation.Sequence(List.of("a", "a", "b", "a", "c", "a", "a"), "/", Map.of()).check(f).ok())
                .isTrue();
        assertThat(new Expectation.Sequence(List.of("a", "b", "c", "a", "b", "c", "a"), "/", Map.of()).check(f))
                .isEqualTo(new Check(false, "sequence a a b a c a a, expected a b c a b c a"));
        assertThat(new Expectation.LongestRun(Bound.atMost(1), 7).check(f).text()).isEqualTo(
                "7 requests one after the other: longest run of one backend (a) 2 not at most 1");
    }

    @Test
    void movedKeysCountTheKeysWhoseBackendChangedAndWhereTheyWent() {
        Given f = new Given();
        f.before = Map.of("k0", "a", "k1", "b", "k2", "c", "k3", "a");
        f.now = Map.of("k0", "e", "k1", "b", "k2", "c", "k3", "a");
        assertThat(new Expectation.MovedKeys(Bound.between(0.2, 0.3), 4, "e", null, Bound.atMost(0)).check(f))
                .isEqualTo(new Check(true, "keys moved 0.25 in [0.2, 0.3], all to e"));
        f.now = Map.of("k0", "e", "k1", "c", "k2", "c", "k3", "a");
        assertThat(new Expectation.MovedKeys(Bound.between(0.2, 0.6), 4, "e", null, Bound.atMost(0)).check(f))
                .isEqualTo(new Check(false, "keys moved 0.5 in [0.2, 0.6], 1 of them not to e (0.25 of the keys,"
                        + " at most 0)"));
    }

    @Test
    void boundsSayWhatTheyHold() {
        assertThat(Bound.between(0.09, 0.13).text()).isEqualTo("in [0.09, 0.13]");
        assertThat(Bound.above(250).holds(250)).isFalse();
        assertThat(Bound.atLeast(250).holds(250)).isTrue();
        assertThat(Bound.below(100).text()).isEqualTo("below 100");
        assertThat(Bound.atMost(0).text()).isEqualTo("at most 0");
        assertThat(Bound.number(0.11234)).isEqualTo("0.112");
        assertThat(Bound.number(312.4)).isEqualTo("312");
    }

    static EngineState.BackendInfo member(String id, String pool) {
        return new EngineState.BackendInfo(id, pool, "http://127.0.0.1:1", 1, 1, "UP", "UP", null, 0, 0, 0, 0, 0, 0, 0,
                false, null, 0, 0, false, Map.of());
    }

    @Test
    void aPoolsShareCountsTheAnswersOfItsBackendsAndAClassNarrowsEveryTrafficFigure() {
        Given f = new Given();
        f.state = new EngineState("http://x", Map.of(), Map.of(), List.of(), List.of(member("s1", "stable"),
                member("s2", "stable"), member("c1", "canary")));
        for (int i = 0; i < 90; i++) {
            f.answers.add(new TrafficAnswer(0, i % 2 == 0 ? "s1" : "s2", 200, 5_000, "batch"));
        }
        for (int i = 0; i < 10; i++) {
            f.answers.add(new TrafficAnswer(0, "c1", i < 4 ? 503 : 200, 400_000, "vip"));
        }
        assertThat(new Expectation.PoolShare("canary", Bound.between(0.05, 0.15), null).check(f)).isEqualTo(
                Check.of(true, "share of pool canary 0.1 in [0.05, 0.15] (10 of 100 answers)"));
        assertThat(new Expectation.PoolShare("canary", Bound.atLeast(1), "vip").check(f).text()).isEqualTo(
                "share of pool canary 1 at least 1 (10 of 10 vip answers)");
        assertThat(new Expectation.PoolShare("canary", Bound.atLeast(0.5), "batch").check(f).ok()).isFalse();
        assertThat(new Expectation.Latency("p90", Bound.below(100), "batch").check(f)).isEqualTo(
                Check.of(true, "p90 of batch 5 ms below 100 ms (90 answers)"));
        assertThat(new Expectation.Latency("p90", Bound.below(100), "vip").check(f).ok()).isFalse();
        assertThat(new Expectation.Latency("p90", Bound.below(0.5), "batch", "vip").check(f)).isEqualTo(Check.of(true,
                "p90 of batch 5 ms over p90 of vip 400 ms: 0.0125 below 0.5 (90 and 10 answers)"));
        assertThat(new Expectation.Latency("p90", Bound.below(0.5), "vip", "batch").check(f).ok()).isFalse();
        assertThat(new Expectation.Status(503, Bound.atMost(0), "vip").check(f)).isEqualTo(
                Check.of(false, "vip answers with status 503 in this traffic run: 4 not at most 0"));
        assertThat(new Expectation.Answered(Bound.atLeast(10), "vip").check(f).ok()).isTrue();
        assertThat(new Expectation.Share("c1", Bound.atMost(0), "batch").check(f).ok()).isTrue();
    }

    @Test
    void anEventHappenedOrDidNotAndTheLineSaysTheLastOne() {
        Given f = new Given();
        assertThat(new Expectation.Event("guard", true).check(f)).isEqualTo(
                Check.of(false, "no guard event in this step"));
        assertThat(new Expectation.Event("guard", false).check(f).ok()).isTrue();
        f.events = List.of(new EngineEvent("guard", "canary", null, "stable=95 canary=5",
                "canary error rate 0.5 above stable's 0 by more than errorRateAbove 0.1 for 1 s", 0, 0));
        assertThat(new Expectation.Event("guard", true).check(f)).isEqualTo(Check.of(true, "guard event on route 0:"
                + " stable=95 canary=5 → canary error rate 0.5 above stable's 0 by more than errorRateAbove 0.1 for 1 s"));
        assertThat(new Expectation.Event("guard", false).check(f).ok()).isFalse();
        assertThat(new Expectation.Event("split", true).check(f).ok()).isFalse();
    }

    @Test
    void mirroredCopiesArePerRequestSentAndTheMirrorsErrorsPerCopy() {
        Given f = new Given();
        f.sent = 500;
        f.mirrored = Map.of("green", 100L);
        assertThat(new Expectation.Mirrored("green", Bound.between(0.12, 0.28)).check(f)).isEqualTo(Check.of(true,
                "copies mirrored to green per request 0.2 in [0.12, 0.28] (100 copies received, 500 requests sent)"));
        assertThat(new Expectation.Mirrored("blue", Bound.above(0)).check(f).ok()).isFalse();
        f.mirrorCounts = Map.of("green", new EngineState.MirrorCounts(100, 30, 2, 0, 0));
        assertThat(new Expectation.MirrorErrors("green", Bound.between(0.15, 0.45)).check(f)).isEqualTo(Check.of(true,
                "errors of the copies mirrored to green 0.3 in [0.15, 0.45] (30 of 100 copies answered 5xx or not at"
                        + " all)"));
        assertThat(new Expectation.MirrorErrors("blue", Bound.atMost(0)).check(f)).isEqualTo(Check.of(false,
                "errors of the copies mirrored to blue: the engine sent none in this step"));
    }

    @Test
    void shedCountsOneRouteOrAll() {
        Given f = new Given();
        f.shed = Map.of(1, 40L, 2, 5L);
        assertThat(new Expectation.Shed(1, Bound.atLeast(40)).check(f)).isEqualTo(
                Check.of(true, "requests shed by route 1 in this step 40 at least 40"));
        assertThat(new Expectation.Shed(null, Bound.atMost(40)).check(f).ok()).isFalse();
    }

    @Test
    void stickyArmsFailsWhenAUserChangesArmAndWhenEveryUserLandsInOneArm() {
        Given f = new Given();
        f.state = new EngineState("http://x", Map.of(), Map.of(), List.of(), List.of(member("s1", "stable"),
                member("s2", "stable"), member("c1", "canary")));
        f.picks = List.of("s1", "s2", "s1");
        Check one = new Expectation.StickyArms("cookie:user", 4, 3).check(f);
        assertThat(one).isEqualTo(Check.of(false, "4 users by cookie:user, 3 requests each: 4 in stable, none changed"
                + " arm: every user landed in one arm, so stickiness was not shown"));
        f.picks = List.of("s1", "c1", "s1");
        assertThat(new Expectation.StickyArms("cookie:user", 4, 3).check(f)).isEqualTo(Check.of(false,
                "4 users by cookie:user, 3 requests each: 4 changed arm (k0 went to canary and stable)"));
    }
}
