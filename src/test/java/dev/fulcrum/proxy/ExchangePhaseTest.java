package dev.fulcrum.proxy;

import static dev.fulcrum.proxy.ExchangePhase.ANSWERED;
import static dev.fulcrum.proxy.ExchangePhase.ANSWERING;
import static dev.fulcrum.proxy.ExchangePhase.CONNECTING;
import static dev.fulcrum.proxy.ExchangePhase.ENDED_ANSWERED;
import static dev.fulcrum.proxy.ExchangePhase.ENDED_ANSWERING;
import static dev.fulcrum.proxy.ExchangePhase.ENDED_UNANSWERED;
import static dev.fulcrum.proxy.ExchangePhase.ENDED_UPGRADED;
import static dev.fulcrum.proxy.ExchangePhase.SENT;
import static dev.fulcrum.proxy.ExchangePhase.TUNNEL;
import static dev.fulcrum.proxy.ExchangePhase.UPGRADING;
import static dev.fulcrum.proxy.ExchangePhase.UPLOADING;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The phases of one exchange: the paths through them, and what ending keeps. */
class ExchangePhaseTest {
    private static final Set<ExchangePhase> ENDED = EnumSet.of(ENDED_UNANSWERED, ENDED_ANSWERING, ENDED_ANSWERED, ENDED_UPGRADED);

    @Test
    void aGetThatFindsItsPooledConnectionClosedIsAnsweredOnAFreshOne() {
        ExchangePhase p = CONNECTING.sent();
        assertThat(p).isEqualTo(SENT);
        p = p.unsent(); // the fresh connection
        assertThat(p).isEqualTo(CONNECTING);
        p = p.sent().headArrived();
        assertThat(p).isEqualTo(ANSWERING);
        p = p.answered();
        assertThat(p).isEqualTo(ANSWERED);
        assertThat(p.finish()).isEqualTo(ENDED_ANSWERED);
    }

    @Test
    void aPostWhoseBackendResetsMidUploadEndsUnanswered() {
        assertThat(CONNECTING.sent().uploading().finish()).isEqualTo(ENDED_UNANSWERED);
    }

    @Test
    void aWebSocketGoesThroughUpgradingToTheTunnel() {
        ExchangePhase p = CONNECTING.sent().headArrived().upgrading();
        assertThat(p).isEqualTo(UPGRADING);
        assertThat(p.tunnelOpened()).isEqualTo(TUNNEL);
        assertThat(TUNNEL.finish()).isEqualTo(ENDED_UPGRADED);
        assertThat(UPGRADING.finish().tunnelOpened()).as("a client gone before the 101 was out").isEqualTo(ENDED_UPGRADED);
    }

    @Test
    void endingKeepsHowFarTheExchangeGot() {
        for (ExchangePhase p : ExchangePhase.values()) {
            ExchangePhase e = p.finish();
            assertThat(e.ended()).as(p.name()).isTrue();
            assertThat(e.answerArrived()).as(p.name()).isEqualTo(p.answerArrived());
            assertThat(e.answerDone()).as(p.name()).isEqualTo(p.answerDone());
            assertThat(e.upgraded()).as(p.name()).isEqualTo(p.upgraded());
            assertThat(e.finish()).as(p.name()).isEqualTo(e);
        }
        assertThat(EnumSet.allOf(ExchangePhase.class).stream().filter(ExchangePhase::ended)).containsExactlyInAnyOrderElementsOf(ENDED);
    }

    @Test
    void anAnswerThatCompletesAfterTheExchangeEndedStillCountsAsAllOut() {
        assertThat(ANSWERING.finish().answered()).isEqualTo(ENDED_ANSWERED);
        assertThat(ENDED_ANSWERED.answerDone()).isTrue();
    }

    @Test
    void aLateNoticeMovesNothing() {
        for (UnaryOperator<ExchangePhase> step : List.<UnaryOperator<ExchangePhase>>of(ExchangePhase::sent,
                ExchangePhase::unsent, ExchangePhase::uploading, ExchangePhase::headArrived, ExchangePhase::upgrading,
                ExchangePhase::tunnelOpened)) {
            for (ExchangePhase e : ENDED) {
                assertThat(step.apply(e)).as(e.name()).isEqualTo(e);
            }
        }
        assertThat(ANSWERING.sent()).isEqualTo(ANSWERING);
        assertThat(ANSWERING.unsent()).isEqualTo(ANSWERING);
        assertThat(ANSWERING.uploading()).as("the head was written after the answer came").isEqualTo(ANSWERING);
        assertThat(UPLOADING.unsent()).as("a body that went out stays out").isEqualTo(UPLOADING);
        assertThat(ANSWERED.headArrived()).isEqualTo(ANSWERED);
        assertThat(CONNECTING.answered()).isEqualTo(CONNECTING);
    }

    @Test
    void theReadDeadlineRunsOnlyWhileAnAnswerIsAwaitedAndARetryNeedsNothingStreamed() {
        assertThat(EnumSet.allOf(ExchangePhase.class).stream().filter(ExchangePhase::awaitingAnswer))
                .containsExactly(CONNECTING, SENT, UPLOADING);
        assertThat(EnumSet.allOf(ExchangePhase.class).stream().filter(ExchangePhase::nothingStreamed))
                .containsExactly(CONNECTING, SENT);
        assertThat(EnumSet.allOf(ExchangePhase.class).stream().filter(ExchangePhase::upgraded))
                .containsExactly(UPGRADING, TUNNEL, ENDED_UPGRADED);
    }
}
