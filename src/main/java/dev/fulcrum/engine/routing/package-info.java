/**
 * The routes' room of the engine (docs/REFERENCE.md §2.1 {@code routes}): what a route matches on beyond the path
 * ({@link dev.fulcrum.engine.routing.RouteMatch}, {@link dev.fulcrum.engine.routing.ValueMatcher}), the weighted
 * split between arms with its sticky key ({@link dev.fulcrum.engine.routing.Split},
 * {@link dev.fulcrum.engine.routing.StickyKey}), the mirror's share ({@link dev.fulcrum.engine.routing.Mirror}), a
 * class's ceiling per backend ({@link dev.fulcrum.engine.routing.ClassCeiling}), a route's own strategy over its pool
 * ({@link dev.fulcrum.engine.routing.RouteStrategy}), each arm's figures over the last minute
 * ({@link dev.fulcrum.engine.routing.ArmStats}) and the canary guard that judges them
 * ({@link dev.fulcrum.engine.routing.CanaryGuard}). A route is {@code Router.Route} in the engine, which holds these.
 *
 * <p>Everything a request reads here is immutable or atomic: matching and choosing an arm take no lock and allocate
 * nothing. The live split is one volatile field of {@code Router.Route}, replaced whole by
 * the control thread ({@code Engine.setSplit}, the guard's rollback).
 *
 * <p>Dependencies. It may use {@code java.*}, HdrHistogram (through the engine's {@code BackendStats}), the engine's
 * {@code Backend}, the strategies' {@code RequestContext}, {@code Candidates} and {@code Strategy}, the hash room's
 * {@code XxHash64} and the rulebook, {@code dev.fulcrum.rules}; it must not use Undertow, JavaFX, Jackson, or any other
 * {@code dev.fulcrum} package outside the engine.
 */
package dev.fulcrum.engine.routing;
