package dev.fulcrum.engine;

/** How one proxied attempt ended; decides what breaker, outlier detection and statistics record. */
public enum Outcome {
    /** The backend answered with a status below 500. */
    SUCCESS,
    /** The backend answered 5xx. */
    SERVER_ERROR,
    /** The connection could not be made, or was reset before a response. */
    CONNECT_FAILURE,
    /** No response within the read timeout. */
    TIMEOUT,
    /** The client went away; says nothing about the backend's health. */
    CLIENT_ABORT;

    /** Whether the outcome counts against the backend (breaker failure, outlier detection). */
    public boolean isBackendFailure() {
        return this == SERVER_ERROR || this == CONNECT_FAILURE || this == TIMEOUT;
    }
}
