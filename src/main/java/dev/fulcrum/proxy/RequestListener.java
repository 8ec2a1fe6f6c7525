package dev.fulcrum.proxy;

/** Told about every finished proxied request, on the I/O thread: keep it cheap and non-blocking. */
@FunctionalInterface
public interface RequestListener {
    /**
     * @param backend the backend that answered, or null when none did (503 and the like)
     * @param status  the status sent to the client
     */
    void completed(String backend, int status, long latencyNanos);

    RequestListener NONE = (b, s, l) -> { };
}
