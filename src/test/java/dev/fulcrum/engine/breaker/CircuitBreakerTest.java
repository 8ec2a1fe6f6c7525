package dev.fulcrum.engine.breaker;

import static dev.fulcrum.engine.breaker.CircuitBreaker.Call.FAILURE;
import static dev.fulcrum.engine.breaker.CircuitBreaker.Call.SLOW;
import static dev.fulcrum.engine.breaker.CircuitBreaker.Call.SUCCESS;
import static dev.fulcrum.engine.breaker.CircuitBreaker.State.CLOSED;
import static dev.fulcrum.engine.breaker.CircuitBreaker.State.HALF_OPEN;
import static dev.fulcrum.engine.breaker.CircuitBreaker.State.OPEN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The breaker on its own, driven by a fake clock: thresholds, deadlines, probes, tickets. */
@DisplayName("CircuitBreaker")
class CircuitBreakerTest {
    /** window 10, decide from 4 calls, open at 50% failures or 50% slow calls (>= 1000 ms), 10 s, 2 probes. */
    static final BreakerSpec SPEC = new BreakerSpec(true, 10, 4, 50, 1000, 50, 10_000, 2);

    final ManualClock clock = new ManualClock();
    final List<String> transitions = new ArrayList<>();
    ExecutorService pool;

    CircuitBreaker breaker(BreakerSpec spec) {
        return new CircuitBreaker(spec, clock, (b, from, to) -> {
            synchronized (transitions) {
                transitions.add(from + "->" + to);
            }
        });
    }

    /** Records calls as if each had been admitted just before it finished. */
    static void calls(CircuitBreaker b, CircuitBreaker.Call... calls) {
        for (CircuitBreaker.Call c : calls) {
            long ticket = b.acquire();
            assertThat(ticket).isNotEqualTo(CircuitBreaker.REFUSED);
            b.record(c, ticket);
        }
    }

    CircuitBreaker opened() {
        CircuitBreaker b = breaker(SPEC);
        calls(b, FAILURE, FAILURE, FAILURE, FAILURE);
        assertThat(b.state()).isEqualTo(OPEN);
        return b;
    }

    CircuitBreaker halfOpen() {
        CircuitBreaker b = opened();
        clock.advance(Duration.ofMillis(SPEC.openMs()));
        assertThat(b.advance()).isTrue();
        return b;
    }

    @AfterEach
    void stopThreads() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    @Test
    void opensWhenTheFailureRateReachesTheThresholdOnceMinimumCallsAreIn() {
        CircuitBreaker b = breaker(SPEC);

        calls(b, SUCCESS, FAILURE, SUCCESS);
        assertThat(b.state()).as("3 calls < minimumCalls 4").isEqualTo(CLOSED);
        calls(b, FAILURE);

        assertThat(b.state()).isEqualTo(OPEN);
        assertThat(transitions).containsExactly("CLOSED->OPEN");
    }

    @Test
    void staysClosedBeforeMinimumCallsEvenWhenEveryCallFails() {
        CircuitBreaker b = breaker(SPEC);

        calls(b, FAILURE, FAILURE, FAILURE);

        assertThat(b.state()).isEqualTo(CLOSED);
        assertThat(b.snapshot().failureRate()).isEqualTo(100.0);
        assertThat(transitions).isEmpty();
    }

    @Test
    void staysClosedWhileTheFailureRateIsBelowTheThreshold() {
        CircuitBreaker b = breaker(SPEC);

        calls(b, SUCCESS, SUCCESS, FAILURE, SUCCESS, SUCCESS, FAILURE, SUCCESS, SUCCESS, SUCCESS, FAILURE);

        assertThat(b.state()).as("3 of 10 = 30%").isEqualTo(CLOSED);
        assertThat(b.snapshot().recent()).hasSize(10);
    }

    @Test
    void ratesAreOverTheLastWindowCallsOnly() {
        CircuitBreaker b = breaker(new BreakerSpec(true, 4, 4, 75, 1000, 100, 10_000, 2));

        calls(b, FAILURE, FAILURE, SUCCESS, SUCCESS); // 50%
        calls(b, SUCCESS, FAILURE);                   // window S S S F: 25%
        assertThat(b.state()).isEqualTo(CLOSED);
        calls(b, FAILURE, FAILURE);                   // window S F F F: 75%

        assertThat(b.state()).isEqualTo(OPEN);
    }

