/**
 * Active checks of backends over HTTP, feeding what they find to the engine.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.health.HealthChecker} probes every backend each {@code intervalMs}
 *       ({@link dev.fulcrum.health.HealthCheckSpec}, docs/REFERENCE.md §2.1 {@code healthCheck}) and reports each
 *       {@link dev.fulcrum.health.ProbeResult} to the engine, which applies rise/fall.</li>
 *   <li>{@link dev.fulcrum.health.MetricsPoller} reads {@code /metrics.json} from the backends of adaptive pools
 *       (docs/REFERENCE.md §2.4) and hands the numbers to the engine's backends.</li>
 *   <li>{@code HttpGetter}: the asynchronous GET with a hard deadline that both share.</li>
 * </ul>
 *
 * <p>Time: both take a {@link dev.fulcrum.time.Scheduler} for rounds, deadlines and durations (tests give a
 * {@link dev.fulcrum.time.ManualClock}); the constructors without one make a daemon scheduler of their own and shut
 * it down at {@code close()}. A component given a scheduler only cancels its own tasks.
 *
 * <p>May use: {@code dev.fulcrum.engine} (the engine and its backends), {@code dev.fulcrum.time}, the JDK's HTTP
 * client, Jackson (to read metrics). Must not use: {@code admin}, {@code ui}, {@code app}, {@code proxy},
 * {@code config} (the app maps the config onto {@code HealthCheckSpec}), {@code discovery}, {@code demo}.
 */
package dev.fulcrum.health;
