package dev.fulcrum.engine.sim;

import dev.fulcrum.engine.strategy.RequestContext;

/**
 * A simulated request as strategies see it: the key is everywhere a hashing strategy may look (client IP,
 * any header, cookie or query parameter, and the path {@code /k/<key>}), so one trace exercises every
 * {@code key} setting without the simulator having to know it.
 */
record SimRequestContext(String key, String method) implements RequestContext {
    @Override
    public String clientIp() {
        return key;
    }

    @Override
    public String path() {
        return "/k/" + key;
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
