package dev.fulcrum.engine.strategy;

import dev.fulcrum.time.Ticker;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a strategy may use besides its candidates: the clock, randomness, and the pool's total in-flight
 * count (bounded loads compare a backend against the pool average without summing every backend). The count is
 * striped: every request moves it twice, from whichever I/O thread serves it, and one shared counter would pass its
 * cache line between the cores on nearly every request.
 */
public record StrategyEnv(Ticker ticker, RandomSource random, LongAdder poolInFlight) {
    public static StrategyEnv of(Ticker ticker, RandomSource random) {
        return new StrategyEnv(ticker, random, new LongAdder());
    }
}
