/**
 * The strategies, each described once. A {@link dev.fulcrum.engine.strategy.StrategyDescriptor} says everything
 * about one strategy (name, settings with their kinds, bounds and defaults, whether it reads weights or hashes, its
 * sentence, how it is built); its {@link dev.fulcrum.engine.strategy.Strategy} picks and explains a pick.
 * {@link dev.fulcrum.engine.strategy.Strategies} registers the built-ins and checks a
 * {@link dev.fulcrum.engine.strategy.StrategySpec} against its descriptor; the config binder, the admin API, the
 * window, the exports, the simulator and "Why this backend" read the descriptors, and keep no list of their own.
 *
 * <p>The files: the interface a strategy implements and what it is given ({@code StrategyDescriptor},
 * {@code StrategyOption}, {@code Strategy}, {@code Explanation}, {@code Placement}, {@code Candidates},
 * {@code Eligibility}, {@code RequestContext}, {@code SimpleRequest}, {@code StrategyEnv}, {@code RandomSource});
 * the registry and the one check ({@code Strategies}, {@code StrategySpec}, {@code BuiltIn}); strategies from plugin
 * jars ({@code PluginDescriptor}, a plugin's description as the engine's; {@code PluginPicks}, its picker as a
 * {@code Strategy}; {@code PluginGuard}, the pool's fallback beside it, docs/PLUGINS.md); shared helpers
 * ({@code Picking}, {@code HashKey}: what is hashed); and one small final package-private class per built-in
 * strategy, holding its {@code DESCRIPTOR}: {@code RoundRobin}, {@code RandomChoice}, {@code WeightedRandom},
 * {@code SmoothWeightedRoundRobin}, {@code LeastRequests}, {@code PowerOfTwoChoices}, {@code ConsistentHash},
 * {@code Maglev}, {@code IpHash}, {@code FastestResponse}, {@code Adaptive}, {@code ScoreStrategy} (its formula
 * language in {@code dev.fulcrum.engine.strategy.score}; the scores it exposes are {@code CandidateScore}s).
 *
 * <p>Dependencies. It may use the pool's {@code Backend} and {@code EngineException} ({@code dev.fulcrum.engine}),
 * the hashing structures ({@code dev.fulcrum.engine.hash}), the breaker's state ({@code dev.fulcrum.engine.breaker}),
 * {@code dev.fulcrum.rules}, {@code dev.fulcrum.time}, and {@code dev.fulcrum.spi} (what plugins implement).
 * It must not use the simulator or anything outside the engine. A strategy is built on the
 * control thread and picks on any request thread without a lock.
 */
package dev.fulcrum.engine.strategy;
