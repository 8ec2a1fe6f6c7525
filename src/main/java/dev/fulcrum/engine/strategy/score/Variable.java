package dev.fulcrum.engine.strategy.score;

/**
 * A per-backend figure a formula may read, each a slot of {@link ScoreFrame}. Labels are not here: each
 * {@code label.NAME} a formula names gets a label slot of its own ({@link ScoreFormula#labels()}).
 */
public enum Variable {
    /** 0..1, the backend's own report (its metrics endpoint, as {@code adaptive} reads it). */
    CPU("cpu"),
    /** milliseconds, the proxy's peak-EWMA of the backend's answers. */
    LATENCY("latency"),
    /** requests the proxy has in flight to the backend. */
    INFLIGHT("inflight"),
    /** 0..1, the failure share of the backend's circuit-breaker window. */
    ERROR_RATE("errorRate"),
    /** the configured weight. */
    WEIGHT("weight"),
    /** the weight picks use now (slow start ramps it). */
    EFFECTIVE_WEIGHT("effectiveWeight");

    private final String word;

    Variable(String word) {
        this.word = word;
    }

    /** The name a formula uses, e.g. {@code errorRate}. */
    public String word() {
        return word;
    }

    /** The variable a formula calls {@code word}, or null. */
    public static Variable of(String word) {
        for (Variable v : values()) {
            if (v.word.equals(word)) {
                return v;
            }
        }
        return null;
    }
}
