/**
 * The balancing engine: pools of backends, the strategies that pick among them, circuit breakers, health,
 * outlier ejection, slow start and drains, and the events that tell about them. The proxy asks it for a
 * backend per request ({@link dev.fulcrum.engine.Pool#pick}); the admin API, the window, the health checker
 * and discovery give it commands ({@link dev.fulcrum.engine.Engine}).
 *
 * <p>Dependencies. Pure Java: it may use {@code java.*}, {@code org.slf4j} (logs), {@code org.HdrHistogram}
 * (latency percentiles in {@link dev.fulcrum.engine.BackendStats}), {@code dev.fulcrum.time} (every clock
 * and timer), {@code dev.fulcrum.rules} (every limit on what it is given) and {@code dev.fulcrum.spi} (what a
 * plugin strategy implements, adapted by {@link dev.fulcrum.engine.strategy}). It must not use Undertow, JavaFX,
 * ControlsFX, Jackson, or any other {@code dev.fulcrum} package: the layers depend on it, never the other way, so it
 * runs the same under the proxy, in the simulator ({@link dev.fulcrum.engine.sim}) and in a test.
 * {@code ArchitectureTest} checks the rule.
 *
 * <p>Threading. One control thread owns membership, weights, health, ejection, breaker deadlines, slow start
 * and drain, and publishes each pool's immutable {@link dev.fulcrum.engine.PoolSnapshot} through one volatile
 * field; the request path reads that snapshot and never takes a lock (docs/ARCHITECTURE.md). Each class says
 * which thread owns its state.
 *
 * <p>This package is the pool and its control; the rest of the engine is in rooms below it, each with its own
 * package-info: {@link dev.fulcrum.engine.strategy} (the strategies, each described once), {@link
 * dev.fulcrum.engine.hash} (the one hash, the ring and the Maglev table), {@link dev.fulcrum.engine.breaker} (the
 * circuit breaker) and {@link dev.fulcrum.engine.sim} (the simulator). Addresses and their text are not the
 * engine's: they are {@code dev.fulcrum.net}'s.
 *
 * <p>The files, by group:
 * <dl>
 *   <dt>Control: the engine and its thread</dt>
 *   <dd>{@code Engine} (registry of pools and routes, the commands), {@code ControlThread} (who runs control
 *       work), {@code RebuildBatch} ({@code Engine.batch}), {@code EventBus}, {@code EngineEvent},
 *       {@code EngineSettings}, {@code EngineException}, {@code Router} (path prefix to pool).</dd>
 *   <dt>Pool: the request path</dt>
 *   <dd>{@code Pool} (pick, sticky lease), {@code Lease} (one held in-flight slot), {@code Outcome},
 *       {@code PoolSnapshot}; {@code DecisionTrace} explains one pick (the strategy's own account of it, plus what
 *       the pool filtered out and why).</dd>
 *   <dt>Pool: the control thread's jobs</dt>
 *   <dd>{@code PoolControl} (membership, states and their events), {@code SnapshotBuilder} (members to
 *       snapshot), {@code ProbeHysteresis} (rise/fall), {@code OutlierEjection}, {@code SlowStart},
 *       {@code PanicMode}, {@code KeySpacePreview} (a ring or table what-if over a pool),
 *       {@code BreakerEventOrder} (a backend's breaker transitions told in order).</dd>
 *   <dt>Backends</dt>
 *   <dd>{@code Backend} (one server, its counters and control fields), {@code BackendSpec}, {@code BackendState},
 *       {@code HealthStatus}, {@code BackendView}, {@code BackendStats}, {@code BackendMetrics},
 *       {@code PeakEwma} (latency estimate).</dd>
 * </dl>
 */
package dev.fulcrum.engine;
