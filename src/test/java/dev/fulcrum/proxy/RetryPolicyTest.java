package dev.fulcrum.proxy;

import static dev.fulcrum.proxy.ExchangePhase.ANSWERED;
import static dev.fulcrum.proxy.ExchangePhase.ANSWERING;
import static dev.fulcrum.proxy.ExchangePhase.CONNECTING;
import static dev.fulcrum.proxy.ExchangePhase.ENDED_UNANSWERED;
import static dev.fulcrum.proxy.ExchangePhase.SENT;
import static dev.fulcrum.proxy.ExchangePhase.UPGRADING;
import static dev.fulcrum.proxy.ExchangePhase.UPLOADING;
import static org.assertj.core.api.Assertions.assertThat;

import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** docs/REFERENCE.md §3's retry rules, decided from the attempt count, the phase and the method alone. */
class RetryPolicyTest {
    private final RetryPolicy twoRetries = new RetryPolicy(2, false);

    @Test
    void onlyGetHeadAndOptionsAreSentAgainUnlessEveryMethodMayBe() {
        for (HttpString m : new HttpString[] {Methods.GET, Methods.HEAD, Methods.OPTIONS}) {
            assertThat(twoRetries.resendable(m)).as(m.toString()).isTrue();
        }
        for (HttpString m : new HttpString[] {Methods.POST, Methods.PUT, Methods.DELETE, Methods.PATCH, new HttpString("PURGE")}) {
            assertThat(twoRetries.resendable(m)).as(m.toString()).isFalse();
            assertThat(new RetryPolicy(2, true).resendable(m)).as(m + " with retryNonIdempotent").isTrue();
        }
    }

    @Test
    void aRequestThatNeverReachedABackendGoesElsewhereWhateverItsMethodUntilTheRetriesAreSpent() {
        // a POST refused at connect: a second and a third backend, then the error answer
        assertThat(twoRetries.mayRetry(1, CONNECTING, false)).isTrue();
        assertThat(twoRetries.mayRetry(2, CONNECTING, false)).isTrue();
        assertThat(twoRetries.mayRetry(3, CONNECTING, false)).isFalse();
        assertThat(new RetryPolicy(0, true).mayRetry(1, CONNECTING, true)).as("maxRetries 0").isFalse();
    }

    @Test
    void aRequestThatWentOutIsSentAgainOnlyWhenItsMethodAllows() {
        assertThat(twoRetries.mayRetry(1, SENT, false)).as("a POST that got a reset").isFalse();
        // a GET that times out on three backends: its 504 after the third
        assertThat(twoRetries.mayRetry(1, SENT, true)).isTrue();
        assertThat(twoRetries.mayRetry(2, SENT, true)).isTrue();
        assertThat(twoRetries.mayRetry(3, SENT, true)).isFalse();
    }

    @Test
    void onceABodyByteWentOutOrAnAnswerCameBackNothingIsRetried() {
        for (ExchangePhase p : EnumSet.complementOf(EnumSet.of(CONNECTING, SENT))) {
            assertThat(twoRetries.mayRetry(1, p, true)).as(p.name()).isFalse();
            assertThat(twoRetries.mayRetryOnFreshConnection(p, true, false, true)).as(p.name()).isFalse();
        }
        assertThat(EnumSet.complementOf(EnumSet.of(CONNECTING, SENT)))
                .contains(UPLOADING, ANSWERING, ANSWERED, UPGRADING, ENDED_UNANSWERED);
    }

    @Test
    void aPooledConnectionFoundClosedIsReplacedOnceForAResendableRequest() {
        assertThat(twoRetries.mayRetryOnFreshConnection(SENT, true, false, true)).isTrue();
        assertThat(twoRetries.mayRetryOnFreshConnection(SENT, false, false, true)).as("a fresh connection failed").isFalse();
        assertThat(twoRetries.mayRetryOnFreshConnection(SENT, true, true, true)).as("the one retry was made").isFalse();
        assertThat(twoRetries.mayRetryOnFreshConnection(SENT, true, false, false)).as("a POST").isFalse();
        assertThat(new RetryPolicy(0, false).mayRetryOnFreshConnection(SENT, true, false, true))
                .as("outside maxRetries").isTrue();
    }

    @Test
    void theSettingsGiveThePolicy() {
        ProxySettings s = ProxySettings.defaults(0);
        assertThat(RetryPolicy.of(s)).isEqualTo(new RetryPolicy(s.maxRetries(), s.retryNonIdempotent()));
    }
}
