package dev.fulcrum.admin.haproxy;

/**
 * The BACKEND row of {@code show stat} for one HAProxy backend.
 *
 * @param name            {@code pxname}
 * @param algorithm       {@code algo}, the balance algorithm (roundrobin, leastconn, source ...)
 * @param status          UP when at least one server is usable, else DOWN
 * @param currentSessions {@code scur} of the whole backend
 */
public record BackendStat(String name, String algorithm, String status, int currentSessions) {
}
