package dev.fulcrum.admin.haproxy;

import static dev.fulcrum.admin.haproxy.FleetEventsTest.info;
import static dev.fulcrum.admin.haproxy.FleetEventsTest.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * When the fleet is polled for events and what listeners get: a {@link ManualClock} says when, and the polls run
 * on an executor the test drives, so nothing here waits.
 */
class FleetPollerTest {
    private final ManualClock clock = new ManualClock();
    private final AtomicReference<EngineState> fleet = new AtomicReference<>(state(info("s1", 1, "UP", "UP")));
    private final AtomicInteger polls = new AtomicInteger();
    private final List<EngineEvent> events = new ArrayList<>();

    private EngineState poll() {
        polls.incrementAndGet();
        return fleet.get();
    }

    @Test
    void theFirstListenerTakesTheBaselineAndEachPeriodAPollFollows() {
        FleetPoller p = new FleetPoller(clock, Runnable::run, this::poll, "haproxy://x:1");

        p.subscribe(events::add);
        assertThat(polls).as("the baseline, before subscribe returns").hasValue(1);
        fleet.set(state(info("s1", 4, "UP", "UP")));

        clock.advanceMillis(FleetPoller.POLL_MS - 1);
        assertThat(polls).hasValue(1);
        assertThat(events).isEmpty();

        clock.advanceMillis(1);
        assertThat(polls).hasValue(2);
        assertThat(events).containsExactly(new EngineEvent("weight", "app", "s1", "1", "4",
                ManualClock.WALL_START_MILLIS + FleetPoller.POLL_MS));

        clock.advanceMillis(3 * FleetPoller.POLL_MS);
        assertThat(polls).hasValue(5);
        assertThat(events).as("nothing changed since").hasSize(1);
    }

    @Test
    void aChangeRightAfterSubscribingIsReported() {
        FleetPoller p = new FleetPoller(clock, Runnable::run, this::poll, "haproxy://x:1");
        p.subscribe(events::add);
        fleet.set(state(info("s1", 1, "DRAINING", "UP")));

        clock.advanceMillis(FleetPoller.POLL_MS);

        assertThat(events).extracting(EngineEvent::type).containsExactly("drain");
    }

    @Test
    void laterListenersJoinTheSamePollsAndAFailingOneDoesNotStopTheOthers() {
        FleetPoller p = new FleetPoller(clock, Runnable::run, this::poll, "haproxy://x:1");
        p.subscribe(e -> {
            throw new IllegalStateException("listener bug");
        });
        p.subscribe(events::add);
        assertThat(polls).as("one baseline").hasValue(1);
        assertThat(clock.pending()).as("one schedule").isEqualTo(1);

        fleet.set(state(info("s1", 2, "UP", "UP")));
        clock.advanceMillis(FleetPoller.POLL_MS);

        assertThat(events).extracting(EngineEvent::type).containsExactly("weight");
    }

    @Test
    void onePollAtATimeATickDuringAPollIsSkipped() throws InterruptedException {
        Queue<Runnable> io = new ConcurrentLinkedQueue<>();
        FleetPoller p = new FleetPoller(clock, io::add, this::poll, "haproxy://x:1");
        Thread subscriber = new Thread(() -> p.subscribe(events::add));
        subscriber.start();
        // the baseline waits in the queue: ticks until it has run start nothing
        await().atMost(Duration.ofSeconds(10)).until(() -> io.size() == 1 && clock.pending() == 1);
        clock.advanceMillis(2 * FleetPoller.POLL_MS);
        assertThat(io).hasSize(1);

        io.poll().run();
        clock.advanceMillis(FleetPoller.POLL_MS);
        assertThat(io).as("the next tick after the poll").hasSize(1);
        clock.advanceMillis(FleetPoller.POLL_MS);
        assertThat(io).hasSize(1);
        io.poll().run();
        assertThat(polls).hasValue(2);
        subscriber.join(10_000);
        assertThat(subscriber.isAlive()).as("subscribe returned once the baseline ran").isFalse();
    }

    @Test
    void aFailingPollIsLoggedAndTheNextOneStillRuns() {
        AtomicInteger calls = new AtomicInteger();
        FleetPoller p = new FleetPoller(clock, Runnable::run, () -> {
            if (calls.incrementAndGet() == 2) {
                throw new IllegalStateException("no HAProxy instance answered");
            }
            return poll();
        }, "haproxy://x:1");
        p.subscribe(events::add);
        clock.advanceMillis(FleetPoller.POLL_MS);
        fleet.set(state(info("s1", 9, "UP", "UP")));

        clock.advanceMillis(FleetPoller.POLL_MS);

        assertThat(calls).hasValue(3);
        assertThat(events).extracting(EngineEvent::to).containsExactly("9");
    }

    @Test
    void closeStopsThePollsForGood() {
        FleetPoller p = new FleetPoller(clock, Runnable::run, this::poll, "haproxy://x:1");
        p.subscribe(events::add);

        p.close();
        fleet.set(state(info("s1", 4, "UP", "UP")));
        clock.advanceMillis(5 * FleetPoller.POLL_MS);

        assertThat(polls).hasValue(1);
        assertThat(events).isEmpty();
        assertThat(clock.pending()).isZero();
        p.subscribe(events::add);
        assertThat(polls).as("a closed poller does not start again").hasValue(1);
    }
}
