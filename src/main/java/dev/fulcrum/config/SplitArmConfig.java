package dev.fulcrum.config;

/**
 * One arm of {@code routes[i].split}: a pool and its weight (0-1000; the arms' weights are shares of their sum).
 * Both are required.
 */
public record SplitArmConfig(String pool, int weight) {
    public static final SplitArmConfig DEFAULTS = new SplitArmConfig(null, 0);
}
