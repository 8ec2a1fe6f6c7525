package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.CircuitBreaker;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** One backend's breaker transitions, told in the order the breaker made them whatever order they arrive in. */
@DisplayName("Breaker event order")
class BreakerEventOrderTest {
    static final CircuitBreaker.State CLOSED = CircuitBreaker.State.CLOSED;
    static final CircuitBreaker.State OPEN = CircuitBreaker.State.OPEN;
    static final CircuitBreaker.State HALF = CircuitBreaker.State.HALF_OPEN;

    final BreakerEventOrder order = new BreakerEventOrder();
    final List<String> told = new ArrayList<>();

    void arrive(long sequence, CircuitBreaker.State from, CircuitBreaker.State to) {
        order.arrived(sequence, from, to, (f, t) -> told.add(f + "->" + t));
    }

    @Test
    void theClassCommentsExample() {
        arrive(3, HALF, CLOSED);
        arrive(2, OPEN, HALF);
        assertThat(told).isEmpty();

        arrive(1, CLOSED, OPEN);
        arrive(1, CLOSED, OPEN);

        assertThat(told).containsExactly("CLOSED->OPEN", "OPEN->HALF_OPEN", "HALF_OPEN->CLOSED");
    }

    @Test
    void aTransitionWithoutASequenceNumberIsToldAtOnce() {
        arrive(2, OPEN, HALF);
        arrive(0, CLOSED, OPEN);
        arrive(0, CLOSED, OPEN);

        assertThat(told).containsExactly("CLOSED->OPEN", "CLOSED->OPEN");
    }

    @Test
    void transitionsWaitingForOneThatNeverComesAreToldFromTheOldestOnceSixteenWait() {
        CircuitBreaker.State[] cycle = {CLOSED, OPEN, HALF};
        for (int seq = 2; seq < 2 + BreakerEventOrder.MAX_WAITING - 1; seq++) {
            arrive(seq, cycle[(seq - 1) % 3], cycle[seq % 3]);
        }
        assertThat(told).as("fifteen waiting").isEmpty();

        arrive(2 + BreakerEventOrder.MAX_WAITING - 1, OPEN, HALF);

        assertThat(told).hasSize(BreakerEventOrder.MAX_WAITING).startsWith("OPEN->HALF_OPEN", "HALF_OPEN->CLOSED");
    }

    @Test
    void afterAResetTheNumberingStartsAgainAtOne() {
        arrive(1, CLOSED, OPEN);
        arrive(2, OPEN, HALF);

        order.reset();
        arrive(1, CLOSED, OPEN);

        assertThat(told).containsExactly("CLOSED->OPEN", "OPEN->HALF_OPEN", "CLOSED->OPEN");
    }
}
