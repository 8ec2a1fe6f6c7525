package dev.fulcrum.ui.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.requests.RequestSample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RateSourceTest {
    private double t;

    private static EngineState.BackendInfo server(String id, String pool, double rps, double errorRate) {
        return new EngineState.BackendInfo(id, pool, "http://10.0.0.1:80", 1, 1, "UP", "UP", null, 0, 0, 0, rps, errorRate,
                Double.NaN, Double.NaN, false, null, 0, 0);
    }

    private static EngineState fleet(EngineState.BackendInfo... servers) {
        return new EngineState("haproxy://h1:9999", null, Map.of(), List.of(), List.of(servers));
    }

    @Test
    void theClassCommentsExample() {
        EngineState s = fleet(server("s1", "web", 30, 0.1), server("s2", "web", 10, 0));
        RateSource r = new RateSource(() -> s, () -> "web", () -> t);
        assertThat(r.poll().requests()).as("the first poll only starts the clock").isEmpty();
        t = 0.1;
        List<RequestSample> got = r.poll().requests();
        assertThat(got).extracting(RequestSample::backend).containsExactly("s1", "s1", "s1", "s2");
        assertThat(got).extracting(RequestSample::status).containsOnly(200);
        assertThat(got.get(0).attempts()).singleElement().extracting(RequestSample.Attempt::backend).isEqualTo("s1");
        assertThat(got.get(0).latencyMs()).as("HAProxy gives no p50: no hold").isZero();
    }

    @Test
    void fractionsCarryOverSoASlowBackendStillGetsItsDotsAndErrorsTheirShare() {
        EngineState s = fleet(server("s1", "web", 0.5, 0), server("bad", "web", 10, 0.5), server("other", "api", 100, 0));
        RateSource r = new RateSource(() -> s, () -> "web", () -> t);
        r.poll();
        int s1 = 0;
        int bad = 0;
        int errors = 0;
        for (int i = 1; i <= 40; i++) { // 4 s at ten polls a second
            t = i * 0.1;
            for (RequestSample q : r.poll().requests()) {
                assertThat(q.pool()).isEqualTo("web");
                if (q.backend().equals("s1")) {
                    s1++;
                } else {
                    bad++;
                    errors += q.status() == 500 ? 1 : 0;
                }
            }
        }
        assertThat(s1).isEqualTo(2);
        assertThat(bad).isBetween(39, 40);
        assertThat(errors).isBetween(19, 20);
    }

    @Test
    void aSampleKeepsItsBudgetAndCountsTheRestAsDropped() {
        EngineState s = fleet(server("s1", "web", 1000, 0));
        RateSource r = new RateSource(() -> s, () -> "web", () -> t);
        r.poll();
        t = 0.1;
        RequestSource.Batch b = r.sample(40);
        assertThat(b.requests()).as("every third of 100, as every source shares out a batch").hasSize(34);
        assertThat(b.dropped()).isEqualTo(66);
    }

    @Test
    void fedToTheStageARateBecomesDotsBoundForItsBackend() {
        EngineState s = fleet(server("s1", "web", 20, 0));
        RateSource r = new RateSource(() -> s, () -> "web", () -> t);
        LiveModel model = new LiveModel(() -> t);
        r.poll();
        t = 0.5;
        model.offer(r.sample(LiveController.PER_FRAME));
        assertThat(model.flights()).isNotEmpty().allSatisfy(f -> assertThat(f.destination()).isEqualTo("s1"));
    }
}
