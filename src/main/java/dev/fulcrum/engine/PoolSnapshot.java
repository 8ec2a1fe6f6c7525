package dev.fulcrum.engine;

import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.Strategy;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.List;

/**
 * Everything the request path needs to route into one pool, immutable, published by the control thread
 * through one volatile field. Backends that cannot take traffic (DOWN, EJECTED, breaker OPEN, DRAINING,
 * DRAINED, weight 0) were filtered out here, once, so strategies never see them.
 *
 * @param primary  strategy over the available non-backup backends
 * @param backup   strategy over the available backup backends (tried only when primary finds none), or null
 * @param all      every member for display, sorted by id
 * @param panic    true when every primary was unavailable by ejection alone and ejections are ignored
 */
public record PoolSnapshot(String pool, StrategySpec spec, Strategy primary, Strategy backup,
                           Candidates primaryCandidates, Candidates backupCandidates, List<BackendView> all,
                           boolean panic, long builtAtNanos) {
}
