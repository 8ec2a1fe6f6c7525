package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.TestBackends;
import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.Eligibility;
import dev.fulcrum.requests.Decision;
import dev.fulcrum.time.ManualClock;
import dev.fulcrum.ui.requests.DecisionText;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The recorder as a score strategy and a failing plugin write to it (they are built beside this, so their calls are
 * made here by hand): scores with the fallback that stood in, the draw, the pick's own fallback; the JSON the access
 * log and {@code /api/requests} carry, and the words the window shows.
 */
class DecisionRecorderTest {
    private static final ManualClock CLOCK = new ManualClock(1_000_000_000L, 1_000L);

    private static Backend backend(String id) {
        return TestBackends.backend("p", new BackendSpec(id, "http://127.0.0.1:1", 1, null, false), BreakerSpec.DEFAULT,
                CLOCK, 10_000);
    }

    @Test
    void scoresWithAStaleFallbackTheDrawAndAPluginFallbackReadAsJsonAndInWords() {
        Backend a = backend("a");
        Backend b = backend("b");
        Backend c = backend("c");
        DecisionRecorder r = new DecisionRecorder(new UndertowRequest(null, "/"));
        r.attempt(1);
        r.considering("score", new Candidates(List.of(a, b, c), new int[] {100, 250, 100}), Eligibility.ADMITTING,
                false);
        r.score(a, 0.8, null);
        r.score(b, 0.61, "stale");
        r.score(c, 0.2, "cold-start");
        r.draw(0.412);
        r.fallback("plugin failed: NullPointerException");
        r.picked(a);

        Decision d = r.decision();

        assertThat(d.toJson()).isEqualTo("{\"picks\":[{\"attempt\":1,\"strategy\":\"score\",\"candidates\":["
                + "{\"id\":\"a\",\"weight\":1,\"inflight\":0,\"score\":0.8},"
                + "{\"id\":\"b\",\"weight\":2.5,\"inflight\":0,\"score\":0.61,\"fallback\":\"stale\"},"
                + "{\"id\":\"c\",\"weight\":1,\"inflight\":0,\"score\":0.2,\"fallback\":\"cold-start\"}],"
                + "\"draws\":[0.412],\"fallback\":\"plugin failed: NullPointerException\",\"picked\":\"a\"}]}");
        assertThat(DecisionText.lines(d, 10_000L)).containsExactly(
                "Attempt 1: score chose among a, b, c and picked a.",
                "Drew 0.412.",
                "b was given 0.61 in place of its own score because its metrics were stale (older than 10 s).",
                "c joined the pool recently: its own score 0.2 stands, but its share is held to the strategy's "
                        + "coldStartShare of an equal one (a cold start).",
                "The configured strategy did not make this pick (plugin failed: NullPointerException); the pool's "
                        + "fallback strategy did: a.");
        assertThat(DecisionText.rows(d.picks().get(0))).extracting(DecisionText.Row::note)
                .containsExactly("picked", "stale", "cold-start");
    }

    @Test
    void adaptiveSaysTheStandInIsTheAverage() {
        Backend a = backend("a");
        Backend b = backend("b");
        DecisionRecorder r = new DecisionRecorder(new UndertowRequest(null, "/"));
        r.considering("adaptive", new Candidates(List.of(a, b), new int[] {100, 100}), Eligibility.ADMITTING, false);
        r.score(a, 0.61, null);
        r.score(b, 0.61, "stale");
        r.draw(0.3);
        r.picked(b);

        assertThat(DecisionText.lines(r.decision(), 10_000L)).contains(
                "b scored the average 0.61 because its metrics were stale (older than 10 s).");
        assertThat(DecisionText.lines(r.decision(), null)).contains(
                "b scored the average 0.61 because its metrics were stale (older than the strategy's staleAfterMs).");
    }

    @Test
    void aRetryIsASecondPickNumberedByItsAttemptAndAKeyIsKept() {
        Backend a = backend("a");
        Backend b = backend("b");
        ExchangeRequest request = new UndertowRequest(null, "/k");
        DecisionRecorder r = new DecisionRecorder(request);
        Candidates ab = new Candidates(List.of(a, b), new int[] {100, 100});
        r.attempt(1);
        r.considering("consistent-hash", ab, Eligibility.ADMITTING, false);
        request.hashed("/k", -1L);
        r.picked(a);
        r.attempt(2);
        r.considering("consistent-hash", ab, x -> x != a, false);
        r.picked(b);

        Decision d = r.decision();

        assertThat(d.picks()).extracting(Decision.Pick::attempt).containsExactly(1, 2);
        assertThat(d.picks().get(1).candidate("a").skipped()).isEqualTo("tried");
        assertThat(d.toJson()).contains("\"picked\":\"a\",\"key\":\"/k\",\"keyHash\":\"18446744073709551615\"");
        assertThat(DecisionText.lines(d)).contains("Attempt 2: consistent-hash chose among b and picked b.",
                "a was left out: this request had already failed on it.");
    }

    @Test
    void noPickNoDecision() {
        assertThat(new DecisionRecorder(new UndertowRequest(null, "/")).decision()).isNull();
        assertThat(DecisionText.lines(null)).containsExactly(DecisionText.notRecorded());
    }
}
