/**
 * The circuit breaker: {@code CircuitBreaker}, an {@code AtomicReference} to immutable states moved by
 * compare-and-set (CLOSED, OPEN until a deadline, HALF_OPEN with probe slots), configured by {@code BreakerSpec}.
 * Outcomes are recorded from any request thread; transitions are told to a listener the pool gives it.
 *
 * <p>Dependencies. It may use {@code dev.fulcrum.time} and {@code dev.fulcrum.rules}. It must not use any other
 * room of the engine (the pool uses it, not the other way) nor anything outside.
 */
package dev.fulcrum.engine.breaker;
