package dev.fulcrum.engine.sim;

import dev.fulcrum.engine.strategy.RequestContext;

/**
 * A simulated request as strategies see it: the key is everywhere a hashing strategy may look (client IP,
 * any header, cookie or query parameter, and the path {@code <pathPrefix><key>}), so one trace exercises every
 * {@code key} setting without the simulator having to know it.
 *
 * @param pathPrefix what comes before the key in the path: {@code /k/} for a simulated request, empty for a key
 *                   replayed for {@link LockStep}'s keys-moved figure, which hashes the bare key
 */
record SimRequestContext(String key, String method, String pathPrefix) implements RequestContext {
    /** A simulated request: its path is {@code /k/<key>}. */
    SimRequestContext(String key, String method) {
        this(key, method, "/k/");
    }

    @Override
    public String clientIp() {
        return key;
    }

    @Override
    public String path() {
        return pathPrefix.isEmpty() ? key : pathPrefix + key;
    }

    @Override
    public String header(String name) {
        return key;
    }

    @Override
    public String cookie(String name) {
        return key;
    }

    @Override
    public String queryParam(String name) {
        return key;
    }
}
