package dev.fulcrum.proxy;

import io.undertow.util.HttpString;
import io.undertow.util.Methods;

/**
 * Whether a failed attempt may go to another backend (docs/REFERENCE.md §3), decided from where the exchange is and
 * nothing else. An attempt whose connection could not be made never reached a backend, so any method may go
 * elsewhere. Once a request was sent, only GET, HEAD and OPTIONS (or any method with {@code retryNonIdempotent}) are
 * sent again, and only while no body byte was streamed and no answer arrived. 5xx answers are passed through, not
 * retried (nginx's default), so they never come here.
 *
 * <p>Example, {@code maxRetries} 2: a POST refused at connect goes to a second and a third backend; a POST whose
 * request went out and got a reset gets its 502 at once; a GET that times out on three backends gets its 504 after
 * the third.
 *
 * <p>One per proxy (its settings do not change while it runs): nothing is allocated per request.
 *
 * @param maxRetries         attempts after the first
 * @param retryNonIdempotent every method may be sent again, not only the idempotent ones
 */
record RetryPolicy(int maxRetries, boolean retryNonIdempotent) {

    static RetryPolicy of(ProxySettings settings) {
        return new RetryPolicy(settings.maxRetries(), settings.retryNonIdempotent());
    }

    /** Whether a request with this method may be sent again after it reached a backend. */
    boolean resendable(HttpString method) {
        return retryNonIdempotent || method.equals(Methods.GET) || method.equals(Methods.HEAD)
                || method.equals(Methods.OPTIONS);
    }

    /**
     * Whether the attempt that just failed may be followed by another on another backend. {@code attempts}: how many
     * were made, the failed one included.
     */
    boolean mayRetry(int attempts, ExchangePhase phase, boolean resendable) {
        return attempts <= maxRetries && phase.nothingStreamed() && (phase == ExchangePhase.CONNECTING || resendable);
    }

    /**
     * Whether a pooled connection that failed as the request went out on it may be replaced by a fresh one to the same
     * backend, outside the count of {@link #maxRetries}: the backend closed an idle connection just then (a dev server
     * does after a few seconds: Node's default is 5 s), which says nothing about the backend, and nginx, too, tries
     * again without counting it. Once per request, and only for a request that may be sent again (whether a POST got
     * there cannot be known).
     */
    boolean mayRetryOnFreshConnection(ExchangePhase phase, boolean pooled, boolean freshRetryMade, boolean resendable) {
        return pooled && !freshRetryMade && resendable && phase.nothingStreamed();
    }
}