    @Test
    void opensOnTheSlowCallRate() {
        CircuitBreaker b = breaker(SPEC);

        calls(b, SLOW, SUCCESS, SLOW);
        assertThat(b.state()).isEqualTo(CLOSED);
        calls(b, SUCCESS);

        assertThat(b.state()).as("2 slow of 4 = 50%").isEqualTo(OPEN);
        assertThat(transitions).containsExactly("CLOSED->OPEN");
    }

    @Test
    void refusesEveryCallWhileOpen() {
        CircuitBreaker b = opened();

        assertThat(b.permitsAnother()).isFalse();
        assertThat(b.acquire()).isEqualTo(CircuitBreaker.REFUSED);
        assertThat(b.tryAcquirePermission()).isFalse();
    }

    @Test
    void becomesHalfOpenExactlyWhenOpenMsHavePassedAndTheTickRuns() {
        CircuitBreaker b = opened();
        assertThat(b.openUntilNanos()).isEqualTo(clock.nanos() + 10_000_000_000L);

        clock.advance(Duration.ofMillis(10_000).minusNanos(1));
        assertThat(b.advance()).isFalse();
        assertThat(b.state()).isEqualTo(OPEN);
        assertThat(b.snapshot().msUntilHalfOpen()).isZero();

        clock.advance(Duration.ofNanos(1));
        assertThat(b.state()).as("time alone changes nothing; the tick does").isEqualTo(OPEN);
        assertThat(b.advance()).isTrue();

        assertThat(b.state()).isEqualTo(HALF_OPEN);
        assertThat(b.advance()).as("a second tick is a no-op").isFalse();
        assertThat(transitions).containsExactly("CLOSED->OPEN", "OPEN->HALF_OPEN");
    }

    @Test
    void halfOpenAdmitsExactlyHalfOpenCallsProbes() {
        CircuitBreaker b = halfOpen();

        long first = b.acquire();
        long second = b.acquire();

        assertThat(first).isNotEqualTo(CircuitBreaker.REFUSED);
        assertThat(second).isNotEqualTo(CircuitBreaker.REFUSED);
        assertThat(b.permitsAnother()).isFalse();
        assertThat(b.acquire()).isEqualTo(CircuitBreaker.REFUSED);
    }

    @Test
    void closesWhenEveryProbeSucceeds() {
        CircuitBreaker b = halfOpen();
        long p1 = b.acquire();
        long p2 = b.acquire();

        b.record(SUCCESS, p1);
        assertThat(b.state()).as("one of two probes back").isEqualTo(HALF_OPEN);
        b.record(SUCCESS, p2);

        assertThat(b.state()).isEqualTo(CLOSED);
        assertThat(b.snapshot().recent()).as("a fresh window").isEmpty();
        assertThat(transitions).containsExactly("CLOSED->OPEN", "OPEN->HALF_OPEN", "HALF_OPEN->CLOSED");
    }

    @Test
    void reopensForAnotherOpenMsWhenAnyProbeFails() {
        CircuitBreaker b = halfOpen();
        long p1 = b.acquire();
        long p2 = b.acquire();

        b.record(SUCCESS, p1);
        b.record(FAILURE, p2);

        assertThat(b.state()).isEqualTo(OPEN);
        assertThat(b.openUntilNanos()).isEqualTo(clock.nanos() + 10_000_000_000L);
        assertThat(transitions).containsExactly("CLOSED->OPEN", "OPEN->HALF_OPEN", "HALF_OPEN->OPEN");
    }

    @Test
    void aSlowProbeCountsAsAFailedOne() {
        CircuitBreaker b = halfOpen();

        b.record(SLOW, b.acquire());

        assertThat(b.state()).isEqualTo(OPEN);
    }

