package dev.fulcrum.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Who runs control work: a daemon thread of its own, or the caller. */
@DisplayName("Control thread")
class ControlThreadTest {
    final ControlThread daemon = ControlThread.daemon("test-control");

    @AfterEach
    void closeTheDaemon() {
        daemon.close();
    }

    @Test
    void aCallerRunControlThreadRunsWorkAtOnceOnTheCallingThread() {
        ControlThread control = ControlThread.caller();
        Thread caller = Thread.currentThread();
        Thread[] ran = new Thread[1];

        control.execute(() -> ran[0] = Thread.currentThread());

        assertThat(ran[0]).isSameAs(caller);
        assertThat(control.call(Thread::currentThread)).isSameAs(caller);
        assertThat(control.isCurrent()).isTrue();
    }

    @Test
    void aCallerRunControlThreadHasNoClockToRepeatOn() {
        assertThatThrownBy(() -> ControlThread.caller().repeat(100, () -> { }))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDaemonRunsCallsOnItsOwnNamedThreadAndAnswers() {
        Thread ran = daemon.call(Thread::currentThread);

        assertThat(ran.getName()).isEqualTo("test-control");
        assertThat(ran.isDaemon()).isTrue();
        assertThat(daemon.isCurrent()).isFalse();
        assertThat(daemon.call(daemon::isCurrent)).isTrue();
    }

    @Test
    void workHandedOverFromTheControlThreadItselfRunsInlineInsteadOfDeadlocking() {
        int answer = daemon.call(() -> daemon.call(() -> 42));

        assertThat(answer).isEqualTo(42);
    }

    @Test
    void aCallRethrowsWhatTheWorkThrew() {
        assertThatThrownBy(() -> daemon.call(() -> {
            throw new EngineException(409, "id: already exists (got: a)");
        })).isInstanceOf(EngineException.class).hasMessage("id: already exists (got: a)");
    }

    @Test
    void handedOverWorkThatThrowsLeavesTheThreadServing() {
        daemon.execute(() -> {
            throw new IllegalStateException("broken task");
        });

        assertThat(daemon.call(() -> "still here")).isEqualTo("still here");
    }

    @Test
    void afterCloseCallsAreRefusedAndHandedOverWorkIsDropped() {
        daemon.close();
        AtomicInteger ran = new AtomicInteger();

        daemon.execute(ran::incrementAndGet);

        assertThatThrownBy(() -> daemon.call(() -> 1)).isInstanceOf(IllegalStateException.class)
                .hasMessage("engine is closed");
        assertThat(ran).hasValue(0);
    }

    @Test
    void aDaemonRepeatsItsPeriodicTaskOnTheControlThread() {
        AtomicInteger onControl = new AtomicInteger();
        daemon.repeat(10, () -> {
            if (daemon.isCurrent()) {
                onControl.incrementAndGet();
            }
        });

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(onControl).hasValueGreaterThan(2));
    }
}
