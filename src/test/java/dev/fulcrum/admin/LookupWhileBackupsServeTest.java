package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.Outcome;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.time.ManualClock;
import org.junit.jupiter.api.Test;

class LookupWhileBackupsServeTest {
    @Test
    void theLookupNamesTheBackupTheProxySendsTo() {
        Engine e = Engine.manual(EngineSettings.DEFAULT, new ManualClock(), RandomSource.seeded(1));
        e.addPool(Engine.DEFAULT_POOL, StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "ip"));
        e.addBackend(Engine.DEFAULT_POOL, new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false), false);
        e.addBackend(Engine.DEFAULT_POOL, new BackendSpec("b", "http://127.0.0.1:9002", 1, null, false), false);
        e.addBackend(Engine.DEFAULT_POOL, new BackendSpec("y", "http://127.0.0.1:9003", 1, null, true), false);
        e.addBackend(Engine.DEFAULT_POOL, new BackendSpec("z", "http://127.0.0.1:9004", 1, null, true), false);
        e.drain("a");
        e.drain("b");
        Pool pool = e.pool(Engine.DEFAULT_POOL);
        for (int i = 0; i < 50; i++) {
            String ip = "10.0.0." + i;
            Lease l = pool.pick(SimpleRequest.get(ip, "/"));
            // before: "backend": null while every request went to a backup
            assertThat(AdminModel.lookup(pool, ip).get("backend")).as(ip).isEqualTo(l.backend().id());
            l.release(Outcome.SUCCESS);
        }
    }
}
