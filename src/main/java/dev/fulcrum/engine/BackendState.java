package dev.fulcrum.engine;

/**
 * What the operator and the health machinery say about a backend, as reported by {@code GET /api/state}.
 * Only {@link #UP} backends receive new requests (the breaker is reported separately).
 */
public enum BackendState {
    UP, DOWN, EJECTED, DRAINING, DRAINED
}