    @Test
    void aProbeTheClientAbortedGivesItsPermitBack() {
        CircuitBreaker b = halfOpen();
        long p1 = b.acquire();
        b.acquire();
        assertThat(b.acquire()).isEqualTo(CircuitBreaker.REFUSED);

        b.releaseUnusedPermission(p1);

        assertThat(b.permitsAnother()).isTrue();
        assertThat(b.acquire()).isNotEqualTo(CircuitBreaker.REFUSED);
        assertThat(b.acquire()).as("only the one permit came back").isEqualTo(CircuitBreaker.REFUSED);
        assertThat(b.state()).isEqualTo(HALF_OPEN);
    }

    @Test
    void aResultFromACallAdmittedBeforeTheBreakerOpenedIsNotTakenForAProbe() {
        CircuitBreaker b = breaker(SPEC);
        long early = b.acquire(); // a long request admitted while CLOSED
        calls(b, FAILURE, FAILURE, FAILURE, FAILURE);
        clock.advance(Duration.ofMillis(10_000));
        b.advance();

        b.record(SUCCESS, early);
        b.record(SUCCESS, early);
        b.releaseUnusedPermission(early);

        assertThat(b.state()).as("two stale successes must not close it").isEqualTo(HALF_OPEN);
        assertThat(b.acquire()).isNotEqualTo(CircuitBreaker.REFUSED);
        assertThat(b.acquire()).isNotEqualTo(CircuitBreaker.REFUSED);
        assertThat(b.acquire()).as("the stale abort added no permit").isEqualTo(CircuitBreaker.REFUSED);
    }

    @Test
    void aLateFailureFromAnEarlierClosedPeriodDoesNotCountInTheNewWindow() {
        CircuitBreaker b = halfOpen();
        long p1 = b.acquire();
        long p2 = b.acquire();
        b.record(SUCCESS, p1);
        b.record(SUCCESS, p2);

        for (int i = 0; i < 4; i++) {
            b.record(FAILURE, p1);
        }

        assertThat(b.state()).isEqualTo(CLOSED);
        assertThat(b.snapshot().recent()).isEmpty();
    }

    @Test
    void resetClosesAnOpenBreakerWithOneTransition() {
        CircuitBreaker b = opened();

        b.reset();
        b.reset();

        assertThat(b.state()).isEqualTo(CLOSED);
        assertThat(b.acquire()).isNotEqualTo(CircuitBreaker.REFUSED);
        assertThat(transitions).containsExactly("CLOSED->OPEN", "OPEN->CLOSED");
    }

    @Test
    void aDisabledBreakerNeverOpens() {
        CircuitBreaker b = breaker(new BreakerSpec(false, 10, 4, 50, 1000, 50, 10_000, 2));

        for (int i = 0; i < 50; i++) {
            calls(b, FAILURE);
        }

        assertThat(b.state()).isEqualTo(CLOSED);
        assertThat(transitions).isEmpty();
    }

    @Test
    void concurrentCallersInHalfOpenGetExactlyHalfOpenCallsPermitsBetweenThem() throws Exception {
        int threads = 8;
        for (int round = 0; round < 200; round++) {
            CircuitBreaker b = halfOpen();
            pool = pool != null ? pool : Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> granted = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                granted.add(pool.submit(() -> {
                    start.await();
                    int n = 0;
                    for (int i = 0; i < 4; i++) {
                        if (b.acquire() != CircuitBreaker.REFUSED) {
                            n++;
                        }
                    }
                    return n;
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> f : granted) {
                total += f.get(10, TimeUnit.SECONDS);
            }
            assertThat(total).as("round %d", round).isEqualTo(SPEC.halfOpenCalls());
        }
    }

    @Test
    void halfOpenCallsOfZeroStillAdmitsOneProbeSoTheBreakerCanClose() {
        CircuitBreaker b = breaker(new BreakerSpec(true, 10, 4, 50, 1000, 50, 10_000, 0));
        calls(b, FAILURE, FAILURE, FAILURE, FAILURE);
        clock.advance(Duration.ofMillis(10_000));
        b.advance();

        long probe = b.acquire();
        assertThat(b.acquire()).isEqualTo(CircuitBreaker.REFUSED);
        b.record(SUCCESS, probe);

        assertThat(b.state()).isEqualTo(CLOSED);
    }
}
