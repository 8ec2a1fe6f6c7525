/**
 * Hashing: {@code XxHash64} (the one 64-bit hash), {@code HashRing} (consistent hashing's ring of virtual nodes),
 * {@code MaglevTable} (Maglev's lookup table) and {@code KeySpace}, what the ring view draws of either. Built from a
 * snapshot's candidates ({@code dev.fulcrum.engine.strategy.Candidates}) on the control thread, read by any thread.
 *
 * <p>Dependencies. It may use the candidates and the weight scale ({@code dev.fulcrum.engine.strategy}) and the
 * pool's {@code Backend}. It must not use the breaker, the simulator or anything outside the engine.
 */
package dev.fulcrum.engine.hash;
