package dev.fulcrum.spi;

/** What a picker may read of the request being routed. Values are read when asked for, so read only what you use. */
public interface Request {

    /** e.g. {@code GET}. */
    String method();

    /** The path, without the query, e.g. {@code /api/users}. */
    String path();

    /** The first value of the header called {@code name} (case-insensitive), or null. */
    String header(String name);

    /** The value of the cookie called {@code name}, or null. */
    String cookie(String name);

    /** The first value of the query parameter called {@code name}, or null. */
    String query(String name);

    /** The client's IP address as text, e.g. {@code 127.0.0.1}. */
    String clientIp();
}
