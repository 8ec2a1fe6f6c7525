package dev.fulcrum.engine.strategy;

import java.util.Map;

/**
 * A request described by plain values: for tests, the side-by-side simulator and the "why this backend"
 * step mode. Header names are matched case-insensitively.
 */
public record SimpleRequest(String clientIp, String method, String path, Map<String, String> headers,
                            Map<String, String> cookies, Map<String, String> query) implements RequestContext {

    public static SimpleRequest get(String clientIp, String path) {
        return new SimpleRequest(clientIp, "GET", path, Map.of(), Map.of(), Map.of());
    }

    @Override
    public String header(String name) {
        for (Map.Entry<String, String> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    @Override
    public String cookie(String name) {
        return cookies.get(name);
    }

    @Override
    public String queryParam(String name) {
        return query.get(name);
    }
}
