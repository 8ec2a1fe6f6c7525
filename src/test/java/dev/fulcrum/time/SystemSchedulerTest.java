package dev.fulcrum.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SystemSchedulerTest {
    @Test
    void aPeriodicTaskThatThrowsKeepsItsScheduleOnItsOwnNamedDaemonThread() throws Exception {
        Scheduler s = Scheduler.daemon("fulcrum-test-scheduler");
        try {
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch third = new CountDownLatch(3);
            String[] thread = new String[1];
            s.scheduleWithFixedDelay(() -> {
                runs.incrementAndGet();
                thread[0] = Thread.currentThread().getName();
                third.countDown();
                throw new IllegalStateException("a failing refresh");
            }, 0, 1, TimeUnit.MILLISECONDS);

            assertThat(third.await(10, TimeUnit.SECONDS)).as("ran three times despite throwing").isTrue();
            assertThat(thread[0]).isEqualTo("fulcrum-test-scheduler");
        } finally {
            s.shutdown();
        }
    }

    @Test
    void afterShutdownTasksAreDroppedNotRefused() {
        Scheduler s = Scheduler.daemon("fulcrum-test-scheduler");
        s.shutdown();

        s.execute(() -> { });
        s.schedule(() -> { }, 1, TimeUnit.MILLISECONDS).cancel();
    }
}
