package dev.fulcrum.admin.haproxy;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * A server on which the instances of a fleet disagree, e.g. someone ran {@code set server app/s1 weight 7}
 * on one of them by hand. The window shows it as "instance X disagrees" until a command through
 * {@link HaproxyFleetClient} (which always goes to every instance) makes them agree again.
 *
 * @param id         the server's id in {@link dev.fulcrum.admin.EngineState} (see {@link HaproxyFleetClient})
 * @param field      {@code weight} (user weights differ), {@code admin} (ready/drain/maint differ) or
 *                   {@code presence} (the server exists on some instances only)
 * @param byInstance each instance ({@code host:port}) and its value; {@code absent} under {@code presence}
 */
public record Divergence(String id, String field, Map<String, String> byInstance) {

    /** e.g. {@code s1: weight differs: 127.0.0.1:9001=7, 127.0.0.1:9002=1}. */
    public String describe() {
        return id + ": " + field + " differs: " + byInstance.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
    }
}
