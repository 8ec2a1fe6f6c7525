package dev.fulcrum.engine;

/** A refused command, with the HTTP status the admin API answers (400 bad input, 404 unknown, 409 duplicate). */
public final class EngineException extends RuntimeException {
    private final int status;

    public EngineException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
