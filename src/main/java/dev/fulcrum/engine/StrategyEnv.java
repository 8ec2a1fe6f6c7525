package dev.fulcrum.engine;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a strategy may use besides its candidates: the clock, randomness, and the pool's total in-flight
 * count (bounded loads compare a backend against the pool average without summing every backend).
 */
public record StrategyEnv(Ticker ticker, RandomSource random, AtomicInteger poolInFlight) {
    public static StrategyEnv of(Ticker ticker, RandomSource random) {
        return new StrategyEnv(ticker, random, new AtomicInteger());
    }
}
