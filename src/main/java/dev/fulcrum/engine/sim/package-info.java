/**
 * The side-by-side simulator: one seeded request trace played through several strategies, each in its own
 * manual {@link dev.fulcrum.engine.Engine} on its own simulated clock, with no sockets, so the workshop can
 * show in a second and deterministically what each strategy would do with the same traffic.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.engine.sim.SideBySide} runs it and returns a
 *       {@link dev.fulcrum.engine.sim.SideBySideReport} (one {@link dev.fulcrum.engine.sim.StrategyResult} per
 *       strategy, and CSV).</li>
 *   <li>{@link dev.fulcrum.engine.sim.SimTrace} builds the trace ({@link dev.fulcrum.engine.sim.SimRequest}s)
 *       from a rate and a {@link dev.fulcrum.engine.sim.KeyDistribution}, which the demo's traffic generator
 *       shares; {@link dev.fulcrum.engine.sim.SimBackend} is a backend's weight and simulated latency.</li>
 *   <li>{@code NaiveWeightedRoundRobin} is the textbook weighted round robin, a comparison row only, not a
 *       product strategy; {@code SimRequestContext} is a simulated request as strategies see it.</li>
 * </ul>
 *
 * <p>Dependencies. It may use {@code java.*}, {@code org.slf4j}, {@code dev.fulcrum.time} (the
 * {@link dev.fulcrum.time.ManualClock}s) and the engine's public API ({@code dev.fulcrum.engine}); it must not
 * use Undertow, JavaFX, ControlsFX, Jackson, or any other {@code dev.fulcrum} package. The window's workshop
 * views and the demo call it, never the other way.
 *
 * <p>Threading: a run is confined to the thread that calls it: its engines are manual, and their clocks move
 * only when the run moves them.
 */
package dev.fulcrum.engine.sim;
