package dev.fulcrum.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import org.junit.jupiter.api.Test;

/**
 * A backend whose ejection ends is back in rotation whether or not anything listens there (as nginx's
 * {@code fail_timeout}); unless active health checks say it is UP it is unverified until a request to it, or a probe,
 * succeeds.
 */
class UnverifiedAfterEjectionTest {
    /** OutlierTest's manual engine and helpers: 3 failures in a row eject for 1 s x times ejected. */
    private final OutlierTest t = new OutlierTest();
    private final ManualClock clock = t.clock;

    /** a, b: 3 failures in a row eject a for 1 s. */
    private void given() {
        t.given("a", "b");
    }

    private void ejectAndWaitOut() {
        t.fail("a", 3);
        assertThat(t.view("a").state()).isEqualTo(BackendState.EJECTED);
        assertThat(t.view("a").unverified()).as("while ejected it is not in rotation").isFalse();
        clock.advanceMillis(1000);
        t.engine.tick();
        assertThat(t.view("a").state()).isEqualTo(BackendState.UP);
    }

    @Test
    void aBackendNeverEjectedIsNotUnverified() {
        given();
        assertThat(t.view("a").unverified()).isFalse();
        t.fail("a", 2);
        assertThat(t.view("a").unverified()).isFalse();
    }

    @Test
    void withNoHealthChecksItIsUnverifiedUntilARequestToItSucceeds() {
        given();
        ejectAndWaitOut();
        assertThat(t.view("a").unverified()).isTrue();

        t.outcomes("a", Outcome.CLIENT_ABORT);
        assertThat(t.view("a").unverified()).as("a client that left says nothing of the backend").isTrue();
        t.outcomes("a", Outcome.SERVER_ERROR);
        assertThat(t.view("a").unverified()).isTrue();

        t.outcomes("a", Outcome.SUCCESS);
        assertThat(t.view("a").unverified()).isFalse();
    }

    @Test
    void aGoodProbeVerifiesIt() {
        given();
        ejectAndWaitOut();

        t.engine.reportProbe("a", true);

        assertThat(t.view("a").unverified()).isFalse();
    }

    @Test
    void activeChecksThatSayUpWhenTheEjectionEndsLeaveItVerified() {
        given();
        t.engine.reportProbe("a", true);
        assertThat(t.view("a").health()).isEqualTo(HealthStatus.UP);

        ejectAndWaitOut();

        assertThat(t.view("a").unverified()).isFalse();
    }

    @Test
    void enablingAnEjectedBackendPutsItBackUnverified() {
        given();
        t.fail("a", 3);
        assertThat(t.view("a").state()).isEqualTo(BackendState.EJECTED);

        t.engine.enable("a");

        assertThat(t.view("a").state()).isEqualTo(BackendState.UP);
        assertThat(t.view("a").unverified()).isTrue();
    }

    @Test
    void onlyAnUpBackendIsReportedUnverified() {
        given();
        ejectAndWaitOut();

        t.engine.drain("a");

        assertThat(t.view("a").state()).isIn(BackendState.DRAINING, BackendState.DRAINED);
        assertThat(t.view("a").unverified()).isFalse();
    }
}
