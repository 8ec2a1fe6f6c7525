package dev.fulcrum.engine;

/** Result of active health checking. UNKNOWN until the first probe completes (treated as healthy, like nginx). */
public enum HealthStatus {
    UNKNOWN, UP, DOWN
}
