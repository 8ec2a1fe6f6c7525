package dev.fulcrum.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The guard's judgement on given figures, one call a second, exactly; the engine's tick is in RouteSplitTest. */
@DisplayName("Canary guard")
class CanaryGuardTest {
    static final long SECOND = 1_000_000_000L;

    static ArmStats.Figures figures(long requests, long errors, double p99Ms) {
        return new ArmStats.Figures(requests, errors, requests / 60.0, requests == 0 ? 0 : (double) errors / requests,
                p99Ms / 2, p99Ms, requests);
    }

    /** Judges once a second for {@code seconds}, from second {@code from}; the last judgement's answer. */
    static String judge(CanaryGuard g, ArmStats.Figures base, ArmStats.Figures canary, int weight, int from,
                        int seconds) {
        String reason = null;
        for (int s = from; s < from + seconds; s++) {
            reason = g.judge("stable", base, canary, weight, s * SECOND, 1000L * s);
            if (reason != null) {
                return reason;
            }
        }
        return reason;
    }

    @Test
    void theClassExampleTwelvePercentAgainstOneForTenSecondsIsARollback() {
        CanaryGuard g = new CanaryGuard("canary", 0.05, null, 100, 10_000);
        ArmStats.Figures base = figures(1000, 10, 50);
        ArmStats.Figures bad = figures(200, 24, 50);

        assertThat(judge(g, base, bad, 5, 0, 10)).as("held 9 s").isNull();
        assertThat(g.status().state()).isEqualTo(CanaryGuard.BREACHING);
        assertThat(g.status().sinceMillis()).as("breaching since its first second").isZero();
        assertThat(g.status().reason()).isEqualTo(
                "canary error rate 0.120 above stable's 0.010 by more than errorRateAbove 0.05");

        String reason = g.judge("stable", base, bad, 5, 10 * SECOND, 10_000);
        assertThat(reason).isEqualTo("canary error rate 0.120 above stable's 0.010 by more than errorRateAbove 0.05"
                + " for 10 s (1000 and 200 requests)");
        assertThat(g.status()).isEqualTo(new CanaryGuard.Status(CanaryGuard.ROLLED_BACK, 10_000, reason));
    }

    @Test
    void theClassExampleFiveAndAHalfPercentIsNeverARollback() {
        CanaryGuard g = new CanaryGuard("canary", 0.05, null, 100, 10_000);
        assertThat(judge(g, figures(1000, 10, 50), figures(200, 11, 50), 5, 0, 120)).isNull();
        assertThat(g.status().state()).isEqualTo(CanaryGuard.WATCHING);
    }

    @Test
    void theErrorRateBoundIsTheCanaryMinusTheBaseline() {
        // baseline at 30% errors, canary at 34%: 4 points worse, under a bound of 5, though 34% is far above 5%
        CanaryGuard g = new CanaryGuard("canary", 0.05, null, 100, 1000);
        assertThat(judge(g, figures(1000, 300, 50), figures(1000, 340, 50), 5, 0, 5)).isNull();
        assertThat(g.status().state()).isEqualTo(CanaryGuard.WATCHING);
        assertThat(judge(g, figures(1000, 300, 50), figures(1000, 360, 50), 5, 5, 5)).isNotNull();
    }

    @Test
    void theP99BoundIsAFractionAboveTheBaselinesP99() {
        CanaryGuard g = new CanaryGuard("canary", null, 0.5, 100, 2000);
        // 150 ms against 100 ms is exactly 1.5 times: not above
        assertThat(judge(g, figures(500, 0, 100), figures(500, 0, 150), 5, 0, 10)).isNull();
        assertThat(g.status().state()).isEqualTo(CanaryGuard.WATCHING);

        String reason = judge(g, figures(500, 0, 100), figures(500, 0, 151), 5, 10, 10);
        assertThat(reason).isEqualTo("canary p99 151.0 ms above stable's 100.0 ms by more than p99AboveBaselineBy 0.5"
                + " for 2 s (500 and 500 requests)");
    }

    @Test
    void tooFewRequestsInEitherArmIsNoJudgement() {
        CanaryGuard g = new CanaryGuard("canary", 0.05, null, 100, 1000);
        assertThat(judge(g, figures(1000, 0, 50), figures(99, 99, 50), 5, 0, 30)).isNull();
        assertThat(g.status()).isEqualTo(new CanaryGuard.Status(CanaryGuard.TOO_FEW, 0,
                "1000 and 99 requests in the last minute, 100 needed in each"));
        assertThat(judge(g, figures(99, 0, 50), figures(1000, 999, 50), 5, 30, 30)).isNull();
        assertThat(g.status().state()).isEqualTo(CanaryGuard.TOO_FEW);
    }

    @Test
    void aBreakInTheBreachStartsTheCountAgain() {
        CanaryGuard g = new CanaryGuard("canary", 0.05, null, 10, 3000);
        ArmStats.Figures base = figures(100, 0, 50);
        ArmStats.Figures bad = figures(100, 20, 50);
        assertThat(judge(g, base, bad, 5, 0, 3)).isNull(); // seconds 0, 1, 2: held 2 s
        assertThat(judge(g, base, figures(100, 0, 50), 5, 3, 1)).isNull(); // a good second
        assertThat(judge(g, base, bad, 5, 4, 3)).as("4, 5, 6: held 2 s again").isNull();
        assertThat(g.status().sinceMillis()).isEqualTo(4000);
        assertThat(judge(g, base, bad, 5, 7, 1)).isNotNull();
    }

    @Test
    void aCanaryAtZeroIsIdleAndARolledBackGuardStaysSoUntilRearmed() {
        CanaryGuard g = new CanaryGuard("canary", 0.05, null, 10, 1000);
        assertThat(judge(g, figures(100, 0, 50), figures(100, 50, 50), 0, 0, 5)).isNull();
        assertThat(g.status().state()).isEqualTo(CanaryGuard.IDLE);

        assertThat(judge(g, figures(100, 0, 50), figures(100, 50, 50), 5, 5, 5)).isNotNull();
        assertThat(judge(g, figures(100, 0, 50), figures(100, 50, 50), 0, 10, 5)).isNull();
        assertThat(g.status().state()).as("the canary at 0 after a rollback").isEqualTo(CanaryGuard.ROLLED_BACK);

        g.rearm(20_000);
        assertThat(g.status()).isEqualTo(new CanaryGuard.Status(CanaryGuard.WATCHING, 20_000, null));
    }
}
