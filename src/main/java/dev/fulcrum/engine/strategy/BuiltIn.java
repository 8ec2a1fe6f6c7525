package dev.fulcrum.engine.strategy;

import java.util.List;

/**
 * A built-in strategy's description: each strategy's class holds one as {@code DESCRIPTOR}, and {@link Strategies#ALL}
 * lists them.
 */
record BuiltIn(String name, String title, String sentence, List<StrategyOption> options, boolean readsWeights,
               boolean hashes, Factory factory) implements StrategyDescriptor {

    /** How a built-in strategy is made from a snapshot (see {@link StrategyDescriptor#create}). */
    @FunctionalInterface
    interface Factory {
        Strategy create(StrategySpec spec, Candidates candidates, Strategy previous, StrategyEnv env);
    }

    BuiltIn {
        options = List.copyOf(options);
    }

    @Override
    public Strategy create(StrategySpec spec, Candidates candidates, Strategy previous, StrategyEnv env) {
        return factory.create(spec, candidates, previous, env);
    }
}
