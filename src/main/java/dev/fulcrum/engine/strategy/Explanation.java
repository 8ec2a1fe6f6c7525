package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import java.util.List;

/**
 * What a strategy says about one pick beyond the backend it picked, for "Why this backend": the key it hashed and
 * where that landed, the bounded-load cap, the draws it made. Fields a strategy has nothing to say about are null
 * (or empty).
 *
 * @param picked         the backend it would pick now, or null when none can take the request
 * @param hashKey        the configured key ({@code ip}, {@code path}, {@code header:NAME} ...), or null
 * @param key            the value hashed, or null
 * @param keyHash        its 64-bit hash, or null
 * @param placement      where the hash lands, or null
 * @param boundedLoadCap the most requests the key's owner may have in flight right now, or null when unbounded
 * @param draws          the backends drawn, in draw order; empty when it draws nothing (or the draws are unknown)
 */
public record Explanation(Backend picked, String hashKey, String key, Long keyHash, Placement placement,
                          Integer boundedLoadCap, List<String> draws) {

    /** A pick with nothing more to say, as every strategy that neither hashes nor draws gives. */
    public static Explanation of(Backend picked) {
        return new Explanation(picked, null, null, null, null, null, List.of());
    }

    /** A hashing strategy's pick. */
    public static Explanation hashed(Backend picked, String hashKey, String key, long keyHash, Placement placement,
                                     Integer cap) {
        return new Explanation(picked, hashKey, key, keyHash, placement, cap, List.of());
    }
}
