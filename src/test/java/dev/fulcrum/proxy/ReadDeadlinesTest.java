package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xnio.OptionMap;
import org.xnio.Xnio;
import org.xnio.XnioIoThread;
import org.xnio.XnioWorker;

class ReadDeadlinesTest {
    private XnioWorker worker;
    private XnioIoThread thread;
    private final List<String> passed = new CopyOnWriteArrayList<>();

    private final class Named extends ReadDeadlines.Waiter {
        final String name;

        Named(String name) {
            this.name = name;
        }

        @Override
        void deadlinePassed() {
            passed.add(name);
        }
    }

    @BeforeEach
    void start() throws Exception {
        worker = Xnio.getInstance().createWorker(OptionMap.EMPTY);
        thread = worker.getIoThread();
    }

    @AfterEach
    void stop() {
        worker.shutdownNow();
    }

    /** Runs on the deadlines' own I/O thread, as the proxy does, and waits for it. */
    private <T> T on(java.util.function.Supplier<T> work) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        thread.execute(() -> f.complete(work.get()));
        return f.get(5, TimeUnit.SECONDS);
    }

    @Test
    void onlyTheWaitersStillArmedAtTheirDeadlineAreToldInTheOrderTheyWereArmed() throws Exception {
        ReadDeadlines d = new ReadDeadlines(thread, 100);
        Named a = new Named("a");
        Named b = new Named("b");
        Named c = new Named("c");
        on(() -> {
            d.arm(a);
            d.arm(b);
            d.arm(c);
            d.arm(a); // arming twice keeps one entry
            d.disarm(b);
            return null;
        });
        assertThat(on(d::size)).isEqualTo(2);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> passed.size() == 2);
        assertThat(passed).containsExactly("a", "c");
        assertThat(on(d::size)).isZero();
        assertThat(a.armed()).isFalse();
    }

    @Test
    void disarmedWaitersLeaveNothingBehindAndTheTimerServesLaterArms() throws Exception {
        ReadDeadlines d = new ReadDeadlines(thread, 60_000);
        assertThat(on(() -> {
            for (int i = 0; i < 100_000; i++) {
                Named w = new Named("w" + i);
                d.arm(w);
                d.disarm(w);
            }
            return d.size();
        })).isZero();
        ReadDeadlines quick = new ReadDeadlines(thread, 30);
        Named first = new Named("first");
        on(() -> {
            quick.arm(first);
            return null;
        });
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> passed.contains("first"));
        Named second = new Named("second"); // armed after the list emptied: a new timer is set
        on(() -> {
            quick.arm(second);
            return null;
        });
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> passed.contains("second"));
        assertThat(passed).containsExactly("first", "second");
    }
}
