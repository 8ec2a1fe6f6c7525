package dev.fulcrum.engine.strategy;

/**
 * A request whose decision is recorded into {@code log}: everything else is {@code request}'s. "Why this backend"
 * hears the scores and fallbacks a strategy writes this way, and tests watch a pick through it.
 *
 * <p>Example: {@code strategy.pick(new LoggedRequest(SimpleRequest.get("10.0.0.1", "/"), log), eligible)} picks as for
 * the plain request and tells {@code log} its scores and draws.
 */
public record LoggedRequest(RequestContext request, DecisionLog log) implements RequestContext {
    @Override
    public String clientIp() {
        return request.clientIp();
    }

    @Override
    public String method() {
        return request.method();
    }

    @Override
    public String path() {
        return request.path();
    }

    @Override
    public String header(String name) {
        return request.header(name);
    }

    @Override
    public String cookie(String name) {
        return request.cookie(name);
    }

    @Override
    public String queryParam(String name) {
        return request.queryParam(name);
    }

    @Override
    public void hashed(String key, long hash) {
        request.hashed(key, hash);
    }

    @Override
    public void spilled() {
        request.spilled();
    }

    @Override
    public DecisionLog decisions() {
        return log;
    }
}
