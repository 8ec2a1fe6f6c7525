package dev.fulcrum.proxy;

/**
 * Where one {@link ProxyExchange} is: one value instead of a flag per step, so that a combination no exchange can be
 * in cannot be written down. Each transition is a method that returns the next phase; from a phase it does not apply
 * to, it returns the phase unchanged (a late notice moves nothing).
 *
 * <pre>
 *   CONNECTING --sent--> SENT --uploading--> UPLOADING          (a retry: SENT --unsent--> CONNECTING)
 *   CONNECTING, SENT, UPLOADING --headArrived--> ANSWERING --answered--> ANSWERED
 *   ANSWERING --upgrading--> UPGRADING --tunnelOpened--> TUNNEL
 *   any live phase --finish--> ENDED_UNANSWERED | ENDED_ANSWERING | ENDED_ANSWERED | ENDED_UPGRADED
 *   ENDED_ANSWERING --answered--> ENDED_ANSWERED
 * </pre>
 *
 * <p>An ended exchange takes no more events from its backend or its timers, but how far it got still counts: the
 * lease's outcome depends on whether the answer was all out, the access log names the backend only when an answer
 * arrived, and an upgraded exchange leaves its completion to the tunnel. So ending keeps that much: four ended phases,
 * one per kind of live phase it can end in.
 *
 * <p>Example: a GET whose pooled connection turns out closed goes CONNECTING, SENT, then (the fresh connection)
 * CONNECTING, SENT, ANSWERING, ANSWERED, ENDED_ANSWERED. A POST whose backend resets mid-upload goes CONNECTING, SENT,
 * UPLOADING, ENDED_UNANSWERED (a 502: a request whose body went out is not sent again).
 */
enum ExchangePhase {
    /** A backend was picked and a connection to it is being found or made; no request went out on this attempt. */
    CONNECTING(false, false, false, false),
    /** The request head went out on a connection: this attempt reached a backend. */
    SENT(false, false, false, false),
    /** The request body streams to the backend: the request cannot be sent again. */
    UPLOADING(false, false, false, false),
    /** The backend's head arrived; its answer is on its way to the client. */
    ANSWERING(true, false, false, false),
    /** The answer is all out; the exchange is ending. */
    ANSWERED(true, true, false, false),
    /** A 101 is on its way to the client; the tunnel opens once it is flushed. */
    UPGRADING(true, false, true, false),
    /** The two connections are spliced: the tunnel holds the lease until either side closes. */
    TUNNEL(true, false, true, false),
    /** Ended before any answer arrived (an error answer, a client gone, a refused body). */
    ENDED_UNANSWERED(false, false, false, true),
    /** Ended while the answer was on its way (cut off, or the client left). */
    ENDED_ANSWERING(true, false, false, true),
    /** Ended with the answer all out. */
    ENDED_ANSWERED(true, true, false, true),
    /** Ended after an upgrade was agreed. */
    ENDED_UPGRADED(true, false, true, true);

    private final boolean answerArrived;
    private final boolean answerDone;
    private final boolean upgraded;
    private final boolean ended;

    ExchangePhase(boolean answerArrived, boolean answerDone, boolean upgraded, boolean ended) {
        this.answerArrived = answerArrived;
        this.answerDone = answerDone;
        this.upgraded = upgraded;
        this.ended = ended;
    }

    /** The exchange is over: nothing its backend or its timers report acts on it any more. */
    boolean ended() {
        return ended;
    }

    /** The backend's head arrived (and was not refused). */
    boolean answerArrived() {
        return answerArrived;
    }

    /** Every byte of the answer went to the client. */
    boolean answerDone() {
        return answerDone;
    }

    /** A 101 was passed on: the tunnel, not the exchange, completes it. */
    boolean upgraded() {
        return upgraded;
    }

    /** Live, and no answer yet: the read deadline may run. */
    boolean awaitingAnswer() {
        return this == CONNECTING || this == SENT || this == UPLOADING;
    }

    /** Live, no body byte went to a backend and no answer came back: the request itself is as it was. */
    boolean nothingStreamed() {
        return this == CONNECTING || this == SENT;
    }

    /** The connection was made and the request head goes out on it. */
    ExchangePhase sent() {
        return this == CONNECTING ? SENT : this;
    }

    /** A new attempt begins, or this one's connection was never made: no request is out. */
    ExchangePhase unsent() {
        return this == SENT ? CONNECTING : this;
    }

    /** The body starts to stream to the backend. */
    ExchangePhase uploading() {
        return this == CONNECTING || this == SENT ? UPLOADING : this;
    }

    /** The backend's head arrived. */
    ExchangePhase headArrived() {
        return awaitingAnswer() ? ANSWERING : this;
    }

    /** The last byte of the answer went to the client. */
    ExchangePhase answered() {
        return switch (this) {
            case ANSWERING -> ANSWERED;
            case ENDED_ANSWERING -> ENDED_ANSWERED;
            default -> this;
        };
    }

    /** The answer is a 101 the client asked for. */
    ExchangePhase upgrading() {
        return this == ANSWERING ? UPGRADING : this;
    }

    /** The 101 is out and the connections are spliced. */
    ExchangePhase tunnelOpened() {
        return this == UPGRADING ? TUNNEL : this;
    }

    /** The exchange is over, for whatever reason; how far it got is kept. */
    ExchangePhase finish() {
        return switch (this) {
            case CONNECTING, SENT, UPLOADING -> ENDED_UNANSWERED;
            case ANSWERING -> ENDED_ANSWERING;
            case ANSWERED -> ENDED_ANSWERED;
            case UPGRADING, TUNNEL -> ENDED_UPGRADED;
            default -> this;
        };
    }
}
