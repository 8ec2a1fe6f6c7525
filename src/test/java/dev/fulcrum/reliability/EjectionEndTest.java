package dev.fulcrum.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.BreakerSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.EngineSettings.OutlierSpec;
import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.Outcome;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.RandomSource;
import dev.fulcrum.engine.SimpleRequest;
import dev.fulcrum.engine.StrategySpec;
import dev.fulcrum.engine.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 7, the 5xx-burst ejection test: the end of an ejection takes effect for routing at the first control
 * tick after its deadline, so the state the engine reports must not say UP before then. It used to: the view
 * compared the deadline with the clock while the pool snapshot still left the backend out, so a client that
 * waited for UP and then sent its burst could send its first ~100 ms of requests (up to 70 of them measured)
 * only to the other backend, and with a cap of 100 requests the burst sometimes never reached the ejected one.
 */
class EjectionEndTest {
    private static final SimpleRequest REQ = SimpleRequest.get("10.0.0.1", "/");

    /** A clock the test moves by hand. */
    private static final class HandTicker implements Ticker {
        long nanos = 1_000_000_000L;

        @Override
        public long nanos() {
            return nanos;
        }

        @Override
        public long wallMillis() {
            return TimeUnit.NANOSECONDS.toMillis(nanos);
        }
    }

    private final HandTicker clock = new HandTicker();
    private final Engine engine = Engine.manual(EngineSettings.DEFAULT.withBreaker(BreakerSpec.DISABLED)
            .withOutlier(new OutlierSpec(true, 5, 1000, 50)), clock, RandomSource.seeded(1));
    private final Pool pool;

    EjectionEndTest() {
        pool = engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec("bursty", "http://127.0.0.1:9002", 1, null, false), false);
    }

    @Test
    void aBackendIsReportedUpAgainOnlyWhenRequestsCanReachItAgain() {
        for (int i = 0; i < 5; i++) {
            Lease l = pickOf("bursty");
            l.release(Outcome.SERVER_ERROR);
        }
        assertThat(state("bursty")).isEqualTo(BackendState.EJECTED);

        clock.nanos += TimeUnit.MILLISECONDS.toNanos(1000); // the deadline has passed; no tick yet
        assertThat(picks(6)).as("routing before the tick").doesNotContain("bursty");
        assertThat(state("bursty")).as("the state reported before the tick").isEqualTo(BackendState.EJECTED);
        assertThat(view("bursty").ejectedForMs()).isZero();

        engine.tick();
        assertThat(state("bursty")).isEqualTo(BackendState.UP);
        assertThat(picks(6)).contains("bursty");
    }

    private Lease pickOf(String id) {
        for (int i = 0; i < 10; i++) {
            Lease l = pool.pick(REQ);
            assertThat(l).isNotNull();
            if (l.backend().id().equals(id)) {
                return l;
            }
            l.release(Outcome.SUCCESS);
        }
        throw new AssertionError(id + " was never picked");
    }

    private List<String> picks(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Lease l = pool.pick(REQ);
            out.add(l == null ? null : l.backend().id());
            if (l != null) {
                l.release(Outcome.SUCCESS);
            }
        }
        return out;
    }

    private BackendView view(String id) {
        return engine.backends().stream().filter(v -> v.id().equals(id)).findFirst().orElseThrow();
    }

    private BackendState state(String id) {
        return view(id).state();
    }
}
