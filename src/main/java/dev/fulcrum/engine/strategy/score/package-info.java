/**
 * The score strategy's expression language: a formula a user writes over one backend's figures ({@code cpu},
 * {@code latency}, {@code inflight}, {@code errorRate}, {@code weight}, {@code effectiveWeight}, {@code label.NAME}),
 * parsed once when it is set ({@link dev.fulcrum.engine.strategy.score.ScoreFormula#compile}, every error naming its
 * 1-based column) into a tree of nodes over a fixed frame of doubles
 * ({@link dev.fulcrum.engine.strategy.score.ScoreFrame}), and evaluated without allocation, reflection or I/O.
 * Nothing but the listed variables, functions and operators is reachable from a formula: no classes, no loops, no
 * calls out.
 *
 * <p>Dependencies. It may use {@code java.lang} and {@code java.util} only; it must not use the engine, the strategies
 * or anything else of Fulcrum: the strategy that uses it, {@code dev.fulcrum.engine.strategy.ScoreStrategy}, fills
 * the frame from a backend.
 */
package dev.fulcrum.engine.strategy.score;
