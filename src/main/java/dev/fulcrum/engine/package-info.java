/**
 * The balancing engine: pools of backends, the strategies that pick among them, circuit breakers, health,
 * outlier ejection, slow start and drains, and the events that tell about them. The proxy asks it for a
 * backend per request ({@link dev.fulcrum.engine.Pool#pick}); the admin API, the window, the health checker
 * and discovery give it commands ({@link dev.fulcrum.engine.Engine}).
 *
 * <p>Dependencies. Pure Java: it may use {@code java.*}, {@code org.slf4j} (logs), {@code org.HdrHistogram}
 * (latency percentiles in {@link dev.fulcrum.engine.BackendStats}), {@code dev.fulcrum.time} (every clock
 * and timer) and {@code dev.fulcrum.rules} (every limit on what it is given). It must not use Undertow, JavaFX,
 * ControlsFX, Jackson, or any other {@code dev.fulcrum} package: the layers depend on it, never the other way, so it
 * runs the same under the proxy, in the simulator ({@link dev.fulcrum.engine.sim}) and in a test.
 * {@code ArchitectureTest} checks the rule.
 *
 * <p>Threading. One control thread owns membership, weights, health, ejection, breaker deadlines, slow start
 * and drain, and publishes each pool's immutable {@link dev.fulcrum.engine.PoolSnapshot} through one volatile
 * field; the request path reads that snapshot and never takes a lock (docs/ARCHITECTURE.md). Each class says
 * which thread owns its state.
 *
 * <p>The files, by group (one flat package, so package-private stays package-private):
 * <dl>
 *   <dt>Control: the engine and its thread</dt>
 *   <dd>{@code Engine} (registry of pools and routes, the commands), {@code ControlThread} (who runs control
 *       work), {@code RebuildBatch} ({@code Engine.batch}), {@code EventBus}, {@code EngineEvent},
 *       {@code EngineSettings}, {@code EngineException}, {@code Router} (path prefix to pool).</dd>
 *   <dt>Pool: the request path</dt>
 *   <dd>{@code Pool} (pick, sticky lease), {@code Lease} (one held in-flight slot), {@code Outcome},
 *       {@code PoolSnapshot}, {@code Candidates}, {@code Eligibility}, {@code RequestContext},
 *       {@code SimpleRequest}.</dd>
 *   <dt>Pool: the control thread's jobs</dt>
 *   <dd>{@code PoolControl} (membership, states and their events), {@code SnapshotBuilder} (members to
 *       snapshot), {@code ProbeHysteresis} (rise/fall), {@code OutlierEjection}, {@code SlowStart},
 *       {@code PanicMode}.</dd>
 *   <dt>Backends</dt>
 *   <dd>{@code Backend} (one server, its counters and control fields), {@code BackendSpec}, {@code BackendState},
 *       {@code HealthStatus}, {@code BackendView}, {@code BackendStats}, {@code BackendMetrics},
 *       {@code PeakEwma} (latency estimate).</dd>
 *   <dt>Breaker</dt>
 *   <dd>{@code CircuitBreaker}, {@code BreakerSpec}, {@code BreakerEventOrder} (its transitions told in
 *       order).</dd>
 *   <dt>Strategies</dt>
 *   <dd>{@code Strategy}, {@code StrategySpec}, {@code StrategyEnv}, {@code Strategies} (the factory by name),
 *       {@code Picking} (shared helpers), {@code RandomSource}; one class per strategy: {@code RoundRobin},
 *       {@code SmoothWeightedRoundRobin}, {@code WeightedRandom}, {@code RandomChoice}, {@code LeastRequests},
 *       {@code PowerOfTwoChoices}, {@code FastestResponse}, {@code Adaptive}, and the hashing ones below;
 *       {@code DecisionTrace} explains one pick.</dd>
 *   <dt>Hashing</dt>
 *   <dd>{@code ConsistentHash} over {@code HashRing}, {@code Maglev} over {@code MaglevTable}, {@code IpHash};
 *       {@code HashKey} (what is hashed), {@code XxHash64} (the one hash), {@code IpText} (an address in one
 *       form), {@code KeySpace} and {@code KeySpacePreview} (the ring view and its what-if).</dd>
 * </dl>
 */
package dev.fulcrum.engine;
